// The window host under a real X server: in CI under Xvfb (Mesa llvmpipe through GLX), on a
// desktop the user's display. Without DISPLAY it skips, visibly: CI runs this binary under
// `xvfb-run -a -s '-screen 0 1280x800x24'`, so there it runs.
#include <gtest/gtest.h>
#include <imgui.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "platform/host.h"

namespace tilescope {
namespace {

bool have_display() {
  const char* display = std::getenv("DISPLAY");
  return display != nullptr && *display != '\0';
}

void expect_color(const Image& image, int x, int y, int r, int g, int b) {
  const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) + x) * 4;
  EXPECT_NEAR(image.rgba[i], r, 1) << "red at (" << x << ", " << y << ")";
  EXPECT_NEAR(image.rgba[i + 1], g, 1) << "green at (" << x << ", " << y << ")";
  EXPECT_NEAR(image.rgba[i + 2], b, 1) << "blue at (" << x << ", " << y << ")";
  EXPECT_EQ(image.rgba[i + 3], 255) << "alpha at (" << x << ", " << y << ")";
}

TEST(WindowHost, RendersAKnownRectangleAndCapturesIt) {
  if (!have_display()) GTEST_SKIP() << "DISPLAY is not set: run under xvfb-run -a -s '-screen 0 1280x800x24'";
  HostOptions options;
  options.width = 400;
  options.height = 300;
  options.title = "tilescope window test";
  options.vsync = false;  // Xvfb has no vblank to wait for
  std::string error;
  auto host = create_window_host(options, &error);
  ASSERT_TRUE(host) << error;
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
    host->begin_frame();
    ImGui::SetNextWindowPos(ImVec2(200, 150));
    ImGui::SetNextWindowSize(ImVec2(150, 100));
    ImGui::Begin("probe");
    ImGui::Text("Hello, GEMM");
    ImGui::End();
    ImGui::GetForegroundDrawList()->AddRectFilled(ImVec2(40, 30), ImVec2(100, 70), IM_COL32(200, 0, 255, 255));
    host->end_frame();
  }
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
  const char* saved = std::getenv("DISPLAY");
  const std::string display = saved ? saved : "";
  unsetenv("DISPLAY");
  std::string error;
  auto host = create_window_host(HostOptions(), &error);
  if (!display.empty()) setenv("DISPLAY", display.c_str(), 1);
  if (host) GTEST_SKIP() << "a window opened without DISPLAY (Wayland?); nothing to check";
  EXPECT_NE(error.find("no display"), std::string::npos) << error;
  EXPECT_NE(error.find("--headless"), std::string::npos) << error;
}

}  // namespace
}  // namespace tilescope
