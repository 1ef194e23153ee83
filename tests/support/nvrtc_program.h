// Compiling a variant's kernel text (variant.h: kernel_text) alone with NVRTC, through the program's own
// compiler (kernels/jit/nvrtc_compiler.h): the text is read from the source tree, and every kernel the launches use
// is named (kernel_names), so that each is instantiated and its mangled name can be asked for. NVRTC needs no GPU.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/core/variant.h"
#include "kernels/cuda/cuda_libraries.h"
#include "kernels/jit/nvrtc_compiler.h"

namespace tilescope::testing {

// The folder a kernel text (VariantDescriptor::kernel_text) and its includes are found in: the
// repository's root, where every include is written from, as the build compiles them.
inline std::filesystem::path kernel_text_root() {
  return TILESCOPE_SOURCE_DIR;
}

// The architectures a variant's kernel text is compiled for, as the build compiles it: code of
// one architecture only (max_compute_capability set: wgmma's sm_90a) for that one, "sm_90a";
// portable code for sm_80 and sm_90, those it runs on.
inline std::vector<std::string> kernel_text_architectures(const VariantDescriptor& v) {
  if (v.max_compute_capability > 0) return {"sm_" + std::to_string(v.max_compute_capability) + "a"};
  std::vector<std::string> out;
  for (int cc : {80, 90})
    if (cc >= v.min_compute_capability) out.push_back("sm_" + std::to_string(cc));
  return out;
}

struct NvrtcResult {
  bool compiled = false;
  std::string error;                 // why not: a missing NVRTC, NVRTC's log
  std::vector<std::string> lowered;  // the mangled name of each name expression, in their order
};

// Compiles `source` (called `file_name` in NVRTC's messages) for `architecture` ("sm_80") as the
// program compiles a kernel text at run time (kernels/jit/nvrtc_compiler.h), from the source tree,
// instantiating every name in `names`.
inline NvrtcResult nvrtc_compile(const std::string& source, const std::string& file_name,
                                 const std::string& architecture, const std::vector<std::string>& names) {
  CompileJob job;
  job.source = source;
  job.file_name = file_name;
  job.architecture = architecture;
  job.names = names;
  job.include_root = kernel_text_root().string();
  job.cuda_include_dir = find_cuda_include_dir();
  const CompiledProgram p = compile_program(job);
  NvrtcResult r;
  r.compiled = p.compiled;
  r.error = p.compiled ? "" : p.error + ":\n" + p.log;
  r.lowered = p.lowered;
  return r;
}

// The text of a variant's kernel text file; "" when there is none.
inline std::string read_kernel_text(const VariantDescriptor& v) {
  std::ifstream in(kernel_text_root() / v.kernel_text, std::ios::binary);
  if (!in) return "";
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace tilescope::testing
