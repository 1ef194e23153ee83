// Launching and asking about a kernel the same way whether it was built ahead of time or compiled
// at run time. The runtime API's function calls (cudaLaunchKernel, cudaFuncGetAttributes,
// cudaOccupancy...) take a built kernel's host stub; a kernel compiled at run time is a driver
// function (CUfunction) of a module loaded from its cubin, asked through the driver API (reached
// through the runtime's cudaGetDriverEntryPointByVersion: the program links no libcuda).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "kernels/core/variant.h"

namespace tilescope {

// A driver function by name, with its signature as of CUDA `version` (12000 for 12.0): the runtime
// hands out its address, so the program links no driver library. Throws GpuError where the driver
// has none.
void* driver_entry_point(const char* name, int version);
template <typename F>
F driver_function(const char* name, int version) {
  return reinterpret_cast<F>(driver_entry_point(name, version));
}

struct KernelFacts {
  int registers = 0;  // per thread
  int max_threads_per_block = 0;
  std::size_t static_shared_bytes = 0;
  std::size_t local_bytes = 0;  // per thread (spills, stack)
};

// What the compiled code of `k` needs. Throws GpuError on a failed call.
KernelFacts kernel_facts(const KernelLaunchShape& k);
// Allows k more than 48 KB of dynamic shared memory per block.
void allow_dynamic_shared(const KernelLaunchShape& k);
// Blocks of k per multiprocessor, as the driver computes it.
int blocks_per_sm(const KernelLaunchShape& k);
// Launches k (args: a pointer to each argument, as cudaLaunchKernel takes them) and checks the launch.
// cluster > 1: in clusters of that many blocks along x (grid.x a multiple of it), through the calls
// that take a cluster's size (cudaLaunchKernelExC, cuLaunchKernelEx).
void launch_kernel(const KernelLaunchShape& k, dim3 grid, dim3 block, void** args, cudaStream_t stream,
                   int cluster = 1);
// Clusters of `cluster` blocks of k (k.threads_per_block threads each, along x) that the current
// device places at once; k's dynamic shared memory must be allowed (allow_dynamic_shared). It
// depends on the kernel, its launch shape and the device alone, so it is asked once for each.
int resident_clusters(const KernelLaunchShape& k, int cluster);

// A run-time compiled kernel: `name` (mangled) from a cubin, loaded into the current context once.
// Throws GpuError on a failed load.
void* load_function(const std::string& cubin, const std::string& name);

}  // namespace tilescope
