// Compiling a variant's kernel text (variant.h: kernel_text) alone with NVRTC: NVRTC is loaded by the program's own
// loader (cuda_libraries.h), the text is read from the source tree, and every kernel the launches use is named
// (kernel_names), so that each is instantiated and its mangled name can be asked for. NVRTC needs no GPU.
#pragma once

#include <nvrtc.h>  // the types and result codes only: the functions come from nvrtc_symbol

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/core/variant.h"
#include "kernels/cuda/cuda_libraries.h"

namespace tilescope::testing {

// The folder a kernel text (VariantDescriptor::kernel_text) and its includes are found in: the
// repository's root, where every include is written from, as the build compiles them.
inline std::filesystem::path kernel_text_root() {
  return TILESCOPE_SOURCE_DIR;
}

// The CUDA toolkit's include folder, for the toolkit's own device headers (cuda_fp16.h, mma.h):
// the one beside NVRTC's library folder, else $CUDA_HOME's, else /usr/local/cuda's.
inline std::string cuda_include_dir() {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  if (nvrtc_library().loaded)
    candidates.push_back(fs::path(nvrtc_library().path).parent_path().parent_path() / "include");
  if (const char* home = std::getenv("CUDA_HOME"); home && *home) candidates.push_back(fs::path(home) / "include");
  candidates.push_back("/usr/local/cuda/include");
  for (const fs::path& dir : candidates)
    if (fs::exists(dir / "cuda_fp16.h")) return dir.string();
  return candidates.back().string();
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
  std::string error;                 // why not: a missing NVRTC, an unreadable file, NVRTC's log
  std::vector<std::string> lowered;  // the mangled name of each name expression, in their order
};

// Compiles `source` (called `file_name` in NVRTC's messages) for `architecture` ("sm_80") with
// the build's device flags, instantiating every name in `names`.
inline NvrtcResult nvrtc_compile(const std::string& source, const std::string& file_name,
                                 const std::string& architecture, const std::vector<std::string>& names) {
  NvrtcResult r;
  const auto create = reinterpret_cast<decltype(&nvrtcCreateProgram)>(nvrtc_symbol("nvrtcCreateProgram"));
  const auto destroy = reinterpret_cast<decltype(&nvrtcDestroyProgram)>(nvrtc_symbol("nvrtcDestroyProgram"));
  const auto add_name = reinterpret_cast<decltype(&nvrtcAddNameExpression)>(nvrtc_symbol("nvrtcAddNameExpression"));
  const auto compile = reinterpret_cast<decltype(&nvrtcCompileProgram)>(nvrtc_symbol("nvrtcCompileProgram"));
  const auto log_size = reinterpret_cast<decltype(&nvrtcGetProgramLogSize)>(nvrtc_symbol("nvrtcGetProgramLogSize"));
  const auto get_log = reinterpret_cast<decltype(&nvrtcGetProgramLog)>(nvrtc_symbol("nvrtcGetProgramLog"));
  const auto lowered = reinterpret_cast<decltype(&nvrtcGetLoweredName)>(nvrtc_symbol("nvrtcGetLoweredName"));
  const auto error_text = reinterpret_cast<decltype(&nvrtcGetErrorString)>(nvrtc_symbol("nvrtcGetErrorString"));
  if (!create || !destroy || !add_name || !compile || !log_size || !get_log || !lowered || !error_text) {
    r.error = "NVRTC (" + nvrtc_library().soname + ") could not be loaded: " + nvrtc_library().error;
    return r;
  }
  nvrtcProgram program = nullptr;
  if (nvrtcResult e = create(&program, source.c_str(), file_name.c_str(), 0, nullptr, nullptr); e != NVRTC_SUCCESS) {
    r.error = std::string("nvrtcCreateProgram: ") + error_text(e);
    return r;
  }
  for (const std::string& n : names) add_name(program, n.c_str());
  // The build's device flags (CMakeLists.txt: TILESCOPE_CUDA_FLAGS) that NVRTC has: its C++
  // standard. It has no --expt-relaxed-constexpr, so a kernel text calls no host constexpr function.
  std::vector<std::string> options = {"--gpu-architecture=" + architecture, std::string("-std=") + TILESCOPE_CUDA_STD,
                                      "-I" + cuda_include_dir()};
  options.push_back("-I" + kernel_text_root().string());
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  const nvrtcResult e = compile(program, static_cast<int>(argv.size()), argv.data());
  std::size_t size = 0;
  log_size(program, &size);
  std::string log(size, '\0');
  if (size > 0) get_log(program, log.data());
  log = log.c_str();  // without the terminating zero the size counted
  if (e != NVRTC_SUCCESS) {
    r.error = std::string(error_text(e)) + ":\n" + log;
  } else {
    r.compiled = true;
    for (const std::string& n : names) {
      const char* mangled = nullptr;
      r.lowered.push_back(lowered(program, n.c_str(), &mangled) == NVRTC_SUCCESS && mangled ? mangled : "");
    }
  }
  destroy(&program);
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
