#include <cuda.h>  // the driver's types; its functions come through the runtime's entry points

#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "kernels/cuda/cuda_check.h"
#include "kernels/jit/kernel_calls.h"

namespace tilescope {

namespace {

// A driver function by name, with the signature of the CUDA version the program was built with.
template <typename F>
F driver(const char* name) {
  return driver_function<F>(name, CUDART_VERSION);
}

void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* text = nullptr;
  driver<decltype(&cuGetErrorString)>("cuGetErrorString")(r, &text);
  throw GpuError(std::string(what) + ": " + (text ? text : "CUDA driver error " + std::to_string(r)));
}

CUfunction function_of(const KernelLaunchShape& k) {
  return reinterpret_cast<CUfunction>(const_cast<void*>(k.kernel));
}

int attribute(const KernelLaunchShape& k, CUfunction_attribute a) {
  int v = 0;
  check(driver<decltype(&cuFuncGetAttribute)>("cuFuncGetAttribute")(&v, a, function_of(k)), "cuFuncGetAttribute");
  return v;
}

// A launch of `grid` x `block` in clusters of `cluster` blocks along x, spelled for both APIs:
// the runtime's for a built kernel, the driver's for a run-time compiled one.
struct ClusterConfig {
  cudaLaunchAttribute attribute{};
  cudaLaunchConfig_t config{};
  CUlaunchAttribute driver_attribute{};
  CUlaunchConfig driver_config{};

  ClusterConfig(const KernelLaunchShape& k, dim3 grid, dim3 block, int cluster, cudaStream_t stream) {
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = static_cast<unsigned>(cluster);
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = k.dynamic_shared_bytes;
    config.stream = stream;
    config.attrs = &attribute;
    config.numAttrs = 1;
    driver_attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    driver_attribute.value.clusterDim.x = static_cast<unsigned>(cluster);
    driver_attribute.value.clusterDim.y = 1;
    driver_attribute.value.clusterDim.z = 1;
    driver_config.gridDimX = grid.x;
    driver_config.gridDimY = grid.y;
    driver_config.gridDimZ = grid.z;
    driver_config.blockDimX = block.x;
    driver_config.blockDimY = block.y;
    driver_config.blockDimZ = block.z;
    driver_config.sharedMemBytes = static_cast<unsigned>(k.dynamic_shared_bytes);
    driver_config.hStream = reinterpret_cast<CUstream>(stream);
    driver_config.attrs = &driver_attribute;
    driver_config.numAttrs = 1;
  }
  // The structs point into themselves.
  ClusterConfig(const ClusterConfig&) = delete;
  ClusterConfig& operator=(const ClusterConfig&) = delete;
};

}  // namespace

void* driver_entry_point(const char* name, int version) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  CUDA_CHECK(cudaGetDriverEntryPointByVersion(name, &fn, version, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || !fn)
    throw GpuError(std::string("the driver has no ") + name + ": it is older than this program needs");
  return fn;
}

KernelFacts kernel_facts(const KernelLaunchShape& k) {
  KernelFacts f;
  if (!k.run_time_compiled) {
    cudaFuncAttributes a{};
    CUDA_CHECK(cudaFuncGetAttributes(&a, k.kernel));
    f.registers = a.numRegs;
    f.max_threads_per_block = a.maxThreadsPerBlock;
    f.static_shared_bytes = a.sharedSizeBytes;
    f.local_bytes = a.localSizeBytes;
    return f;
  }
  f.registers = attribute(k, CU_FUNC_ATTRIBUTE_NUM_REGS);
  f.max_threads_per_block = attribute(k, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  f.static_shared_bytes = static_cast<std::size_t>(attribute(k, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES));
  f.local_bytes = static_cast<std::size_t>(attribute(k, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES));
  return f;
}

void allow_dynamic_shared(const KernelLaunchShape& k) {
  const int bytes = static_cast<int>(k.dynamic_shared_bytes);
  if (!k.run_time_compiled) {
    CUDA_CHECK(cudaFuncSetAttribute(k.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    return;
  }
  check(driver<decltype(&cuFuncSetAttribute)>("cuFuncSetAttribute")(
            function_of(k), CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes),
        "cuFuncSetAttribute");
}

int blocks_per_sm(const KernelLaunchShape& k) {
  int blocks = 0;
  if (!k.run_time_compiled) {
    CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k.kernel, k.threads_per_block, k.dynamic_shared_bytes));
    return blocks;
  }
  check(driver<decltype(&cuOccupancyMaxActiveBlocksPerMultiprocessor)>("cuOccupancyMaxActiveBlocksPerMultiprocessor")(
            &blocks, function_of(k), k.threads_per_block, k.dynamic_shared_bytes),
        "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  return blocks;
}

void launch_kernel(const KernelLaunchShape& k, dim3 grid, dim3 block, void** args, cudaStream_t stream, int cluster) {
  if (cluster > 1) {
    const ClusterConfig c(k, grid, block, cluster, stream);
    if (!k.run_time_compiled)
      CUDA_CHECK(cudaLaunchKernelExC(&c.config, k.kernel, args));
    else
      check(driver<decltype(&cuLaunchKernelEx)>("cuLaunchKernelEx")(&c.driver_config, function_of(k), args, nullptr),
            "cuLaunchKernelEx");
  } else if (!k.run_time_compiled) {
    CUDA_CHECK(cudaLaunchKernel(k.kernel, grid, block, args, k.dynamic_shared_bytes, stream));
  } else {
    check(driver<decltype(&cuLaunchKernel)>("cuLaunchKernel")(function_of(k), grid.x, grid.y, grid.z, block.x, block.y,
                                                              block.z, static_cast<unsigned>(k.dynamic_shared_bytes),
                                                              reinterpret_cast<CUstream>(stream), args, nullptr),
          "cuLaunchKernel");
  }
  CUDA_CHECK(cudaGetLastError());
}

int resident_clusters(const KernelLaunchShape& k, int cluster) {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  using Key = std::tuple<const void*, int, int, int, std::size_t>;
  static std::mutex guard;
  static std::map<Key, int> known;
  const std::lock_guard<std::mutex> lock(guard);
  const Key key{k.kernel, device, cluster, k.threads_per_block, k.dynamic_shared_bytes};
  if (const auto it = known.find(key); it != known.end()) return it->second;
  // One cluster's grid: the count is of clusters, whatever the launch's grid.
  const ClusterConfig c(k, dim3(static_cast<unsigned>(cluster)), dim3(static_cast<unsigned>(k.threads_per_block)),
                        cluster, nullptr);
  int clusters = 0;
  if (!k.run_time_compiled)
    CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, k.kernel, &c.config));
  else
    check(driver<decltype(&cuOccupancyMaxActiveClusters)>("cuOccupancyMaxActiveClusters")(&clusters, function_of(k),
                                                                                          &c.driver_config),
          "cuOccupancyMaxActiveClusters");
  known[key] = clusters;
  return clusters;
}

void* load_function(const std::string& cubin, const std::string& name) {
  // The runtime makes its context current on the first call that needs one; the driver's module
  // calls need it current already.
  CUDA_CHECK(cudaFree(nullptr));
  CUmodule module = nullptr;
  const CUresult loaded = driver<decltype(&cuModuleLoadData)>("cuModuleLoadData")(&module, cubin.data());
  if (loaded == CUDA_ERROR_UNSUPPORTED_PTX_VERSION || loaded == CUDA_ERROR_INVALID_IMAGE ||
      loaded == CUDA_ERROR_NO_BINARY_FOR_GPU) {
    int driver_version = 0;
    cudaDriverGetVersion(&driver_version);
    throw GpuError("the driver (CUDA " + std::to_string(driver_version / 1000) + "." +
                   std::to_string(driver_version % 1000 / 10) +
                   ") cannot load the code NVRTC compiled for this GPU: the driver is older than the run-time "
                   "compiler; update the NVIDIA driver, or run the compiled set only");
  }
  check(loaded, "cuModuleLoadData");
  CUfunction function = nullptr;
  check(driver<decltype(&cuModuleGetFunction)>("cuModuleGetFunction")(&function, module, name.c_str()),
        "cuModuleGetFunction");
  return function;
}

}  // namespace tilescope
