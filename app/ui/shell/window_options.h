// The window's command line: `tilescope [--headless] [--size WxH] [--frames N] ...`, parsed by
// the one parser (cli/arg_parser.h) into plain data for run_gui's frame loop.
#pragma once

#include <string>

namespace tilescope {

struct WindowOptions {
  bool headless = false;
  bool use_gpu = true;
  bool settings = true;
  bool vsync = true;
  bool paced = true;
  int width = 0, height = 0;  // 0: the host's default (window 1600x900, headless 1920x1080)
  int frames = -1;            // -1: until closed (headless: 3, or a script's end)
  std::string screenshot, script_path, stats_path, csv_path;
};

// argv[0] is the program. False when the program should exit now with *exit_code: 0 after
// printing the help (-h, --help, --help-window), 2 after printing an error and the usage.
bool parse_window_options(int argc, char** argv, WindowOptions* out, int* exit_code);

}  // namespace tilescope
