#include <atomic>

#include "kernels/cuda/cuda_check.h"
#include "kernels/measure/launch_gate.h"

namespace tilescope {
namespace {

// The GPU's nanosecond clock.
__device__ __forceinline__ long long global_ns() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Waits until flags[0] is set (by the host) or timeout_ns have passed; then flags[1] says which.
__global__ void gate_kernel(volatile int* flags, long long timeout_ns) {
  const long long t0 = global_ns();
  while (flags[0] == 0) {
    if (global_ns() - t0 > timeout_ns) {
      flags[1] = 1;
      return;
    }
#if __CUDA_ARCH__ >= 700
    __nanosleep(500);
#endif
  }
}

}  // namespace

LaunchGate::LaunchGate() {
  void* host = nullptr;
  CUDA_CHECK(cudaHostAlloc(&host, 2 * sizeof(int), cudaHostAllocMapped));
  flags_ = static_cast<volatile int*>(host);
  flags_[0] = 1;
  flags_[1] = 0;
  void* device = nullptr;
  CUDA_CHECK(cudaHostGetDevicePointer(&device, host, 0));
  device_flags_ = static_cast<int*>(device);
}

LaunchGate::~LaunchGate() {
  if (flags_) cudaFreeHost(const_cast<int*>(flags_));
}

void LaunchGate::close(cudaStream_t stream) {
  flags_[0] = 0;
  flags_[1] = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);  // closed before the kernel can look
  gate_kernel<<<1, 1, 0, stream>>>(device_flags_, kTimeoutNs);
  CUDA_CHECK_LAUNCH("gate_kernel");
}

void LaunchGate::open() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  flags_[0] = 1;
}

bool LaunchGate::timed_out() const {
  return flags_[1] != 0;
}

}  // namespace tilescope
