// A headless host whose display can be made smaller after it was made, as a window resized: a
// lesson played once at 1920 x 1080 is then drawn as a 1280 x 720 projector shows it, without
// playing it again (its texture-shader runs take most of a minute on two cores). The headless
// host has a fixed size (app/platform/host.h): this one begins ImGui's frames itself, at the
// display size asked for, and lets the headless host it wraps draw them (into the corner of its
// framebuffer that the smaller display covers) and read them back.
#pragma once

#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "app/platform/host.h"

namespace tilescope::testing {

class ResizableHost final : public Host {
 public:
  // `frame_seconds`: io.DeltaTime of each frame (HostOptions::headless_frame_seconds).
  ResizableHost(std::unique_ptr<Host> drawn_by, float frame_seconds)
      : inner_(std::move(drawn_by)),
        width_(inner_->framebuffer_width()),
        height_(inner_->framebuffer_height()),
        frame_seconds_(frame_seconds) {}

  // The display from the next frame on; at most the wrapped host's size.
  void set_display_size(int width, int height) {
    width_ = std::min(width, inner_->framebuffer_width());
    height_ = std::min(height, inner_->framebuffer_height());
  }

  bool running() const override { return inner_->running(); }
  void request_close() override { inner_->request_close(); }

  // The headless host's begin_frame, at this display's size.
  void begin_frame() override {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width_), static_cast<float>(height_));
    io.DeltaTime = frame_seconds_;
    take_queued_key_presses();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
  }

  void end_frame() override {
    inner_->set_clear_color(clear_color_[0], clear_color_[1], clear_color_[2]);
    if (capture_requested()) inner_->request_capture();
    inner_->end_frame();
    capture_if_requested([this](Image* out, std::string* why) {
      Image whole;
      if (!inner_->take_capture(&whole, why)) return false;
      // ImGui drew the display from the framebuffer's lower left corner: the last rows, top first.
      out->width = width_;
      out->height = height_;
      out->rgba.resize(static_cast<std::size_t>(width_) * height_ * 4);
      for (int y = 0; y < height_; ++y)
        std::memcpy(&out->rgba[static_cast<std::size_t>(y) * width_ * 4],
                    &whole.rgba[(static_cast<std::size_t>(whole.height - height_ + y) * whole.width) * 4],
                    static_cast<std::size_t>(width_) * 4);
      return true;
    });
  }

  int framebuffer_width() const override { return width_; }
  int framebuffer_height() const override { return height_; }
  float content_scale() const override { return inner_->content_scale(); }
  std::string renderer() const override { return inner_->renderer(); }
  std::string gl_version() const override { return inner_->gl_version(); }
  std::string gl_platform() const override { return inner_->gl_platform(); }
  bool headless() const override { return true; }

 private:
  std::unique_ptr<Host> inner_;
  int width_, height_;
  float frame_seconds_;
};

}  // namespace tilescope::testing
