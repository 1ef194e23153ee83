// Flags that the blocks of one launch set and wait on (split K's and stream-K's marks: a block
// leaves its partial sums and marks them; the block that adds them waits for the mark), kept zeroed
// between launches so that a launch has nothing to clear before it runs. Clearing them on the
// stream in front of each launch was a second operation in the time: a split AᵀA at N = 2048 on an
// H100 was timed 1.9–2.8 µs longer than its kernel ran (cuBLAS's and a whole tile's 0.1–0.7).
//
// Each (device, stream) has one buffer, zeroed on its stream when it is made or grown. A kernel
// that waits for a mark clears it once it has seen it: every mark a launch sets is waited for once
// in that launch, so the launch leaves the buffer as it found it, and the next launch on the same
// stream starts after it. Launches on different streams use different buffers.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace tilescope {

struct StreamMarks {
  unsigned* marks = nullptr;  // device memory: `count` zeroed flags, in the stream's order
  std::size_t count = 0;      // at least the count asked for
};

// The zeroed marks of the current device and `stream`, at least `count` of them. Growing enqueues
// the new buffer's zeroing on the stream (before the launch that asked) and frees the old buffer
// after what the stream already holds. Thread-safe. Throws GpuError on a failed CUDA call.
StreamMarks zeroed_marks(std::size_t count, cudaStream_t stream);

}  // namespace tilescope
