#include "ui/gui_main.h"

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

#include "export/atomic_file.h"
#include "platform/host.h"
#include "ui/app.h"
#include "ui/script.h"
#include "ui/settings.h"

namespace tilescope {

namespace {

const char* kGuiUsage = R"(usage: tilescope [--headless] [--size WxH] [--frames N] [--screenshot PNG]
                 [--script FILE] [--no-gpu] [--no-settings] [--no-vsync] [--unpaced]
                 [--frame-stats FILE] [--load-csv FILE]

Opens the window on the default lesson (N = 1024, float: naive, smem_tiled, regtile_prefetch
and cuBLAS). Settings persist in $XDG_CONFIG_HOME/tilescope (~/.config/tilescope).

  --headless         render the same UI without a display, through EGL (Mesa's surfaceless
                     platform, or the NVIDIA device platform), into an offscreen framebuffer
  --size WxH         window / framebuffer size (default 1600x900; headless 1920x1080)
  --frames N         headless: render N frames, then exit (default 3; a script runs to its end)
  --screenshot PNG   write the last frame as a PNG
  --script FILE      play scripted actions (see docs/SCRIPTS.md)
  --load-csv FILE    start with the rows of a CSV written by tilescope
  --no-gpu           behave as if there were no GPU (the CPU reference only)
  --no-settings      neither read nor write the settings file
  --no-vsync         do not wait for the display's refresh (frames are still paced to 60/s)
  --unpaced          render frames as fast as possible (disturbs GPU timings: see docs)
  --frame-stats FILE write frame-time statistics (median, p95, max in ms) to FILE

Other commands: tilescope bench --help, tilescope plot --help.
Exit codes: 0 ok; 1 a script action failed; 2 bad arguments; 5 no display or no OpenGL.
)";

const char* kPlotUsage = R"(usage: tilescope plot --csv IN.csv -o OUT.png [--size WxH] [--problem gemm|ata]
                      [--precision f32|f64] [--y gflops|ms] [--ylog]

Renders the timing plot of a CSV written by `tilescope bench --csv` (or the window's export)
to a PNG, headless through EGL: title, axes, legend, device and date.
)";

bool parse_size(const char* text, int* w, int* h) {
  return std::sscanf(text, "%dx%d", w, h) == 2 && *w >= 64 && *h >= 64 && *w <= 8192 && *h <= 8192;
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string frame_stats_text(std::vector<double> t) {
  if (t.empty()) return "frames 0\n";
  std::sort(t.begin(), t.end());
  auto at = [&](double q) { return t[std::min(t.size() - 1, static_cast<std::size_t>(q * (t.size() - 1) + 0.5))]; };
  char buf[256];
  std::snprintf(buf, sizeof buf, "frames %zu\nmedian_ms %.3f\np95_ms %.3f\nmax_ms %.3f\n", t.size(), at(0.5), at(0.95),
                t.back());
  return buf;
}

}  // namespace

int run_gui(int argc, char** argv) {
  bool headless = false, use_gpu = true, settings = true, vsync = true, paced = true;
  int width = 0, height = 0, frames = -1;
  std::string screenshot, script_path, stats_path, csv_path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* what) -> const char* {
      if (i + 1 >= argc) {
        std::cerr << "tilescope: " << a << " needs " << what << "\n" << kGuiUsage;
        return nullptr;
      }
      return argv[++i];
    };
    if (a == "-h" || a == "--help" || a == "--help-window") { std::cout << kGuiUsage; return 0; }
    else if (a == "--headless") headless = true;
    else if (a == "--no-gpu") use_gpu = false;
    else if (a == "--no-settings") settings = false;
    else if (a == "--no-vsync") vsync = false;
    else if (a == "--unpaced") paced = false;
    else if (a == "--size") { const char* v = value("WxH"); if (!v) return 2; if (!parse_size(v, &width, &height)) { std::cerr << "tilescope: --size takes WxH between 64 and 8192, e.g. 1920x1080\n"; return 2; } }
    else if (a == "--frames") { const char* v = value("a count"); if (!v) return 2; frames = std::atoi(v); if (frames < 1) { std::cerr << "tilescope: --frames takes a count >= 1\n"; return 2; } }
    else if (a == "--screenshot") { const char* v = value("a PNG path"); if (!v) return 2; screenshot = v; }
    else if (a == "--script") { const char* v = value("a file"); if (!v) return 2; script_path = v; }
    else if (a == "--frame-stats") { const char* v = value("a file"); if (!v) return 2; stats_path = v; }
    else if (a == "--load-csv") { const char* v = value("a CSV file"); if (!v) return 2; csv_path = v; }
    else { std::cerr << "tilescope: unknown option '" << a << "'\n" << kGuiUsage; return 2; }
  }

  ScriptPlayer script;
  if (!script_path.empty()) {
    std::string error;
    if (!script.load_file(script_path, &error)) { std::cerr << "tilescope: " << error << "\n"; return 2; }
  }

  HostOptions ho;
  ho.width = width ? width : (headless ? 1920 : 1600);
  ho.height = height ? height : (headless ? 1080 : 900);
  ho.vsync = vsync;
  const std::string dir = settings ? config_dir() : "";
  if (!dir.empty()) ho.imgui_ini_path = dir + "/imgui.ini";
  std::string error;
  std::unique_ptr<Host> host = headless ? create_headless_host(ho, &error) : create_window_host(ho, &error);
  if (!host) {
    std::cerr << "tilescope: " << error << "\n";
    if (!headless) std::cerr << "tilescope: without a display, try: tilescope --headless --screenshot out.png\n";
    return kExitNoDisplay;
  }
  std::cerr << "tilescope: OpenGL " << host->gl_version() << " on " << host->renderer() << "\n";

  AppOptions ao;
  ao.use_gpu = use_gpu;
  if (!dir.empty()) ao.settings_path = dir + "/settings.ini";
  int code = 0;
  {
    App app(*host, ao);
    if (!csv_path.empty() && !app.load_csv(csv_path)) { std::cerr << "tilescope: " << app.status() << "\n"; code = 1; }
    const bool scripted = !script_path.empty();
    if (headless && !scripted && frames < 0) frames = 3;
    std::vector<double> times;
    // Frames are paced to 60 per second, as a display's refresh would (Xvfb and the headless
    // host have none): an unpaced UI renders hundreds of frames a second, and every frame
    // makes the GPU switch from the CUDA context to the GL context and back — measured on an
    // H100, that cut cuBLAS from 51 to 32 TFLOP/s. The frame time recorded is the work of the
    // frame (until the GPU finished drawing it), not the pacing.
    constexpr double kFramePeriodMs = 1000.0 / 60.0;
    for (int frame = 0; host->running(); ++frame) {
      const double start = now_ms();
      if (scripted) {
        bool failed = false;
        std::string message;
        const bool more = script.step(app, &failed, &message);
        if (failed) { std::cerr << "tilescope: " << message << "\n"; code = 1; }
        if (!more) break;
      } else if (frames > 0 && frame >= frames) {
        break;
      }
      if (!screenshot.empty() && frames > 0 && frame == frames - 1) app.request_screenshot(screenshot);
      host->begin_frame();
      app.frame();
      host->end_frame();
      app.after_frame();
      // Measuring: wait until the GPU has really drawn the frame, or a headless frame (nothing
      // to swap) would only time the queuing of commands.
      if (!stats_path.empty()) glFinish();
      const double work = now_ms() - start;
      app.record_frame_time(work);
      if (frame > 0) times.push_back(work);  // the first frame builds fonts and textures
      if (paced) {
        const double left = kFramePeriodMs - (now_ms() - start);
        if (left > 0) std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(left));
      }
    }
    // A scripted run ends with a screenshot of its final state when one was asked for.
    if (!screenshot.empty() && (scripted || frames < 0)) {
      app.request_screenshot(screenshot);
      host->begin_frame();
      app.frame();
      host->end_frame();
      app.after_frame();
    }
    if (!screenshot.empty()) {
      if (app.status_is_error()) { std::cerr << "tilescope: " << app.status() << "\n"; code = 1; }
      else std::cerr << "tilescope: " << app.status() << "\n";
    }
    if (!stats_path.empty()) {
      std::string err;
      if (!write_file_atomically(stats_path, frame_stats_text(times), &err)) { std::cerr << "tilescope: " << err << "\n"; code = 1; }
    }
  }
  return code;
}

int run_plot_command(int argc, char** argv) {
  std::string csv, out, y = "gflops";
  int width = 1920, height = 1080;
  bool ylog = false;
  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "-h" || a == "--help") { std::cout << kPlotUsage; return 0; }
    else if (a == "--csv" && has_value) csv = argv[++i];
    else if ((a == "-o" || a == "--output") && has_value) out = argv[++i];
    else if (a == "--size" && has_value) { if (!parse_size(argv[++i], &width, &height)) { std::cerr << "tilescope plot: --size takes WxH between 64 and 8192\n"; return 2; } }
    else if (a == "--problem" && has_value) { if (!parse_problem(argv[++i], &problem)) { std::cerr << "tilescope plot: --problem is gemm or ata\n"; return 2; } }
    else if (a == "--precision" && has_value) { if (!parse_precision(argv[++i], &precision)) { std::cerr << "tilescope plot: --precision is f32 or f64\n"; return 2; } }
    else if (a == "--y" && has_value) { y = argv[++i]; if (y != "gflops" && y != "ms") { std::cerr << "tilescope plot: --y is gflops or ms\n"; return 2; } }
    else if (a == "--ylog") ylog = true;
    else { std::cerr << "tilescope plot: unknown or incomplete option '" << a << "'\n" << kPlotUsage; return 2; }
  }
  if (csv.empty() || out.empty()) { std::cerr << "tilescope plot: --csv and -o are required\n" << kPlotUsage; return 2; }

  HostOptions ho;
  ho.width = 640;
  ho.height = 360;
  std::string error;
  std::unique_ptr<Host> host = create_headless_host(ho, &error);
  if (!host) { std::cerr << "tilescope plot: " << error << "\n"; return kExitNoDisplay; }
  AppOptions ao;  // no settings: a plot command must not change the window's
  App app(*host, ao);
  if (!app.load_csv(csv)) { std::cerr << "tilescope plot: " << app.status() << "\n"; return 1; }
  app.state().problem = problem;
  app.state().precision = precision;
  app.state().y_quantity = y == "ms" ? YAxisQuantity::Milliseconds : YAxisQuantity::Gflops;
  app.state().y_log = ylog;
  app.request_plot_export(out, width, height);
  host->begin_frame();
  app.frame();
  host->end_frame();
  app.after_frame();
  if (app.status_is_error()) { std::cerr << "tilescope plot: " << app.status() << "\n"; return 1; }
  std::cerr << "tilescope plot: " << app.status() << "\n";
  return 0;
}

}  // namespace tilescope
