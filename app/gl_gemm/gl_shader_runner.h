// Runs the texture-shader variant (kernels/variants/07_gl_shader.cpp) for the Measurer: the runner that
// main() installs through external_runner.h. The GL work happens on a thread of its own with a
// context of its own, so that
//   - the window's context and frames are never touched, and
//   - whichever thread calls the Measurer (the app's worker, `bench`'s main thread, a test) needs
//     no context of its own.
// Where that context comes from: on a GPU, in the window, a hidden GLFW window's context (see
// set_gl_thread_context), elsewhere a headless EGL context (the NVIDIA device platform). On
// Mesa's software renderer, llvmpipe, always an EGL display of the GL thread's own (the device
// platform's software device): llvmpipe shares one rasterizer among the contexts of a display,
// and runs everything a context queued before the next context's draws, so a run drawn in the
// hidden window's context (or on the headless host's surfaceless display) made the window's
// frames wait for the whole run (frames of 6 to 50 s, and 14 s in a two-context test program).
// There the GL thread also runs at a lower CPU priority than the window (its display's rasterizer
// threads with it), and the engine waits for the renderer after every slice of about 0.1 s of
// work, so that a cancel lands within a slice and gl_shader_progress() moves during a run.
// Calls are served one at a time; a cancel set on the Measurer stops a run between draws.
#pragma once

#include <string>

#include "app/platform/gl_thread_context.h"

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

// The longest a call may draw on a software renderer, in seconds (0, the default: no limit).
// Before such a call the GL thread measures the mode's fetch rate on a small run (once per mode and
// shader load, then from every large enough run), and a call whose estimate exceeds the limit is
// refused with the estimate and the size that would fit (shader_time_estimate.h), before it draws.
// The window sets it (gui_main.cpp); `bench` leaves it off. On a GPU nothing is refused.
void set_gl_shader_time_limit(double seconds);

// What the GL thread is drawing, for a progress bar.
struct GlShaderProgress {
  bool drawing = false;  // a call is being measured or drawn
  double fraction = 0;   // of the call's work drawn so far (warm-up runs included), 0 to 1
  std::string what;      // "multipass 4096 x 4096 x 4096", "measuring the fetch rate of multipass"
};
GlShaderProgress gl_shader_progress();

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
