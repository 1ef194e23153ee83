#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <map>
#include <mutex>
#include <tuple>

#include "kernels/cuda/cuda_check.h"
#include "kernels/jit/jit_kernels.h"
#include "kernels/jit/kernel_cache.h"
#include "kernels/jit/kernel_calls.h"
#include "kernels/jit/kernel_source.h"

namespace tilescope {

std::string driver_version_text() {
  int version = 0;
  return cudaDriverGetVersion(&version) == cudaSuccess && version > 0 ? std::to_string(version) : "none";
}

std::size_t shared_per_block(const VariantDescriptor& v, const TileConfig& cfg, Precision precision,
                             const KernelResources& compiled) {
  return v.shared_bytes ? v.shared_bytes(cfg, precision) : static_cast<std::size_t>(compiled.static_shared_bytes);
}

std::string device_architecture(const VariantDescriptor& v) {
  if (v.max_compute_capability > 0) return "sm_" + std::to_string(v.max_compute_capability) + "a";
  int device = 0, major = 0, minor = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return "sm_" + std::to_string(major * 10 + minor);
}

bool kernel_text_job(const VariantDescriptor& v, const std::vector<std::string>& names, const std::string& architecture,
                     CompileJob* job, std::string* error, const std::string& extra_header) {
  CompileJob j;
  if (!read_kernel_text(v, &j.source, error)) return false;
  if (!extra_header.empty()) j.source += "\n#include \"" + extra_header + "\"\n";
  j.file_name = v.kernel_text;
  j.architecture = architecture;
  j.names = names;
  j.include_root = kernel_text_root().root;
  j.cuda_include_dir = find_cuda_include_dir();
  *job = std::move(j);
  return true;
}

CompiledProgram compile_for_launch(const VariantDescriptor& v, const std::string& name,
                                   const std::string& extra_header) {
  CompileJob job;
  std::string error;
  if (!kernel_text_job(v, {name}, device_architecture(v), &job, &error, extra_header)) {
    CompiledProgram failed;
    failed.error = error;
    return failed;
  }
  return compile_cached(job, driver_version_text());
}

CompiledProgram compile_kernels(const VariantDescriptor& v, const std::vector<std::string>& names,
                                const std::string& architecture, const std::string& driver,
                                const CompileDropped& dropped) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::future<CompiledProgram>> parts;
  for (const std::string& name : names)
    parts.push_back(std::async(std::launch::async, [&v, name, architecture, driver, dropped] {
      CompileJob job;
      std::string error;
      if (!kernel_text_job(v, {name}, architecture, &job, &error)) {
        CompiledProgram failed;
        failed.error = error;
        return failed;
      }
      job.dropped = dropped;
      return compile_cached(job, driver);
    }));
  CompiledProgram all;
  all.compiled = !names.empty();
  all.from_cache = !names.empty();
  for (std::future<CompiledProgram>& f : parts) {
    CompiledProgram p = f.get();
    all.compiled = all.compiled && p.compiled;
    all.from_cache = all.from_cache && p.from_cache;
    if (!p.error.empty()) all.error += (all.error.empty() ? "" : "\n") + p.error;
    if (!p.cache_note.empty()) all.cache_note = p.cache_note;
    all.log += p.log;
    all.ptx += p.ptx;
    if (all.cubin.empty()) all.cubin = p.cubin;
    all.diagnostics.insert(all.diagnostics.end(), p.diagnostics.begin(), p.diagnostics.end());
    all.lowered.insert(all.lowered.end(), p.lowered.begin(), p.lowered.end());
    all.resources.insert(all.resources.end(), p.resources.begin(), p.resources.end());
    all.compile_seconds = std::max(all.compile_seconds, p.compile_seconds);
  }
  all.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return all;
}

JitKernel jit_kernel(const VariantDescriptor& v, const std::string& name, const std::string& extra_header) {
  static std::mutex mutex;
  static std::map<std::tuple<std::string, std::string, int>, JitKernel> loaded;
  // Called on every launch of a typed tile: one cheap query here, the architecture only on a miss.
  // A module belongs to its device's context, so the device is the key, not its architecture.
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  // One load at a time: a second request for the same kernel must find the first one's result.
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(std::string(v.kernel_text ? v.kernel_text : "") + "+" + extra_header, name, device);
  if (const auto it = loaded.find(key); it != loaded.end()) return it->second;
  const CompiledProgram p = compile_for_launch(v, name, extra_header);
  if (!p.compiled) {
    std::string where;
    for (const SourceDiagnostic& d : p.diagnostics)
      where += "\n" + d.file + ":" + std::to_string(d.line) + ": " + d.severity + ": " + d.message;
    throw GpuError(std::string(v.id) + ": " + name + " did not compile: " + p.error + where);
  }
  JitKernel k;
  k.kernel = load_function(p.cubin, p.lowered.at(0));
  k.resources = p.resources.at(0);
  k.compile_seconds = p.elapsed_seconds;
  k.from_cache = p.from_cache;
  return loaded.emplace(key, k).first->second;
}

}  // namespace tilescope
