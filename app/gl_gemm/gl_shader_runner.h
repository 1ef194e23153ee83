// Runs the texture-shader variant (kernels/07_gl_shader.cpp) for the Measurer: the runner that
// main() installs through external_runner.h. The GL work happens on a thread of its own with a
// context of its own — a headless EGL context (the NVIDIA device platform on a GPU machine, Mesa
// elsewhere), or in the window a hidden GLFW window's context (see set_gl_thread_context) — so
//   - the window's context and frames are never touched (the UI keeps drawing while a
//     4096-sized multipass run takes seconds), and
//   - whichever thread calls the Measurer (the app's worker, `bench`'s main thread, a test) needs
//     no context of its own.
// Calls are served one at a time; a cancel set on the Measurer stops a run between passes.
#pragma once

#include <string>

#include "platform/gl_thread_context.h"

namespace tilescope {

// Installs the runner for Backend::GlShader; the GL thread starts at the first run. Idempotent.
void install_gl_shader_runner();

// Where the GL thread's context comes from (a GlThreadContext, platform/gl_thread_context.h):
// nullptr (the default) makes its own headless EGL context. In the window, the window host's
// hidden window of the same GL, through HostOptions::on_worker_context (the UI installs this
// function there): through glvnd, the NVIDIA driver
// refused to make an EGL context current on one thread while the window's GLX context was
// current on another (eglMakeCurrent failed, H100, driver 580). Not owned. Stops the GL thread
// (after its current run) so that the next run starts with the new context; call it with nullptr
// before destroying the context.
void set_gl_thread_context(GlThreadContext* context);

// Ends the GL thread, destroying its EGL context: main() calls it before returning, test programs
// from a global test environment. Not from a static destructor: tearing GL down inside exit()
// crashed on the NVIDIA driver. A later run starts the thread again.
void stop_gl_shader_runner();

// The Reload button: the GL thread re-reads and recompiles every shader in the shader folder
// before its next run, so an edited shader is what gets timed. Returns at once.
void request_shader_reload();

// What the GL thread knows, for the History tab ("" until its first run).
struct GlShaderThreadInfo {
  std::string renderer;    // GL_RENDERER of its context
  std::string context;     // how the context was made ("EGL device platform (NVIDIA; ...)")
  std::string shader_dir;  // where the shaders are read from
  std::string load_log;    // the last (re)load's errors; "" when every shader compiled
  int loads = 0;           // how many times the shaders were (re)loaded
};
GlShaderThreadInfo gl_shader_thread_info();

}  // namespace tilescope
