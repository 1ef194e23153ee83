// Flags between blocks in global memory: a block releases what it wrote by storing a flag, another
// acquires it by reading the flag (the PTX ISA's memory consistency model, gpu scope). Used where
// the blocks of one launch hand each other partial results (wgmma_tma's split K).
#pragma once

#include "kernels/ptx/device_types.cuh"

namespace tilescope {

// Stores v at flag once every write this thread made before it (and, after a barrier, the block's
// writes the barrier ordered before it) is visible to the whole GPU.
__device__ __forceinline__ void store_release_gpu(unsigned* flag, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;\n" ::"l"(flag), "r"(v) : "memory");
}

// The flag's value; what the thread reads after it sees at least what was written before the store
// that put the value there.
__device__ __forceinline__ unsigned load_acquire_gpu(const unsigned* flag) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(v) : "l"(flag) : "memory");
  return v;
}

// A float of global memory read from L2, past the SM's own L1 (which other SMs' writes do not update).
__device__ __forceinline__ float load_l2(const float* at) {
  float v;
  asm volatile("ld.global.cg.f32 %0, [%1];\n" : "=f"(v) : "l"(at) : "memory");
  return v;
}

// Sleeps about ns nanoseconds (a spinning thread gives the issue slots back meanwhile).
__device__ __forceinline__ void sleep_ns(unsigned ns) {
  asm volatile("nanosleep.u32 %0;\n" ::"r"(ns));
}

}  // namespace tilescope
