// Compiling device code at run time with NVRTC (loaded at run time: kernels/cuda/cuda_libraries.h):
// the program's kernel texts for a typed tile, or a text the learner edited. One compile gives the
// PTX (with source lines where asked: -lineinfo), the machine code for one architecture (a cubin), the mangled
// name of every kernel asked for, and what ptxas reports per kernel (registers, spills, stack,
// static shared memory), so that a tile's cost shows before any run and without a GPU.
#pragma once

#include <string>
#include <vector>

#include "kernels/jit/compile_gate.h"

namespace tilescope {

struct CompileJob {
  std::string source;              // the text compiled
  std::string file_name;           // its name in messages: "kernels/variants/03_regtile_prefetch.cuh"
  std::string architecture;        // "sm_90", "sm_90a", "sm_80"
  std::vector<std::string> names;  // name expressions to instantiate: "tilescope::k<float, 64>"
  std::string include_root;        // the folder its includes are written from (kernel_source.h)
  std::string cuda_include_dir;    // the toolkit's headers (cuda_fp16.h, mma.h)
  // -lineinfo: the source lines the Source view links the PTX and SASS with. Off for the kernels
  // that are launched, which are compiled as the build compiles its own (TILESCOPE_CUDA_LINEINFO is
  // off by default), so that a typed tile and the built row of the same values get the same code.
  bool line_info = false;
  CompileDropped dropped;  // set once the result is no longer wanted (compile_gate.h)
};

// One message of the compiler, at its line of the text (or of a file it includes).
struct SourceDiagnostic {
  std::string file;
  int line = 0;
  std::string severity;  // "error", "warning"
  std::string message;
};

// What ptxas reports for one kernel.
struct KernelResources {
  std::string mangled;  // the kernel's symbol
  int registers = 0;    // per thread
  int spill_store_bytes = 0;
  int spill_load_bytes = 0;
  int stack_bytes = 0;
  int static_shared_bytes = 0;  // __shared__ arrays (dynamic shared memory is the launch's)
  int barriers = 0;
};

struct CompiledProgram {
  bool compiled = false;
  std::string error;  // why not: NVRTC missing, the compiler's errors
  std::string log;    // the compiler's whole log (warnings, ptxas' report)
  std::vector<SourceDiagnostic> diagnostics;
  std::vector<std::string> lowered;  // the mangled name of each of job.names, in order
  std::string ptx;
  std::string cubin;                       // bytes of the machine code
  std::vector<KernelResources> resources;  // for each of `lowered`, in order
  double compile_seconds = 0;              // NVRTC's time for the compile (the original one when from the cache)
  double elapsed_seconds = 0;              // what this call took: the compile, or reading the cache
  bool from_cache = false;
  std::string cache_note;  // why it was not cached or not read from the cache ("" when it was)
};

// The options every compile gets: the architecture, the build's C++ standard, the include folders,
// ptxas' report, and -lineinfo where the job asks for it.
std::vector<std::string> compile_options(const CompileJob& job);

// Compiles without any cache. Never throws. Waits first while limit_concurrent_compiles' number
// of wanted compiles are running in this process (compile_gate.h); a job dropped by then is not
// compiled (an error that says so).
CompiledProgram compile_program(const CompileJob& job);

// At most `n` wanted compiles at once in this process from now on (n <= 0: no limit, the
// default; compile_gate.h). The window keeps one core for itself with it: NVRTC takes a whole
// core per compile, and a window drawn on the CPU (llvmpipe) misses its frames when every core
// compiles.
void limit_concurrent_compiles(int n);

// The compiler's messages in a log: "file(12): error: ..." lines.
std::vector<SourceDiagnostic> parse_diagnostics(const std::string& log);
// ptxas' report in a log, for the kernel `mangled`; zeros when it is not there.
KernelResources parse_resources(const std::string& log, const std::string& mangled);

// "12.9" (NVRTC's own version), or "" when NVRTC is missing.
std::string nvrtc_version_text();
// The toolkit's include folder: beside NVRTC's library folder, else $CUDA_HOME's, else
// /usr/local/cuda's (the first that holds cuda_fp16.h).
std::string find_cuda_include_dir();

// The architectures a learner may compile for without a GPU ("sm_80" ...), sm_90 first.
const std::vector<std::string>& selectable_architectures();

}  // namespace tilescope
