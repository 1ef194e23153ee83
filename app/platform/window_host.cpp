// The window host: GLFW 3.3 window with an OpenGL 3.3 core context (GLX on X11), ImGui's GLFW
// platform backend and OpenGL3 renderer.
#include <GL/gl.h>
#include <GL/glext.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "app/platform/gl_check.h"
#include "app/platform/host.h"
#include "app/platform/host_internal.h"
#include "app/platform/render_target.h"

namespace tilescope {
namespace {

// GLFW reports errors through a callback; keep the last one to put into our messages.
std::string g_last_glfw_error;
void remember_glfw_error(int code, const char* description) {
  g_last_glfw_error =
      std::string(description ? description : "unknown error") + " (GLFW error " + std::to_string(code) + ")";
}

// A context for GL work on another thread (HostOptions::on_worker_context; in the app the
// texture-shader GEMM's GL thread, whose header says why not EGL there): a hidden 16 x 16 window
// of the same GL (GLX on X11). GLFW lets
// any thread make a window's context current; creating and destroying it stay on this one.
class HiddenWindowContext final : public GlThreadContext {
 public:
  explicit HiddenWindowContext(GLFWwindow* window) : window_(window) {}
  bool make_current(std::string* error) override {
    glfwMakeContextCurrent(window_);
    if (glfwGetCurrentContext() == window_) return true;
    *error = "cannot make the hidden window's context current on the GL thread";
    return false;
  }
  void release() override { glfwMakeContextCurrent(nullptr); }
  std::string description() const override { return "GLX through GLFW (a hidden window beside the app's)"; }

 private:
  GLFWwindow* window_;
};

const char kNoDisplay[] = "no display (DISPLAY is not set or cannot be opened); run `tilescope --headless ...` instead";

class WindowHost final : public Host {
 public:
  explicit WindowHost(const HostOptions& options)
      : ini_path_(options.imgui_ini_path), on_worker_context_(options.on_worker_context) {}

  ~WindowHost() override {
    if (shader_context_) {
      on_worker_context_(nullptr);  // its user lets go of the hidden window first
      shader_context_.reset();
      glfwDestroyWindow(shader_window_);
    }
    if (window_) glfwMakeContextCurrent(window_);
    if (renderer_ready_) ImGui_ImplOpenGL3_Shutdown();
    if (platform_ready_) ImGui_ImplGlfw_Shutdown();
    if (imgui_created_) ImGui::DestroyContext();
    if (window_) glfwDestroyWindow(window_);
    if (glfw_ready_) glfwTerminate();
    if (slot_claimed_) detail::release_host_slot();
  }

  bool init(const HostOptions& options, std::string* error) {
    if (!detail::claim_host_slot(error)) return false;
    slot_claimed_ = true;
    glfwSetErrorCallback(remember_glfw_error);
    g_last_glfw_error.clear();
    if (!glfwInit()) {
      *error = kNoDisplay;
      if (!g_last_glfw_error.empty()) *error += " [" + g_last_glfw_error + "]";
      return false;
    }
    glfw_ready_ = true;

    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    // The window's size follows the monitor's content scale, like the font does.
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    window_ = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
    if (!window_) {
      *error = "cannot open a " + std::to_string(options.width) + "x" + std::to_string(options.height) +
               " window with an OpenGL 3.3 core context: " + g_last_glfw_error;
      return false;
    }
    // The worker's context (same hints, invisible). Without it the texture shaders fall back to EGL.
    if (on_worker_context_) {
      glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
      glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_FALSE);
      shader_window_ = glfwCreateWindow(16, 16, "tilescope texture shaders", nullptr, nullptr);
      glfwDefaultWindowHints();
    }
    if (shader_window_) {
      shader_context_ = std::make_unique<HiddenWindowContext>(shader_window_);
      on_worker_context_(shader_context_.get());
    }
    glfwMakeContextCurrent(window_);
    glfwSwapInterval(options.vsync ? 1 : 0);
    renderer_ = detail::gl_string(GL_RENDERER);
    version_ = detail::gl_string(GL_VERSION);
    forced_scale_ = options.content_scale;

    const float scale = content_scale();
    detail::create_imgui_context(ini_path_, scale);
    imgui_created_ = true;
    // Ours first: ImGui's backend installs its key callback over it and calls it from there
    // (its "previous user callback"), so both see every key event.
    glfwSetWindowUserPointer(window_, this);
    glfwSetKeyCallback(window_, &WindowHost::on_key);
    if (!ImGui_ImplGlfw_InitForOpenGL(window_, /*install_callbacks=*/true)) {
      *error = "Dear ImGui's GLFW backend did not start";
      return false;
    }
    platform_ready_ = true;
    if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
      *error = "Dear ImGui's OpenGL3 renderer did not start (its loader opens libGL.so.1: install libgl1)";
      return false;
    }
    renderer_ready_ = true;
    return detail::create_renderer_objects(detail::default_font_pixels(options.font_size_pixels, scale), error);
  }

  bool running() const override { return !glfwWindowShouldClose(window_); }
  void request_close() override { glfwSetWindowShouldClose(window_, GLFW_TRUE); }

  void begin_frame() override {
    glfwPollEvents();
    take_queued_key_presses();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
  }

  void end_frame() override {
    ImGui::Render();
    int width = 0, height = 0;
    glfwGetFramebufferSize(window_, &width, &height);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, width, height);
    glDisable(GL_SCISSOR_TEST);  // glClear honours the scissor box someone may have left on
    glClearColor(clear_color_[0], clear_color_[1], clear_color_[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    TILESCOPE_GL_DEBUG("window end_frame");
    // Read before the swap: afterwards the back buffer's contents are undefined.
    capture_if_requested([width, height](Image* out, std::string* why) {
      glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
      glReadBuffer(GL_BACK);
      if (!read_framebuffer_rgba(width, height, out, why)) return false;
      // The screen is opaque whatever alpha the visual kept; a PNG of it should be too.
      for (std::size_t i = 3; i < out->rgba.size(); i += 4) out->rgba[i] = 255;
      return true;
    });
    glfwSwapBuffers(window_);
  }

  int framebuffer_width() const override {
    int width = 0, height = 0;
    glfwGetFramebufferSize(window_, &width, &height);
    return width;
  }
  int framebuffer_height() const override {
    int width = 0, height = 0;
    glfwGetFramebufferSize(window_, &width, &height);
    return height;
  }
  float content_scale() const override {
    if (forced_scale_ > 0) return forced_scale_;
    float x = 1, y = 1;
    glfwGetWindowContentScale(window_, &x, &y);
    return x > 0 ? x : 1.0f;
  }
  std::string renderer() const override { return renderer_; }
  std::string gl_version() const override { return version_; }
  std::string gl_platform() const override { return "GLX (GLFW window)"; }
  bool headless() const override { return false; }

 private:
  // GLFW's key callback: presses (not repeats, not releases) go to the host's queue.
  static void on_key(GLFWwindow* window, int key, int /*scancode*/, int action, int mods) {
    auto* host = static_cast<WindowHost*>(glfwGetWindowUserPointer(window));
    if (host && action == GLFW_PRESS && key != GLFW_KEY_UNKNOWN) host->queue_key_press(key, mods);
  }

  std::string ini_path_;  // ImGui keeps a pointer to it
  GLFWwindow* window_ = nullptr;
  std::function<void(GlThreadContext*)> on_worker_context_;  // HostOptions::on_worker_context
  GLFWwindow* shader_window_ = nullptr;                      // the worker's hidden window
  std::unique_ptr<HiddenWindowContext> shader_context_;      // handed to on_worker_context_
  float forced_scale_ = 0;
  bool slot_claimed_ = false, glfw_ready_ = false, imgui_created_ = false;
  bool platform_ready_ = false, renderer_ready_ = false;
  std::string renderer_, version_;
};

}  // namespace

std::unique_ptr<Host> create_window_host(const HostOptions& options, std::string* error) {
  return detail::make_initialised<WindowHost>(options, error);
}

}  // namespace tilescope
