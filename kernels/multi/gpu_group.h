// The GPUs of one machine that a split run uses, from one thread: per GPU a compute and a
// transfer stream, a cuBLAS handle, the buffers of the split's layout and, when a split moves data
// with NCCL, one communicator per GPU from ncclCommInitAll (one process, one rank per GPU). Made
// for a count of GPUs and kept while runs ask for that count.
#pragma once

#include <cuda_runtime.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kernels/core/no_copy.h"
#include "kernels/measure/gpu_buffers.h"
#include "kernels/multi/split.h"

namespace tilescope {

class GpuGroup : NoCopy {
 public:
  // Devices 0 .. count-1. Throws GpuError when a stream or handle cannot be made.
  explicit GpuGroup(int count);
  ~GpuGroup();

  int size() const { return static_cast<int>(gpus_.size()); }
  const std::vector<int>& devices() const { return devices_; }
  // The NCCL communicators, made on first use (throws GpuError when NCCL is missing or fails).
  void ensure_communicators();
  // Communicators of the GPUs of `ranks` among themselves (their rank: their place in the list), made
  // on first use with ncclCommInitAll and kept like the group's.
  const std::vector<NcclComm>& team_communicators(const std::vector<int>& ranks);
  // Sizes each GPU's buffers for `layout` (element sizes of the inputs and of C) and returns the
  // shares that point into them.
  std::vector<GpuShare> shares_for(const SplitLayout& layout, std::size_t input_bytes, std::size_t c_bytes);
  // Waits for every stream of every GPU.
  void synchronize() const;
  // After a failed run: NCCL's communicators may be in an error state; they are aborted and made
  // again on the next use.
  void drop_communicators();

 private:
  struct PerGpu {
    cudaStream_t compute = nullptr, transfer = nullptr;
    cublasContext* cublas = nullptr;
    DeviceBuffer a, b, c, scratch;
  };
  std::vector<int> devices_;
  std::vector<std::unique_ptr<PerGpu>> gpus_;
  std::vector<NcclComm> comms_;
  std::map<std::vector<int>, std::vector<NcclComm>> teams_;
};

// How many CUDA GPUs this machine has (0 without CUDA or a driver).
int cuda_gpu_count();
// "" when `count` GPUs can be asked for on this machine, otherwise why not (too many, none).
std::string gpu_count_error(int count);
// The name of each of the first `count` devices ("NVIDIA H200"), as cudaGetDeviceProperties gives it.
std::vector<std::string> gpu_names(int count);

}  // namespace tilescope
