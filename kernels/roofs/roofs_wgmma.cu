// The wgmma roofs: Hopper's warpgroup MMA (wgmma.mma_async) at its full rate. Compiled for
// sm_90a only (CMakeLists.txt); see roofs_wgmma.h.
//
// A warpgroup (4 warps, 128 threads) issues wgmma.mma_async m64n128k16 (f16, bf16) or m64n128k8
// (tf32) with both operands in shared memory, described by matrix descriptors, and FP32
// accumulators in registers (64 per thread). Instructions into one accumulator set follow each
// other without waiting (the hardware chains them); a commit group holds 4, and two accumulator
// sets alternate, so one group is always in flight while the warpgroup waits for the other
// (wgmma.wait_group 1). Two warpgroups per block, each on its own shared tiles of random values
// (roofs_device.cuh). The tiles' layout is the descriptor's no-swizzle one: core matrices of
// 8 rows x 16 bytes, 128 bytes apart along K and 256 bytes apart along M or N; which value
// lands where does not matter to a rate.
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/cuda/cuda_check.h"
#include "kernels/ptx/wgmma_ptx.cuh"
#include "kernels/roofs/roofs_device.cuh"
#include "kernels/roofs/roofs_wgmma.h"

namespace tilescope {

namespace {

constexpr int kM = 64, kN = 128;               // one instruction's tile of C per warpgroup
constexpr int kKBytes = 32;                    // its K: 16 f16/bf16 or 8 tf32, 32 bytes of a row
constexpr int kPerGroup = kWgmmaRoofPerGroup;  // instructions per commit group
constexpr int kWarpgroups = kWgmmaRoofThreads / 128;
static_assert(kWgmmaRoofInstructionsPerIteration == kWarpgroups * 2 * kPerGroup,
              "each warpgroup issues two commit groups per iteration (the loop below)");
constexpr int kATileBytes = kM * kKBytes, kBTileBytes = kN * kKBytes;

// The shared-memory matrix descriptor of sm_90: start address, the byte offset between core
// matrices along K (leading) and along M or N (stride), all in 16-byte units; no swizzle.
__device__ __forceinline__ std::uint64_t matrix_descriptor(const void* tile) {
  const auto address = static_cast<std::uint32_t>(__cvta_generic_to_shared(tile));
  constexpr std::uint64_t kLeading = 128 >> 4, kStride = 256 >> 4;
  return static_cast<std::uint64_t>((address >> 4) & 0x3FFF) | (kLeading << 16) | (kStride << 32);
}

// One wgmma.mma_async into the thread's 64 accumulators (wgmma_ptx.cuh), both operands K-major.
template <WgmmaRoof R>
__device__ __forceinline__ void wgmma(float (&d)[kM * kN / 128], std::uint64_t a, std::uint64_t b) {
  constexpr WgmmaInput T = R == WgmmaRoof::F16    ? WgmmaInput::F16
                           : R == WgmmaRoof::Bf16 ? WgmmaInput::BF16
                                                  : WgmmaInput::TF32;
  wgmma_m64<kN, T, 0, 0>(d, a, b, 1);
}

// A random 32-bit word of the input type: two f16 or bf16, or one tf32.
template <WgmmaRoof R>
__device__ __forceinline__ std::uint32_t random_word(int i) {
  const std::uint32_t h = random_bits(0, i);
  return R == WgmmaRoof::F16 ? random_f16_pair(h) : R == WgmmaRoof::Bf16 ? random_bf16_pair(h) : random_tf32(h);
}

template <WgmmaRoof R>
__global__ void __launch_bounds__(kWgmmaRoofThreads)
    wgmma_roof_kernel(int iterations, double* out, CycleSample* cycles) {
  const long long started = clock64();
  __shared__ __align__(128) std::uint32_t tiles[kWarpgroups][(kATileBytes + kBTileBytes) / 4];
  for (int i = threadIdx.x; i < kWarpgroups * (kATileBytes + kBTileBytes) / 4; i += blockDim.x)
    (&tiles[0][0])[i] = random_word<R>(i / blockDim.x);
  // wgmma reads shared memory through the async proxy: the plain stores above must be made
  // visible to it, then to every thread's instructions.
  fence_proxy_async();
  __syncthreads();
  const int group = threadIdx.x / 128;
  const std::uint64_t a = matrix_descriptor(&tiles[group][0]);
  const std::uint64_t b = matrix_descriptor(&tiles[group][kATileBytes / 4]);
  float d0[kM * kN / 128], d1[kM * kN / 128];
#pragma unroll
  for (int i = 0; i < kM * kN / 128; ++i) d0[i] = d1[i] = 0;
  for (int it = 0; it < iterations; ++it) {
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < kPerGroup; ++s) wgmma<R>(d0, a, b);
    wgmma_commit();
    wgmma_wait<1>();
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < kPerGroup; ++s) wgmma<R>(d1, a, b);
    wgmma_commit();
    wgmma_wait<1>();
  }
  wgmma_wait<0>();
  double sum = 0;
#pragma unroll
  for (int i = 0; i < kM * kN / 128; ++i) sum += d0[i] + d1[i];
  out[static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x] = sum;
  record_cycles(started, cycles);
}

template <WgmmaRoof R>
void launch(int blocks, int iterations, double* out, CycleSample* cycles, cudaStream_t stream) {
  wgmma_roof_kernel<R><<<blocks, kWgmmaRoofThreads, 0, stream>>>(iterations, out, cycles);
  CUDA_CHECK_LAUNCH("wgmma_roof_kernel");
}

template <WgmmaRoof R>
int blocks_per_sm() {
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, wgmma_roof_kernel<R>, kWgmmaRoofThreads, 0));
  return per_sm;
}

}  // namespace

bool wgmma_roofs_built() {
  return kSm90aCodeBuilt;
}

int wgmma_roof_blocks_per_sm(WgmmaRoof roof) {
  if (roof == WgmmaRoof::F16) return blocks_per_sm<WgmmaRoof::F16>();
  if (roof == WgmmaRoof::Bf16) return blocks_per_sm<WgmmaRoof::Bf16>();
  return blocks_per_sm<WgmmaRoof::Tf32>();
}

void launch_wgmma_roof(WgmmaRoof roof, int blocks, int iterations, double* out, CycleSample* cycles,
                       cudaStream_t stream) {
  if (roof == WgmmaRoof::F16)
    launch<WgmmaRoof::F16>(blocks, iterations, out, cycles, stream);
  else if (roof == WgmmaRoof::Bf16)
    launch<WgmmaRoof::Bf16>(blocks, iterations, out, cycles, stream);
  else
    launch<WgmmaRoof::Tf32>(blocks, iterations, out, cycles, stream);
}

}  // namespace tilescope
