// `tilescope plot --csv IN.csv -o OUT.png [--size WxH] [--problem gemm|ata] [--precision f32|f64]
// [--y gflops|ms] [--ylog]`: the timing plot of a CSV as a PNG, headless. The CSV's rows go
// through the App's Timing tab (the same series and reference lines as the window) and
// export/plot_image.h renders them.
#pragma once

namespace tilescope {

// argv[0] is the command word ("plot"). Exit codes (its --help lists them): 0 written; 1 an
// unreadable CSV, one with no row of the chosen problem and precision, or an unwritable PNG;
// 2 bad arguments; 5 (kExitNoDisplay) no OpenGL context.
int run_plot_command(int argc, char** argv);

}  // namespace tilescope
