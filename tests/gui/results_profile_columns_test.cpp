// The window's results table and bench --profile's figures: a loaded CSV whose rows hold them
// shows their columns beside the speed (after % peak), in view without scrolling, with the row's
// figures in them; a CSV without them shows neither.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/export/results_csv.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/text_clip_check.h"

using namespace tilescope;
using namespace tilescope::testing;

namespace {

// The column names of the results table drawn in the last frame (the table whose first column is
// "variant" and last "device"); empty when none was. `shown_only`: the columns the table shows
// (presenter mode leaves some out).
std::vector<std::string> drawn_results_columns(bool shown_only = false) {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  for (int i = 0; i < g.Tables.GetMapSize(); ++i) {
    ImGuiTable* table = g.Tables.TryGetMapData(i);
    if (!table || table->LastFrameActive < g.FrameCount - 1 || table->ColumnsCount < 2) continue;
    std::vector<std::string> names, shown;
    for (int c = 0; c < table->ColumnsCount; ++c) {
      names.push_back(ImGui::TableGetColumnName(table, c));
      if (table->Columns[c].IsEnabled) shown.push_back(names.back());
    }
    if (names.front() == "variant" && names.back() == "device") return shown_only ? shown : names;
  }
  return {};
}

bool has(const std::vector<std::string>& names, const char* name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Whether the frame drew `text` on one line somewhere.
bool drew(const std::string& text) {
  for (const DrawnText& line : drawn_text())
    if (line.text.find(text) != std::string::npos) return true;
  return false;
}

// The committed H100 sweep written again, with figures from a profile in the newest row of the
// problem and precision the table shows (its first row).
std::string profiled_copy_of_the_sweep(const AppState& shown) {
  std::vector<RunResult> rows;
  std::string error;
  EXPECT_TRUE(read_results_csv_file(kH100Csv, &rows, &error)) << error;
  const auto newest = std::find_if(rows.rbegin(), rows.rend(), [&](const RunResult& r) {
    return r.problem == shown.problem && r.precision == shown.precision;
  });
  EXPECT_NE(newest, rows.rend()) << "no row of the shown problem and precision";
  if (newest == rows.rend()) return "";
  newest->profile.fma_pipe_pct = 97.13;
  newest->profile.issue_active_pct = 12.34;
  newest->profile.cycles_per_issue = 7.777;
  newest->profile.ffma_share_pct = 58.91;
  const std::string path = temp_path("profiled.csv");
  EXPECT_TRUE(write_results_csv_file(path, rows, &error)) << error;
  return path;
}

// The figures above as the table writes them.
const char* const kFigureTexts[] = {"97.1%", "12.3%", "7.78", "58.9%"};

}  // namespace

TEST(ResultsProfileColumns, ALoadedCsvWithFiguresShowsThemBesideTheSpeed) {
  auto host = make_host(1920, 1080);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  ASSERT_TRUE(app.load_csv(kH100Csv)) << app.status();
  frames(*host, app, 3);
  const std::vector<std::string> plain = drawn_results_columns();
  ASSERT_FALSE(plain.empty()) << "the results table was not drawn";
  EXPECT_EQ(std::find(plain.begin(), plain.end(), "FMA pipe"), plain.end()) << "no figures, no columns";
  frame(*host, app);
  prepare_fonts();
  frame(*host, app);
  for (const char* value : kFigureTexts) EXPECT_FALSE(drew(value)) << value << " is drawn without the figures";

  const std::string path = profiled_copy_of_the_sweep(app.state());
  app.history().clear();
  ASSERT_TRUE(app.load_csv(path)) << app.status();
  unlink(path.c_str());
  frames(*host, app, 2);
  prepare_fonts();
  frame(*host, app);
  const std::vector<std::string> columns = drawn_results_columns();
  ASSERT_EQ(columns.size(), plain.size() + 6) << "the six figures";
  const std::vector<std::string> figures = {"FMA pipe", "FP64 pipe",    "tensor pipe",
                                            "issue",    "cycles/issue", "FFMA share"};
  const auto peak = std::find(columns.begin(), columns.end(), "% peak");
  ASSERT_NE(peak, columns.end());
  EXPECT_TRUE(std::equal(figures.begin(), figures.end(), peak + 1)) << "beside the speed, in order";
  EXPECT_EQ(columns.back(), "device");
  // The row's figures, in the table's formats, in view without scrolling: beside the speed.
  for (const char* value : kFigureTexts) EXPECT_TRUE(drew(value)) << value;
}

// At a projector's font the table is wider than the tab: presenter mode leaves out the first and
// the fastest run, the share of the FMA peak and the profiler's columns that no shown row uses
// (here the FP64 and tensor pipes), and with the controls folded into their rail the figures stand
// in view at 1920 x 1080, a failed run's error still written from the first column shown; out of
// presenter mode every column is back.
TEST(ResultsProfileColumns, PresenterModeKeepsTheFiguresInView) {
  auto host = make_host(1920, 1080);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  const std::string path = profiled_copy_of_the_sweep(app.state());
  ASSERT_TRUE(app.load_csv(path)) << app.status();
  unlink(path.c_str());
  // A failed run of the shown problem and precision, newest: the table's first row.
  const std::vector<RunResult> loaded = *app.history().rows();
  const auto shown_row = std::find_if(loaded.rbegin(), loaded.rend(), [&](const RunResult& r) {
    return r.problem == app.state().problem && r.precision == app.state().precision;
  });
  ASSERT_NE(shown_row, loaded.rend());
  RunResult failed = *shown_row;
  failed.error = "cancelled";
  app.history().append(failed);
  app.state().presenter = true;
  app.controls().set_open(false);
  frames(*host, app, 4);  // presenter fonts are rebuilt between frames
  prepare_fonts();
  frame(*host, app);
  const std::vector<std::string> shown = drawn_results_columns(true);
  ASSERT_FALSE(shown.empty()) << "the results table was not drawn";
  for (const char* out : {"first", "min", "% peak", "FP64 pipe", "tensor pipe"}) EXPECT_FALSE(has(shown, out)) << out;
  for (const char* in : {"median", "GFLOP/s", "% cuBLAS", "FMA pipe", "issue", "cycles/issue", "FFMA share", "check"})
    EXPECT_TRUE(has(shown, in)) << in;
  EXPECT_TRUE(drew("cancelled")) << "the error of a failed run";
  for (const char* value : kFigureTexts) EXPECT_TRUE(drew(value)) << value << " is not in view";

  app.state().presenter = false;
  frames(*host, app, 4);
  EXPECT_EQ(drawn_results_columns(true), drawn_results_columns()) << "every column is back";
}
