// An OpenGL 3.3 core context without any window or display server, through EGL:
//   device platform (EGL_EXT_platform_device): a GPU enumerated by eglQueryDevicesEXT — the
//     NVIDIA driver on the GPU machine (its device advertises EGL_NV_device_cuda);
//   surfaceless platform (EGL_MESA_platform_surfaceless): Mesa, llvmpipe in CI.
// The context is made current with no surface (EGL_KHR_surfaceless_context): whoever draws
// renders into their own framebuffer object. Used by the headless host and by the texture-shader
// GEMM's own GL thread (app/gl_gemm/gl_shader_runner.cpp).
#pragma once

#include <string>

#include "app/platform/host.h"

namespace tilescope {

class EglContext {
 public:
  EglContext() = default;
  ~EglContext();
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;

  // Makes the context and makes it current on this thread; false and *error (what was tried,
  // and why each failed) otherwise.
  bool create(EglPlatform platform, std::string* error);
  // "EGL device platform (NVIDIA; EGL_NV_device_cuda)", "EGL surfaceless platform (Mesa Project)".
  const std::string& description() const { return description_; }
  bool make_current();

 private:
  bool try_display(void* display, std::string* why);
  // Each tries one EGL platform; false appends what failed to *tried.
  bool try_device_platform(EglPlatform platform, const char* client, std::string* tried);
  bool try_surfaceless_platform(const char* client, std::string* tried);
  void destroy();
  // EGLDisplay / EGLContext, kept as void* so that this header needs no EGL (and no X11) headers.
  void* display_ = nullptr;
  void* context_ = nullptr;
  std::string description_;
};

}  // namespace tilescope
