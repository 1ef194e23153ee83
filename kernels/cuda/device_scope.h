// Makes a CUDA device current for a scope and puts the caller's back when it ends: the runtime's
// current device is per thread, and the code that drives several GPUs from one thread switches it
// for each GPU's calls.
#pragma once

#include <cuda_runtime.h>

#include "kernels/core/no_copy.h"
#include "kernels/cuda/cuda_check.h"

namespace tilescope {

class DeviceScope : NoCopy {
 public:
  explicit DeviceScope(int device) {
    CUDA_CHECK(cudaGetDevice(&previous_));
    CUDA_CHECK(cudaSetDevice(device));
  }
  ~DeviceScope() { cudaSetDevice(previous_); }

 private:
  int previous_ = 0;
};

}  // namespace tilescope
