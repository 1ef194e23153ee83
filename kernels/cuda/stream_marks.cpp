#include "kernels/cuda/stream_marks.h"

#include <map>
#include <mutex>
#include <utility>

#include "kernels/cuda/cuda_check.h"

namespace tilescope {

StreamMarks zeroed_marks(std::size_t count, cudaStream_t stream) {
  static std::mutex guard;
  static std::map<std::pair<int, cudaStream_t>, StreamMarks> buffers;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(guard);
  StreamMarks& held = buffers[{device, stream}];
  if (held.count >= count && held.marks) return held;
  // Grown by doubling from a page of flags, so that a few launches of growing sizes settle at once.
  std::size_t grown = held.count ? held.count : 1024;
  while (grown < count) grown *= 2;
  StreamMarks fresh;
  CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&fresh.marks), grown * sizeof(unsigned), stream));
  CUDA_CHECK(cudaMemsetAsync(fresh.marks, 0, grown * sizeof(unsigned), stream));
  fresh.count = grown;
  if (held.marks) CUDA_CHECK(cudaFreeAsync(held.marks, stream));
  held = fresh;
  return held;
}

}  // namespace tilescope
