// The window's frame loop, in either host: `tilescope [--headless] [--size WxH] [--frames N]
// [--screenshot PNG] [--script FILE] ...` (the options: app/ui/shell/window_options.h; the `plot`
// command: app/ui/shell/plot_command.h).
#pragma once

namespace tilescope {

// Exit codes beyond bench's: 5 = no display / no OpenGL context could be made.
constexpr int kExitNoDisplay = 5;

// argv[0] is the program; options follow. Never throws.
int run_gui(int argc, char** argv);

}  // namespace tilescope
