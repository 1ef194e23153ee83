// The headless host renders for real in CI (Mesa llvmpipe through EGL's surfaceless platform):
// these tests draw known shapes with ImGui, read the frame back and look at its pixels.
#include <GL/gl.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "app/export/atomic_file.h"
#include "app/export/png_writer.h"
#include "app/platform/gl_check.h"
#include "app/platform/host.h"
#include "app/platform/render_target.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/image_checks.h"

namespace tilescope {
namespace {

using testing::expect_pixel;
using testing::has_size;
using testing::Rgba;
using testing::rgba_at;

std::unique_ptr<Host> make_headless(int width, int height, EglPlatform platform = EglPlatform::kAuto) {
  HostOptions options = testing::host_options(width, height);
  options.egl_platform = platform;
  return testing::make_host(options);
}

// The known frame of these tests: its rectangle pure orange.
void draw_known_frame(Host& host) {
  testing::draw_known_frame(host, ImVec2(150, 100), ImVec2(150, 80), IM_COL32(255, 128, 0, 255));
}

TEST(HeadlessHost, RendersAKnownRectangleAndCapturesIt) {
  auto host = make_headless(320, 200);
  ASSERT_TRUE(host);
  std::printf("headless renderer: %s | GL %s | %s\n", host->renderer().c_str(), host->gl_version().c_str(),
              host->gl_platform().c_str());
  EXPECT_FALSE(host->renderer().empty());
  EXPECT_FALSE(host->gl_version().empty());
  EXPECT_TRUE(host->headless());
  EXPECT_TRUE(host->running());
  EXPECT_EQ(host->framebuffer_width(), 320);
  EXPECT_EQ(host->framebuffer_height(), 200);
  EXPECT_FLOAT_EQ(host->content_scale(), 1.0f);

  host->set_clear_color(0.0f, 0.0f, 1.0f);  // pure blue background
  draw_known_frame(*host);                  // a frame without a request captures nothing
  Image image;
  std::string error;
  EXPECT_FALSE(host->take_capture(&image, &error));
  EXPECT_NE(error.find("request_capture"), std::string::npos) << error;

  host->request_capture();
  draw_known_frame(*host);
  ASSERT_TRUE(host->take_capture(&image, &error)) << error;
  ASSERT_TRUE(has_size(image, 320, 200));

  // Inside the rectangle, near its corners (top-left origin: the read-back was flipped).
  expect_pixel(image, 41, 31, {255, 128, 0, 255});
  expect_pixel(image, 98, 68, {255, 128, 0, 255});
  expect_pixel(image, 70, 50, {255, 128, 0, 255});
  // Outside it: the clear colour, above, below, left and right of the rectangle.
  expect_pixel(image, 70, 10, {0, 0, 255, 255});
  expect_pixel(image, 70, 90, {0, 0, 255, 255});
  expect_pixel(image, 20, 50, {0, 0, 255, 255});
  expect_pixel(image, 120, 50, {0, 0, 255, 255});
  // The ImGui window was drawn too (its background is not the clear colour).
  const Rgba window = rgba_at(image, 225, 160);
  EXPECT_FALSE(window.r == 0 && window.g == 0 && window.b == 255) << "no ImGui window at (225, 160)";

  // Taking moves the image out: a second take without a request fails.
  EXPECT_FALSE(host->take_capture(&image, &error));
  host->request_close();
  EXPECT_FALSE(host->running());
}

// The names in GL messages: errors and framebuffer answers by their headers' names, and a code
// the table does not list as hex (no context needed).
TEST(GlCheck, NamesCodesAsTheHeadersSpellThem) {
  EXPECT_EQ(gl_error_name(GL_NO_ERROR), "GL_NO_ERROR");
  EXPECT_EQ(gl_error_name(GL_INVALID_OPERATION), "GL_INVALID_OPERATION");
  EXPECT_EQ(gl_error_name(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT), "GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT");
  EXPECT_EQ(gl_error_name(0x1234), "0x1234");
}

TEST(HeadlessHost, OnlyOneHostAtATime) {
  auto first = make_headless(64, 64);
  ASSERT_TRUE(first);
  HostOptions options;
  std::string error;
  EXPECT_FALSE(create_headless_host(options, &error));
  EXPECT_NE(error.find("exists already"), std::string::npos) << error;
  // The failed attempt must not have broken the first host.
  first->request_capture();
  first->begin_frame();
  first->end_frame();
  Image image;
  EXPECT_TRUE(first->take_capture(&image, &error)) << error;
  first.reset();
  EXPECT_TRUE(make_headless(64, 64)) << "a host can be made again after the first is gone";
}

TEST(HeadlessHost, UsesTheSystemFont) {
  const std::string font = find_ui_font();
  std::printf("UI font: %s\n", font.empty() ? "(none)" : font.c_str());
  EXPECT_FALSE(font.empty()) << "fonts-dejavu-core is part of the build environment";
  HostOptions options;
  options.width = 200;
  options.height = 100;
  options.content_scale = 2.0f;  // a presenter's screen: 32 px text
  std::string error;
  auto host = create_headless_host(options, &error);
  ASSERT_TRUE(host) << error;
  EXPECT_FLOAT_EQ(host->content_scale(), 2.0f);
  EXPECT_FLOAT_EQ(ImGui::GetIO().Fonts->Fonts[0]->FontSize, 32.0f);
  // Rebuilding the atlas between frames keeps rendering working.
  ASSERT_TRUE(load_ui_font(20.0f, &error)) << error;
  EXPECT_FLOAT_EQ(ImGui::GetIO().Fonts->Fonts[0]->FontSize, 20.0f);
  // The ᵀ of AᵀA is in the atlas (ImGui's default ranges stop at Latin-1).
  EXPECT_NE(ImGui::GetIO().Fonts->Fonts[0]->FindGlyphNoFallback(0x1D40), nullptr);
  host->request_capture();
  host->begin_frame();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::Begin("text");
  ImGui::Text(
      "A\xe1\xb5\x80"
      "A");
  ImGui::End();
  host->end_frame();
  Image image;
  EXPECT_TRUE(host->take_capture(&image, &error)) << error;
}

// Mesa's EGL also enumerates a software device: forcing the device platform runs the code the
// NVIDIA machine uses, here. Where EGL offers no device platform the test says so and skips.
TEST(HeadlessHost, DevicePlatformWhenForced) {
  HostOptions options;
  options.width = 64;
  options.height = 48;
  options.egl_platform = EglPlatform::kDevice;
  std::string error;
  auto host = create_headless_host(options, &error);
  if (!host) GTEST_SKIP() << "no EGL device platform here: " << error;
  std::printf("device platform renderer: %s | %s\n", host->renderer().c_str(), host->gl_platform().c_str());
  host->set_clear_color(1, 0, 0);
  host->request_capture();
  host->begin_frame();
  host->end_frame();
  Image image;
  ASSERT_TRUE(host->take_capture(&image, &error)) << error;
  expect_pixel(image, 10, 10, {255, 0, 0, 255});
}

TEST(RenderTarget, ResizesAndReadsBackTopRowFirst) {
  auto host = make_headless(32, 32);  // for its GL context
  ASSERT_TRUE(host);
  RenderTarget target;
  std::string error;
  Image image;
  EXPECT_FALSE(target.read(&image, &error)) << "reading before resize must fail cleanly";
  ASSERT_TRUE(target.resize(17, 9, &error)) << error;  // odd width: packing alignment matters
  EXPECT_EQ(target.width(), 17);
  EXPECT_EQ(target.height(), 9);
  target.bind();
  glClearColor(0, 1, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  // Paint GL's bottom row (y = 0) red: after the flip it must be the image's last row.
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, 17, 1);
  glClearColor(1, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  RenderTarget::unbind();
  ASSERT_TRUE(target.read(&image, &error)) << error;
  ASSERT_TRUE(has_size(image, 17, 9));
  expect_pixel(image, 0, 0, {0, 255, 0, 255});
  expect_pixel(image, 16, 7, {0, 255, 0, 255});
  expect_pixel(image, 0, 8, {255, 0, 0, 255});
  expect_pixel(image, 16, 8, {255, 0, 0, 255});

  ASSERT_TRUE(target.resize(40, 30, &error)) << error;
  ASSERT_TRUE(target.read(&image, &error)) << error;
  EXPECT_EQ(image.width, 40);
  EXPECT_EQ(image.height, 30);

  EXPECT_FALSE(target.resize(0, 10, &error));
  EXPECT_NE(error.find("between 1 and"), std::string::npos) << error;
  EXPECT_FALSE(target.resize(1 << 20, 16, &error));
  EXPECT_NE(error.find("1048576x16"), std::string::npos) << error;
}

Image test_pattern(int width, int height) {
  Image image;
  image.width = width;
  image.height = height;
  image.rgba.resize(static_cast<std::size_t>(width) * height * 4);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const std::size_t i = (static_cast<std::size_t>(y) * width + x) * 4;
      image.rgba[i] = static_cast<std::uint8_t>(x * 7);
      image.rgba[i + 1] = static_cast<std::uint8_t>(y * 13);
      image.rgba[i + 2] = static_cast<std::uint8_t>((x + y) * 3);
      image.rgba[i + 3] = static_cast<std::uint8_t>(x == y ? 128 : 255);
    }
  }
  return image;
}

std::string temp_dir() {
  char pattern[] = "/tmp/tilescope-png-XXXXXX";
  const char* dir = mkdtemp(pattern);
  EXPECT_NE(dir, nullptr);
  return dir ? dir : "/tmp";
}

TEST(Png, RoundTripKeepsEveryPixel) {
  const std::string dir = temp_dir();
  const std::string path = dir + "/pattern.png";
  const Image written = test_pattern(23, 11);
  std::string error;
  ASSERT_TRUE(write_png(path, written, &error)) << error;
  Image read;
  ASSERT_TRUE(read_png(path, &read, &error)) << error;
  EXPECT_EQ(read.width, written.width);
  EXPECT_EQ(read.height, written.height);
  EXPECT_EQ(read.rgba, written.rgba);
  EXPECT_NE(access(atomic_temp_path(path).c_str(), F_OK), 0) << "temporary file left behind";
  std::remove(path.c_str());
  rmdir(dir.c_str());
}

TEST(Png, UnwritablePathFailsClearlyAndLeavesNothing) {
  const std::string path = "/nonexistent/dir/x.png";
  std::string error;
  EXPECT_FALSE(write_png(path, test_pattern(4, 4), &error));
  EXPECT_NE(error.find("cannot write /nonexistent/dir/x.png"), std::string::npos) << error;
  EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;
  EXPECT_NE(access(path.c_str(), F_OK), 0);
  EXPECT_NE(access(atomic_temp_path(path).c_str(), F_OK), 0);
}

TEST(Png, RejectsMalformedImagesAndFiles) {
  const std::string dir = temp_dir();
  std::string error;
  Image broken;
  broken.width = 4;
  broken.height = 4;
  broken.rgba.resize(10);
  EXPECT_FALSE(write_png(dir + "/broken.png", broken, &error));
  EXPECT_NE(error.find("malformed"), std::string::npos) << error;
  EXPECT_NE(access((dir + "/broken.png").c_str(), F_OK), 0);

  Image out;
  EXPECT_FALSE(read_png(dir + "/missing.png", &out, &error));
  EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;
  ASSERT_TRUE(write_file_atomically(dir + "/text.png", "this is not a PNG", &error)) << error;
  EXPECT_FALSE(read_png(dir + "/text.png", &out, &error));
  EXPECT_NE(error.find("cannot decode"), std::string::npos) << error;
  std::remove((dir + "/text.png").c_str());
  rmdir(dir.c_str());
}

}  // namespace
}  // namespace tilescope
