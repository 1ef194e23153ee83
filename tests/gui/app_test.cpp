// The whole UI rendered headless (EGL; Mesa's surfaceless platform in CI), in process: the same
// App the window shows, checked pixel by pixel, and the plot's PNG export.
#include "ui/app.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "export/png_writer.h"
#include "gui_test_support.h"
#include "image_checks.h"
#include "ui/script.h"

using namespace tilescope;
using tilescope::testing::count_color;
using tilescope::testing::distinct_colors;
using tilescope::testing::frame;
using tilescope::testing::make_host;

namespace {

const std::string kH100Csv = std::string(TILESCOPE_SOURCE_DIR) + "/docs/benchmarks/h100-2026-11-21/bench-gemm.csv";

std::string temp_path(const std::string& name) {
  return "/tmp/tilescope-test-" + std::to_string(getpid()) + "-" + name;
}

}  // namespace

TEST(App, RendersTheLoadedSweepWithEverySeriesColour) {
  auto host = make_host(1600, 900);
  ASSERT_TRUE(host);
  AppOptions options;
  options.use_gpu = false;
  App app(*host, options);
  ASSERT_TRUE(app.load_csv(kH100Csv)) << app.status();
  for (int i = 0; i < 3; ++i) frame(*host, app);
  const App::PlotData& data = app.plot_data();
  ASSERT_GE(data.series.size(), 8u) << "the baseline and every configuration of our kernels";
  EXPECT_EQ(data.series[0].points.size(), 4u) << "N = 1024 ... 8192";
  EXPECT_NE(data.style.footer.find("H100"), std::string::npos) << "the footer names the machine of the results";

  const std::string shot = temp_path("app.png");
  app.request_screenshot(shot);
  frame(*host, app);
  ASSERT_FALSE(app.status_is_error()) << app.status();
  Image img;
  std::string error;
  ASSERT_TRUE(read_png(shot, &img, &error)) << error;
  EXPECT_EQ(img.width, 1600);
  EXPECT_EQ(img.height, 900);
  EXPECT_GT(distinct_colors(img), 50u) << "not a blank frame";
  for (std::size_t s = 0; s < 4; ++s)
    EXPECT_GT(count_color(img, data.series[s].color, 30), 30) << "series " << data.series[s].label << " is not drawn";
  unlink(shot.c_str());
}

TEST(App, PlotExportIsRenderedOffscreenAtTheChosenSize) {
  auto host = make_host(800, 600);
  ASSERT_TRUE(host);
  AppOptions options;
  options.use_gpu = false;
  App app(*host, options);
  ASSERT_TRUE(app.load_csv(kH100Csv)) << app.status();
  frame(*host, app);
  const std::string png = temp_path("plot.png");
  app.request_plot_export(png, 1280, 720);
  frame(*host, app);
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
  EXPECT_TRUE(app.status_is_error());
  EXPECT_NE(app.status().find("/nonexistent/dir/plot.png"), std::string::npos) << app.status();
}

TEST(App, WithoutAGpuTheCpuReferenceRunsAndTheBannerSaysWhy) {
  auto host = make_host(1280, 720);
  ASSERT_TRUE(host);
  AppOptions options;
  options.use_gpu = false;
  App app(*host, options);
  app.state().n = 64;
  ASSERT_TRUE(app.run()) << app.status();
  for (int i = 0; i < 2000 && app.busy(); ++i) frame(*host, app);
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
  AppOptions options;
  options.use_gpu = false;
  App app(*host, options);
  const std::string bad = temp_path("bad.csv");
  FILE* f = std::fopen(bad.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("this,is,not\na,tilescope,csv\n", f);
  std::fclose(f);
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
  AppOptions options;
  options.use_gpu = false;
  App app(*host, options);
  ASSERT_TRUE(app.run()) << app.status();
  EXPECT_EQ(app.status(), "running ...");
  app.cancel();
  while (app.busy()) frame(*host, app);
  ASSERT_TRUE(app.sweep()) << app.status();
  EXPECT_EQ(app.status(), "sweeping ...");
  app.cancel();
  while (app.busy()) frame(*host, app);
}
