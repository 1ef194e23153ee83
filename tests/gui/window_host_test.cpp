// The window host under a real X server: in CI under Xvfb (Mesa llvmpipe through GLX), on a
// desktop the user's display. Without DISPLAY it skips, visibly: CI runs this binary under
// `xvfb-run -a -s '-screen 0 1280x800x24'`, so there it runs.
#include <gtest/gtest.h>
#include <imgui.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "app/platform/host.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/image_checks.h"

namespace tilescope {
namespace {

using testing::have_display;

// An opaque pixel of this colour (the window's alpha is 255 everywhere).
void expect_color(const Image& image, int x, int y, int r, int g, int b) {
  testing::expect_pixel(image, x, y, {r, g, b, 255});
}

TEST(WindowHost, RendersAKnownRectangleAndCapturesIt) {
  if (!have_display()) GTEST_SKIP() << "DISPLAY is not set: run under xvfb-run -a -s '-screen 0 1280x800x24'";
  HostOptions options = testing::host_options(400, 300);
  options.title = "tilescope window test";
  auto host = testing::make_window_host(options);
  ASSERT_TRUE(host);
  std::printf("window renderer: %s | GL %s | %s | content scale %.2f\n", host->renderer().c_str(),
              host->gl_version().c_str(), host->gl_platform().c_str(), host->content_scale());
  EXPECT_FALSE(host->renderer().empty());
  EXPECT_FALSE(host->headless());
  EXPECT_TRUE(host->running());
  const int width = host->framebuffer_width(), height = host->framebuffer_height();
  EXPECT_GT(width, 0);
  EXPECT_GT(height, 0);

  host->set_clear_color(0.0f, 1.0f, 0.0f);  // pure green background
  Image image;
  // A few frames: a freshly mapped window may need one before its size settles.
  for (int frame = 0; frame < 3; ++frame) {
    if (frame == 2) host->request_capture();
    testing::draw_known_frame(*host, ImVec2(200, 150), ImVec2(150, 100), IM_COL32(200, 0, 255, 255));
  }
  std::string error;
  ASSERT_TRUE(host->take_capture(&image, &error)) << error;
  EXPECT_EQ(image.width, host->framebuffer_width());
  EXPECT_EQ(image.height, host->framebuffer_height());
  ASSERT_EQ(image.rgba.size(), static_cast<std::size_t>(image.width) * image.height * 4);
  ASSERT_GE(image.width, 120);
  ASSERT_GE(image.height, 90);

  expect_color(image, 41, 31, 200, 0, 255);
  expect_color(image, 98, 68, 200, 0, 255);
  expect_color(image, 70, 50, 200, 0, 255);
  expect_color(image, 70, 10, 0, 255, 0);
  expect_color(image, 70, 85, 0, 255, 0);
  expect_color(image, 20, 50, 0, 255, 0);
  expect_color(image, 115, 50, 0, 255, 0);

  host->request_close();
  EXPECT_FALSE(host->running());
}

// Without a display the message must point at the headless mode.
TEST(WindowHost, NoDisplayGivesAClearMessage) {
  std::string error;
  std::unique_ptr<Host> host;
  {
    testing::ScopedEnv no_display("DISPLAY", "", /*unset=*/true);
    host = create_window_host(HostOptions(), &error);
  }
  if (host) GTEST_SKIP() << "a window opened without DISPLAY (Wayland?); nothing to check";
  EXPECT_NE(error.find("no display"), std::string::npos) << error;
  EXPECT_NE(error.find("--headless"), std::string::npos) << error;
}

}  // namespace
}  // namespace tilescope
