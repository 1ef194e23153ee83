// 02 smem_tiled — TILE x TILE tiles of A and B staged in shared memory.
//
// Idea: the threads of a block compute a TILE x TILE tile of C together. The K loop runs in
// phases; in each phase every thread loads ONE element of A's tile and ONE of B's tile into
// shared memory, the block synchronises, and then every thread reads TILE values of each tile
// from fast shared memory instead of global memory.
// Changed from naive: global reads drop by a factor TILE (each element of A is now read
//   ceil(N / TILE) times instead of N), at the price of two __syncthreads per phase.
// Thread -> C: C(row, col) with row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x
//   (the same one-element-per-thread mapping as naive; only the data path changed).
// Ragged sizes: elements of a tile outside A or B are loaded as 0, which adds nothing to the sum;
//   threads outside C compute but do not store.
// AᵀA: the A-operand tile is A^T's; it is loaded as A[k][m] (contiguous along m, so coalesced)
//   and read transposed from shared memory.
// What to look for: the phase structure in the tile animation; the read heatmaps drop by TILE.
//   TILE = 32 means 1024 threads per block, the most a block may have.
#include "kernel_common.cuh"
#include "variant.h"

namespace tilescope {

extern const VariantDescriptor kSmemTiledVariant;

namespace {

template <typename T, int TILE, bool kAta>
__global__ void smem_tiled_kernel(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C,
                                  int M, int N, int K) {
  __shared__ T As[TILE][TILE];  // gemm: As[m][k];  ata: As[k][m]
  __shared__ T Bs[TILE][TILE];  // Bs[k][n]
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  T acc = 0;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    if (kAta) {
      const int k = k0 + ty, m = blockIdx.y * TILE + tx;
      As[ty][tx] = (k < K && m < M) ? A[(std::int64_t)k * N + m] : T(0);
    } else {
      const int k = k0 + tx;
      As[ty][tx] = (row < M && k < K) ? A[(std::int64_t)row * K + k] : T(0);
    }
    {
      const int k = k0 + ty;
      Bs[ty][tx] = (k < K && col < N) ? B[(std::int64_t)k * N + col] : T(0);
    }
    // Every tile element must be in shared memory before anyone reads it.
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < TILE; ++kk) acc += (kAta ? As[kk][ty] : As[ty][kk]) * Bs[kk][tx];
    // Nobody may overwrite the tiles for the next phase while a slower thread still reads them.
    __syncthreads();
  }
  if (row < M && col < N) C[(std::int64_t)row * N + col] = acc;
}

template <typename T, int TILE>
const void* tiled_kernel(Problem p) {
  return p == Problem::Ata ? reinterpret_cast<const void*>(smem_tiled_kernel<T, TILE, true>)
                           : reinterpret_cast<const void*>(smem_tiled_kernel<T, TILE, false>);
}

template <typename T>
const void* tiled_kernel(Problem p, int tile) {
  switch (tile) {
    case 8: return tiled_kernel<T, 8>(p);
    case 16: return tiled_kernel<T, 16>(p);
    case 32: return tiled_kernel<T, 32>(p);
    default: throw GpuError("smem_tiled was not compiled for TILE = " + std::to_string(tile));
  }
}

KernelLaunchShape smem_tiled_kernel_for(const GemmArgs& g, int config_index) {
  const TileConfig& cfg = kSmemTiledVariant.configs[config_index];
  KernelLaunchShape k;
  k.kernel = g.precision == Precision::F32 ? tiled_kernel<float>(g.problem, cfg.bm)
                                           : tiled_kernel<double>(g.problem, cfg.bm);
  k.threads_per_block = cfg.threads();
  return k;
}

void smem_tiled_launch(const GemmArgs& g, int config_index) {
  const TileConfig& cfg = kSmemTiledVariant.configs[config_index];
  const int tile = cfg.bm;
  const dim3 block(tile, tile);
  const dim3 grid = checked_grid(ceil_div(g.shape.N, tile), ceil_div(g.shape.M, tile));
  const KernelLaunchShape k = smem_tiled_kernel_for(g, config_index);
  int M = static_cast<int>(g.shape.M), N = static_cast<int>(g.shape.N), K = static_cast<int>(g.shape.K);
  const void* a = g.a;
  const void* b = g.problem == Problem::Ata ? g.a : g.b;
  void* c = g.c;
  void* params[] = {&a, &b, &c, &M, &N, &K};
  CUDA_CHECK(cudaLaunchKernel(k.kernel, grid, block, params, 0, g.stream));
  CUDA_CHECK_LAUNCH("smem_tiled_kernel");
}

std::size_t smem_tiled_shared_bytes(const TileConfig& cfg, Precision p) {
  return 2u * cfg.bm * cfg.bm * element_bytes(p);
}

TileConfig tile_config(int tile) {
  TileConfig c;
  c.name = std::to_string(tile);
  c.bm = c.bn = c.bk = tile;
  c.threads_x = c.threads_y = tile;
  c.math = "FP32 / FP64 FMA";
  return c;
}

}  // namespace

extern const VariantDescriptor kSmemTiledVariant = {
    "smem_tiled",
    "Shared-memory tiled",
    "The block's threads cooperatively copy a TILE x TILE tile of A and of B into fast on-chip "
    "shared memory, wait for each other, then each thread multiplies from there. Every element "
    "fetched from global memory is now reused TILE times.",
    Backend::Cuda,
    {tile_config(8), tile_config(16), tile_config(32)},
    nullptr,
    smem_tiled_launch,
    smem_tiled_kernel_for,
    smem_tiled_shared_bytes,
};

}  // namespace tilescope
