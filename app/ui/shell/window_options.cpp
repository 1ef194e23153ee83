#include "app/ui/shell/window_options.h"

#include <iostream>
#include <string>
#include <vector>

#include "app/cli/arg_parser.h"

namespace tilescope {
namespace {

const char* kGuiUsage = R"(usage: tilescope [--headless] [--size WxH] [--frames N] [--screenshot PNG]
                 [--script FILE] [--no-gpu] [--no-settings] [--no-vsync] [--unpaced]
                 [--frame-stats FILE] [--load-csv FILE]

Opens the window on the default lesson (N = 1024, float: every kernel of ours and the cuBLAS
baseline). Settings persist in $XDG_CONFIG_HOME/tilescope (~/.config/tilescope).

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
  --frame-stats FILE write frame-time statistics (median, p95, max in ms) to FILE, every
                     second and at the end, with each frame over 100 ms (the first 20), the
                     script line played last before it, and where its time went (the script's
                     step, the UI's work, drawing, waiting for the renderer to finish)

Other commands: tilescope bench --help, tilescope plot --help.
Exit codes:
  0  ok
  1  a script action failed while playing (a run, a load, an export)
  2  bad arguments, or a script that cannot be read or has a bad line (FILE:LINE: why),
     found before anything runs
  5  no display or no OpenGL
)";

}  // namespace

bool parse_window_options(int argc, char** argv, WindowOptions* out, int* exit_code) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i] ? argv[i] : "";
    args.push_back(a == "--help-window" ? "--help" : a);
  }
  ArgParser p;
  p.flag("--headless").flag("--no-gpu").flag("--no-settings").flag("--no-vsync").flag("--unpaced");
  p.option("--size", "WxH").option("--frames", "N").option("--screenshot", "PNG").option("--script", "FILE");
  p.option("--frame-stats", "FILE").option("--load-csv", "FILE");
  const bool parsed = p.parse(args);
  if (parsed && p.help()) {
    std::cout << kGuiUsage;
    *exit_code = 0;
    return false;
  }
  WindowOptions o;
  if (parsed && p.get_size("--size", 64, 8192, &o.width, &o.height) && p.get_int("--frames", 1, 1 << 30, &o.frames)) {
    o.headless = p.has("--headless");
    o.use_gpu = !p.has("--no-gpu");
    o.settings = !p.has("--no-settings");
    o.vsync = !p.has("--no-vsync");
    o.paced = !p.has("--unpaced");
    o.screenshot = p.value("--screenshot");
    o.script_path = p.value("--script");
    o.stats_path = p.value("--frame-stats");
    o.csv_path = p.value("--load-csv");
    *out = o;
    return true;
  }
  std::cerr << "tilescope: " << p.error() << "\n" << kGuiUsage;
  *exit_code = 2;
  return false;
}

}  // namespace tilescope
