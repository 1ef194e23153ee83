// The parts of a host that don't depend on how its GL context was made.
#include "app/platform/host.h"

#include <GL/gl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <atomic>
#include <cstdio>
#include <utility>

#include "app/platform/host_internal.h"

namespace tilescope {

bool Host::take_capture(Image* out, std::string* error) {
  const CaptureState state = capture_state_;
  capture_state_ = CaptureState::kNone;
  switch (state) {
    case CaptureState::kReady:
      *out = std::move(captured_);
      captured_ = Image();
      return true;
    case CaptureState::kFailed:
      *error = "cannot capture the frame: " + capture_error_;
      return false;
    case CaptureState::kNone:
      break;
  }
  *error = "no captured frame: call request_capture() before end_frame()";
  return false;
}

void Host::set_clear_color(float r, float g, float b) {
  clear_color_[0] = r;
  clear_color_[1] = g;
  clear_color_[2] = b;
}

namespace detail {
namespace {
std::atomic<bool> g_host_alive{false};
}  // namespace

bool claim_host_slot(std::string* error) {
  bool expected = false;
  if (g_host_alive.compare_exchange_strong(expected, true)) return true;
  *error = "a tilescope host (window or headless) exists already; destroy it before making another";
  return false;
}

void release_host_slot() {
  g_host_alive = false;
}

void create_imgui_context(const std::string& ini_path, float content_scale) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = ini_path.empty() ? nullptr : ini_path.c_str();
  ImGui::StyleColorsDark();
  // Paddings, rounding, scrollbar widths follow the font: a 2x screen gets 2x widgets.
  if (content_scale > 0 && content_scale != 1.0f) ImGui::GetStyle().ScaleAllSizes(content_scale);
}

bool create_renderer_objects(float font_pixels, std::string* error) {
  std::string font_error;
  if (!add_ui_font_to_atlas(font_pixels, &font_error)) {
    std::fprintf(stderr, "tilescope: %s; using ImGui's built-in font\n", font_error.c_str());
  }
  // The backend's CreateFontsTexture() does not free an earlier texture, and NewFrame() only
  // makes device objects when it has none: making them here, once, keeps exactly one texture.
  if (!ImGui_ImplOpenGL3_CreateDeviceObjects()) {
    *error = "the OpenGL renderer of Dear ImGui could not make its shaders (see the log above)";
    return false;
  }
  return true;
}

std::string gl_string(unsigned name) {
  const GLubyte* text = glGetString(static_cast<GLenum>(name));
  return text ? reinterpret_cast<const char*>(text) : "";
}

float default_font_pixels(float requested_pixels, float content_scale) {
  if (requested_pixels > 0) return requested_pixels;
  return 16.0f * (content_scale > 0 ? content_scale : 1.0f);
}

}  // namespace detail
}  // namespace tilescope
