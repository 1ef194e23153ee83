// Device memory as RAII, and the small helper kernels a measured run needs: random fill,
// poison, float<->double conversion and the relative error against a reference.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "kernels/core/gemm_types.h"
#include "kernels/core/no_copy.h"
#include "kernels/measure/reference.h"

namespace tilescope {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes) { resize(bytes); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) {
    o.ptr_ = nullptr;
    o.bytes_ = 0;
  }

  // Grows (never shrinks) so a sweep reuses its allocations; contents are not preserved.
  void resize(std::size_t bytes);
  void release();
  void* get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// A non-blocking CUDA stream, destroyed with the object (the instrumented runs' own stream).
class CudaStream : NoCopy {
 public:
  CudaStream();
  ~CudaStream();
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

// Writes the run's inputs in p's storage type (float, double, __half, __nv_bfloat16) for i in
// [0, count) (random_inputs.h): the same numbers as fill_inputs on the host, bit for bit.
void fill_random(void* dst, Precision p, std::int64_t count, std::uint64_t seed, int stream, cudaStream_t s);
// All bits set over `count` elements of C stored as t: a NaN in every type, which no correct GEMM
// of finite inputs produces.
void poison(void* dst, OutputType t, std::int64_t count, cudaStream_t s);
// dst (double) = src (the inputs of a run in p, in its storage type), element-wise and exact.
void widen_to_double(double* dst, const void* src, Precision p, std::int64_t count, cudaStream_t s);
// max |c - ref| / max |ref| (reference.h's measure) over an M x N row-major C stored as t (upper
// triangle only for UpperTriangle); NaN entries are counted as unwritten. Synchronises the stream.
ErrorReport device_compare(const void* c, OutputType t, const double* ref, std::int64_t m, std::int64_t n,
                           OutputPart part, cudaStream_t s);

}  // namespace tilescope
