// The whole UI rendered headless (EGL; Mesa's surfaceless platform in CI), in process: the same
// App the window shows, checked pixel by pixel, and the plot's PNG export.
#include "app/ui/shell/app.h"

#include <gtest/gtest.h>
#include <imgui_internal.h>  // FindWindowByName: whether Help's windows were drawn
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "app/export/png_writer.h"
#include "app/ui/script/script.h"
#include "app/ui/shell/lesson_list.h"
#include "app/ui/shell/shortcut_list.h"
#include "kernels/core/registry.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/image_checks.h"

using namespace tilescope;
using namespace tilescope::testing;

TEST(App, RendersTheLoadedSweepWithEverySeriesColour) {
  auto host = make_host(1600, 900);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  ASSERT_TRUE(app.load_csv(kH100Csv)) << app.status();
  frames(*host, app, 3);
  const App::PlotData& data = app.plot_data();
  ASSERT_GE(data.series.size(), 8u) << "the baseline and every configuration of our kernels";
  EXPECT_EQ(data.series[0].points.size(), 4u) << "N = 1024 ... 8192";
  EXPECT_NE(data.style.footer.find("H100"), std::string::npos) << "the footer names the machine of the results";

  const Image img = screenshot(*host, app, "app.png");
  ASSERT_FALSE(app.status_is_error()) << app.status();
  EXPECT_EQ(img.width, 1600);
  EXPECT_EQ(img.height, 900);
  EXPECT_GT(distinct_colors(img), 50u) << "not a blank frame";
  for (std::size_t s = 0; s < 4; ++s)
    EXPECT_GT(count_color(img, data.series[s].color, 30), 30) << "series " << data.series[s].label << " is not drawn";
}

TEST(App, PlotExportIsRenderedOffscreenAtTheChosenSize) {
  auto host = make_host(800, 600);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  ASSERT_TRUE(app.load_csv(kH100Csv)) << app.status();
  frame(*host, app);
  const std::string png = temp_path("plot.png");
  app.request_plot_export(png, 1280, 720);
  frame(*host, app);
  app.finish_file_writes();
  ASSERT_FALSE(app.status_is_error()) << app.status();
  Image img;
  std::string error;
  ASSERT_TRUE(read_png(png, &img, &error)) << error;
  EXPECT_EQ(img.width, 1280) << "the export's size, not the window's";
  EXPECT_EQ(img.height, 720);
  const App::PlotData& data = app.plot_data();
  for (std::size_t s = 0; s < data.series.size(); ++s)
    EXPECT_GT(count_color(img, data.series[s].color, 30), 20) << data.series[s].label;
  unlink(png.c_str());

  // An unwritable path: a clear message, nothing written, the app carries on.
  app.request_plot_export("/nonexistent/dir/plot.png", 640, 360);
  frame(*host, app);
  app.finish_file_writes();
  EXPECT_TRUE(app.status_is_error());
  EXPECT_NE(app.status().find("/nonexistent/dir/plot.png"), std::string::npos) << app.status();
}

TEST(App, WithoutAGpuTheCpuReferenceRunsAndTheBannerSaysWhy) {
  auto host = make_host(1280, 720);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  app.state().n = 64;
  ASSERT_TRUE(app.run()) << app.status();
  frames_while_busy(*host, app);
  ASSERT_FALSE(app.busy());
  const auto rows = app.history().snapshot();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].variant_id, kCpuReferenceId);
  EXPECT_TRUE(rows[0].ok()) << rows[0].error;
  frame(*host, app);
  ASSERT_EQ(app.plot_data().series.size(), 1u);
}

TEST(App, MalformedCsvGivesAClearMessage) {
  auto host = make_host(640, 360);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  const std::string bad = temp_path("bad.csv");
  write_file(bad, "this,is,not\na,tilescope,csv\n");
  EXPECT_FALSE(app.load_csv(bad));
  EXPECT_TRUE(app.status_is_error());
  EXPECT_NE(app.status().find(bad), std::string::npos) << app.status();
  EXPECT_EQ(app.history().size(), 0u) << "nothing half-loaded";
  EXPECT_FALSE(app.load_csv("/nonexistent/x.csv"));
  unlink(bad.c_str());
}

TEST(Script, ChecksTheWholeFileBeforeRunning) {
  ScriptPlayer p;
  std::string error;
  EXPECT_TRUE(p.load_text("# lesson\nset n 512\nrun\nwait\nscreenshot /tmp/x.png\n", "ok.txt", &error)) << error;
  EXPECT_FALSE(p.load_text("set n 512\nrn\n", "bad.txt", &error));
  EXPECT_NE(error.find("bad.txt:2"), std::string::npos) << error;
  EXPECT_FALSE(p.load_text("frames\n", "bad.txt", &error));
}

TEST(App, StatusLineNamesTheWorkUnderWay) {
  auto host = make_host(800, 600);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  // The default lesson ticks CUDA variants; without a GPU the CPU reference runs instead, at
  // most at its limit (the window starts there), and the status line says so.
  ASSERT_TRUE(app.run()) << app.status();
  EXPECT_EQ(app.status(), "running the CPU reference at 512 (no GPU: the CUDA variants are unavailable) ...");
  app.cancel();
  frames_while_busy(*host, app);
  frame(*host, app);  // the frame after the runner stopped says how
  EXPECT_EQ(app.status().rfind("cancelled after ", 0), 0u) << app.status();
  app.state().sweep_from = 64;
  app.state().sweep_to = 256;
  ASSERT_TRUE(app.sweep()) << app.status();
  EXPECT_EQ(app.status(),
            "sweeping the CPU reference at 3 sizes from 64 to 256 (no GPU: the CUDA variants are unavailable) ...");
  app.cancel();
  frames_while_busy(*host, app);
}

namespace {

// Plays `set n 2048` then Run without a GPU, with `frames_between` frames between the two: the
// same run, at the CPU reference's limit, whatever the frames; the cap said under the sizes and
// in the status line. Returns the status once the run is done.
std::string run_above_the_cap(int frames_between) {
  auto host = make_host(1024, 640);
  App app(*host, without_gpu());
  app.state().repetitions = 1;
  app.state().n = 2048;
  frames(*host, app, frames_between);
  EXPECT_TRUE(app.run()) << app.status();
  EXPECT_EQ(app.state().n, 512) << "lowered in the field too";
  EXPECT_EQ(app.size_note(),
            "N 2048 lowered to 512: without a GPU, Run and Sweep time the CPU reference, which takes sizes up to 512");
  frames_while_busy(*host, app);
  frame(*host, app);
  const auto rows = app.history().snapshot();
  EXPECT_EQ(rows.size(), 1u);
  if (!rows.empty()) {
    EXPECT_TRUE(rows[0].ok()) << rows[0].error;
    EXPECT_EQ(rows[0].shape.N, 512);
  }
  App::WorkOutcome outcome;
  EXPECT_TRUE(app.work_outcome(app.job_ticket(), &outcome));
  EXPECT_TRUE(outcome.ok) << outcome.message;
  EXPECT_EQ(outcome.message, app.status());
  return app.status();
}

}  // namespace

TEST(App, WithoutAGpuASizeAboveTheCapIsLoweredVisiblyWhateverTheFramesBetween) {
  const std::string expected =
      "done: 1 run of the CPU reference at 512 (no GPU: the CUDA variants are unavailable; N 2048 lowered to "
      "512); 1 result in the history";
  EXPECT_EQ(run_above_the_cap(0), expected);
  EXPECT_EQ(run_above_the_cap(1), expected);
  EXPECT_EQ(run_above_the_cap(5), expected);
}

TEST(App, LiveWithoutAGpuNamesWhatItReRuns) {
  auto host = make_host(800, 600);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  app.state().n = 64;
  const LessonEntry& focused = app.state().lesson[static_cast<std::size_t>(app.state().focused)];
  const VariantDescriptor* v = find_variant(focused.variant_id);
  ASSERT_TRUE(v && needs_cuda(*v)) << "the default focus is a CUDA kernel";
  ASSERT_TRUE(app.live()) << app.status();
  EXPECT_EQ(app.status(), "live: re-running the CPU reference at 64 (no GPU: " + std::string(v->label) +
                              " is unavailable) until you press Stop (Esc)");
  frames(*host, app, 5);
  app.cancel();
  frames_while_busy(*host, app);
  frame(*host, app);
  EXPECT_EQ(app.status().rfind("stopped Live after ", 0), 0u) << app.status();
  EXPECT_NE(app.status().find(" of the CPU reference at 64"), std::string::npos) << app.status();
}

TEST(App, WorkDoneAfterTheFrameReportsHowItEnded) {
  auto host = make_host(640, 360);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  ASSERT_TRUE(app.load_csv(kH100Csv)) << app.status();
  const App::WorkTicket bad_export = app.request_plot_export("/proc/tilescope-plot.png", 640, 360);
  const App::WorkTicket bad_shot = app.request_screenshot("/proc/tilescope-shot.png");
  App::WorkOutcome outcome;
  EXPECT_FALSE(app.work_outcome(bad_export, &outcome)) << "not before the frame";
  frame(*host, app);
  // The frame reads the pixels back and hands them on: the files are written beside the frames,
  // and their outcomes land at the next frame's end at the earliest.
  EXPECT_FALSE(app.work_outcome(bad_export, &outcome)) << "the frame did not wait for the file";
  app.finish_file_writes();
  ASSERT_TRUE(app.work_outcome(bad_export, &outcome));
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.message.find("/proc/tilescope-plot.png"), std::string::npos) << outcome.message;
  ASSERT_TRUE(app.work_outcome(bad_shot, &outcome));
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.message.find("/proc/tilescope-shot.png"), std::string::npos) << outcome.message;

  const std::string png = temp_path("outcome.png");
  const App::WorkTicket good = app.request_plot_export(png, 640, 360);
  frame(*host, app);
  app.finish_file_writes();
  ASSERT_TRUE(app.work_outcome(good, &outcome));
  EXPECT_TRUE(outcome.ok) << outcome.message;
  unlink(png.c_str());
}

TEST(Help, ListsEveryKeyTheUiReads) {
  // Every GLFW key the UI's sources name (all keys reach the UI through key_presses.h) is one
  // that Help's table lists: a new shortcut without its line in Help fails here.
  std::set<std::string> listed;
  for (const Shortcut& s : shortcut_list())
    if (s.key != 0) listed.insert(s.key_name);
  const std::regex read_key(R"(\b(GLFW_KEY_[A-Z0-9_]+))");
  int reads = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(TILESCOPE_SOURCE_DIR) + "/app/ui")) {
    const std::string file = e.path().filename().string();
    if (e.path().extension() != ".cpp" || file == "key_presses.cpp" || file == "shortcut_list.cpp") continue;
    const std::string text = tilescope::testing::read_file(e.path().string());
    for (std::sregex_iterator m(text.begin(), text.end(), read_key), end; m != end; ++m) {
      ++reads;
      EXPECT_EQ(listed.count((*m)[1].str()), 1u)
          << (*m)[1].str() << " read in " << file
          << " is not in Help > Keyboard shortcuts (app/ui/shell/shortcut_list.cpp)";
    }
  }
  EXPECT_GT(reads, 10);
}

TEST(Help, ListsTheShippedLessonsAndPlaysOne) {
  const std::vector<LessonFile> lessons = lessons_in(shipped_lessons_folder());
  std::size_t shipped = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(TILESCOPE_SOURCE_DIR) + "/assets/lessons"))
    shipped += e.path().extension() == ".txt" ? 1 : 0;
  ASSERT_EQ(lessons.size(), shipped) << "found through the data folder: " << shipped_lessons_folder();
  for (const LessonFile& l : lessons) {
    EXPECT_FALSE(l.summary.empty()) << l.name << ": a lesson opens with a comment saying what it shows";
    EXPECT_EQ(l.summary.find("expect:"), std::string::npos) << l.name;
  }

  auto host = make_host(1280, 720);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  const std::string lesson = temp_path("lesson.txt");
  write_file(lesson, "# A lesson.\nset n 64\nshow-mapping\nframes 2\n# expect: tab mapping\n");
  ASSERT_TRUE(app.play_lesson(lesson)) << app.status();
  EXPECT_EQ(app.lesson_playing(), lesson);
  for (int i = 0; i < 20 && !app.lesson_playing().empty(); ++i) frame(*host, app);
  EXPECT_TRUE(app.lesson_playing().empty());
  EXPECT_EQ(app.status(), "the lesson " + lesson + " has ended");
  EXPECT_EQ(app.shown_tab(), &app.mapping());
  EXPECT_EQ(app.state().n, 64);

  // Help's windows: the lessons (the first one chosen, its text shown) and the shortcuts.
  app.help_menu().open_lessons(0);
  app.help_menu().open_shortcuts();
  const Image img = screenshot(*host, app, "help.png");
  for (const char* title : {"Lessons", "Keyboard shortcuts"}) {
    const ImGuiWindow* w = ImGui::FindWindowByName(title);
    ASSERT_NE(w, nullptr) << title;
    EXPECT_TRUE(w->Active) << title << " was drawn in this frame";
  }
  EXPECT_GT(distinct_colors(img), 50u);

  // A bad lesson is refused with its line, and nothing plays.
  write_file(lesson, "set n 64\nexplode\n");
  EXPECT_FALSE(app.play_lesson(lesson));
  EXPECT_TRUE(app.status_is_error());
  EXPECT_EQ(app.status().rfind(lesson + ":2: ", 0), 0u) << app.status();
  EXPECT_TRUE(app.lesson_playing().empty());
  unlink(lesson.c_str());
}
