// The Tune tab (app/ui/tune/tune_panel.h) headless, without a GPU: the grid is checked at once and
// its refused cells shown with their reasons while Start says timing needs a GPU; results that join
// the history fill their cells and the best one is marked; a click on a cell selects its typed
// configuration in the controls; the table goes to CSV and back; presenter mode at 1280 x 720
// shows the tab's text whole.
#include "app/ui/tune/tune_panel.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "app/ui/shell/app.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/presenter_views.h"
#include "tests/gui/text_clip_check.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
namespace ts = tilescope::testing;

namespace {

const VariantDescriptor& typed_variant() {
  return ts::typed_prefetch_kernel();
}

// A value of the variant's first parameter that its rules refuse and one they take, the others at
// the default configuration's values: the grid then surely has both kinds of cell.
void refused_and_taken(int* refused, int* taken) {
  const VariantDescriptor& v = typed_variant();
  const TileValues defaults = v.tile_values_of(config_at(v, v.default_config));
  *refused = *taken = -1;
  for (int value = 1; value <= 512 && (*refused < 0 || *taken < 0); ++value) {
    TileValues values = defaults;
    values[0].second = value;
    TileConfig cfg;
    std::string why;
    (typed_tile_config(v, values, &cfg, &why) ? *taken : *refused) = value;
  }
  ASSERT_GT(*refused, 0);
  ASSERT_GT(*taken, 0);
}

class TunePanelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    host_ = ts::make_host(1600, 1000);
    ASSERT_TRUE(host_);
    app_ = std::make_unique<App>(*host_, ts::without_gpu());
    int refused = 0, taken = 0;
    refused_and_taken(&refused, &taken);
    const VariantDescriptor& v = typed_variant();
    ASSERT_TRUE(tune().choose_variant(v.id));
    const std::string second = v.tile_params[1].key;
    const int d = tile_value(v.tile_values_of(config_at(v, v.default_config)), second, 1);
    ASSERT_TRUE(tune().set_values(v.tile_params[0].key, std::to_string(std::min(refused, taken)) + "," +
                                                            std::to_string(std::max(refused, taken))));
    ASSERT_TRUE(tune().set_values(second, std::to_string(d) + "," + std::to_string(2 * d)));
    tune().set_size(512);
    app_->show_tune();
    frames(3);
  }
  TunePanel& tune() { return app_->tune(); }
  void frames(int n) {
    for (int i = 0; i < n; ++i) {
      ts::prepare_fonts();
      host_->begin_frame();
      app_->frame();
      host_->end_frame();
      text_ = ts::drawn_text();
      app_->after_frame();
    }
  }
  std::string shown() const {
    std::string all;
    for (const ts::DrawnText& t : text_) all += t.text + " ";
    return all;
  }
  TabContext context() { return TabContext{*app_, app_->state(), probe_device(), app_->runner(), app_->history()}; }
  // A result for every point still waiting, as the runner would add it: the i-th 100 + 10 i GFLOP/s.
  void add_results() {
    const TuneTable& t = tune().table();
    const VariantDescriptor& v = typed_variant();
    int i = 0;
    for (const TunePoint& p : t.points) {
      if (p.status != TuneStatus::Pending) continue;
      RunResult r;
      r.variant_id = v.id;
      r.config_name = config_at(v, p.config_index).name;
      r.problem = t.problem;
      r.precision = t.precision;
      r.shape = t.shape;
      r.gflops = 100 + 10 * i++;
      r.median_ms = 1;
      r.verified = r.passed = true;
      r.registers_per_thread = 64;
      r.occupancy = 0.5;
      app_->history().append(r);
    }
  }

  std::unique_ptr<Host> host_;
  std::unique_ptr<App> app_;
  std::vector<ts::DrawnText> text_;
};

TEST_F(TunePanelTest, WithoutGpuShowsRefusedCellsAndADisabledStart) {
  EXPECT_EQ(app_->shown_tab(), &tune());
  const TuneTable& t = tune().table();
  ASSERT_EQ(t.points.size(), 4u);
  const auto refused = std::count_if(t.points.begin(), t.points.end(),
                                     [](const TunePoint& p) { return p.status == TuneStatus::Refused; });
  EXPECT_GE(refused, 1);
  EXPECT_LT(refused, 4);
  for (const TunePoint& p : t.points) {
    if (p.status == TuneStatus::Refused) {
      EXPECT_FALSE(p.reason.empty());
    }
  }
  const LandscapeModel& m = tune().model();
  ASSERT_EQ(m.cells.size(), 4u);
  int refused_cells = 0;
  for (int i = 0; i < static_cast<int>(m.cells.size()); ++i)
    if (m.cells[i].status == LandscapeStatus::Refused) {
      ++refused_cells;
      EXPECT_NE(tune().cell_text(i).find(m.cells[i].reason), std::string::npos);
    }
  EXPECT_EQ(refused_cells, refused);  // one point a cell: both parameters are the axes
  TabContext ctx = context();
  EXPECT_NE(tune().start_blocker(ctx).find("timing needs a GPU"), std::string::npos);
  EXPECT_FALSE(tune().start(ctx));
  EXPECT_FALSE(tune().running());
  EXPECT_NE(shown().find("timing needs a GPU"), std::string::npos) << shown();
  EXPECT_NE(shown().find(std::to_string(refused) + " refused"), std::string::npos) << shown();
}

TEST_F(TunePanelTest, ResultsFillTheirCellsAndTheBestIsMarked) {
  const TuneTable& t = tune().table();
  const int waiting = static_cast<int>(std::count_if(
      t.points.begin(), t.points.end(), [](const TunePoint& p) { return p.status == TuneStatus::Pending; }));
  ASSERT_GE(waiting, 1);
  add_results();
  frames(1);
  const LandscapeModel& m = tune().model();
  int ok = 0;
  double best = 0;
  for (const LandscapeCell& c : m.cells)
    if (c.status == LandscapeStatus::Ok) ++ok, best = std::max(best, c.gflops);
  EXPECT_EQ(ok, waiting);
  ASSERT_GE(m.best, 0);
  EXPECT_EQ(m.cells[m.best].gflops, best);
  EXPECT_DOUBLE_EQ(best, 100 + 10 * (waiting - 1));
  const std::string hover = tune().cell_text(m.best);
  EXPECT_NE(hover.find("64 registers"), std::string::npos) << hover;
  EXPECT_NE(hover.find("occupancy 50%"), std::string::npos) << hover;
}

TEST_F(TunePanelTest, ClickingACellSelectsItsConfiguration) {
  add_results();
  frames(1);
  const LandscapeModel& m = tune().model();
  ASSERT_GE(m.best, 0);
  const LandscapeCell& c = m.cells[m.best];
  const LandscapeLayout& l = tune().layout();
  // The best cell's centre, found by the layout's own hit test (rows may run either way).
  ImVec2 at(-1, -1);
  for (int x = 0; x < l.nx; ++x)
    for (int y = 0; y < l.ny; ++y) {
      const ImVec2 p(l.grid_min.x + (x + 0.5f) * l.cell_w, l.grid_min.y + (y + 0.5f) * l.cell_h);
      if (landscape_cell_at(l, p) == m.best) at = p;
    }
  ASSERT_EQ(landscape_cell_at(l, at), m.best);
  ImGuiIO& io = ImGui::GetIO();
  for (bool down : {false, true, false}) {
    io.MousePos = at;
    io.MouseDown[0] = down;
    frames(1);
  }
  EXPECT_EQ(tune().selected_cell(), m.best);
  const AppState& s = app_->state();
  const LessonEntry& e = s.lesson[static_cast<std::size_t>(s.focused)];
  EXPECT_EQ(e.variant_id, typed_variant().id);
  EXPECT_EQ(e.config_index, tune().table().points[static_cast<std::size_t>(c.point)].config_index);
}

TEST_F(TunePanelTest, TheTableGoesToCsvAndBack) {
  add_results();
  frames(1);
  const std::string path = ts::temp_path("tune.csv");
  std::string error;
  ASSERT_TRUE(tune().write_csv(path, &error)) << error;
  TunePanel other;
  ASSERT_TRUE(other.load_csv(path, &error)) << error;
  unlink(path.c_str());
  ASSERT_EQ(other.table().points.size(), tune().table().points.size());
  EXPECT_EQ(other.model().best >= 0, true);
  EXPECT_EQ(other.model().cells[other.model().best].gflops, tune().model().cells[tune().model().best].gflops);
}

// Export PNG: the landscape drawn by the program as a worker while the window keeps its frames;
// a folder that does not exist is said in the status line, and the window goes on.
TEST_F(TunePanelTest, TheLandscapeGoesToAPngBesideTheFrames) {
  add_results();
  frames(1);
  const std::string path = ts::temp_path("tune-landscape.png");
  unlink(path.c_str());
  ASSERT_TRUE(tune().export_png(*app_, path)) << app_->status();
  EXPECT_TRUE(app_->busy());
  EXPECT_FALSE(tune().export_png(*app_, path)) << "one export at a time";
  int drawn = 0;
  for (; drawn < 3000 && tune().exporting_png(); ++drawn) {
    frames(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_FALSE(tune().exporting_png());
  EXPECT_FALSE(app_->status_is_error()) << app_->status();
  EXPECT_EQ(app_->status(), "wrote " + path);
  std::ifstream png(path, std::ios::binary);
  char magic[8] = {};
  png.read(magic, 8);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");
  unlink(path.c_str());

  ASSERT_TRUE(tune().export_png(*app_, "/no/such/folder/landscape.png"));
  for (int i = 0; i < 3000 && tune().exporting_png(); ++i) {
    frames(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(app_->status_is_error());
  EXPECT_NE(app_->status().find("/no/such/folder"), std::string::npos) << app_->status();
}

TEST(TunePanel, PresenterModeAt1280x720ShowsTheTabWhole) {
  auto host = ts::make_host(1280, 720);
  ASSERT_TRUE(host);
  App app(*host, ts::without_gpu());
  app.set_presenter(true);
  app.show_tune();
  ts::unchecked_frames(*host, app, 3);
  ts::Findings findings;
  ts::checked_frame(*host, app, &findings, "Tune, 1280x720, presenter");
  EXPECT_EQ(app.shown_tab(), &app.tune());
  EXPECT_TRUE(findings.empty()) << findings.report();
}

}  // namespace
