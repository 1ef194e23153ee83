// `tilescope compile`: compiles one configuration of a variant's kernel text with NVRTC, for the
// device or any architecture a learner picks (no GPU needed), and prints what the tile costs:
// registers, spills, stack and shared memory per kernel, occupancy, the compile time and whether
// it came from the cache; --ptx writes the PTX. A typed tile is refused with the reason before
// anything compiles.
#pragma once

#include <ostream>

namespace tilescope {

enum CompileExit : int {
  kCompileOk = 0,
  kCompileFailed = 1,        // the compiler rejected the text (its messages are printed at their lines)
  kCompileBadArguments = 2,  // an unknown variant, architecture or option; a refused tile
  kCompileNoNvrtc = 3,       // NVRTC could not be loaded
  kCompileOutputFailed = 4,  // --ptx or --cubin could not be written
};

// argv[0] is the command word (`compile`).
int run_compile_command(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace tilescope
