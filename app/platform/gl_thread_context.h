// A GL context that another thread makes current on itself: what the window host hands out for
// GL work beside the window (HostOptions::on_worker_context), and what the texture-shader
// GEMM's GL thread uses (gl_gemm/gl_shader_runner.h). Declared here, in the lowest layer, so
// that the host knows nothing of who uses it.
#pragma once

#include <string>

namespace tilescope {

class GlThreadContext {
 public:
  virtual ~GlThreadContext() = default;
  virtual bool make_current(std::string* error) = 0;  // on the calling thread (the GL thread)
  virtual void release() = 0;                         // nothing current on the calling thread
  virtual std::string description() const = 0;        // "GLX through GLFW (a hidden window)"
};

}  // namespace tilescope
