// Device pieces the roof microbenchmarks share (roofs.cu, roofs_wgmma.cu, roofs_fed.cu): random
// operands of each input type, and the cycles a block ran.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace tilescope {

// ---- random operands ----------------------------------------------------------------------------
// A GEMM's operands are random, and so are the roofs': constant ones switch fewer transistors
// and draw less power, and a board near its power limit rewards that with a higher clock.

// 32 random bits from an index (an integer hash: the same operands in every launch).
__device__ __forceinline__ std::uint32_t hash_bits(std::uint32_t index) {
  std::uint32_t x = index * 0x9E3779B9u;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  return x ^ (x >> 16);
}
// 32 random bits for register `i` of operand set `set` of this thread.
__device__ __forceinline__ std::uint32_t random_bits(int set, int i) {
  return hash_bits((blockIdx.x * blockDim.x + threadIdx.x) * 64u + set * 32u + i);
}
// Random values in [0.5, 1) with random signs: the sign and mantissa bits from the hash, the
// exponent of 0.5. Two f16 or bf16 per register; one tf32 (its low 13 bits zero) or double.
__device__ __forceinline__ std::uint32_t random_f16_pair(std::uint32_t h) {
  return (h & 0x83FF83FFu) | 0x38003800u;
}
__device__ __forceinline__ std::uint32_t random_bf16_pair(std::uint32_t h) {
  return (h & 0x807F807Fu) | 0x3F003F00u;
}
__device__ __forceinline__ std::uint32_t random_tf32(std::uint32_t h) {
  return (h & 0x807FE000u) | 0x3F000000u;
}
__device__ __forceinline__ double random_double(int set, int i) {
  const std::uint32_t hi = (random_bits(set, 2 * i) & 0x800FFFFFu) | 0x3FE00000u;
  return __hiloint2double(static_cast<int>(hi), static_cast<int>(random_bits(set, 2 * i + 1)));
}

// ---- the clock ----------------------------------------------------------------------------------
// A compute roof records the SM clock it ran at: every block notes its SM and that SM's cycle
// counter when it starts and when its last warp is done. An SM's span, from its first block's
// start to its last block's end, lasts the launch, whose length the events measure (the SMs'
// counters are not one clock, so spans are taken per SM). The cycle counter agrees with the
// clocks the driver reports; the global nanosecond timer read inside a kernel was up to 4% off.
struct CycleSample {
  unsigned long long start, end;
  unsigned int sm, unused;
};
__device__ __forceinline__ void record_cycles(long long start, CycleSample* samples) {
  __syncthreads();
  const long long end = clock64();
  unsigned int sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if (threadIdx.x == 0)
    samples[blockIdx.x] = {static_cast<unsigned long long>(start), static_cast<unsigned long long>(end), sm, 0};
}

}  // namespace tilescope
