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
void launch_kernel(const KernelLaunchShape& k, dim3 grid, dim3 block, void** args, cudaStream_t stream);

// A run-time compiled kernel: `name` (mangled) from a cubin, loaded into the current context once.
// Throws GpuError on a failed load.
void* load_function(const std::string& cubin, const std::string& name);

}  // namespace tilescope
