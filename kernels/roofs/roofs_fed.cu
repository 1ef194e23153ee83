// The shared-memory-fed mma.sync roofs (roofs_fed.h): the traffic of a GEMM's main loop with
// nothing else in it. Each block owns one SM: one 48 KB slab that its warps multiply, and up to
// three landing slabs for the copies. Per slab, every thread copies its 12 chunks of a slab from
// an L2-resident buffer of random operands (cp.async) into the next landing slab, and its warp
// multiplies: per k step of 32 bytes, ldmatrix.x4 brings a 64 x 16-element piece of A (four
// instruction rows) and one of B (eight instruction columns), then 32 mma.sync. The bytes written
// and read per instruction are the mma_sync kernel's with 128 x 256 block tiles, but no copy is
// waited for by another thread, so no barrier stalls the loop: the copies only land (each thread
// keeps up to two slabs of its own in flight, the landing slabs taken in turn, so none is
// overwritten while its copy is in flight) and take their share of shared memory's bandwidth.
// The multiplied slab holds random operands, filled once; what they mean does not matter here, so
// B is read n-major without .trans, and tf32 goes through ldmatrix too (no faster than the
// kernel's 32-bit loads).
#include <cstdint>

#include "kernels/cuda/cuda_check.h"
#include "kernels/ptx/mma_ptx.cuh"
#include "kernels/roofs/roofs_device.cuh"
#include "kernels/roofs/roofs_fed.h"

namespace tilescope {

namespace {

constexpr int kRowChunks = 8, kRowBytes = 128;  // a row of a tile: 8 chunks of 16 bytes
constexpr int kARows = 128, kBRows = 256, kRows = kARows + kBRows;
constexpr int kSlabChunks = kRows * kRowChunks;
constexpr int kChunksPerThread = kSlabChunks / kFedRoofThreads;
static_assert(kSlabChunks * 16 == static_cast<int>(kFedRoofSlabBytes), "a slab is its rows of 128 bytes");
static_assert(kSlabChunks % kFedRoofThreads == 0, "every thread copies the same number of chunks");

// Chunk `chunk` of row `row`, swizzled: the 8 rows an ldmatrix phase reads fall on 8 chunks.
__device__ __forceinline__ int chunk_at(int row, int chunk) {
  return row * kRowChunks + (chunk ^ (row & 7));
}

template <FedMmaRoof R>
__device__ __forceinline__ void mma(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  if constexpr (R == FedMmaRoof::F16)
    mma_m16n8k16_f16(d, a, b);
  else if constexpr (R == FedMmaRoof::Bf16)
    mma_m16n8k16_bf16(d, a, b);
  else
    mma_m16n8k8_tf32(d, a, b);
}

template <FedMmaRoof R>
__global__ void __launch_bounds__(kFedRoofThreads, 1)
    fed_mma_kernel(const uint4* __restrict__ source, int windows, int landings, int slabs, double* out,
                   CycleSample* cycles) {
  const long long started = clock64();
  extern __shared__ __align__(128) uint4 shared[];
  const uint4* const a_rows = shared;  // the slab multiplied: rows of A, then of B; then the landings
  const uint4* const b_rows = a_rows + kARows * kRowChunks;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int warp_m = warp / 4, warp_n = warp % 4;  // 2 x 4 warps of 64 x 64

  // Copies slab window `w` of the buffer into `dst`: thread t copies chunks c = 256 l + t, row
  // c / 8 = 32 l + t / 8 (whose XOR key is that of t / 8) at chunk t % 8: one base, constant steps.
  const int copy_row = tid / kRowChunks;
  const int copy_at = chunk_at(copy_row, tid % kRowChunks);
  auto copy_window = [&](uint4* dst, int w) {
    const uint4* src = source + static_cast<std::size_t>(w) * kSlabChunks + tid;
#pragma unroll
    for (int l = 0; l < kChunksPerThread; ++l)
      cp_async_16(dst + copy_at + l * kFedRoofThreads, src + l * kFedRoofThreads, 16);
    cp_async_commit();
  };
  // The multiplied slab: random operands, once.
  copy_window(shared, static_cast<int>(blockIdx.x) % windows);
  cp_async_wait<0>();
  __syncthreads();

  float acc[4][8][4];
#pragma unroll
  for (int mi = 0; mi < 4; ++mi)
#pragma unroll
    for (int ni = 0; ni < 8; ++ni)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[mi][ni][r] = 0;

  // The lane's ldmatrix row at k step 0 (byte addresses; rows are 128-byte aligned, so a row's
  // chunk bits are bits 4-6): A row 16 mi + lane % 16 of its warp's 64, chunk lane / 16; B (n-major)
  // row 16 nj + lane % 8 + 8 (lane / 16), chunk (lane / 8) % 2, matrices as mma's b registers want.
  const int a_row = warp_m * 64 + lane % 16, b_row = warp_n * 64 + lane % 8 + (lane / 16) * 8;
  const std::uint32_t a_lane = shared_address(a_rows + chunk_at(a_row, lane / 16));
  const std::uint32_t b_lane = shared_address(b_rows + chunk_at(b_row, (lane / 8) % 2));

  int window = (static_cast<int>(blockIdx.x) * 7 + 1) % windows;  // blocks spread over the buffer
  int landing = 0;
  for (int slab = 0; slab < slabs; ++slab) {
    // Landing slab `landing` was last written landings slabs ago: at most landings - 1 younger
    // groups were let pending since, so that copy has completed.
    copy_window(shared + (1 + landing) * kSlabChunks, window);
    window = window + 1 == windows ? 0 : window + 1;
    landing = landing + 1 == landings ? 0 : landing + 1;
    if (landings >= 3)
      cp_async_wait<2>();
    else if (landings == 2)
      cp_async_wait<1>();
    else
      cp_async_wait<0>();
#pragma unroll
    for (int ks = 0; ks < kRowChunks / 2; ++ks) {
      // k step ks reads chunks 2ks and 2ks + 1 of a row: the lane's byte address with 2ks XORed
      // into its chunk bits; instruction rows and column pairs are 16 rows (2 KB) apart.
      const std::uint32_t b_at = b_lane ^ (2 * ks * 16), a_at = a_lane ^ (2 * ks * 16);
      std::uint32_t b[8][2];
#pragma unroll
      for (int nj = 0; nj < 4; ++nj) {
        std::uint32_t r[4];
        ldmatrix_x4(r, b_at + nj * 16 * kRowBytes);
        b[2 * nj][0] = r[0];
        b[2 * nj][1] = r[1];
        b[2 * nj + 1][0] = r[2];
        b[2 * nj + 1][1] = r[3];
      }
#pragma unroll
      for (int mi = 0; mi < 4; ++mi) {
        std::uint32_t a[4];
        ldmatrix_x4(a, a_at + mi * 16 * kRowBytes);
#pragma unroll
        for (int ni = 0; ni < 8; ++ni) mma<R>(acc[mi][ni], a, b[ni]);
      }
    }
  }
  cp_async_wait<0>();
  float sum = 0;  // (a double sum here made the compiler spill accumulators)
#pragma unroll
  for (int mi = 0; mi < 4; ++mi)
#pragma unroll
    for (int ni = 0; ni < 8; ++ni)
#pragma unroll
      for (int r = 0; r < 4; ++r) sum += acc[mi][ni][r];
  out[static_cast<std::size_t>(blockIdx.x) * kFedRoofThreads + tid] = sum;
  record_cycles(started, cycles);
}

template <FedMmaRoof R>
__global__ void fill_kernel(std::uint32_t* words, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::uint32_t h = hash_bits(static_cast<std::uint32_t>(i));
    words[i] = R == FedMmaRoof::F16 ? random_f16_pair(h) : R == FedMmaRoof::Bf16 ? random_bf16_pair(h) : random_tf32(h);
  }
}

template <FedMmaRoof R>
void prepare(int landings, std::uint32_t* source, std::size_t words, cudaStream_t stream) {
  CUDA_CHECK(cudaFuncSetAttribute(fed_mma_kernel<R>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(fed_roof_shared_bytes(landings))));
  fill_kernel<R><<<1024, 256, 0, stream>>>(source, words);
  CUDA_CHECK_LAUNCH("fill_kernel");
}

template <FedMmaRoof R>
void launch(int blocks, int slabs, const void* source, int windows, int landings, double* out, CycleSample* cycles,
            cudaStream_t stream) {
  fed_mma_kernel<R><<<blocks, kFedRoofThreads, fed_roof_shared_bytes(landings), stream>>>(
      static_cast<const uint4*>(source), windows, landings, slabs, out, cycles);
  CUDA_CHECK_LAUNCH("fed_mma_kernel");
}

}  // namespace

int fed_roof_landings(std::size_t shared_optin_bytes) {
  const int slabs = static_cast<int>(shared_optin_bytes / kFedRoofSlabBytes);
  return slabs < 2 ? 0 : slabs - 1 < 3 ? slabs - 1 : 3;
}

std::size_t fed_roof_shared_bytes(int landings) {
  return static_cast<std::size_t>(1 + landings) * kFedRoofSlabBytes;
}

void prepare_fed_mma_roof(FedMmaRoof roof, int landings, std::uint32_t* source, std::size_t words,
                          cudaStream_t stream) {
  if (roof == FedMmaRoof::F16)
    prepare<FedMmaRoof::F16>(landings, source, words, stream);
  else if (roof == FedMmaRoof::Bf16)
    prepare<FedMmaRoof::Bf16>(landings, source, words, stream);
  else
    prepare<FedMmaRoof::Tf32>(landings, source, words, stream);
}

void launch_fed_mma_roof(FedMmaRoof roof, int landings, int blocks, int slabs, const void* source, int windows,
                         double* out, CycleSample* cycles, cudaStream_t stream) {
  if (roof == FedMmaRoof::F16)
    launch<FedMmaRoof::F16>(blocks, slabs, source, windows, landings, out, cycles, stream);
  else if (roof == FedMmaRoof::Bf16)
    launch<FedMmaRoof::Bf16>(blocks, slabs, source, windows, landings, out, cycles, stream);
  else
    launch<FedMmaRoof::Tf32>(blocks, slabs, source, windows, landings, out, cycles, stream);
}

}  // namespace tilescope
