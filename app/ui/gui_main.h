// The two ways to host the one UI, as commands:
//   tilescope [--headless] [--size WxH] [--frames N] [--screenshot PNG] [--script FILE] ...
//   tilescope plot --csv IN.csv -o OUT.png [--size WxH] [--problem gemm|ata] [--precision f32|f64] [--y gflops|ms]
#pragma once

namespace tilescope {

// Exit codes beyond bench's: 5 = no display / no OpenGL context could be made.
constexpr int kExitNoDisplay = 5;

// argv[0] is the program; options follow. Never throws.
int run_gui(int argc, char** argv);
// argv[0] is the command word ("plot").
int run_plot_command(int argc, char** argv);

}  // namespace tilescope
