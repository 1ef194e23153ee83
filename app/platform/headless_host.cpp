// The headless host: an EGL context with no window (egl_context), ImGui's OpenGL3 renderer, and
// no platform backend — this file plays that part: display size, frame time, key map.
#include <GL/gl.h>
#include <GL/glext.h>
#include <GLFW/glfw3.h>  // key codes only (no glfwInit): the same io.KeysDown indices as the window
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <chrono>

#include "app/platform/egl_context.h"
#include "app/platform/gl_check.h"
#include "app/platform/host.h"
#include "app/platform/host_internal.h"
#include "app/platform/render_target.h"

namespace tilescope {
namespace {

// The GLFW backend's io.KeyMap (imgui_impl_glfw.cpp, 1.86), so that UI code and scripts index
// io.KeysDown with GLFW_KEY_* in either host.
void map_keys_like_glfw(ImGuiIO& io) {
  io.KeyMap[ImGuiKey_Tab] = GLFW_KEY_TAB;
  io.KeyMap[ImGuiKey_LeftArrow] = GLFW_KEY_LEFT;
  io.KeyMap[ImGuiKey_RightArrow] = GLFW_KEY_RIGHT;
  io.KeyMap[ImGuiKey_UpArrow] = GLFW_KEY_UP;
  io.KeyMap[ImGuiKey_DownArrow] = GLFW_KEY_DOWN;
  io.KeyMap[ImGuiKey_PageUp] = GLFW_KEY_PAGE_UP;
  io.KeyMap[ImGuiKey_PageDown] = GLFW_KEY_PAGE_DOWN;
  io.KeyMap[ImGuiKey_Home] = GLFW_KEY_HOME;
  io.KeyMap[ImGuiKey_End] = GLFW_KEY_END;
  io.KeyMap[ImGuiKey_Insert] = GLFW_KEY_INSERT;
  io.KeyMap[ImGuiKey_Delete] = GLFW_KEY_DELETE;
  io.KeyMap[ImGuiKey_Backspace] = GLFW_KEY_BACKSPACE;
  io.KeyMap[ImGuiKey_Space] = GLFW_KEY_SPACE;
  io.KeyMap[ImGuiKey_Enter] = GLFW_KEY_ENTER;
  io.KeyMap[ImGuiKey_Escape] = GLFW_KEY_ESCAPE;
  io.KeyMap[ImGuiKey_KeyPadEnter] = GLFW_KEY_KP_ENTER;
  io.KeyMap[ImGuiKey_A] = GLFW_KEY_A;
  io.KeyMap[ImGuiKey_C] = GLFW_KEY_C;
  io.KeyMap[ImGuiKey_V] = GLFW_KEY_V;
  io.KeyMap[ImGuiKey_X] = GLFW_KEY_X;
  io.KeyMap[ImGuiKey_Y] = GLFW_KEY_Y;
  io.KeyMap[ImGuiKey_Z] = GLFW_KEY_Z;
}

class HeadlessHost final : public Host {
 public:
  explicit HeadlessHost(const HostOptions& options)
      : ini_path_(options.imgui_ini_path),
        content_scale_(options.content_scale > 0 ? options.content_scale : 1.0f),
        frame_seconds_(options.headless_frame_seconds) {}

  ~HeadlessHost() override {
    // Backends and GL objects go while the context is still current; EGL goes last (egl_).
    if (egl_.make_current()) {
      if (renderer_ready_) ImGui_ImplOpenGL3_Shutdown();
      target_.reset();
    }
    if (imgui_created_) ImGui::DestroyContext();
    if (slot_claimed_) detail::release_host_slot();
  }

  bool init(const HostOptions& options, std::string* error) {
    if (!detail::claim_host_slot(error)) return false;
    slot_claimed_ = true;
    if (!egl_.create(options.egl_platform, error)) return false;
    renderer_ = detail::gl_string(GL_RENDERER);
    version_ = detail::gl_string(GL_VERSION);

    target_.reset(new RenderTarget());
    if (!target_->resize(options.width, options.height, error)) return false;

    detail::create_imgui_context(ini_path_, content_scale_);
    imgui_created_ = true;
    ImGuiIO& io = ImGui::GetIO();
    io.BackendPlatformName = "tilescope_headless";
    io.DisplaySize = ImVec2(static_cast<float>(options.width), static_cast<float>(options.height));
    io.DisplayFramebufferScale = ImVec2(1, 1);
    map_keys_like_glfw(io);
    if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
      *error = "Dear ImGui's OpenGL3 renderer did not start (its loader opens libGL.so.1: install libgl1)";
      return false;
    }
    renderer_ready_ = true;
    if (!detail::create_renderer_objects(detail::default_font_pixels(options.font_size_pixels, content_scale_), error))
      return false;
    last_frame_ = std::chrono::steady_clock::now();
    return true;
  }

  bool running() const override { return !close_requested_; }
  void request_close() override { close_requested_ = true; }

  void begin_frame() override {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(target_->width()), static_cast<float>(target_->height()));
    const auto now = std::chrono::steady_clock::now();
    const float measured = std::chrono::duration<float>(now - last_frame_).count();
    last_frame_ = now;
    // ImGui asserts DeltaTime > 0; two frames within a clock tick would give 0.
    io.DeltaTime = frame_seconds_ > 0 ? frame_seconds_ : (measured > 1e-6f ? measured : 1e-6f);
    take_queued_key_presses();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
  }

  void end_frame() override {
    ImGui::Render();
    target_->bind();
    glDisable(GL_SCISSOR_TEST);  // glClear honours the scissor box someone may have left on
    glClearColor(clear_color_[0], clear_color_[1], clear_color_[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    TILESCOPE_GL_DEBUG("headless end_frame");
    capture_if_requested([this](Image* out, std::string* why) { return target_->read(out, why); });
  }

  int framebuffer_width() const override { return target_->width(); }
  int framebuffer_height() const override { return target_->height(); }
  float content_scale() const override { return content_scale_; }
  std::string renderer() const override { return renderer_; }
  std::string gl_version() const override { return version_; }
  std::string gl_platform() const override { return egl_.description(); }
  bool headless() const override { return true; }

 private:
  // Members are destroyed in reverse order: egl_ (declared first) outlives the GL objects.
  EglContext egl_;
  std::unique_ptr<RenderTarget> target_;
  std::string ini_path_;  // ImGui keeps a pointer to it
  float content_scale_;
  float frame_seconds_;
  bool slot_claimed_ = false;
  bool imgui_created_ = false;
  bool renderer_ready_ = false;
  bool close_requested_ = false;
  std::string renderer_, version_;
  std::chrono::steady_clock::time_point last_frame_;
};

}  // namespace

std::unique_ptr<Host> create_headless_host(const HostOptions& options, std::string* error) {
  return detail::make_initialised<HeadlessHost>(options, error);
}

}  // namespace tilescope
