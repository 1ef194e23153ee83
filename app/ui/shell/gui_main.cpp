#include "app/ui/shell/gui_main.h"

#include <GL/gl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "app/export/atomic_file.h"
#include "app/export/printable_text.h"
#include "app/gl_gemm/gl_shader_runner.h"
#include "app/platform/host.h"
#include "app/ui/script/script.h"
#include "app/ui/shell/app.h"
#include "app/ui/shell/settings.h"
#include "app/ui/shell/window_options.h"

namespace tilescope {

namespace {

// The longest one texture-shader row may draw on a software renderer (llvmpipe): a class waits
// a minute for it, the progress line moving and Esc stopping it at once; rows estimated longer
// are refused before they draw, with the estimate and a size that fits (multipass at 4096 would
// have drawn for half an hour to two hours on 2 cores, depending on their load). 512, the largest
// size without a GPU, takes 3 to 15 s there in the slowest modes.
constexpr double kShaderRunLimitSeconds = 60;
constexpr double kFrameStatsEveryMs = 1000;

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Where a frame's time went: the script's step, the UI's work (App::frame: its widgets and whatever
// it waited for), drawing (the renderer's commands and the swap), and waiting for the renderer to
// finish them (measured only with --frame-stats).
struct FrameParts {
  double script_ms = 0, ui_ms = 0, draw_ms = 0, finish_ms = 0;
};

// A frame that took longer than kSlowFrameMs, the script line played last before it, and its parts.
struct SlowFrame {
  int frame = 0;
  double ms = 0;
  int script_line = 0;
  FrameParts parts;
};
constexpr double kSlowFrameMs = 100;
constexpr std::size_t kSlowFramesKept = 20;

std::string frame_stats_text(std::vector<double> t, const std::vector<SlowFrame>& slow = {}) {
  std::string slow_text;
  for (const SlowFrame& f : slow) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "slow_frame %d %.3f ms after script line %d (script %.1f, ui %.1f, draw %.1f, finish %.1f ms)\n",
                  f.frame, f.ms, f.script_line, f.parts.script_ms, f.parts.ui_ms, f.parts.draw_ms, f.parts.finish_ms);
    slow_text += line;
  }
  if (t.empty()) return "frames 0\n";
  std::sort(t.begin(), t.end());
  auto at = [&](double q) { return t[std::min(t.size() - 1, static_cast<std::size_t>(q * (t.size() - 1) + 0.5))]; };
  char buf[256];
  std::snprintf(buf, sizeof buf, "frames %zu\nmedian_ms %.3f\np95_ms %.3f\nmax_ms %.3f\n", t.size(), at(0.5), at(0.95),
                t.back());
  return buf + slow_text;
}

// One frame of the UI, in either host; *parts (may be null) gets the UI's and the drawing's time.
void draw_frame(Host& host, App& app, FrameParts* parts = nullptr) {
  const double start = now_ms();
  host.begin_frame();
  app.frame();
  const double built = now_ms();
  host.end_frame();
  app.after_frame();
  if (parts) parts->ui_ms = built - start, parts->draw_ms = now_ms() - built;
}

std::unique_ptr<Host> make_host(const WindowOptions& o, const std::string& config, int* code) {
  HostOptions ho;
  ho.width = o.width ? o.width : (o.headless ? 1920 : 1600);
  ho.height = o.height ? o.height : (o.headless ? 1080 : 900);
  ho.vsync = o.vsync;
  if (!config.empty()) ho.imgui_ini_path = config + "/imgui.ini";
  // The texture shaders' GL thread takes the window's hidden context (gl_shader_runner.h says why).
  ho.on_worker_context = [](GlThreadContext* context) { set_gl_thread_context(context); };
  std::string error;
  std::unique_ptr<Host> host = o.headless ? create_headless_host(ho, &error) : create_window_host(ho, &error);
  if (!host) {
    std::cerr << "tilescope: " << error << "\n";
    if (!o.headless) std::cerr << "tilescope: without a display, try: tilescope --headless --screenshot out.png\n";
    *code = kExitNoDisplay;
    return nullptr;
  }
  std::cerr << "tilescope: OpenGL " << host->gl_version() << " on " << host->renderer() << "\n";
  std::cerr << "tilescope: UI font " << ui_font_summary() << "\n";
  return host;
}

// The frame loop. Returns 1 when a script action failed, else 0; `times` gets the frames' work.
int run_frames(Host& host, App& app, ScriptPlayer& script, const WindowOptions& o, std::vector<double>* times,
               std::vector<SlowFrame>* slow) {
  int code = 0;
  const bool scripted = !o.script_path.empty();
  const int frames = o.headless && !scripted && o.frames < 0 ? 3 : o.frames;
  // Frames are paced to 60 per second, as a display's refresh would (Xvfb and the headless
  // host have none): an unpaced UI renders hundreds of frames a second, and every frame
  // makes the GPU switch from the CUDA context to the GL context and back — measured on an
  // H100, that cut cuBLAS from 51 to 32 TFLOP/s. The frame time recorded is the work of the
  // frame (until the GPU finished drawing it), not the pacing. While the CPU itself is timed,
  // fewer (App::frame_period_ms).
  double stats_written = now_ms();
  for (int frame = 0; host.running(); ++frame) {
    const double start = now_ms();
    if (scripted) {
      std::vector<std::string> failures;
      const bool more = script.step(app, &failures);
      for (const std::string& failure : failures) std::cerr << "tilescope: " << printable_text(failure) << "\n";
      if (!failures.empty()) code = 1;
      if (!more) break;
    } else if (frames > 0 && frame >= frames) {
      break;
    }
    if (!o.screenshot.empty() && frames > 0 && frame == frames - 1) app.request_screenshot(o.screenshot);
    FrameParts parts;
    parts.script_ms = now_ms() - start;
    draw_frame(host, app, &parts);
    // Measuring: wait until the GPU has really drawn the frame, or a headless frame (nothing
    // to swap) would only time the queuing of commands.
    const double drawn = now_ms();
    if (!o.stats_path.empty()) glFinish();
    parts.finish_ms = now_ms() - drawn;
    const double work = now_ms() - start;
    app.record_frame_time(work);
    if (frame > 0) times->push_back(work);  // the first frame builds fonts and textures
    if (frame > 0 && work > kSlowFrameMs && slow->size() < kSlowFramesKept)
      slow->push_back({frame, work, script.current_line(), parts});
    // Once a second, so that a session ended by a kill (a benchmark's time limit) still leaves
    // the figures of its frames so far; run_gui writes the final ones. Between frames, untimed.
    if (!o.stats_path.empty() && now_ms() - stats_written >= kFrameStatsEveryMs) {
      std::string not_yet;  // a failure is reported by the final write
      write_file_atomically(o.stats_path, frame_stats_text(*times, *slow), &not_yet);
      stats_written = now_ms();
    }
    if (o.paced) {
      const double left = app.frame_period_ms() - (now_ms() - start);
      if (left > 0) std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(left));
    }
  }
  // A scripted run ends with a screenshot of its final state when one was asked for.
  if (!o.screenshot.empty() && (scripted || frames < 0)) {
    app.request_screenshot(o.screenshot);
    draw_frame(host, app);
  }
  // Files still being written (a screenshot of the last frame) are written before the status
  // line is read and the program ends.
  app.finish_file_writes();
  return code;
}

}  // namespace

int run_gui(int argc, char** argv) {
  WindowOptions o;
  int code = 0;
  if (!parse_window_options(argc, argv, &o, &code)) return code;

  ScriptPlayer script;
  if (!o.script_path.empty()) {
    std::string error;
    if (!script.load_file(o.script_path, &error)) {
      std::cerr << "tilescope: " << printable_text(error) << "\n";
      return 2;
    }
  }
  set_gl_shader_time_limit(kShaderRunLimitSeconds);
  const std::string dir = o.settings ? config_dir() : "";
  std::unique_ptr<Host> host = make_host(o, dir, &code);
  if (!host) return code;

  AppOptions ao;
  ao.use_gpu = o.use_gpu;
  if (!dir.empty()) ao.settings_path = dir + "/settings.ini";
  App app(*host, ao);
  if (!o.csv_path.empty() && !app.load_csv(o.csv_path)) {
    std::cerr << "tilescope: " << app.status() << "\n";
    code = 1;
  }
  std::vector<double> times;
  std::vector<SlowFrame> slow;
  if (run_frames(*host, app, script, o, &times, &slow) != 0) code = 1;
  if (!o.screenshot.empty()) {
    if (app.status_is_error()) {
      std::cerr << "tilescope: " << app.status() << "\n";
      code = 1;
    } else
      std::cerr << "tilescope: " << app.status() << "\n";
  }
  if (!o.stats_path.empty()) {
    std::string err;
    if (!write_file_atomically(o.stats_path, frame_stats_text(times, slow), &err)) {
      std::cerr << "tilescope: " << err << "\n";
      code = 1;
    }
  }
  return code;
}

}  // namespace tilescope
