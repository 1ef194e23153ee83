// 06 wgmma_tma — Hopper's own road to the tensor cores: warpgroups multiply straight out of shared
// memory (wgmma), the copy engine fills it (TMA), and the block splits into a warpgroup that copies
// and warpgroups that compute, handing the stages of a ring to each other through mbarriers.
// Built for sm_90a only (CMakeLists.txt reads this line of the launch file, which includes the
// kernel text): wgmma and setmaxnreg exist nowhere else.
//
// The launch file of wgmma_tma: the compiled set, typed tiles, descriptor, tensor maps, launch,
// mapping model; the story and the kernel are in 06_wgmma_tma.cuh.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/core/kernel_common.cuh"
#include "kernels/core/kernel_names.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "kernels/core/variant_launch.cuh"
#include "kernels/cuda/device_info.h"
#include "kernels/cuda/sm90a_build.h"
#include "kernels/cuda/stream_marks.h"
#include "kernels/instrument/probe.cuh"
#include "kernels/instrument/timeline_probe.cuh"
#include "kernels/jit/jit_kernels.h"
#include "kernels/jit/kernel_calls.h"
#include "kernels/models/block_tile_model.h"
#include "kernels/models/fragment_model.h"
#include "kernels/variants/06_wgmma_tma.cuh"

namespace tilescope {

extern const VariantDescriptor kWgmmaTmaVariant;

namespace {

// ---- the compiled set ---------------------------------------------------------------------------
// One row per configuration; the descriptor's configuration list is built from the same rows.
// Each row names what it changes from the first, the fast gemm; the description says it in words
// where a learner meets the configuration's name (the window's tooltip, `bench --list`).
constexpr WgmmaParams kParams[] = {
    {.description = "the fast gemm: 128 x 256 tiles, 4 stages, two consumer warpgroups, one block per SM"},
    {.stages = 3, .description = "one stage less in flight"},
    {.bn = 128,
     .n = 128,
     .stages = 5,
     .description = "half the tile: a third more L2 bytes per product than 128 x 256"},
    {.bn = 128,
     .n = 128,
     .stages = 5,
     .consumers = 1,
     .description = "one consumer for both slices: half the warps to hide each other's waits"},
    {.persistent = false, .description = "one block per tile: each block's last stores and first copies exposed"},
    {.tma_store = true, .description = "C leaves through shared memory, by TMA stores the consumers do not wait for"},
    {.stages = 3, .tma_store = true, .description = "C by TMA stores, one stage less"},
    {.cluster = 2, .description = "clusters of two tiles one above the other: each B slab read from L2 once"},
    {.cluster = 2, .tma_store = true, .description = "clusters of two, and C by TMA stores"},
    {.bm = 192,
     .bn = 192,
     .n = 192,
     .consumers = 3,
     .description = "three consumers: a square tile (AᵀA) with fewer L2 bytes than 128 x 256"},
    {.bm = 192,
     .bn = 192,
     .n = 192,
     .stages = 3,
     .consumers = 3,
     .tma_store = true,
     .description = "the square tile with C (AᵀA: with the mirrors) through shared memory, a stage less"},
    // tf32: K-major operands only, so B (AᵀA: A) is transposed first, in the time; 32-deep slabs
    // fill the same 128-byte rows as the 16-bit types' 64.
    {.bk = 32,
     .tf32 = true,
     .description = "TF32: the fast gemm's tile and ring, B transposed before the kernel (counted in the time)"},
    {.bk = 32, .tma_store = true, .tf32 = true, .description = "TF32, C by TMA stores"},
    {.bk = 32, .cluster = 2, .tf32 = true, .description = "TF32 in clusters of two: each slab of Bᵀ read from L2 once"},
    {.bm = 192,
     .bn = 192,
     .bk = 32,
     .n = 192,
     .stages = 3,
     .consumers = 3,
     .tma_store = true,
     .tf32 = true,
     .description = "TF32, the square tile (AᵀA: both operands from one transposed copy of A)"},
    // tf32 gemm without the pass: the tile computed transposed, B's slabs read into registers.
    {.bm = 256,
     .bn = 128,
     .bk = 32,
     .n = 256,
     .tf32 = true,
     .register_sourced = true,
     .band = 4,
     .description = "TF32 with no pass: C computed transposed (Cᵀ = Bᵀ Aᵀ), each slab of B read from shared memory "
                    "into registers as wgmma's A"},
    {.bm = 128,
     .bn = 128,
     .bk = 32,
     .n = 128,
     .stages = 5,
     .tf32 = true,
     .register_sourced = true,
     .description = "TF32 with no pass, half the tile: twice the blocks, for the sizes that leave SMs idle"},
    // C in the input type, as libraries write it: half the bytes of C; the bar is cuBLAS writing it so.
    {.tma_store = true,
     .c16 = true,
     .description = "C stored in the input type (f16, bf16), rounded from FP32, by TMA stores: half C's bytes"},
    {.cluster = 2,
     .tma_store = true,
     .c16 = true,
     .description = "C in the input type by TMA stores, in clusters of two"},
    // Stream-K: 512 tiles at 4096 are 3.9 waves of 132 blocks; the last wave's slabs shared out evenly.
    {.tma_store = true,
     .c16 = true,
     .stream_k = true,
     .description = "C in the input type by TMA stores, stream-K: the last wave's tiles shared out slab by slab, "
                    "so every SM ends together"},
    // The small sizes: 1024 has 32 tiles of 128 x 256 for 132 SMs, and 128 of 64 x 128 (one consumer).
    {.bm = 64,
     .bn = 128,
     .n = 128,
     .stages = 6,
     .consumers = 1,
     .tma_store = true,
     .description = "a quarter of the tile, one consumer: four times the blocks, for the sizes that leave SMs idle"},
    {.bm = 64,
     .bn = 128,
     .n = 128,
     .stages = 6,
     .consumers = 1,
     .tma_store = true,
     .c16 = true,
     .description = "the small tile with C in the input type"},
};
constexpr int kNumConfigs = sizeof(kParams) / sizeof(kParams[0]);

// The kernel text's tile of row C.
template <int C>
using RowShape =
    WgShape<kParams[C].bm, kParams[C].bn, kParams[C].bk, kParams[C].n, kParams[C].stages, kParams[C].consumers,
            kParams[C].cluster, kParams[C].persistent, kParams[C].tma_store, kParams[C].register_sourced,
            kParams[C].band, kParams[C].c16, kParams[C].split, kParams[C].stream_k>;

// Copies a rows x cols matrix between leading dimensions (to give the TMA 16-byte aligned rows).
template <typename T>
__global__ void copy_rows_kernel(const T* __restrict__ src, std::int64_t src_ld, T* __restrict__ dst,
                                 std::int64_t dst_ld, std::int64_t rows, std::int64_t cols) {
  const std::int64_t total = rows * cols;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    dst[(e / cols) * dst_ld + e % cols] = src[(e / cols) * src_ld + e % cols];
}

// dst (cols x rows, leading dimension dst_ld) = src (rows x cols, row-major) transposed, through
// shared memory in tiles of 64 x 64: each thread reads 16 bytes of a row of src and writes 16 bytes
// of a row of dst, four times (where a tile lies inside both matrices and their rows start on 16
// bytes; float by float otherwise). The tile's rows are padded by one float, so that the four
// floats a thread gathers down a column of the tile fall in different banks across its warp but
// for pairs.
constexpr int kTransposeTile = 64, kTransposeThreads = 256;
__global__ void __launch_bounds__(kTransposeThreads)
    transpose_kernel(const float* __restrict__ src, std::int64_t rows, std::int64_t cols, float* __restrict__ dst,
                     std::int64_t dst_ld) {
  __shared__ float tile[kTransposeTile][kTransposeTile + 1];
  constexpr int kQuads = kTransposeTile / 4, kRowsPerPass = kTransposeThreads / kQuads;
  const int quad = static_cast<int>(threadIdx.x) % kQuads, first = static_cast<int>(threadIdx.x) / kQuads;
  const std::int64_t r0 = static_cast<std::int64_t>(blockIdx.y) * kTransposeTile,
                     c0 = static_cast<std::int64_t>(blockIdx.x) * kTransposeTile;
  const bool whole_in = r0 + kTransposeTile <= rows && c0 + kTransposeTile <= cols && cols % 4 == 0 &&
                        reinterpret_cast<std::uintptr_t>(src) % 16 == 0;
  for (int y = first; y < kTransposeTile; y += kRowsPerPass) {
    const std::int64_t r = r0 + y, c = c0 + 4 * quad;
    float v[4];
    if (whole_in) {
      const float4 q = *reinterpret_cast<const float4*>(src + r * cols + c);
      v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    } else {
      for (int j = 0; j < 4; ++j) v[j] = r < rows && c + j < cols ? src[r * cols + c + j] : 0.0f;
    }
    for (int j = 0; j < 4; ++j) tile[y][4 * quad + j] = v[j];
  }
  __syncthreads();
  const bool whole_out = r0 + kTransposeTile <= rows && c0 + kTransposeTile <= cols && dst_ld % 4 == 0 &&
                         reinterpret_cast<std::uintptr_t>(dst) % 16 == 0;
  for (int y = first; y < kTransposeTile; y += kRowsPerPass) {
    const std::int64_t c = c0 + y, r = r0 + 4 * quad;  // row c of dst, from column y of the tile
    float v[4];
    for (int j = 0; j < 4; ++j) v[j] = tile[4 * quad + j][y];
    if (whole_out) {
      *reinterpret_cast<float4*>(dst + c * dst_ld + r) = make_float4(v[0], v[1], v[2], v[3]);
    } else if (c < cols) {
      for (int j = 0; j < 4; ++j)
        if (r + j < rows) dst[c * dst_ld + r + j] = v[j];
    }
  }
}

// Memory a launch needs for itself (a copy of an operand, split K's workspace), from the device's
// stream-ordered pool and given back, stream-ordered, with this object: making and using it are
// part of the launch, and so of the time. By default the pool hands its memory back to the driver
// at every synchronisation; each launch would then map its pages afresh, which costs more than a
// tf32 transpose itself. Told to keep it, the pool hands a launch after the first the memory of the
// one before (cuBLAS keeps its workspace alike).
class PoolBuffer {
 public:
  PoolBuffer() = default;
  PoolBuffer(std::size_t bytes, cudaStream_t stream) : stream_(stream) {
    keep_pool_memory();
    CUDA_CHECK(cudaMallocAsync(&memory_, bytes, stream));
  }
  ~PoolBuffer() {
    if (memory_) cudaFreeAsync(memory_, stream_);  // a failure here surfaces at the next checked call
  }
  PoolBuffer(PoolBuffer&& o) noexcept : stream_(o.stream_), memory_(o.memory_) { o.memory_ = nullptr; }
  PoolBuffer& operator=(PoolBuffer&& o) noexcept {
    std::swap(stream_, o.stream_);
    std::swap(memory_, o.memory_);
    return *this;
  }
  PoolBuffer(const PoolBuffer&) = delete;
  PoolBuffer& operator=(const PoolBuffer&) = delete;
  void* get() const { return memory_; }

 private:
  static void keep_pool_memory() {
    static std::mutex guard;
    static std::set<int> kept;
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    const std::lock_guard<std::mutex> lock(guard);
    if (!kept.insert(device).second) return;
    cudaMemPool_t pool = nullptr;
    CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
    std::uint64_t keep = UINT64_MAX;
    CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  }

  cudaStream_t stream_ = nullptr;
  void* memory_ = nullptr;
};

// "128x256_s4": the block tile, the stages; tf32_ before the rows for tf32; _k32 for a slab depth
// other than one 128-byte row of the type (64 k, tf32's 32); _w1 for one consumer warpgroup where
// the tile would have more, _np for one block per tile, _st for C stored through shared memory by
// the TMA, _c2 for clusters of two, _rs for B from the registers (register-sourced), _b4 for bands
// of 4 block rows where the order's are not 8, _c16 for C stored in the 16-bit input type, _split2
// for K split in two parts, _sk for stream-K.
std::string config_name(const WgmmaParams& p) {
  const int row = row_k(p.tf32 ? Precision::TF32 : Precision::F16);
  const int sliced = p.register_sourced ? p.bn : p.bm;
  return std::string(p.tf32 ? "tf32_" : "") + std::to_string(p.bm) + "x" + std::to_string(p.bn) + "_s" +
         std::to_string(p.stages) + (p.bk != row ? "_k" + std::to_string(p.bk) : "") +
         (p.consumers * 64 != sliced ? "_w" + std::to_string(p.consumers) : "") + (p.persistent ? "" : "_np") +
         (p.tma_store ? "_st" : "") + (p.cluster > 1 ? "_c" + std::to_string(p.cluster) : "") +
         (p.register_sourced ? "_rs" : "") + (p.band != kGroupRows ? "_b" + std::to_string(p.band) : "") +
         (p.c16 ? "_c16" : "") + (p.split > 1 ? "_split" + std::to_string(p.split) : "") + (p.stream_k ? "_sk" : "");
}

// ---- tensor maps ----------------------------------------------------------------------------------
// cuTensorMapEncodeTiled is a driver function, asked for with its CUDA 12.0 signature
// (kernel_calls.h: driver_function).
PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encoder =
      driver_function<PFN_cuTensorMapEncodeTiled_v12000>("cuTensorMapEncodeTiled", 12000);
  return encoder;
}

// A 2-D map of a row-major rows x cols matrix (leading dimension ld elements, 16-byte aligned
// rows), read or written in boxes of box_cols x box_rows, 128-byte swizzled; outside the matrix,
// reads give zeros and writes are dropped.
CUtensorMap make_tensor_map(const void* base, CUtensorMapDataType type, int element_bytes, std::int64_t rows,
                            std::int64_t cols, std::int64_t ld, int box_cols, int box_rows) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(ld) * static_cast<cuuint64_t>(element_bytes)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = tensor_map_encoder()(&map, type, 2, const_cast<void*>(base), dims, strides, box, element_strides,
                                          CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                          CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw GpuError("cuTensorMapEncodeTiled failed (CUresult " + std::to_string(static_cast<int>(r)) + ") for a " +
                   std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
  return map;
}
// The inputs: 16-bit values, or tf32's floats (the TMA copies their bits as they are).
CUtensorMap make_input_map(const void* base, Precision precision, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                           int box_cols, int box_rows) {
  const CUtensorMapDataType type = precision == Precision::TF32   ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                                   : precision == Precision::BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                                                  : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  return make_tensor_map(base, type, operand_bytes(precision), rows, cols, ld, box_cols, box_rows);
}

// A matrix as the TMA can read it (rows x cols of input type q): the caller's own when its rows are
// 16-byte aligned, otherwise a copy with a leading dimension rounded up to 16 bytes; or, with
// `transposed`, always a copy, cols x rows (tf32's B and AᵀA's A, which wgmma reads K-major only).
// A copy is a PoolBuffer.
class TmaOperand {
 public:
  TmaOperand(const void* data, Precision q, std::int64_t rows, std::int64_t cols, bool transposed, cudaStream_t stream)
      : data_(data), ld_(cols) {
    const int bytes = operand_bytes(q), per_16 = 16 / bytes;
    if (!transposed && reinterpret_cast<std::uintptr_t>(data) % 16 == 0 && cols % per_16 == 0) return;
    const std::int64_t out_rows = transposed ? cols : rows, out_cols = transposed ? rows : cols;
    ld_ = (out_cols + per_16 - 1) / per_16 * per_16;
    copy_ = PoolBuffer(static_cast<std::size_t>(out_rows * ld_) * bytes, stream);
    if (transposed) {
      const dim3 grid(static_cast<unsigned>(ceil_div(cols, kTransposeTile)),
                      static_cast<unsigned>(ceil_div(rows, kTransposeTile)));
      transpose_kernel<<<grid, kTransposeThreads, 0, stream>>>(static_cast<const float*>(data), rows, cols,
                                                               static_cast<float*>(copy_.get()), ld_);
      CUDA_CHECK_LAUNCH("transpose_kernel");
    } else {
      const unsigned blocks =
          static_cast<unsigned>(std::max<std::int64_t>(std::min<std::int64_t>(ceil_div(rows * cols, 256), 4096), 1));
      if (bytes == 4)
        copy_rows_kernel<<<blocks, 256, 0, stream>>>(static_cast<const std::uint32_t*>(data), cols,
                                                     static_cast<std::uint32_t*>(copy_.get()), ld_, rows, cols);
      else
        copy_rows_kernel<<<blocks, 256, 0, stream>>>(static_cast<const std::uint16_t*>(data), cols,
                                                     static_cast<std::uint16_t*>(copy_.get()), ld_, rows, cols);
      CUDA_CHECK_LAUNCH("copy_rows_kernel");
    }
    data_ = copy_.get();
  }
  TmaOperand(const TmaOperand&) = delete;
  TmaOperand& operator=(const TmaOperand&) = delete;
  const void* data() const { return data_; }
  std::int64_t ld() const { return ld_; }

 private:
  const void* data_;
  std::int64_t ld_;
  PoolBuffer copy_;
};

// ---- tiles a learner types ----------------------------------------------------------------------
// The kernel text's template parameters (WgShape), by name (kernels/core/typed_configs.h).
const std::vector<TileParam> kTileParams = {
    {"bm", "rows of C per block: 64 per slice, whole slices per consumer warpgroup, at most 256 (one TMA box)"},
    {"bn", "columns of C per block: whole 64-wide boxes of B, whole wgmma instructions"},
    {"bk",
     "k per slab (a stage of the ring): whole 128-byte swizzled rows, a multiple of 64 (f16, bf16) or 32 (tf32), at "
     "most 256"},
    {"wgmma_n", "the n of one wgmma (m64nNk16): 64, 128, 192 or 256, dividing bn"},
    {"stages", "buffers of the ring of slabs (at least 2)"},
    {"consumers", "warpgroups that multiply (1 to 4); one more copies"},
    {"cluster_m", "blocks per cluster, tiles one above the other sharing each B slab by TMA multicast (gemm)"},
    {"persistent", "1: one block per SM walking the tiles; 0: one block per tile"},
    {"tma_store", "1: C through shared memory and TMA stores; 0: from the registers"},
    {"register_sourced",
     "1 (tf32 gemm): B read into registers as wgmma's A and C computed transposed, no transposing pass; bm is then "
     "the instruction's rows of C (wgmma_n divides it) and bn whole slices of 64 columns per consumer"},
    {"band",
     "block rows per band of the tile order: the blocks walk down a band before moving one block column right, "
     "sharing its panels of A in L2 (8 by default; fewer for tall tiles or deep K)"},
    {"c16",
     "1 (f16, bf16): C stored in the input type, each element rounded to nearest from its FP32 accumulator (half "
     "the bytes of C; with tma_store, boxes of 64 columns); 0: C in float"},
    {"split_k",
     "parts K is cut in, each a block's work (1 to 8; persistent=1, cluster_m=1): more blocks where C has too few "
     "tiles for the SMs; the last part of a tile adds the others' partial sums, left in a workspace, to its own"},
    {"stream_k",
     "1: stream-K (persistent=1, cluster_m=1, split_k=1): the tiles of the last, part-empty wave are cut in their "
     "(tile, slab) iterations and every block takes an equal run of them, so no SM idles through a last wave of "
     "whole tiles; a tile cut between blocks is finished by the one holding its first slab, which adds the others' "
     "partial sums"},
};

TileValues values_of(const WgmmaParams& p) {
  return {{"bm", p.bm},
          {"bn", p.bn},
          {"bk", p.bk},
          {"wgmma_n", p.n},
          {"stages", p.stages},
          {"consumers", p.consumers},
          {"cluster_m", p.cluster},
          {"persistent", p.persistent ? 1 : 0},
          {"tma_store", p.tma_store ? 1 : 0},
          {"register_sourced", p.register_sourced ? 1 : 0},
          {"band", p.band},
          {"c16", p.c16 ? 1 : 0},
          {"split_k", p.split},
          {"stream_k", p.stream_k ? 1 : 0}};
}

// Booleans arrive as whole numbers: anything but 0 and 1 is refused (typed_refusal) before this
// reading of them counts.
WgmmaParams params_of_values(const TileValues& v) {
  WgmmaParams p;
  p.bm = tile_value(v, "bm", 0);
  p.bn = tile_value(v, "bn", 0);
  p.bk = tile_value(v, "bk", 0);
  p.n = tile_value(v, "wgmma_n", 0);
  p.stages = tile_value(v, "stages", 0);
  p.consumers = tile_value(v, "consumers", 0);
  p.cluster = tile_value(v, "cluster_m", 0);
  p.persistent = tile_value(v, "persistent", 1) != 0;
  p.tma_store = tile_value(v, "tma_store", 0) != 0;
  p.register_sourced = tile_value(v, "register_sourced", 0) != 0;
  p.band = tile_value(v, "band", kGroupRows);
  p.c16 = tile_value(v, "c16", 0) != 0;
  p.split = tile_value(v, "split_k", 1);
  p.stream_k = tile_value(v, "stream_k", 0) != 0;
  p.description = "a tile typed by the learner, compiled at run time";
  return p;
}

// The row of any configuration: the compiled set's, or a typed one's values.
WgmmaParams params_of(const TileConfig& cfg) {
  if (const WgmmaParams* row = row_of(kParams, kWgmmaTmaVariant.configs, cfg)) return *row;
  return params_of_values(cfg.typed);
}
WgmmaParams params_at(int config_index) {
  return params_of(config_at(kWgmmaTmaVariant, config_index));
}

TileValues wgmma_tile_values(const TileConfig& cfg) {
  return values_of(params_of(cfg));
}

TileConfig wgmma_config(const WgmmaParams& p);

// What arithmetic a tile uses, in the words the window and `bench --list` show: the instruction's
// shape, where its operands come from and C's type. any_type: a typed tile of the 16-bit family,
// whose input type is chosen after it is typed.
const char* math_of(const WgmmaParams& p, bool any_type) {
  enum Kind { kRegisters, kTf32, kC16, kSixteen, kAnyType, kKinds };
  static const auto texts = [] {
    std::array<std::array<std::string, 4>, kKinds> t;
    for (int w = 0; w < 4; ++w) {
      const std::string shape = "wgmma m64n" + std::to_string(64 * (w + 1));
      t[kRegisters][w] = shape + "k8 TF32 tensor cores, B's slab from registers, FP32 accumulation";
      t[kTf32][w] = shape + "k8 TF32 tensor cores, FP32 accumulation";
      t[kC16][w] = shape + "k16 tensor cores, FP32 accumulation, C in the input type";
      t[kSixteen][w] = shape + "k16 tensor cores, FP32 accumulation";
      t[kAnyType][w] = shape + " tensor cores (k16 for f16 and bf16, k8 for tf32), FP32 accumulation";
    }
    return t;
  }();
  const Kind kind = p.register_sourced ? kRegisters : p.tf32 ? kTf32 : p.c16 ? kC16 : any_type ? kAnyType : kSixteen;
  const std::string& text = texts[kind][std::clamp(p.n / 64, 1, 4) - 1];
  if (p.split == 1 && !p.stream_k) return text.c_str();
  // Split K and stream-K: the words name the pieces. Kept for the program's life (a set's strings never move).
  static std::mutex mutex;
  static std::set<std::string> split_texts;
  const std::lock_guard<std::mutex> lock(mutex);
  const std::string pieces =
      p.stream_k ? "; stream-K: the last wave's tiles cut in equal runs of k slabs, a block each, the block holding "
                   "a tile's first slab adding the others' partial sums"
                 : "; K in " + std::to_string(p.split) +
                       " parts, a block each, the last adding the others' partial sums to its own";
  return split_texts.insert(text + pieces).first->c_str();
}

// What a block does, for the window's sentence on the configuration (TileConfig::block_work):
// persistent blocks walk tiles, or with split K the tiles' parts; one block per tile says nothing.
std::string block_work_of(const WgmmaParams& p) {
  if (!p.persistent) return "";
  const std::string tile = std::to_string(p.bm) + " x " + std::to_string(p.bn) + " tiles of C";
  if (p.stream_k)
    return "one per multiprocessor, each walking " + tile +
           " one after another, then an equal run of the last tiles' k slabs, which may begin or end inside a tile";
  if (p.split == 1) return "one per multiprocessor, each walking " + tile + " one after another";
  return "one per multiprocessor, each walking parts of " + tile + " (K in " + std::to_string(p.split) +
         " parts) one after another";
}

// Registers a consumer thread needs besides its accumulators (descriptors, addresses, counters,
// the stores' indices). ptxas compiles the consumers' code with what setmaxnreg claims for them:
// 40 besides compiled without spills (128 x 384 with two consumers: 192 accumulators of 232), 24
// did not compile at all (192 x 256 with three: 128 of 152).
constexpr int kConsumerRegistersBesidesAccumulators = 40;

// The register-sourced tile's own shape rules (WgShape's static_asserts): C's rows are the
// instructions' n, its columns the consumers' 64-wide slices; C leaves from the registers.
std::string register_sourced_shape_refusal(const WgmmaParams& p) {
  auto n = [](int v) { return std::to_string(v); };
  if (p.bn < 64 || p.bn % (64 * p.consumers) != 0)
    return "bn = " + n(p.bn) + ": with register_sourced=1 each of the " + n(p.consumers) +
           " consumer warpgroup(s) takes whole slices of 64 columns (an instruction's m), so bn must be a multiple of "
           "64 x " +
           n(p.consumers) + " = " + n(64 * p.consumers);
  if (p.bm < p.n || p.bm % p.n != 0)
    return "bm = " + n(p.bm) +
           ": with register_sourced=1 the tile's rows are the instructions' n, so wgmma_n = " + n(p.n) +
           " must divide bm";
  if (p.cluster != 1 || p.tma_store)
    return "register_sourced=1 stores C from the registers, each block alone: cluster_m=1 and tma_store=0";
  return "";
}

// What the kernel text cannot take, in the words of its static_asserts; the device's limits
// (shared memory, threads) are checked for every configuration by unsupported_reason().
std::string typed_refusal(const TileValues& values, const WgmmaParams& p) {
  auto n = [](int v) { return std::to_string(v); };
  for (const char* key : {"persistent", "tma_store", "register_sourced", "c16", "stream_k"})
    if (tile_value(values, key, 0) > 1) return std::string(key) + " = " + n(tile_value(values, key, 0)) + ": 0 or 1";
  if (p.band < 1) return "band = " + n(p.band) + ": a band holds at least one block row";
  if (p.consumers < 1 || p.consumers > kTimelineMaxConsumers)
    return "consumers = " + n(p.consumers) + ": 1 to " + n(kTimelineMaxConsumers) +
           " consumer warpgroups (the timeline's records have room for " + n(kTimelineMaxConsumers) + ")";
  if (p.register_sourced) {
    const std::string shape = register_sourced_shape_refusal(p);
    if (!shape.empty()) return shape;
  } else if (p.bm < 64 || p.bm % (64 * p.consumers) != 0)
    return "bm = " + n(p.bm) + ": each of the " + n(p.consumers) +
           " consumer warpgroup(s) issues whole m64 instructions, so bm must be a multiple of 64 x " + n(p.consumers) +
           " = " + n(64 * p.consumers);
  if (p.bm > kMaxBoxSide)
    return "bm = " + n(p.bm) + ": gemm's A arrives in one TMA box of bm rows, and a box has at most " + n(kMaxBoxSide) +
           " per dimension";
  if (p.n != 64 && p.n != 128 && p.n != 192 && p.n != 256)
    return "wgmma_n = " + n(p.n) +
           ": the kernel issues m64n64k16, m64n128k16, m64n192k16 or m64n256k16 (the PTX ISA has every multiple of 8 "
           "up to 256 for 16-bit inputs; kernels/ptx/wgmma_ptx.cuh wraps these four, whose B starts on a 64-wide box)";
  if (p.bn < 64 || p.bn % 64 != 0)
    return "bn = " + n(p.bn) + ": B arrives in TMA boxes 64 columns wide, so bn must be a multiple of 64";
  if (!p.register_sourced && p.bn % p.n != 0)
    return "wgmma_n = " + n(p.n) + " does not divide bn = " + n(p.bn) + ": each slice issues bn / n whole instructions";
  const int tf32_row = row_k(Precision::TF32);
  if (p.bk < tf32_row || p.bk % tf32_row != 0 || p.bk > kMaxBoxSide)
    return "bk = " + n(p.bk) + ": a slab is whole 128-byte swizzled rows (multiples of " + n(tf32_row) +
           " k of tf32, " + n(row_k(Precision::F16)) + " of the 16-bit types), and B's box of bk rows at most " +
           n(kMaxBoxSide);
  if (p.c16 && p.register_sourced)
    return "c16=1 stores C in a 16-bit input type, and register_sourced=1 is tf32's: choose one";
  if (p.split < 1 || p.split > kMaxSplit)
    return "split_k = " + n(p.split) + ": K is cut in 1 to " + n(kMaxSplit) + " parts";
  if (p.split > 1 && (!p.persistent || p.cluster != 1 || p.register_sourced))
    return "split_k = " + n(p.split) +
           ": the last part of a tile waits for the others, so every part's block must be resident (persistent=1), "
           "each block alone (cluster_m=1); register_sourced=1 is not split";
  if (p.stream_k && (p.split != 1 || !p.persistent || p.cluster != 1 || p.register_sourced))
    return "stream_k = 1: a tile cut between blocks is finished by the block holding its first slab, which waits for "
           "the others' sums, so every block must be resident (persistent=1), each alone (cluster_m=1), K not split "
           "besides (split_k=1); register_sourced=1 is not cut";
  if (p.c16 && p.tma_store && p.bn % 128 != 0)
    return "bn = " + n(p.bn) +
           ": with c16=1 and tma_store=1, C leaves in boxes of 64 columns that take a consumer's two buffers in turn, "
           "so a slice needs an even number of them: bn a multiple of 128";
  if (p.stages < 2)
    return "stages = " + n(p.stages) +
           ": a consumer frees a stage only once the next one's products are issued, so the ring needs at least 2";
  if (2 * p.stages * 8 > kSwizzleAtom)
    return "stages = " + n(p.stages) + ": the stages' 2 x stages mbarriers fill one block of " + n(kSwizzleAtom) +
           " bytes (at most " + n(kSwizzleAtom / 16) + " stages)";
  if (p.cluster < 1 || p.cluster > kMaxCluster || (p.bn / 64) % p.cluster != 0)
    return "cluster_m = " + n(p.cluster) + ": 1 to " + n(kMaxCluster) +
           " blocks (the portable cluster size), sharing B's " + n(p.bn / 64) + " boxes of 64 columns evenly";
  // Register-sourced: each slice's accumulators run along bm, and a slab's fragments (bk / 8 steps
  // of four registers per slice) are held until its products are done.
  const int accumulators = slices_of(p) * slice_span_of(p) / 2,
            fragments = p.register_sourced ? slices_of(p) * p.bk / 8 * 4 : 0;
  if (accumulators + fragments + kConsumerRegistersBesidesAccumulators > consumer_registers(p))
    return n(slices_of(p)) + " slice(s) x " + (p.register_sourced ? "bm" : "bn") + " / 2 = " + n(accumulators) +
           " accumulators per consumer thread, " + (p.register_sourced ? n(fragments) + " for B's fragments, " : "") +
           "and " + n(kConsumerRegistersBesidesAccumulators) + " registers besides, do not fit the " +
           n(consumer_registers(p)) + " registers each of " + n(p.consumers) +
           " consumer warpgroup(s) gets (setmaxnreg: the register file less the producer's): take more consumers, "
           "or a smaller tile";
  return "";
}

bool wgmma_typed_config(const TileValues& values, TileConfig* out, std::string* why) {
  const WgmmaParams p = params_of_values(values);
  *why = typed_refusal(values, p);
  if (!why->empty()) return false;
  *out = wgmma_config(p);
  // Typed before its input type is chosen: the instruction's k is the type's.
  if (p.register_sourced || p.c16) return true;  // tf32's alone, or the 16-bit types' alone: wgmma_config said it
  out->math = math_of(p, /*any_type=*/true);
  return true;
}

// ---- the kernels --------------------------------------------------------------------------------
// The name expression of one kernel, as NVRTC compiles it and the demangler writes it.
std::string wgmma_kernel_name(const WgmmaParams& p, Precision q, bool ata, const char* probe) {
  const std::string shape =
      kernel_name("WgShape", {std::to_string(p.bm), std::to_string(p.bn), std::to_string(p.bk), std::to_string(p.n),
                              std::to_string(p.stages), std::to_string(p.consumers), std::to_string(p.cluster),
                              cpp_bool(p.persistent), cpp_bool(p.tma_store), cpp_bool(p.register_sourced),
                              std::to_string(p.band), cpp_bool(p.c16), std::to_string(p.split), cpp_bool(p.stream_k)});
  return kernel_name("wgmma_tma_kernel", {precision_argument(q), shape, cpp_bool(ata), probe});
}

// Whether a tile has an AᵀA kernel: square tiles, each block alone, both operands in shared memory,
// and with C in the input type, C from the registers (the mirrored boxes hold floats).
constexpr bool computes_ata(const WgmmaParams& p) {
  return p.bm == p.bn && p.cluster == 1 && !p.register_sourced && !(p.c16 && p.tma_store);
}

// A compiled row's kernel for the input type and problem.
template <int C, typename Probe>
const void* row_kernel(Precision precision, bool ata) {
  using S = RowShape<C>;
  static_assert(S::p.consumers <= kTimelineMaxConsumers, "the timeline stamps at most this many consumers");
  auto of = [&](auto precision_tag) -> const void* {
    constexpr Precision P = decltype(precision_tag)::value;
    if (!ata) return reinterpret_cast<const void*>(wgmma_tma_kernel<P, S, false, Probe>);
    if constexpr (computes_ata(S::p)) return reinterpret_cast<const void*>(wgmma_tma_kernel<P, S, true, Probe>);
    throw GpuError("configuration " + config_name(kParams[C]) + " has no AᵀA kernel: BM must equal BN");
  };
  // A row's kernels take the input types of its family alone (wgmma_refuses says so first).
  if constexpr (kParams[C].tf32) {
    if (precision != Precision::TF32) throw GpuError("configuration " + config_name(kParams[C]) + " is for tf32");
    return of(std::integral_constant<Precision, Precision::TF32>{});
  } else {
    if (precision == Precision::TF32)
      throw GpuError("configuration " + config_name(kParams[C]) + " is for f16 and bf16");
    return precision == Precision::BF16 ? of(std::integral_constant<Precision, Precision::BF16>{})
                                        : of(std::integral_constant<Precision, Precision::F16>{});
  }
}

// The one kernel of a launch: the compiled row's, or for a typed tile the same text compiled at
// run time with the probe the launch asks for. Its template arguments are chosen here and nowhere
// else, so that wgmma_kernel_for names exactly the kernel the launch runs.
template <typename Probe>
KernelLaunchShape kernel_of_launch(const GemmArgs& g, int config_index) {
  const WgmmaParams p = params_at(config_index);
  const bool ata = g.problem == Problem::Ata;
  KernelLaunchShape k;
  k.threads_per_block = threads_of(p);
  k.dynamic_shared_bytes = shared_bytes_of(p, g.precision);
  if (is_typed_config(kWgmmaTmaVariant, config_index)) {
    if (ata && !computes_ata(p))
      throw GpuError(config_at(kWgmmaTmaVariant, config_index).name + " has no AᵀA kernel: BM must equal BN");
    const ProbeSpelling probe = probe_spelling<Probe>();
    k.kernel = jit_kernel(kWgmmaTmaVariant, wgmma_kernel_name(p, g.precision, ata, probe.name), probe.header).kernel;
    k.run_time_compiled = true;
    return k;
  }
  k.kernel = with_row<kNumConfigs>(kWgmmaTmaVariant, config_index,
                                   [&](auto row) { return row_kernel<decltype(row)::value, Probe>(g.precision, ata); });
  return k;
}

// ---- launching ------------------------------------------------------------------------------------
// The workspace of split K and stream-K for one launch (kernel text: SplitParts, join_parts,
// join_runs): a slot of bm x bn / consumers partial sums and its mark per consumer warpgroup and per
// tile and part but the last (split K), or per block (stream-K). The sums are taken from the stream's
// memory pool (kept between launches) and given back after the launch; the marks are the stream's
// zeroed marks (stream_marks.h), which the kernel leaves zeroed: nothing to clear in the time.
// Nothing without them.
class SplitWorkspace {
 public:
  SplitWorkspace(const WgmmaParams& p, std::int64_t tiles, std::int64_t blocks, cudaStream_t stream) {
    if (p.split == 1 && !p.stream_k) return;
    const std::int64_t slots = (p.stream_k ? blocks : tiles * (p.split - 1)) * p.consumers;
    const std::size_t partial_bytes = static_cast<std::size_t>(slots) * p.bm * p.bn / p.consumers * sizeof(float);
    memory_ = PoolBuffer(partial_bytes, stream);
    parts_.partials = static_cast<float*>(memory_.get());
    parts_.marks = zeroed_marks(static_cast<std::size_t>(slots), stream).marks;
  }
  SplitParts parts() const { return parts_; }

 private:
  PoolBuffer memory_;
  SplitParts parts_{nullptr, nullptr};
};

std::int64_t tile_count(const WgmmaParams& p, Problem problem, const Shape& s) {
  return block_tile_count(problem == Problem::Ata, static_cast<int>(ceil_div(s.M, p.bm)),
                          static_cast<int>(ceil_div(s.N, p.bn)));
}

// The k slabs of one tile (split K: of one part).
int slabs_per_tile(const WgmmaParams& p, const Shape& s) {
  return part_slabs_of(s.K, p.bk, p.split);
}

// What the blocks share out: tiles (split K: each tile's parts), or for clusters groups of p.cluster
// tiles one above the other.
std::int64_t work_count(const WgmmaParams& p, Problem problem, const Shape& s) {
  if (p.cluster == 1) return tile_count(p, problem, s) * p.split;
  return ceil_div(ceil_div(s.M, p.bm), p.cluster) * ceil_div(s.N, p.bn);
}

// Blocks of the launch: one per tile (per tile of a group), or for the persistent configurations
// as many as are resident at once: one per SM, or as many clusters as the GPU can place together.
// The kernel's shared-memory attribute must be set.
std::int64_t blocks_of(const WgmmaParams& p, const KernelLaunchShape& k, Problem problem, const Shape& s) {
  const std::int64_t works = work_count(p, problem, s);
  if (!p.persistent) return works * p.cluster;
  if (p.cluster == 1) {
    int device = 0, sms = 1;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    // Stream-K shares out slabs: every SM takes a run of at least one where there are enough.
    return std::min<std::int64_t>(p.stream_k ? works * slabs_per_tile(p, s) : works, sms);
  }
  const int clusters = resident_clusters(k, p.cluster);
  if (clusters < 1)
    throw GpuError("this GPU cannot place a cluster of " + std::to_string(p.cluster) + " blocks of " +
                   std::to_string(k.dynamic_shared_bytes / 1024) + " KB of shared memory");
  return std::min<std::int64_t>(works, clusters) * p.cluster;
}

// The timed, traced and timeline launches differ only in the probe.
template <typename Probe>
void launch_with(const GemmArgs& g, int config_index, const Probe& probe) {
  const WgmmaParams p = params_at(config_index);
  const KernelLaunchShape k = kernel_of_launch<Probe>(g, config_index);
  allow_dynamic_shared(k);
  const Shape& s = g.shape;
  const bool ata = g.problem == Problem::Ata;
  // 16-bit types: A gemm M x K in K-major boxes of 64 k x bm rows, AᵀA K x N; B K x N; both in
  // N-major boxes of 64 columns x bk k. tf32: every box K-major, 32 k x the tile's rows: gemm's A as
  // it is and B transposed (N x K, in boxes of bn / cluster rows: a block's share), AᵀA's A
  // transposed (N x K), read by one map for both operands.
  // The register-sourced rows read tf32's B as it lies, in N-major boxes of 32 columns x bk k.
  const bool tf32 = g.precision == Precision::TF32, b_transposed = tf32 && !p.register_sourced;
  const int row = row_k(g.precision);
  const TmaOperand a(g.a, g.precision, ata ? s.K : s.M, ata ? s.N : s.K, ata && tf32, g.stream);
  const std::unique_ptr<TmaOperand> b =
      ata ? nullptr : std::make_unique<TmaOperand>(g.b, g.precision, s.K, s.N, b_transposed, g.stream);
  CUtensorMap a_map = ata && tf32 ? make_input_map(a.data(), g.precision, s.N, s.K, a.ld(), row, p.bm)
                      : ata       ? make_input_map(a.data(), g.precision, s.K, s.N, a.ld(), 64, p.bk)
                                  : make_input_map(a.data(), g.precision, s.M, s.K, a.ld(), row, p.bm);
  CUtensorMap b_map = ata            ? a_map
                      : b_transposed ? make_input_map(b->data(), g.precision, s.N, s.K, b->ld(), row, p.bn / p.cluster)
                                     : make_input_map(b->data(), g.precision, s.K, s.N, b->ld(), row, p.bk);
  // C by TMA stores where its rows are 16-byte aligned; otherwise (and where the configuration
  // stores from the registers) the map is a stand-in the kernel never reads. C's elements are floats,
  // or (c16) the input type's.
  const int c_bytes = c_element_bytes(p), c_box_cols = c_box_cols_of(p);
  const CUtensorMapDataType c_type = !p.c16                           ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                                     : g.precision == Precision::BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                                                      : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  bool use_c_map = p.tma_store && reinterpret_cast<std::uintptr_t>(g.c) % 16 == 0 && s.N % (16 / c_bytes) == 0;
  CUtensorMap c_map = use_c_map ? make_tensor_map(g.c, c_type, c_bytes, s.M, s.N, s.N, c_box_cols, 64) : a_map;
  CUtensorMap m_map = use_c_map && ata ? make_tensor_map(g.c, c_type, c_bytes, s.M, s.N, s.N, c_box_cols, 32) : a_map;
  bool vec_c = reinterpret_cast<std::uintptr_t>(g.c) % (2 * c_bytes) == 0 && s.N % 2 == 0;
  void* c = g.c;
  int M = static_cast<int>(s.M), N = static_cast<int>(s.N), K = static_cast<int>(s.K);
  const std::int64_t blocks = blocks_of(p, k, g.problem, s);
  const SplitWorkspace workspace(p, tile_count(p, g.problem, s), blocks, g.stream);
  SplitParts parts = workspace.parts();
  Probe kernel_probe = probe;
  // What <<<...>>> does, written out so that a kernel compiled at run time launches the same way.
  void* args[] = {&a_map, &b_map, &c_map, &m_map, &use_c_map, &c, &M, &N, &K, &vec_c, &parts, &kernel_probe};
  launch_kernel(k, checked_grid(blocks, 1), dim3(static_cast<unsigned>(k.threads_per_block)), args, g.stream,
                p.cluster);
}

struct WgmmaLaunch {
  template <typename Probe>
  static void run(const GemmArgs& g, int config_index, const Probe& probe) {
    launch_with(g, config_index, probe);
  }
};
void wgmma_launch_timeline(const GemmArgs& g, int config_index, const TimelineBuffers& timeline) {
  launch_with(g, config_index, TimelineProbe{timeline});
}

TimelineLayout wgmma_timeline_layout(const GemmArgs& g, int config_index) {
  const WgmmaParams p = params_at(config_index);
  const KernelLaunchShape k = kernel_of_launch<TimelineProbe>(g, config_index);
  allow_dynamic_shared(k);
  TimelineLayout out;
  out.blocks = static_cast<int>(blocks_of(p, k, g.problem, g.shape));
  out.stages = p.stages;
  out.consumers = p.consumers;
  out.cluster = p.cluster;
  out.slabs_per_tile = slabs_per_tile(p, g.shape);  // of a part, split K
  out.slab_depth = p.bk;
  out.tiles = tile_count(p, g.problem, g.shape);
  out.works = work_count(p, g.problem, g.shape);
  if (p.stream_k) {
    // The runs of each block, walked as the kernel walks them (StreamShare).
    const StreamShare share(static_cast<int>(out.tiles), out.slabs_per_tile, out.blocks);
    out.runs.resize(static_cast<std::size_t>(out.blocks));
    for (int b = 0; b < out.blocks; ++b) {
      int n = 0;
      for (WorkRun r = share.first_run(b); share.more(b, r); share.next_run(b, r)) {
        out.runs[static_cast<std::size_t>(b)].push_back({n, r.slab0, r.slabs});
        n += r.slabs;
      }
    }
  }
  return out;
}

KernelLaunchShape wgmma_kernel_for(const GemmArgs& g, int config_index) {
  return kernel_of_launch<NoProbe>(g, config_index);
}

// Whether a configuration is one of the compiled set or typed (one of neither: a name from elsewhere).
bool known_config(const TileConfig& cfg) {
  return row_of(kParams, kWgmmaTmaVariant.configs, cfg) != nullptr || !cfg.typed.empty();
}

// The kernel a case runs, spelled for NVRTC: the one kernel_of_launch chooses for it.
std::vector<std::string> wgmma_kernel_names(const TileConfig& cfg, Precision q, Problem problem) {
  if (!known_config(cfg)) return {};
  const WgmmaParams p = params_of(cfg);
  const bool ata = problem == Problem::Ata;
  if (ata && !computes_ata(p)) return {};
  return {wgmma_kernel_name(p, q, ata, kNoProbeName)};
}

// The compiled rows of one family (tf32 or 16-bit), or only those that compute AᵀA (square tiles,
// no clusters), for a refusal to offer.
std::string config_names(bool tf32, Problem problem) {
  std::string out;
  for (const WgmmaParams& p : kParams)
    if (p.tf32 == tf32 && (problem == Problem::Gemm || computes_ata(p)))
      out += (out.empty() ? "" : ", ") + config_name(p);
  return out;
}

std::string wgmma_refuses(Problem problem, Precision precision, const TileConfig& cfg) {
  if (!kSm90aCodeBuilt)
    return "this build holds no sm_90a code (its CUDA architectures did not include 90), and wgmma_tma is nothing "
           "else";
  if (!known_config(cfg)) return "unknown configuration " + cfg.name;
  const WgmmaParams p = params_of(cfg);
  const bool tf32 = precision == Precision::TF32;
  if (cfg.typed.empty() && p.tf32 != tf32)
    return "configuration " + cfg.name + " is compiled for " + (p.tf32 ? "tf32" : "f16 and bf16") + "; for " +
           to_string(precision) + " choose one of " + config_names(tf32, Problem::Gemm);
  if (p.register_sourced && !tf32)
    return "register_sourced=1 is tf32's: the 16-bit types read B where it lies already (wgmma's transpose bit)";
  if (p.c16 && !has_narrow_output(precision))
    return std::string("c16=1 stores C in the 16-bit input type (f16, bf16); ") + to_string(precision) +
           " stores C in float (choose c16=0)";
  if (p.c16 && p.tma_store && problem == Problem::Ata)
    return "c16=1 with tma_store=1 computes gemm: AᵀA's mirrored boxes hold floats (for AᵀA with C in the input "
           "type, tma_store=0 stores it from the registers)";
  if (p.register_sourced && problem == Problem::Ata)
    return "register_sourced=1 computes gemm: AᵀA's operands are both N-major, and only one can come from the "
           "registers (choose " +
           config_names(tf32, Problem::Ata) + ")";
  if (p.bk % row_k(precision) != 0)
    return "bk = " + std::to_string(p.bk) + ": a slab of " + to_string(precision) + " is whole 128-byte rows, " +
           std::to_string(row_k(precision)) + " k each";
  if (problem == Problem::Ata && p.cluster > 1)
    return "the clusters pair gemm tiles one above the other, which share B; AᵀA's upper triangle is not paired "
           "(choose " +
           config_names(tf32, Problem::Ata) + ", or a square tile with cluster_m=1)";
  if (problem == Problem::Ata && p.bm != p.bn)
    return "AᵀA mirrors square tiles across the diagonal: BM must equal BN (choose " +
           config_names(tf32, Problem::Ata) + ", or a square tile with cluster_m=1)";
  return "";
}

std::size_t wgmma_shared_bytes(const TileConfig& cfg, Precision precision) {
  return known_config(cfg) ? shared_bytes_of(params_of(cfg), precision) : 0;
}

// ---- the mapping model ---------------------------------------------------------------------------
// A persistent launch runs one block per SM: where the program found no GPU, the model assumes an
// H100 SXM's.
constexpr int kAssumedSms = 132;

// What wgmma_tma_kernel does, as plain host code: tile b is block b (a persistent block computes
// tiles b, b + grid, ... and says so to the traced build's probe); warps 0-3 copy, warps 4.. compute.
class WgmmaModel final : public BlockTileModel {
 public:
  WgmmaModel(const WgmmaParams& p, Problem problem, Precision precision, const Shape& shape)
      : BlockTileModel({p.bm, p.bn, p.bk, threads_of(p) / 32, "copied", " by the TMA, one thread issuing every box",
                        p.cluster, p.band},
                       problem, shape),
        p_(p),
        precision_(precision),
        // As launch_with decides, for a C that cudaMalloc placed (256-byte aligned): C leaves by its
        // map where its rows are whole 16-byte vectors, and gemm's in pairs where they are whole
        // 8-byte ones.
        maps_(p.tma_store && shape.N % (16 / c_element_bytes(p)) == 0),
        pairs_(problem == Problem::Gemm && shape.N % 2 == 0 && !p.register_sourced) {
    build_picture(precision);
    if (p.register_sourced) {
      // Each slab's fragments of B out of its stage; C, transposed, from the registers.
      listed_ = {kLoadBFragment, kStoreC};
      blocks_launched_ = blocks_launched();
      return;
    }
    // From the registers: every tile without the map, and AᵀA's diagonal tiles with it.
    if (!maps_ || ata()) {
      listed_.push_back(kStoreC);
      if (ata()) listed_.push_back(kStoreMirror);
    }
    // Into the boxes: every tile with the map, but AᵀA's diagonal ones (others exist once N > BN).
    if (maps_ && (!ata() || shape.N > p.bn)) {
      listed_.push_back(kStageC);
      if (ata()) listed_.push_back(kStageMirror);
    }
  }

  int writer_slots() const override { return slices_of(p_) * slice_span_of(p_) / 2; }
  const FragmentPicture* fragments() const override { return &picture_; }
  // Its operands never pass through a lane (but B's fragments in the register-sourced tile): the
  // memory view has none of the copies to draw.
  std::string memory_note() const override {
    if (p_.register_sourced)
      return "The TMA copies A and B into shared memory as whole boxes that one thread asks for: no lane has an "
             "address, and the load/store unit's counters never see them. The tensor cores read A's rows from "
             "shared memory themselves, through wgmma's descriptor. B passes through the lanes: each thread reads "
             "its fragments of every slab out of the N-major stage, four words per 8 k, listed here with their "
             "banks; then C, transposed, leaves from the registers one float at a time.";
    return "The TMA copies A and B into shared memory as whole boxes that one thread asks for: no lane has an "
           "address, and the load/store unit's counters (sectors per request, bank conflicts) never see them. "
           "The tensor cores read the tiles from shared memory themselves, through wgmma's descriptors (no "
           "ldmatrix), the 128-byte swizzle keeping them free of conflicts. Only C's stores pass through the "
           "lanes, and they are listed: from the registers to global memory, or into the swizzled boxes in shared "
           "memory, whose TMA store is the copy engine's and is not counted either.";
  }

  // ---- memory, one warp at a time: C's stores (06_wgmma_tma.cuh: store_tile) ----
  // Each consumer thread's accumulators, slice by slice: from the registers straight to global
  // memory (AᵀA: each element with its mirror), or into 128-byte swizzled boxes of shared memory,
  // which the TMA stores. Only the sites the kernel executes at this shape are listed (listed_).
  std::vector<AccessSite> access_sites() const override {
    std::vector<AccessSite> sites;
    for (Site k : listed_) sites.push_back(site_of(k));
    return sites;
  }
  int site_steps(int site, int bx, int by) const override {
    if (!block_active(bx, by)) return 0;
    const bool staged = staged_tile(bx);
    const int box_cols = c_box_cols_of(p_), slices = slices_of(p_), per_box = box_cols / 8 * 2;
    switch (listed_[site]) {
      case kLoadBFragment:
        return phases() * slices * (p_.bk / 8) * 4;
      case kStoreC:
      case kStoreMirror:
        if (p_.register_sourced) return slices * slice_span_of(p_) / 2;
        return staged ? 0 : slices * (p_.bn / 8) * 2 * (pairs_ ? 1 : 2);
      case kStageC:
        return staged ? slices * (p_.bn / box_cols) * per_box : 0;
      case kStageMirror:
        return staged ? slices * (p_.bn / box_cols) * per_box * 2 : 0;
    }
    return 0;
  }
  void warp_access(int site, int bx, int by, int warp, int step, WarpAccess* out) const override {
    const Site k = listed_[site];
    out->bytes = site_bytes(k);
    // Warps 0-3 are the producer warpgroup, which stores nothing.
    if (!block_active(bx, by) || warp < 4) return;
    const int group = warp / 4 - 1, q = warp % 4;
    if (k == kLoadBFragment)
      fragment_load(bx, group, q, step, out);
    else if (p_.register_sourced)
      transposed_store(bx, group, q, step, out);
    else if (k == kStoreC || k == kStoreMirror)
      register_store(k, bx, group, q, step, out);
    else
      staged_store(k, bx, group, q, step, out);
  }
  // AᵀA's stores from the registers share C's stream: each element, then its mirror, as the lanes
  // store them.
  std::vector<SiteStep> recorded_order(int stream, int bx, int by) const override {
    const int c = listed(kStoreC), m = listed(kStoreMirror);
    if (stream != kRecordStoreC || m < 0) return MappingModel::recorded_order(stream, bx, by);
    std::vector<SiteStep> order;
    for (int step = 0; step < site_steps(c, bx, by); ++step) {
      order.push_back({c, step});
      order.push_back({m, step});
    }
    return order;
  }

 private:
  enum Site { kStoreC, kStoreMirror, kStageC, kStageMirror, kLoadBFragment };
  int listed(Site k) const {
    const auto at = std::find(listed_.begin(), listed_.end(), k);
    return at == listed_.end() ? -1 : static_cast<int>(at - listed_.begin());
  }
  // Whether block bx's tile goes through the boxes (store_tile): with the map, but AᵀA's diagonal.
  bool staged_tile(int bx) const {
    const TileRect c = c_tile(bx);
    return maps_ && (!ata() || c.row0 != c.col0);
  }
  // A site's bytes per lane, as site_of lists them (warp_access runs for every warp and step of a
  // kernel's totals, where building the words each time would cost more than the addresses).
  // C's sites move one element of C or a pair of neighbours (floats, or c16's 16-bit values).
  int site_bytes(Site k) const {
    if (k == kLoadBFragment) return 4;
    return c_element_bytes(p_) * ((k == kStoreC && pairs_) || k == kStageC ? 2 : 1);
  }
  AccessSite site_of(Site k) const {
    auto c_store = [](const char* name, MemorySpace space, int bytes, const std::string& what, const char* unit,
                      int stream) -> AccessSite {
      return {name, 'C', space, AccessKind::Store, bytes, what, unit, stream};
    };
    switch (k) {
      case kLoadBFragment:
        return {"B's fragments out of shared memory",
                'B',
                MemorySpace::Shared,
                AccessKind::Load,
                4,
                "f.a[sl][kk][e] = *x, x = b_tile + places.at[sl][e] + kk * 1024 (load_b_fragments): lane 4 g + t of "
                "warp q reads B(k, c) at k = 8 kk + t and k + 4, c = 16 q + g and c + 8 of its slice, a 4-byte load "
                "(LDS) each, from four places worked out once (the swizzle repeats every 8 rows); one load's 32 lanes "
                "read four rows of a box, eight floats in each, which the swizzle "
                "(chunk XOR row % 8) spreads over 16 of the 32 banks: a 2-way conflict",
                "register of a slab's fragments",
                kWgmmaBFragment};
      case kStoreC:
        if (p_.register_sourced)
          return c_store("C to global memory", MemorySpace::Global, 4,
                         "probe.store(out.C, row * N + col, acc[sl][4 j + r], ..) (store_tile_transposed): the "
                         "accumulators hold Cᵀ, so lane 4 g + t's register 4 j + r is C(8 j + 2 t + r % 2, 16 q + g + "
                         "8 (r / 2)) of its slice; a 4-byte store (STG.E) each, four rows of C with eight neighbours "
                         "in each per store",
                         "accumulator of a slice", kRecordStoreC);
        if (pairs_ && p_.c16)
          return c_store("C to global memory", MemorySpace::Global, 4,
                         "probe.store(out.C, at, pair, slot0 + r) after c_pair: a lane's two neighbouring "
                         "accumulators C(row, col), C(row, col + 1), each rounded to the 16-bit input type, in one "
                         "4-byte store (STG.E); the four lanes of a row fill 16 neighbouring bytes, half a sector, "
                         "eight rows a request: 8 sectors for 128 bytes (in float the same stores fill whole sectors; "
                         "the TMA stores of the _st rows write whole rows of boxes)",
                         "pair of accumulators of a slice", kRecordStoreC);
        if (pairs_)
          return c_store("C to global memory", MemorySpace::Global, 8,
                         "probe.store(out.C, at, pair, slot0 + r): a lane's two neighbouring accumulators C(row, col), "
                         "C(row, col + 1) in one 8-byte store (STG.E.64), aligned because C's rows are of even "
                         "length; the four lanes of a row fill 32 neighbouring bytes, eight rows a request (8 sectors "
                         "where N is a multiple of 8)",
                         "pair of accumulators of a slice", kRecordStoreC);
        if (!ata())
          return c_store("C to global memory", MemorySpace::Global, c_element_bytes(p_),
                         p_.c16
                             ? "probe.store(out.C, at, pair[0], slot0 + r), then at + 1, pair[1]: rows of odd length "
                               "leave a pair unaligned for one 4-byte store, so each accumulator, rounded to the "
                               "16-bit input type, is a 2-byte store of its own (STG.U16), none past the right edge"
                             : "probe.store(out.C, at, v0, slot0 + r), then at + 1, v1: rows of odd length leave a "
                               "pair unaligned for an 8-byte store, so each accumulator is a 4-byte store of its own "
                               "(STG.E), none past the right edge",
                         "accumulator of a slice", kRecordStoreC);
        return c_store("C to global memory", MemorySpace::Global, c_element_bytes(p_),
                       std::string(p_.c16 ? "probe.store(out.C, row * N + col, c0, slot0 + r) where row <= col: each "
                                            "accumulator rounded to the 16-bit input type, one 2-byte store (STG.U16), "
                                            "the upper triangle only (a diagonal tile drops its lower half)"
                                          : "probe.store(out.C, row * N + col, v0, slot0 + r) where row <= col: one "
                                            "4-byte store per accumulator (STG.E), the upper triangle only (a diagonal "
                                            "tile drops its lower half)") +
                           (maps_ ? "; here only the diagonal tiles store from the registers, the others through "
                                    "shared memory"
                                  : ""),
                       "accumulator of a slice", kRecordStoreC);
      case kStoreMirror:
        return c_store("C's mirror to global memory", MemorySpace::Global, c_element_bytes(p_),
                       p_.c16
                           ? "probe.store(out.C, col * N + row, c0, slot0 + r) where row < col: the same rounded "
                             "accumulator again as C(col, row), a 2-byte store (STG.U16) down the columns: four rows "
                             "of C, eight neighbours in each"
                           : "probe.store(out.C, col * N + row, v0, slot0 + r) where row < col: the same accumulator "
                             "again as C(col, row), a 4-byte store (STG.E) down the columns: four rows of C, eight "
                             "neighbours in each",
                       "accumulator of a slice", kRecordStoreC);
      case kStageC:
        if (p_.c16)
          return c_store("C into shared memory", MemorySpace::Shared, 4,
                         "*pair = narrow_pair<S>(v0, v1) at sw128_half_byte(row, col): a lane's two neighbouring "
                         "accumulators, rounded to the 16-bit input type, into a row of the 64 x 64 box in one 4-byte "
                         "store (STS); the warp writes one 16-byte chunk in each of eight rows, which the swizzle "
                         "(chunk XOR row % 8) puts in eight different places: all 32 banks, no conflict",
                         "pair of accumulators of a box", kWgmmaCStaged);
        return c_store("C into shared memory", MemorySpace::Shared, 8,
                       "*pair = make_float2(v0, v1) at sw128_float(staged, row, col): a lane's two neighbouring "
                       "accumulators into a row of the 64 x 32 box in one 8-byte store (STS.64); each half-warp "
                       "writes two 16-byte chunks in each of four rows, and the swizzle (chunk XOR row % 8) keeps "
                       "them inside four chunks, 16 banks for 32 words: a 2-way conflict",
                       "pair of accumulators of a box", kWgmmaCStaged);
      case kStageMirror:
        return c_store("C's mirror into shared memory", MemorySpace::Shared, 4,
                       "*m0 = v0, then *m1 = v1 at sw128_float(m, col, row % 32): the same accumulators transposed "
                       "into a 32 x 32 mirror box, a 4-byte store each (STS): four rows of the box, eight words in "
                       "each, which the swizzle spreads over all 32 banks",
                       "accumulator of a box", kWgmmaMirrorStaged);
    }
    return {};
  }
  // store_tile_from_registers: per slice, per 8 columns j and half h, lane 4 g + t holds C(row, col)
  // and C(row, col + 1), row 16 q + g + 8 h of the slice and col 8 j + 2 t of the tile: one step
  // for the pair, or one for each of the two (`step` % 2).
  void register_store(Site k, int bx, int group, int q, int step, WarpAccess* out) const {
    const TileRect c = c_tile(bx);  // a cluster's spare block below C: rows from M on, nothing stored
    const std::int64_t M = shape().M, N = shape().N;
    const int per = pairs_ ? 1 : 2, e = step % per, jh = step / per;
    const int h = jh % 2, j = jh / 2 % (p_.bn / 8), sl = jh / 2 / (p_.bn / 8);
    const std::int64_t row0 = c.row0 + 64 * (group * slices_of(p_) + sl) + 16 * q + 8 * h, col0 = c.col0 + 8 * j + e;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const std::int64_t row = row0 + lane / 4, col = col0 + 2 * (lane % 4);
      if (row >= M || col + (pairs_ ? 1 : 0) >= N) continue;
      if (!ata())
        out->address[lane] = (row * N + col) * c_element_bytes(p_);
      else if (k == kStoreC ? row <= col : row < col)
        out->address[lane] = (k == kStoreC ? row * N + col : col * N + row) * c_element_bytes(p_);
    }
  }
  // load_b_fragments, slab after slab of the tile: per slice, per step kk (8 k), the four elements
  // e of a lane's fragment, B(k + 4 (e / 2), c + 8 (e % 2)) at k = 8 kk + t, c = 64 slice + 16 q + g,
  // from the slab's stage. The stage is the block's slab count modulo the ring: a persistent block
  // has gone through the slabs of its tiles before this one (tiles b - grid, b - 2 grid, ..).
  void fragment_load(int bx, int group, int q, int step, WarpAccess* out) const {
    const int per_slab = slices_of(p_) * (p_.bk / 8) * 4;
    const int slab = step / per_slab, e = step % 4, kk = step / 4 % (p_.bk / 8),
              sl = step / 4 / (p_.bk / 8) % slices_of(p_);
    const std::int64_t before = static_cast<std::int64_t>(bx / blocks_launched_) * phases();
    const int stage = static_cast<int>((before + slab) % p_.stages);
    const std::int64_t b_tile =
        static_cast<std::int64_t>(stage) * picture_.stage_bytes + p_.bm * p_.bk * operand_bytes(precision_);
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const int k = 8 * kk + lane % 4 + 4 * (e / 2),
                c = 64 * (group * slices_of(p_) + sl) + 16 * q + lane / 4 + 8 * (e % 2);
      out->address[lane] = b_tile + (c / 32) * box_bytes_of(p_) + sw128_float_byte(k, c % 32);
    }
  }
  // The blocks a launch runs, for a persistent configuration as blocks_of counts them on the GPU
  // the program found (one per SM); with none, an H100 SXM's 132. Asked once, by the constructor:
  // fragment_load runs for every warp and step of a kernel's totals.
  std::int64_t blocks_launched() const {
    const int tiles = grid().x;
    if (!p_.persistent) return tiles;
    const DeviceInfo& d = probe_device();
    return std::min<std::int64_t>(tiles, d.ok() ? d.sm_count : kAssumedSms);
  }
  // store_tile_transposed: per slice, per accumulator 4 j + r, lane 4 g + t stores C(8 j + 2 t +
  // r % 2, 64 slice + 16 q + g + 8 (r / 2)) of the tile.
  void transposed_store(int bx, int group, int q, int step, WarpAccess* out) const {
    const TileRect c = c_tile(bx);
    const std::int64_t M = shape().M, N = shape().N;
    const int r = step % 4, j = step / 4 % (slice_span_of(p_) / 8), sl = step / 4 / (slice_span_of(p_) / 8);
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const std::int64_t row = c.row0 + 8 * j + 2 * (lane % 4) + r % 2,
                         col = c.col0 + 64 * (group * slices_of(p_) + sl) + 16 * q + lane / 4 + 8 * (r / 2);
      if (row < M && col < N) out->address[lane] = (row * N + col) * 4;
    }
  }
  // store_tile_staged: per slice (none below C), per box of 32 columns (c16: 64), per 8 columns jj and half h,
  // lane 4 g + t writes its pair at row 16 q + g + 8 h, column 8 jj + 2 t of the box, into buffer
  // 2 group + box % 2 (gemm's take turns, counted across the tiles, but a slice has an even number
  // of boxes: bn / 32, or c16's bn / 64, which typed_refusal keeps even) or, for AᵀA, 2 group, the mirror's boxes in
  // the next; the mirror takes a step for each of the two floats.
  void staged_store(Site k, int bx, int group, int q, int step, WarpAccess* out) const {
    const int per = k == kStageMirror ? 2 : 1, e = step % per, s = step / per;
    const int box_cols = c_box_cols_of(p_);
    const int h = s % 2, jj = s / 2 % (box_cols / 8), box = s / 2 / (box_cols / 8) % (p_.bn / box_cols),
              sl = s / 2 / (box_cols / 8) / (p_.bn / box_cols);
    if (c_tile(bx).row0 + 64 * (group * slices_of(p_) + sl) >= shape().M) return;
    const std::int64_t staged =
        static_cast<std::int64_t>(c_boxes_offset_of(p_, precision_)) + (2 * group + (ata() ? 0 : box % 2)) * kCBoxBytes;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const int row = 16 * q + lane / 4 + 8 * h, col = 8 * jj + 2 * (lane % 4);
      out->address[lane] =
          k == kStageC ? staged + (p_.c16 ? sw128_half_byte(row, col) : sw128_float_byte(row, col))
                       : staged + kCBoxBytes + (row / 32) * (kCBoxBytes / 2) + sw128_float_byte(col + e, row % 32);
    }
  }

  // Row r is in slice r / 64, of consumer warpgroup slice / slices (warps 4 + 4 consumer ..), its
  // warp (r % 64) / 16; lane 4 g + t holds accumulator 4 j + r of the slice's C(16 q + g + 8 (r / 2),
  // 8 j + 2 t + r % 2) (wgmma_ptx.cuh); slots count on from one slice to the next.
  // Register-sourced: the same with rows and columns exchanged (the accumulators hold Cᵀ).
  void owner_in_block(int r, int c, Owner* o) const override {
    if (p_.register_sourced) std::swap(r, c);
    const int slice = r / 64, r64 = r % 64, r16 = r % 16;
    o->thread_x = (r16 % 8) * 4 + (c % 8) / 2;
    o->thread_y = 4 + 4 * (slice / slices_of(p_)) + r64 / 16;
    o->slot = (slice % slices_of(p_)) * (slice_span_of(p_) / 2) + 4 * (c / 8) + 2 * (r16 / 8) + c % 2;
  }
  // The TMA filled a stage of the ring; every consumer warpgroup multiplied its slices straight out
  // of it (the tensor cores read A and B there) and freed it, while the next slabs' copies ran.
  void describe_phase(int, int phase, PhaseWork* w) const override {
    const int span = slice_span_of(p_), slices = slices_of(p_),
              per_slice = p_.bk / instruction_k(precision_) * (span / p_.n), stage_kb = picture_.stage_bytes / 1024;
    const std::string spanned = std::to_string(span);
    w->shared = {static_cast<std::int64_t>(p_.consumers) * slices * (64 + span),
                 p_.register_sourced ? "slices x (64 + BM)" : "slices x (64 + BN)",
                 std::to_string(p_.consumers * slices) + " x (64 + " + spanned + ")"};
    w->words.push_back("One thread of the producer warpgroup had the TMA copy the slab from global memory into stage " +
                       std::to_string(phase % p_.stages) + " of a ring of " + std::to_string(p_.stages) + " (" +
                       std::to_string(stage_kb) + " KB a stage, 128-byte swizzled, zeros past the matrices' edges)" +
                       (p_.cluster > 1 ? ": this block's A box and its share of B's boxes, which the TMA multicast "
                                         "into the shared memory of every block of the cluster."
                                       : "."));
    if (p_.register_sourced)
      w->words.push_back(
          "Each of the " + std::to_string(p_.consumers) +
          " consumer warpgroup(s) waited on the stage's \"full\" mbarrier, read its fragments of B out of the stage "
          "into registers (four words per 8 k of each slice of 64 columns), then issued " +
          std::to_string(per_slice) + " wgmma m64n" + std::to_string(p_.n) + "k8 per slice (" + std::to_string(slices) +
          " slice(s) each) with those registers as the instruction's A and A's rows, read by the tensor cores from "
          "the stage, as its B: the product is Cᵀ. It waited for them to finish (they read the fragments' registers "
          "while they run), then its warps arrived on the stage's \"empty\" mbarrier, so that the producer may "
          "refill it.");
    else
      w->words.push_back("Each of the " + std::to_string(p_.consumers) +
                         " consumer warpgroup(s) waited on the stage's "
                         "\"full\" mbarrier, then issued " +
                         std::to_string(per_slice) + " wgmma m64n" + std::to_string(p_.n) + "k" +
                         std::to_string(instruction_k(precision_)) + " per slice of 64 rows (" +
                         std::to_string(slices) +
                         " slice(s) each): the tensor cores read A "
                         "and B straight from the stage into the warpgroup's accumulator registers. Then its warps "
                         "arrived on the stage's \"empty\" mbarrier, so that the producer may refill it.");
    const int ahead = std::min(picture_.in_flight, phases() - phase - 1);
    w->words.push_back(ahead > 0 ? "Meanwhile the TMA was copying the next " + std::to_string(ahead) +
                                       " slab(s) into other stages."
                                 : std::string("Nothing was left to copy for this tile."));
  }

  // Thread 0 issues every box; the TMA brings in what lies inside the matrix.
  void tile_loads(bool, int tile_rows, int tile_cols, std::int64_t r0, std::int64_t c0, std::int64_t rows,
                  std::int64_t cols, int tid, std::vector<ElementRef>* out) const override {
    if (tid != 0) return;
    for (std::int64_t r = r0; r < std::min<std::int64_t>(r0 + tile_rows, rows); ++r)
      for (std::int64_t c = c0; c < std::min<std::int64_t>(c0 + tile_cols, cols); ++c) out->push_back({r, c});
  }

  // ---- the pictures: the accumulator layout of one instruction, the boxes of a stage ----
  void build_picture(Precision precision) {
    FragmentPicture& f = picture_;
    const bool tf32 = precision == Precision::TF32;
    const char* type = tf32 ? "tf32" : precision == Precision::BF16 ? "bf16" : "f16";
    const int k = instruction_k(precision), row = row_k(precision), bytes = operand_bytes(precision);
    f.instruction = "wgmma.mma_async.sync.aligned.m64n" + std::to_string(p_.n) + "k" + std::to_string(k) + ".f32." +
                    type + "." + type;
    f.mma_m = 64;
    f.mma_n = p_.n;
    f.mma_k = k;
    f.group_warps = 4;
    // One warp tile per consumer warpgroup: its slices, the tile's width (register-sourced: of Cᵀ,
    // whose rows the instruction computes).
    f.warps_m = p_.consumers;
    f.warps_n = 1;
    f.warp_m = 64 * slices_of(p_);
    f.warp_n = slice_span_of(p_);
    f.producer_warps = 4;
    f.stages = p_.stages;
    // While slab s is multiplied, s - 1 may still be (one commit group in flight) and its stage is
    // not free yet: the copies of s + 1 .. s + stages - 2 are in flight. The register-sourced
    // consumers wait for each slab's products before freeing its stage: s + 1 .. s + stages - 1.
    f.in_flight = p_.stages - (p_.register_sourced ? 1 : 2);
    f.c_transposed = p_.register_sourced;
    if (p_.register_sourced)
      for (int q = 0; q < 4; ++q)
        for (int lane = 0; lane < 32; ++lane)
          for (int e = 0; e < 4; ++e) {
            LaneElement a;  // the tf32 A fragment: rows g, g + 8, columns t, t + 4 of the warp's band
            a.warp = q;
            a.lane = lane;
            a.reg = e;
            a.row = 16 * q + lane / 4 + 8 * (e % 2);
            a.col = lane % 4 + 4 * (e / 2);
            f.a.push_back(a);
          }
    f.swizzled = true;
    f.stage_barriers = true;
    for (int q = 0; q < 4; ++q)
      for (int lane = 0; lane < 32; ++lane)
        for (int j = 0; j < p_.n / 8; ++j)
          for (int r = 0; r < 4; ++r) {
            LaneElement e;
            e.warp = q;
            e.lane = lane;
            e.reg = 4 * j + r;
            e.row = 16 * q + lane / 4 + 8 * (r / 2);
            e.col = 8 * j + 2 * (lane % 4) + r % 2;
            f.c.push_back(e);
          }
    // The boxes of one stage, in the order the producer issues them (the kernel's loop).
    std::int64_t offset = 0;
    auto k_range = [](int k0, int depth) { return "k " + std::to_string(k0) + "-" + std::to_string(k0 + depth - 1); };
    auto range = [](const char* what, int first, int count) {
      return std::string(what) + " " + std::to_string(first) + "-" + std::to_string(first + count - 1);
    };
    if (tf32 && !p_.register_sourced) {
      // K-major boxes of 32 k side by side: the tile's rows of A (AᵀA: of Aᵀ), then its columns
      // of Bᵀ (AᵀA: Aᵀ again), a cluster's block copying its share of them.
      const char* a_rows = ata() ? "columns" : "rows";
      const int share = p_.bn / p_.cluster;
      for (int kb = 0; kb < p_.bk / row; ++kb, offset += p_.bm * 128)
        f.stage_copies.push_back({"A", p_.bm, row, p_.bm * 128, offset,
                                  range(a_rows, 0, p_.bm) + " x " + k_range(kb * row, row) +
                                      (ata() ? " of Aᵀ (the transposed copy, K-major)" : " (K-major)")});
      for (int kb = 0; kb < p_.bk / row; ++kb)
        for (int part = 0; part < p_.cluster; ++part, offset += share * 128)
          f.stage_copies.push_back(
              {"B", share, row, share * 128, offset,
               range("columns", part * share, share) + " x " + k_range(kb * row, row) + " of " + (ata() ? "Aᵀ" : "Bᵀ") +
                   " (the transposed copy, K-major)" +
                   (p_.cluster > 1 ? "; copied by block " + std::to_string(part) +
                                         " of the cluster into every block's shared memory (multicast)"
                                   : "")});
    } else {
      const int box_bytes = box_bytes_of(p_);
      const std::string ks = k_range(0, p_.bk);
      if (ata()) {
        for (int box = 0; box < p_.bm / 64; ++box, offset += box_bytes)
          f.stage_copies.push_back(
              {"A", p_.bk, 64, box_bytes, offset,
               ks + " x " + range("columns", 64 * box, 64) + " of the block's rows (as Aᵀ, read transposed)"});
      } else {
        const int a_box_bytes = p_.bm * row * bytes;
        for (int kb = 0; kb < p_.bk / row; ++kb, offset += a_box_bytes)
          f.stage_copies.push_back(
              {"A", p_.bm, row, a_box_bytes, offset,
               range("rows", 0, p_.bm) + " x " + k_range(kb * row, row) + " (K-major: one 128-byte row each)"});
      }
      // In a cluster, block r of it copies the r-th share of B's boxes for all of them (multicast).
      const int share = p_.bn / row / p_.cluster;
      for (int box = 0; box < p_.bn / row; ++box, offset += box_bytes)
        f.stage_copies.push_back(
            {"B", p_.bk, row, box_bytes, offset,
             ks + " x " + range("columns", row * box, row) +
                 (p_.register_sourced ? " (N-major, as B lies: the consumers read it into registers)"
                                      : " (N-major, read transposed)") +
                 (p_.cluster > 1 ? "; copied by block " + std::to_string(box / share) +
                                       " of the cluster into every block's shared memory (multicast)"
                                 : "")});
    }
    f.stage_bytes = static_cast<int>(offset);
  }

  WgmmaParams p_;
  Precision precision_;
  FragmentPicture picture_;
  bool maps_, pairs_;
  std::int64_t blocks_launched_ = 1;  // register-sourced rows: blocks_launched(), for fragment_load
  std::vector<Site> listed_;
};

TileConfig wgmma_config(const WgmmaParams& p) {
  TileConfig c;
  c.name = config_name(p);
  c.description = p.description;
  c.bm = p.bm;
  c.bn = p.bn;
  c.bk = p.bk;
  // A consumer warpgroup's part of the tile: its rows (register-sourced: its columns).
  c.warp_m = p.register_sourced ? p.bm : 64 * slices_of(p);
  c.warp_n = p.register_sourced ? 64 * slices_of(p) : p.bn;
  c.stages = p.stages;
  c.cluster_m = p.cluster;
  c.band_rows = p.band;
  c.c_in_input_type = p.c16;
  c.group_warps = 4;
  c.threads_x = 32;
  c.threads_y = threads_of(p) / 32;
  c.math = math_of(p, /*any_type=*/false);
  c.block_work = block_work_of(p);
  return c;
}

}  // namespace

extern const VariantDescriptor kWgmmaTmaVariant = [] {
  VariantDescriptor v;
  v.id = "wgmma_tma";
  v.label = "wgmma + TMA (Hopper)";
  v.summary =
      "Hopper's own path: a warpgroup of four warps issues wgmma, whose operands the tensor cores read straight "
      "from shared memory; the Tensor Memory Accelerator fills that memory from a tensor map. One warpgroup "
      "copies and the others (one to three) compute, passing the stages of a ring through mbarriers; one block per SM "
      "walks the tiles. "
      "For AᵀA only the upper-triangle tiles run and are mirrored. tf32 operands must be K-major: B (AᵀA: A) is "
      "transposed by a pass before the kernel, counted in the time, or (the _rs rows, gemm) B's slab is read "
      "into registers as the instruction's A and the tile computed transposed, with no pass.";
  v.configs = configs_of(kParams, wgmma_config);
  // The window's and the lessons' first choice: runs AᵀA as well as gemm (the fastest AᵀA; gemm a
  // few % under 128x256).
  v.default_config = config_named(v.configs, "192x192_s3_st");
  v.precisions = {Precision::F16, Precision::BF16, Precision::TF32};
  v.precision_note =
      "wgmma_tma takes 16-bit inputs and tf32 (FP32 accumulation, C in float, or for the 16-bit types in their own "
      "type in the _c16 rows; tf32 through its own rows, with B "
      "transposed first or read into registers); f64 runs on tensor cores in mma_sync";
  v.min_compute_capability = 90;
  v.max_compute_capability = 90;
  v.architecture_note =
      "wgmma, setmaxnreg and the tensor maps used here are Hopper's (sm_90a): its code runs on compute "
      "capability 9.0 alone";
  v.precisions_need_tensor_cores = true;
  v.refuses = wgmma_refuses;
  set_launches<WgmmaLaunch>(v);
  v.launch_timeline = wgmma_launch_timeline;
  v.timeline_layout = wgmma_timeline_layout;
  v.kernel_for = wgmma_kernel_for;
  v.kernel_text = "kernels/variants/06_wgmma_tma.cuh";
  v.kernel_names = wgmma_kernel_names;
  v.shared_bytes = wgmma_shared_bytes;
  v.model = [](int config_index, Problem problem, Precision precision,
               const Shape& shape) -> std::unique_ptr<MappingModel> {
    return std::make_unique<WgmmaModel>(params_at(config_index), problem, precision, normalised(problem, shape));
  };
  v.tile_params = kTileParams;
  v.tile_values_of = wgmma_tile_values;
  v.typed_config = wgmma_typed_config;
  v.model_caps.mirrored_ata = true;
  return v;
}();

}  // namespace tilescope
