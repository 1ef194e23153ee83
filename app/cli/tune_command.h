// `tilescope tune`: the tuning landscape of a variant's tile parameters (tune_args.h says what is
// swept). Checks every grid point first and lists the refused ones with their reasons; compiles
// the accepted ones in parallel through the kernel cache, with exactly the job the launch itself
// will make (so that the launch's compile becomes a load from the cache); then times each point
// with one Measurer, verification on, after cuBLAS of the same input type; writes the CSV and, in
// window builds, the landscape as a PNG.
//
// Without a usable GPU it says so, still lists the points the variant's own rules refuse, and
// returns 3. Ctrl-C stops between runs (cutting the current one short), writes what finished
// and returns 130.
#pragma once

#include <atomic>
#include <functional>
#include <ostream>
#include <string>

#include "app/cli/tune_points.h"

namespace tilescope {

// As documented in `tilescope tune --help`. When several apply, the largest wins.
enum TuneExit : int {
  kTuneOk = 0,
  kTuneRunFailed = 1,  // a point failed its check or errored, or every point was refused
  kTuneBadArguments = 2,
  kTuneNoGpu = 3,
  kTuneOutputFailed = 4,  // --csv or --png could not be written (or --png without the window build)
  kTuneInterrupted = 130,
};

// Draws a table's landscape over (x_key, y_key) into a PNG of width x height. The window build
// installs one (main.cpp); without it --png is refused.
using TunePngWriter = std::function<bool(const std::string& path, int width, int height, const TuneTable& table,
                                         const std::string& x_key, const std::string& y_key, std::string* error)>;

// Compiles the kernels of every accepted point of `table` (status Pending) on `jobs` threads,
// each kernel name a job of its own as jit_kernel makes it, through the kernel cache. Sets each
// point's compile_seconds; a point that does not compile becomes Error with the compiler's first
// message. Calls `done(i)` after each point (from the compiling threads, serialised); stops
// handing out points once `stop` is set. Needs a CUDA device (the architecture is the device's).
void precompile_tune_points(const VariantDescriptor& v, TuneTable* table, int jobs, const std::atomic<bool>& stop,
                            const std::function<void(std::size_t done, std::size_t total)>& progress);

// argv[0] is the command word (`tune`). Never throws.
int run_tune_command(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
                     const TunePngWriter& png = nullptr);

}  // namespace tilescope
