// The CUDA libraries tilescope loads at run time (dlopen) instead of linking, so that the
// program starts on a machine without them — a student's laptop with no NVIDIA GPU still has the
// CPU reference, the mapping models and the texture-shader history. The CUDA runtime itself is
// linked statically and needs only the driver, which it finds on its own.
//
// Each library is loaded once, on first use, from the dynamic linker's search path (ld.so.cache,
// LD_LIBRARY_PATH) and then from the CUDA toolkit's usual folders ($CUDA_HOME/lib64,
// /usr/local/cuda/lib64). A library that cannot be loaded is reported, never fatal: the GPU
// variants then stay off and the banner and `tilescope bench` say which library is missing.
#pragma once

#include <string>
#include <vector>

namespace tilescope {

struct RuntimeLibrary {
  std::string name;       // "cuBLAS"
  std::string soname;     // "libcublas.so.13"
  std::string needed_by;  // what cannot work without it, in a few words
  bool loaded = false;
  std::string path;        // where it was loaded from (when loaded)
  std::string error;       // the loader's last message (when not)
  void* handle = nullptr;  // dlopen's handle, kept for the life of the process
};

// Every runtime-loaded library, loading each on the first call (thread-safe).
const std::vector<RuntimeLibrary>& runtime_libraries();

// "" when every library loaded; otherwise one sentence naming each missing library (its soname)
// and what it is needed for.
std::string missing_libraries_sentence();

// The address of `symbol` in the library named `soname`, or nullptr when the library or the
// symbol is missing. The first call loads the libraries.
void* runtime_symbol(const std::string& soname, const char* symbol);

// NVRTC, CUDA's run-time compiler of device code, which compiles the variants' kernel texts
// (variant.h: kernel_text), loaded once on the first call the same way. It is kept apart from
// runtime_libraries(): no variant needs it to run, so a machine without it loses nothing that
// the banner must name.
const RuntimeLibrary& nvrtc_library();
// The address of an NVRTC function, or nullptr when NVRTC or the symbol is missing.
void* nvrtc_symbol(const char* symbol);

// NCCL, the collective communication library that the splits across several GPUs
// (kernels/multi/) move panels and partial sums with, loaded once on the first call the same way
// and kept apart like NVRTC: a machine without it loses the NCCL splits alone, and they say so.
// Before loading it the program sets NCCL_NVLS_ENABLE=0 unless the user has set it: NVLink
// multicast (NVLS) takes switch resources that the other users of a shared machine's GPUs need,
// and the splits here gain nothing from it (they broadcast and reduce between a few GPUs).
const RuntimeLibrary& nccl_library();
// The address of an NCCL function, or nullptr when NCCL or the symbol is missing.
void* nccl_symbol(const char* symbol);
// The sentence the splits refuse with when NCCL is missing ("" when it loaded).
std::string missing_nccl_sentence();

// Loading one library by soname: the dynamic linker's search first, then each folder of
// `fallback_dirs` in order. Used by runtime_libraries() and by the tests.
RuntimeLibrary load_runtime_library(const std::string& name, const std::string& soname, const std::string& needed_by,
                                    const std::vector<std::string>& fallback_dirs);

// The folders searched after the dynamic linker's own search.
std::vector<std::string> cuda_library_fallback_dirs();

}  // namespace tilescope
