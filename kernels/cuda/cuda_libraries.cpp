#include "kernels/cuda/cuda_libraries.h"

#include <cublas_api.h>
#include <cuda.h>  // CUDA_VERSION: NVRTC's soname follows the toolkit's major version
#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <mutex>

namespace tilescope {
namespace {

std::string loaded_path(void* handle, const std::string& fallback) {
  link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name) return map->l_name;
  return fallback;
}

// NCCL's soname: 2 since NCCL 2.0, the version whose interface kernels/cuda/nccl_api.h declares.
constexpr int kNcclAbiMajor = 2;

std::string soname_of(const char* stem, int major) {
  return std::string(stem) + ".so." + std::to_string(major);
}

}  // namespace

std::vector<std::string> cuda_library_fallback_dirs() {
  std::vector<std::string> dirs;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* root = std::getenv(var); root && *root) dirs.push_back(std::string(root) + "/lib64");
  dirs.push_back("/usr/local/cuda/lib64");
  dirs.push_back("/usr/local/cuda/targets/x86_64-linux/lib");
  return dirs;
}

RuntimeLibrary load_runtime_library(const std::string& name, const std::string& soname, const std::string& needed_by,
                                    const std::vector<std::string>& fallback_dirs) {
  RuntimeLibrary lib;
  lib.name = name;
  lib.soname = soname;
  lib.needed_by = needed_by;
  // RTLD_LOCAL: the library's symbols stay its own, so the forwarders of the same names in this
  // program (cublas_forwarders.cpp) never interpose on its internal calls.
  void* handle = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  std::string first_error;
  if (!handle) {
    const char* e = dlerror();
    first_error = e ? e : soname + ": not found";
  }
  for (const std::string& dir : fallback_dirs) {
    if (handle) break;
    handle = dlopen((dir + "/" + soname).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) dlerror();  // clear it; the first message (the linker's search) is the one reported
  }
  if (!handle) {
    lib.error = first_error;
    return lib;
  }
  lib.loaded = true;
  lib.handle = handle;
  lib.path = loaded_path(handle, soname);
  return lib;
}

const std::vector<RuntimeLibrary>& runtime_libraries() {
  static std::once_flag once;
  static std::vector<RuntimeLibrary> libs;
  std::call_once(once, [] {
    const auto dirs = cuda_library_fallback_dirs();
    // cuBLASLt first: cuBLAS needs it, and naming it on its own makes the message exact.
    libs.push_back(
        load_runtime_library("cuBLASLt", soname_of("libcublasLt", CUBLAS_VER_MAJOR), "cuBLAS's GEMM engine", dirs));
    libs.push_back(load_runtime_library("cuBLAS", soname_of("libcublas", CUBLAS_VER_MAJOR),
                                        "the cuBLAS baselines and the FP64 reference of large GPU checks", dirs));
  });
  return libs;
}

std::string missing_libraries_sentence() {
  std::string names, needs;
  for (const RuntimeLibrary& lib : runtime_libraries()) {
    if (lib.loaded) continue;
    names += (names.empty() ? "" : ", ") + lib.name + " (" + lib.soname + ")";
    needs += (needs.empty() ? "" : "; ") + lib.needed_by;
  }
  if (names.empty()) return "";
  return "missing CUDA library: " + names + " could not be loaded (install NVIDIA's CUDA toolkit or its cuBLAS " +
         "package); needed for " + needs;
}

void* runtime_symbol(const std::string& soname, const char* symbol) {
  for (const RuntimeLibrary& lib : runtime_libraries())
    if (lib.soname == soname) return lib.loaded ? dlsym(lib.handle, symbol) : nullptr;
  return nullptr;
}

const RuntimeLibrary& nvrtc_library() {
  static const RuntimeLibrary lib = load_runtime_library("NVRTC", soname_of("libnvrtc", CUDA_VERSION / 1000),
                                                         "compiling the kernel texts", cuda_library_fallback_dirs());
  return lib;
}

void* nvrtc_symbol(const char* symbol) {
  const RuntimeLibrary& lib = nvrtc_library();
  return lib.loaded ? dlsym(lib.handle, symbol) : nullptr;
}

const RuntimeLibrary& nccl_library() {
  static const RuntimeLibrary lib = [] {
    setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0);  // the user's own setting wins
    return load_runtime_library("NCCL", soname_of("libnccl", kNcclAbiMajor), "the splits of a product across GPUs",
                                cuda_library_fallback_dirs());
  }();
  return lib;
}

void* nccl_symbol(const char* symbol) {
  const RuntimeLibrary& lib = nccl_library();
  return lib.loaded ? dlsym(lib.handle, symbol) : nullptr;
}

std::string missing_nccl_sentence() {
  const RuntimeLibrary& lib = nccl_library();
  if (lib.loaded) return "";
  return "missing CUDA library: NCCL (" + lib.soname + ") could not be loaded (" + lib.error +
         "); the splits across GPUs that move data with it need it (install NVIDIA's NCCL package, libnccl2)";
}

}  // namespace tilescope
