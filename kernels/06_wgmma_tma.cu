// 06 wgmma_tma — Hopper's own road to the tensor cores: warpgroups multiply straight out of shared
// memory (wgmma), the copy engine fills it (TMA), and the block splits into a warpgroup that copies
// and warpgroups that compute, handing the stages of a ring to each other through mbarriers.
//
// Built for sm_90a only (CMakeLists.txt reads this line): wgmma and setmaxnreg exist nowhere else.
//
// Idea: on an H100, mma_sync is bound by shared memory, not by its tensor cores: every warp reads
// its own fragments out of shared memory (ldmatrix) while the copies of the next slabs are written
// into it. wgmma removes most of that traffic: the four warps of a warpgroup issue one instruction
// together, 64 x N x 16, whose operands the tensor cores read from shared memory themselves, once
// for the whole warpgroup, through a descriptor of the tile's layout. The copies move too: one
// thread describes a whole tile to the Tensor Memory Accelerator (a box of a tensor map) and the
// TMA writes it, 128-byte swizzled, while that thread's registers stay free.
// Changed from mma_sync: no fragments in registers but the accumulators; no ldmatrix; no copy
//   loops (one thread issues the boxes); the block's warps are specialised: warpgroup 0 copies
//   (the producer, which gives most of its registers away with setmaxnreg) and warpgroups 1, 2, ..
//   compute (the consumers, which take them: 128 FP32 accumulators each for a 64 x 256 tile).
//   Each stage of the ring has two mbarriers: "full" completes when the TMA has delivered the
//   stage's bytes (the producer announces them with expect_tx), "empty" when all consumer warps
//   are done with it. Nobody waits on a block barrier. The persistent configurations launch one
//   block per SM and walk the tiles (tile = block, block + grid, ...), so the producer copies the
//   next tile's first slabs while the consumers store the last tile's C.
// Thread -> C: tile b of the 1-D order of block_order.h (bands of 8 block rows; AᵀA: the upper
//   triangle). The tile is cut in slices of 64 rows, one wgmma's; consumer warpgroup w (1, 2, ..)
//   owns `slices` of them in a row (one each, or both with a single consumer): slice s is rows
//   64 s .. 64 s + 63. In a slice, warp q of the group holds rows 16 q .. 16 q + 15, and lane
//   4 g + t accumulator 4 j + r: C(16 q + g + 8 (r / 2), 8 j + 2 t + r % 2) (wgmma_ptx.cuh).
// AᵀA (C = AᵀA, A is K x N): upper-triangle tiles only, mirrored: C(i, j), i <= j, is stored with
//   its mirror C(j, i); a diagonal tile computes its lower half and drops it. Both operands are
//   column blocks of A, read by the same tensor map.
// Layouts: a slab is 64 deep, so a K-major row of it (gemm's A: 64 k of one row of A) is exactly one
//   128-byte swizzled row. B (and both operands of AᵀA) are read N-major: a box is 64 columns x 64
//   k rows, a 256-wide tile four boxes side by side, and wgmma reads them with its transpose bit.
// Clusters (_c2, gemm): two blocks launched as one cluster take two tiles one above the other,
//   which read the same slab of B: each copies its A box and half of B's boxes by a multicast TMA
//   load into both shared memories (both "full" barriers count the bytes), and each consumer warp
//   frees a stage on both blocks' "empty" barriers. Each B slab is read from L2 once per two tiles.
// C: from the registers straight to global memory (two neighbours per store), or, in the _st
//   configurations, through shared memory: each consumer writes 64 x 32 boxes of its accumulators,
//   128-byte swizzled, into a buffer of its own and one of its threads hands each box to the TMA,
//   which stores it while the consumer goes on (two buffers take turns; the TMA must have read a
//   buffer before it is written again). AᵀA writes each box a second time, transposed, and the TMA
//   stores that as the mirror; diagonal tiles store from the registers (their lower half is dropped).
// Ragged sizes: the TMA fills what lies outside the matrix with zeros (and counts those bytes all
//   the same), the stores are predicated and the TMA stores drop what lies outside C. The TMA
//   needs 16-byte aligned rows (C's too, or C is stored from the registers): a matrix whose
//   leading dimension is not a multiple of 8 halves is first copied into one whose rows are
//   (counted in the time: that is what the ragged sizes cost here).
// Instrumented builds: the same text with another probe (probe.cuh). The traced build counts each
//   box's elements as reads and records who stored each element of C (a persistent block names
//   the tile it works on, so the ids are the model's one block per tile). The timeline build
//   (timeline_probe.cuh) stamps every slab: the producer when it issues the copies, an observer
//   (warp 1, idle otherwise, which joins the "empty" count so the ring cannot lap it) when the
//   bytes have landed, each consumer when it begins and when its products are done.
// What to look for: % of cuBLAS in the same type (cuBLAS uses this instruction too) and of the
//   wgmma roof; 128 x 128 against 128 x 256 tiles (shared-memory bytes per instruction); 3 against 4
//   stages; one consumer warpgroup against two (while one waits for its products, the other
//   issues); persistent against one block per tile; C from the registers against TMA stores
//   (_st: the consumers do not wait for global memory, most of all in AᵀA's mirrored stores); in
//   the timeline, the copies of the next stages running under the products of this one; clusters
//   against single blocks (half of B's L2 reads).
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "block_order.h"
#include "block_tile_model.h"
#include "fragment_model.h"
#include "kernel_common.cuh"
#include "probe.cuh"
#include "timeline_probe.cuh"
#include "variant.h"
#include "wgmma_ptx.cuh"

namespace tilescope {

extern const VariantDescriptor kWgmmaTmaVariant;

namespace {

// ---- the compiled set -------------------------------------------------------------------------
struct WgmmaParams {
  int bm, bn;       // block tile of C, in slices of 64 rows
  int stages;       // buffers of the ring
  int consumers;    // warpgroups that multiply: each takes bm / 64 / consumers slices of the tile
  bool persistent;  // one block per SM walking the tiles (false: one block per tile)
  bool tma_store;   // C through shared memory and TMA stores (false: from the registers to global)
  int cluster;      // blocks per cluster (gemm): tiles one above the other sharing B's slabs, multicast
};
constexpr WgmmaParams kParams[] = {
    {128, 256, 4, 2, true, false, 1},   // the fast gemm
    {128, 256, 3, 2, true, false, 1},   // one stage less in flight
    {128, 128, 5, 2, true, false, 1},   // half the tile: a third more L2 bytes per product than the one above
    {128, 128, 5, 1, true, false, 1},   // one consumer for both slices: half the warps to hide each other's waits
    {128, 256, 4, 2, false, false, 1},  // one block per tile: each block's last stores and first copies exposed
    {128, 256, 4, 2, true, true, 1},    // C leaves through shared memory, by TMA stores the consumers do not wait for
    {128, 256, 3, 2, true, true, 1},
    {128, 256, 4, 2, true, false, 2},  // clusters of two tiles one above the other: each B slab read from L2 once
    {128, 256, 4, 2, true, true, 2},
    {192, 192, 4, 3, true, false, 1},  // three consumers: a square tile (AᵀA) with fewer L2 bytes than 128 x 256
    {192, 192, 3, 3, true, true, 1},   // and its C (AᵀA: with the mirrors) through shared memory, a stage less
};
constexpr int kNumConfigs = sizeof(kParams) / sizeof(kParams[0]);
constexpr int kDefaultConfig = 10;  // the window's and the lessons' first choice

constexpr int kBK = 64;  // slab depth: one 128-byte row of 16-bit values
constexpr int kProducerRegisters = 40;
constexpr int slices_of(const WgmmaParams& p) {
  return p.bm / 64 / p.consumers;  // 64-row slices per consumer
}
constexpr int threads_of(const WgmmaParams& p) {
  return 128 * (p.consumers + 1);  // one more warpgroup copies
}
// What setmaxnreg gives each consumer thread: the register file (65536) less the producer's,
// shared by the consumers, in steps of 8, at most 232.
constexpr int consumer_registers(const WgmmaParams& p) {
  const int each = (65536 - 128 * kProducerRegisters) / (128 * p.consumers) / 8 * 8;
  return each < 232 ? each : 232;
}
constexpr int kBoxBytes = 64 * kBK * 2;  // an N-major box: 64 k rows x 128 bytes
constexpr int kSwizzleAtom = 1024;       // 8 rows of 128 bytes

// C on its way out (tma_store): boxes of 64 rows x 32 floats (128 bytes, the widest row the
// 128-byte swizzle takes), two per consumer so one fills while the TMA reads the other.
constexpr int kCBoxCols = 32;
constexpr int kCBoxBytes = 64 * kCBoxCols * 4;

// Shared memory of a configuration: the ring (A and B tiles per stage), then 2 x stages mbarriers
// (in a block of 1024 bytes), then the C boxes; plus room to align the ring to 1024 bytes.
constexpr std::size_t shared_bytes_of(const WgmmaParams& p) {
  return kSwizzleAtom + static_cast<std::size_t>(p.stages) * (p.bm + p.bn) * kBK * 2 + kSwizzleAtom +
         (p.tma_store ? static_cast<std::size_t>(p.consumers) * 2 * kCBoxBytes : 0);
}

template <int CFG>
struct WgShape {
  static constexpr WgmmaParams p = kParams[CFG];
  static constexpr int kThreads = threads_of(p), kSlices = slices_of(p);
  static_assert(p.bm % (64 * p.consumers) == 0, "each consumer issues whole m64 instructions");
  static_assert(p.bn % 64 == 0, "B arrives in boxes 64 wide");
  static_assert(p.consumers <= kTimelineMaxConsumers, "the timeline stamps at most this many consumers");
  static constexpr int kAcc = p.bn / 2;  // accumulators per thread and slice
  static constexpr int kATileBytes = p.bm * kBK * 2, kBTileBytes = p.bn * kBK * 2;
  static constexpr int kStageBytes = kATileBytes + kBTileBytes;
  static_assert(kATileBytes % kSwizzleAtom == 0 && kBTileBytes % kSwizzleAtom == 0, "tiles keep the 1024 alignment");
  static_assert(2 * p.stages * sizeof(std::uint64_t) <= kSwizzleAtom, "the barriers fit their block");
  static_assert(!p.tma_store || p.bn % kCBoxCols == 0, "C leaves in whole boxes");
  static_assert(p.cluster >= 1 && p.cluster <= 2 && (p.bn / 64) % p.cluster == 0, "B's boxes split among the cluster");
  static constexpr std::size_t kShared = shared_bytes_of(p);
};

template <Precision P>
constexpr bool is_bf16() {
  return P == Precision::BF16;
}

// ---- the kernel -------------------------------------------------------------------------------
// a_map: gemm's A (K-major boxes of 64 k x BM rows) or, for AᵀA, A itself (N-major boxes of 64
// columns x 64 k); b_map: B (N-major boxes), unused for AᵀA. The probe (probe.cuh) is NoProbe in
// the timed build; TraceProbe counts the boxes' reads and records the writers; TimelineProbe
// stamps the ring, and its observer (warp 1, idle otherwise) notes when each stage landed.
// c_map (tma_store configurations): C in boxes of 32 columns x 64 rows, 128-byte swizzled; m_map
// (AᵀA's mirrors) the same C in boxes of 32 x 32; use_c_map false where C's rows are not 16-byte
// aligned (the stores then go from the registers).
template <Precision P, int CFG, bool kAta, typename Probe>
__global__ void __launch_bounds__(WgShape<CFG>::kThreads, 1)
    wgmma_tma_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                     const __grid_constant__ CUtensorMap c_map, const __grid_constant__ CUtensorMap m_map,
                     bool use_c_map, float* C, int M, int N, int K, bool vec_c, Probe probe) {
#if defined(__CUDA_ARCH__) && !defined(TILESCOPE_SM90A_PTX)
  __trap();  // never launched: the descriptor refuses every GPU but compute capability 9.0
#else
  using S = WgShape<CFG>;
  constexpr WgmmaParams p = S::p;
  extern __shared__ unsigned char shared_raw[];
  // The swizzle works on address bits: the ring starts on a 1024-byte boundary.
  const std::uint32_t raw = shared_address(shared_raw);
  unsigned char* const ring = shared_raw + ((raw + kSwizzleAtom - 1) / kSwizzleAtom * kSwizzleAtom - raw);
  auto* const full = reinterpret_cast<std::uint64_t*>(ring + p.stages * S::kStageBytes);
  std::uint64_t* const empty = full + p.stages;
  unsigned char* const c_boxes = ring + p.stages * S::kStageBytes + kSwizzleAtom;

  const int grid_m = static_cast<int>(ceil_div(M, p.bm)), grid_n = static_cast<int>(ceil_div(N, p.bn));
  // The work: tiles in block_order.h's order, or for clusters groups of p.cluster block rows of one
  // block column in that order, this block taking the group's row of its rank.
  const unsigned rank = p.cluster > 1 ? cluster_rank() : 0;
  const int group_rows = static_cast<int>(ceil_div(grid_m, p.cluster));
  const int works = p.cluster > 1 ? group_rows * grid_n : static_cast<int>(block_tile_count(kAta, grid_m, grid_n));
  const int first_work = static_cast<int>(blockIdx.x) / p.cluster;
  const int work_step = p.persistent ? static_cast<int>(gridDim.x) / p.cluster : works;
  const auto tile_of_work = [&](int w) {
    if (S::p.cluster == 1) return block_tile(kAta, w, grid_m, grid_n);
    const BlockTile group = gemm_block_tile(w, group_rows, grid_n);
    return BlockTile{group.row * S::p.cluster + static_cast<int>(rank), group.col};
  };
  const int slabs = static_cast<int>(ceil_div(probe.k_end(K, kBK), kBK));
  // The A operand's matrix: gemm M x K, AᵀA K x N (both operands).
  const std::int64_t a_width = kAta ? N : K, a_height = kAta ? K : M;

  if (threadIdx.x == 0) {
    for (int s = 0; s < p.stages; ++s) {
      mbarrier_init(&full[s], 1);  // the producer's arrival (plus the TMA's bytes)
      // One arrival per consumer warp (and the timeline's observer).
      mbarrier_init(&empty[s], 4 * p.consumers * p.cluster + (Probe::kObserves ? 1 : 0));
    }
    fence_mbarrier_init();
    probe.block_begin();
  }
  // A cluster's blocks arrive on each other's barriers: all of them must be initialised first.
  if constexpr (p.cluster > 1)
    cluster_sync();
  else
    __syncthreads();

  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  if (warpgroup == 0) {
    // ---- producer: one thread issues every box ----
    release_registers<kProducerRegisters>();
    if (threadIdx.x == 0) {
      int stage = 0, n = 0;
      std::uint32_t phase = 0;
      for (int w = first_work; w < works; w += work_step) {
        const BlockTile tile = tile_of_work(w);
        const int row0 = tile.row * p.bm, col0 = tile.col * p.bn;
        for (int slab = 0; slab < slabs; ++slab, ++n) {
          mbarrier_wait_parity(&empty[stage], phase ^ 1);  // the consumers are done with this stage
          probe.issued(n);
          unsigned char* const a_tile = ring + stage * S::kStageBytes;
          unsigned char* const b_tile = a_tile + S::kATileBytes;
          mbarrier_arrive_expect_tx(&full[stage], S::kStageBytes);
          const int k0 = slab * kBK;
          if constexpr (kAta) {
#pragma unroll
            for (int box = 0; box < p.bm / 64; ++box) {
              tma_load_2d(a_tile + box * kBoxBytes, &a_map, row0 + 64 * box, k0, &full[stage]);
              probe.tma_box(Operand::A, row0 + 64 * box, k0, 64, kBK, a_width, a_height);
            }
#pragma unroll
            for (int box = 0; box < p.bn / 64; ++box) {
              tma_load_2d(b_tile + box * kBoxBytes, &a_map, col0 + 64 * box, k0, &full[stage]);
              probe.tma_box(Operand::B, col0 + 64 * box, k0, 64, kBK, a_width, a_height);
            }
          } else {
            tma_load_2d(a_tile, &a_map, k0, row0, &full[stage]);
            probe.tma_box(Operand::A, k0, row0, kBK, p.bm, a_width, a_height);
            // In a cluster, rank r copies its share of B's boxes into every block of the cluster.
            constexpr int kShare = p.bn / 64 / p.cluster;
#pragma unroll
            for (int box = static_cast<int>(rank) * kShare; box < (static_cast<int>(rank) + 1) * kShare; ++box) {
              if constexpr (p.cluster > 1)
                tma_load_2d_multicast(b_tile + box * kBoxBytes, &b_map, col0 + 64 * box, k0, &full[stage],
                                      (1u << p.cluster) - 1);
              else
                tma_load_2d(b_tile + box * kBoxBytes, &b_map, col0 + 64 * box, k0, &full[stage]);
              probe.tma_box(Operand::B, col0 + 64 * box, k0, 64, kBK, N, K);
            }
          }
          if (++stage == p.stages) {
            stage = 0;
            phase ^= 1;
          }
        }
      }
    } else if (Probe::kObserves && threadIdx.x == 32) {
      // ---- the timeline's observer: when each stage's bytes had all landed ----
      int stage = 0, n = 0;
      std::uint32_t phase = 0;
      for (int w = first_work; w < works; w += work_step)
        for (int slab = 0; slab < slabs; ++slab, ++n) {
          mbarrier_wait_parity(&full[stage], phase);
          probe.arrived(n);
          mbarrier_arrive(&empty[stage]);  // so the ring never laps it
          if (++stage == p.stages) {
            stage = 0;
            phase ^= 1;
          }
        }
    }
  } else {
    // ---- consumers: warpgroup w computes slices (w - 1) * kSlices .. of each tile ----
    claim_registers<consumer_registers(p)>();
    const int consumer = warpgroup - 1;
    const int warp = (static_cast<int>(threadIdx.x) / 32) % 4, lane = static_cast<int>(threadIdx.x) % 32;
    const bool group_leader = threadIdx.x % 128 == 0;  // stamps the timeline, issues the C stores
    int stage = 0, n = 0, c_box_count = 0;
    std::uint32_t phase = 0;
    float acc[S::kSlices][S::kAcc];
    // A stage is free once every consumer warp of the cluster is done with it (the others' copies
    // land in it too).
    const auto release = [&](int s) {
      if (lane != 0) return;
      mbarrier_arrive(&empty[s]);
      if constexpr (S::p.cluster > 1)
        for (unsigned other = 0; other < S::p.cluster; ++other)
          if (other != rank) mbarrier_arrive_remote(&empty[s], other);
    };
    for (int w = first_work; w < works; w += work_step) {
      const BlockTile tile = tile_of_work(w);
      probe.at_block(w * p.cluster + static_cast<int>(rank));
#pragma unroll
      for (int sl = 0; sl < S::kSlices; ++sl)
#pragma unroll
        for (int i = 0; i < S::kAcc; ++i) acc[sl][i] = 0.0f;
      int previous = -1;
      for (int slab = 0; slab < slabs; ++slab, ++n) {
        mbarrier_wait_parity(&full[stage], phase);  // the TMA has delivered this stage
        if (group_leader) probe.started(consumer, n);
        const unsigned char* const a_tile = ring + stage * S::kStageBytes;
        const unsigned char* const b_tile = a_tile + S::kATileBytes;
        wgmma_fence();
#pragma unroll
        for (int sl = 0; sl < S::kSlices; ++sl) {
          const int slice = consumer * S::kSlices + sl;
#pragma unroll
          for (int kk = 0; kk < kBK / 16; ++kk) {
            // A: gemm K-major, this slice's 64 rows, 32 bytes per 16 k inside the swizzled rows;
            // AᵀA M-major, this slice's box, 16 k rows of 128 bytes per step. B: N-major boxes.
            const std::uint64_t a =
                kAta ? sw128_descriptor(a_tile + slice * kBoxBytes + kk * 16 * 128, kBoxBytes, kSwizzleAtom)
                     : sw128_descriptor(a_tile + slice * 64 * 128 + kk * 32, 16, kSwizzleAtom);
            const std::uint64_t b = sw128_descriptor(b_tile + kk * 16 * 128, kBoxBytes, kSwizzleAtom);
            wgmma_m64k16<p.bn, is_bf16<P>(), kAta ? 1 : 0, 1>(acc[sl], a, b, 1);
          }
        }
        wgmma_commit();
        // The previous slab's products are done once at most this one is pending: its stage is free.
        wgmma_wait<1>();
#pragma unroll
        for (int sl = 0; sl < S::kSlices; ++sl) fence_accumulators(acc[sl]);
        if (previous >= 0) {
          if (group_leader) probe.done(consumer, n - 1);
          release(previous);
        }
        previous = stage;
        if (++stage == p.stages) {
          stage = 0;
          phase ^= 1;
        }
      }
      wgmma_wait<0>();
#pragma unroll
      for (int sl = 0; sl < S::kSlices; ++sl) fence_accumulators(acc[sl]);
      if (previous >= 0) {
        if (group_leader) probe.done(consumer, n - 1);
        release(previous);
      }

      const int g = lane / 4, tq = lane % 4;
      // AᵀA's diagonal tiles drop their lower half: they store from the registers.
      if constexpr (p.tma_store) {
        if (use_c_map && (!kAta || tile.row != tile.col)) {
          // ---- epilogue through shared memory: box by box, the TMA stores what the group wrote ----
          // Gemm: a box of 64 rows x 32 columns, two buffers taking turns. AᵀA: the box and its
          // mirror (32 rows x 64 columns, as two boxes of 32 x 32) in one buffer.
          for (int sl = 0; sl < S::kSlices; ++sl) {
            // A cluster's spare block below C stores nothing.
            if (tile.row * p.bm + 64 * (consumer * S::kSlices + sl) >= M) continue;
#pragma unroll
            for (int box = 0; box < p.bn / kCBoxCols; ++box, ++c_box_count) {
              unsigned char* const staged = c_boxes + (2 * consumer + (kAta ? 0 : c_box_count % 2)) * kCBoxBytes;
              unsigned char* const mirror = staged + kCBoxBytes;
              // The store issued from this buffer before must have read it.
              if (group_leader) {
                if constexpr (kAta)
                  bulk_wait_read<0>();
                else
                  bulk_wait_read<1>();
              }
              named_barrier_sync(1 + consumer, 128);
              const int row0 = tile.row * p.bm + 64 * (consumer * S::kSlices + sl),
                        col0 = tile.col * p.bn + box * kCBoxCols;
#pragma unroll
              for (int jj = 0; jj < kCBoxCols / 8; ++jj)
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                  const int row = 16 * warp + g + 8 * h, col = 8 * jj + 2 * tq,
                            r = 4 * (box * kCBoxCols / 8 + jj) + 2 * h;
                  const float v0 = acc[sl][r], v1 = acc[sl][r + 1];
                  // 16-byte chunk c of a 128-byte row q sits at chunk c ^ (q % 8).
                  float* const at =
                      reinterpret_cast<float*>(staged + row * 128 + ((col / 4) ^ (row % 8)) * 16) + col % 4;
                  *reinterpret_cast<float2*>(at) = make_float2(v0, v1);
                  if constexpr (kAta) {
                    // The mirror: element (row, col) of the box goes to row col, column row % 32 of
                    // mirror box row / 32.
                    unsigned char* const m = mirror + (row / 32) * (kCBoxBytes / 2);
                    const int mc = row % 32;
                    reinterpret_cast<float*>(m + col * 128 + ((mc / 4) ^ (col % 8)) * 16)[mc % 4] = v0;
                    reinterpret_cast<float*>(m + (col + 1) * 128 + ((mc / 4) ^ ((col + 1) % 8)) * 16)[mc % 4] = v1;
                  }
                  const std::int64_t grow = row0 + row, gcol = col0 + col;
                  const int slot = sl * S::kAcc + r;
                  if (grow < M && gcol < N) probe.staged(grow * N + gcol, slot);
                  if (grow < M && gcol + 1 < N) probe.staged(grow * N + gcol + 1, slot + 1);
                  if constexpr (kAta) {
                    if (grow < M && gcol < N) probe.staged(gcol * N + grow, slot);
                    if (grow < M && gcol + 1 < N) probe.staged((gcol + 1) * N + grow, slot + 1);
                  }
                }
              fence_proxy_async();  // the writes above, seen by the TMA
              named_barrier_sync(1 + consumer, 128);
              if (group_leader) {
                tma_store_2d(&c_map, staged, col0, row0);
                if constexpr (kAta) {
                  tma_store_2d(&m_map, mirror, row0, col0);
                  tma_store_2d(&m_map, mirror + kCBoxBytes / 2, row0 + 32, col0);
                }
                bulk_commit();
              }
            }
          }
          continue;
        }
      }
      // ---- epilogue: straight from the accumulators, two neighbours per store ----
      const int col_base = tile.col * p.bn + 2 * tq;
#pragma unroll
      for (int sl = 0; sl < S::kSlices; ++sl) {
        const int row_base = tile.row * p.bm + 64 * (consumer * S::kSlices + sl) + 16 * warp + g;
        const int slot0 = sl * S::kAcc;
#pragma unroll
        for (int j = 0; j < p.bn / 8; ++j)
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const int row = row_base + 8 * h, col = col_base + 8 * j, r = 4 * j + 2 * h;
            const float v0 = acc[sl][r], v1 = acc[sl][r + 1];
            if (row >= M) continue;
            if constexpr (kAta) {
              // Upper triangle and its mirror; a diagonal tile's lower half is dropped.
              if (col < N && row <= col) {
                probe.store(C, static_cast<std::int64_t>(row) * N + col, v0, slot0 + r);
                if (row < col) probe.store(C, static_cast<std::int64_t>(col) * N + row, v0, slot0 + r);
              }
              if (col + 1 < N && row <= col + 1) {
                probe.store(C, static_cast<std::int64_t>(row) * N + col + 1, v1, slot0 + r + 1);
                if (row < col + 1) probe.store(C, static_cast<std::int64_t>(col + 1) * N + row, v1, slot0 + r + 1);
              }
            } else {
              const std::int64_t at = static_cast<std::int64_t>(row) * N + col;
              if (vec_c && col + 1 < N) {
                const float pair[2] = {v0, v1};
                probe.store(C, at, pair, slot0 + r);
              } else {
                if (col < N) probe.store(C, at, v0, slot0 + r);
                if (col + 1 < N) probe.store(C, at + 1, v1, slot0 + r + 1);
              }
            }
          }
      }
    }
    if constexpr (p.tma_store) {
      if (group_leader) bulk_wait_all();  // the last boxes written before the block's shared memory goes
    }
  }
  if constexpr (Probe::kObserves) {
    __syncthreads();  // the whole block is done: its last stamp
    if (threadIdx.x == 0) probe.block_end(slabs * ((works - first_work + work_step - 1) / work_step));
  }
  // No block leaves while another of its cluster may still arrive on its barriers.
  if constexpr (p.cluster > 1) cluster_sync();
#endif
}

// Copies a rows x cols matrix of 16-bit values between leading dimensions (to give the TMA
// 16-byte aligned rows).
__global__ void copy_rows_kernel(const std::uint16_t* __restrict__ src, std::int64_t src_ld,
                                 std::uint16_t* __restrict__ dst, std::int64_t dst_ld, std::int64_t rows,
                                 std::int64_t cols) {
  const std::int64_t total = rows * cols;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    dst[(e / cols) * dst_ld + e % cols] = src[(e / cols) * src_ld + e % cols];
}

// "128x256_s4": the block tile, the stages; _w1 for one consumer warpgroup where the tile would
// have more, _np for one block per tile, _st for C stored through shared memory by the TMA, _c2 for
// clusters of two.
std::string config_name(const WgmmaParams& p) {
  return std::to_string(p.bm) + "x" + std::to_string(p.bn) + "_s" + std::to_string(p.stages) +
         (p.consumers * 64 != p.bm ? "_w" + std::to_string(p.consumers) : "") + (p.persistent ? "" : "_np") +
         (p.tma_store ? "_st" : "") + (p.cluster > 1 ? "_c" + std::to_string(p.cluster) : "");
}

// ---- tensor maps ----------------------------------------------------------------------------------
// cuTensorMapEncodeTiled is a driver function; the runtime hands out its address, so the program
// links no driver library.
PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encoder = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || fn == nullptr)
      throw GpuError("the CUDA driver offers no cuTensorMapEncodeTiled (it needs a CUDA 12 driver)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }();
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
// The inputs: 16-bit values.
CUtensorMap make_input_map(const void* base, Precision precision, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                           int box_cols, int box_rows) {
  return make_tensor_map(
      base, precision == Precision::BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, rows,
      cols, ld, box_cols, box_rows);
}

// A matrix as the TMA can read it: the caller's own when its rows are 16-byte aligned, otherwise a
// copy with a leading dimension rounded up to 8 (freed, stream-ordered, with this object).
class TmaOperand {
 public:
  TmaOperand(const void* data, std::int64_t rows, std::int64_t cols, cudaStream_t stream)
      : data_(data), ld_(cols), stream_(stream) {
    if (reinterpret_cast<std::uintptr_t>(data) % 16 == 0 && cols % 8 == 0) return;
    ld_ = (cols + 7) / 8 * 8;
    CUDA_CHECK(cudaMallocAsync(&copy_, static_cast<std::size_t>(rows * ld_) * 2, stream));
    const std::int64_t blocks = std::min<std::int64_t>(ceil_div(rows * cols, 256), 4096);
    copy_rows_kernel<<<static_cast<unsigned>(std::max<std::int64_t>(blocks, 1)), 256, 0, stream>>>(
        static_cast<const std::uint16_t*>(data), cols, static_cast<std::uint16_t*>(copy_), ld_, rows, cols);
    CUDA_CHECK_LAUNCH("copy_rows_kernel");
    data_ = copy_;
  }
  ~TmaOperand() {
    if (copy_) cudaFreeAsync(copy_, stream_);  // a failure here surfaces at the next checked call
  }
  TmaOperand(const TmaOperand&) = delete;
  TmaOperand& operator=(const TmaOperand&) = delete;
  const void* data() const { return data_; }
  std::int64_t ld() const { return ld_; }

 private:
  const void* data_;
  std::int64_t ld_;
  cudaStream_t stream_;
  void* copy_ = nullptr;
};

// ---- launching --------------------------------------------------------------------------------
template <int CFG, typename Probe, typename Fn>
void visit_config(const GemmArgs& g, Fn&& fn) {
  const bool ata = g.problem == Problem::Ata;
  auto by_problem = [&](auto precision_tag) {
    constexpr Precision P = decltype(precision_tag)::value;
    if (!ata)
      fn(wgmma_tma_kernel<P, CFG, false, Probe>, std::integral_constant<int, CFG>{});
    else if constexpr (kParams[CFG].bm == kParams[CFG].bn && kParams[CFG].cluster == 1)  // AᵀA: square, alone
      fn(wgmma_tma_kernel<P, CFG, true, Probe>, std::integral_constant<int, CFG>{});
    else
      throw GpuError("configuration " + config_name(kParams[CFG]) + " has no AᵀA kernel: BM must equal BN");
  };
  if (g.precision == Precision::BF16)
    by_problem(std::integral_constant<Precision, Precision::BF16>{});
  else
    by_problem(std::integral_constant<Precision, Precision::F16>{});
}

template <typename Probe, typename Fn, int... C>
void visit_kernel(const GemmArgs& g, int config_index, Fn&& fn, std::integer_sequence<int, C...>) {
  const bool found = ((config_index == C ? (visit_config<C, Probe>(g, fn), true) : false) || ...);
  if (!found) throw GpuError(config_index_error(kWgmmaTmaVariant, config_index));
}
template <typename Probe, typename Fn>
void visit_kernel(const GemmArgs& g, int config_index, Fn&& fn) {
  visit_kernel<Probe>(g, config_index, fn, std::make_integer_sequence<int, kNumConfigs>{});
}

std::int64_t tile_count(const WgmmaParams& p, Problem problem, const Shape& s) {
  return block_tile_count(problem == Problem::Ata, static_cast<int>(ceil_div(s.M, p.bm)),
                          static_cast<int>(ceil_div(s.N, p.bn)));
}

// What the blocks share out: tiles, or for clusters groups of p.cluster tiles one above the other.
std::int64_t work_count(const WgmmaParams& p, Problem problem, const Shape& s) {
  if (p.cluster == 1) return tile_count(p, problem, s);
  return ceil_div(ceil_div(s.M, p.bm), p.cluster) * ceil_div(s.N, p.bn);
}

// A launch of `blocks` blocks (clusters of p.cluster) of a configuration on `stream`.
struct Launch {
  cudaLaunchAttribute cluster{};
  cudaLaunchConfig_t config{};
  Launch(const WgmmaParams& p, std::int64_t blocks, int threads, std::size_t shared, cudaStream_t stream) {
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = static_cast<unsigned>(p.cluster);
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    config.gridDim = checked_grid(blocks, 1);
    config.blockDim = dim3(static_cast<unsigned>(threads));
    config.dynamicSmemBytes = shared;
    config.stream = stream;
    config.attrs = &cluster;
    config.numAttrs = p.cluster > 1 ? 1 : 0;
  }
};

// How many clusters of a kernel (its launch configuration's cluster size, threads and shared
// memory) the GPU places at once. It depends on the kernel and the device alone, so it is asked
// once per pair rather than before every timed launch.
int resident_clusters(const void* kernel, const cudaLaunchConfig_t& config) {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  static std::mutex guard;
  static std::map<std::pair<const void*, int>, int> known;
  const std::lock_guard<std::mutex> lock(guard);
  const auto key = std::make_pair(kernel, device);
  if (const auto it = known.find(key); it != known.end()) return it->second;
  int clusters = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
  known[key] = clusters;
  return clusters;
}

// Blocks of the launch: one per tile (per tile of a group), or for the persistent configurations
// as many as are resident at once: one per SM, or as many clusters as the GPU can place together.
// The kernel's shared-memory attribute must be set.
template <int CFG, typename Kernel>
std::int64_t blocks_of(Problem problem, const Shape& s, Kernel kernel) {
  using S = WgShape<CFG>;
  const std::int64_t works = work_count(S::p, problem, s);
  if (!S::p.persistent) return works * S::p.cluster;
  if (S::p.cluster == 1) {
    int device = 0, sms = 1;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return std::min<std::int64_t>(works, sms);
  }
  const Launch probe_launch(S::p, S::p.cluster, S::kThreads, S::kShared, nullptr);
  const int clusters = resident_clusters(reinterpret_cast<const void*>(kernel), probe_launch.config);
  if (clusters < 1)
    throw GpuError("this GPU cannot place a cluster of " + std::to_string(S::p.cluster) + " blocks of " +
                   std::to_string(S::kShared / 1024) + " KB of shared memory");
  return std::min<std::int64_t>(works, clusters) * S::p.cluster;
}

// The timed, traced and timeline launches differ only in the probe.
template <typename Probe>
void launch_with(const GemmArgs& g, int config_index, const Probe& probe) {
  visit_kernel<Probe>(g, config_index, [&](auto kernel, auto cfg_tag) {
    constexpr int CFG = decltype(cfg_tag)::value;
    using S = WgShape<CFG>;
    const Shape& s = g.shape;
    const bool ata = g.problem == Problem::Ata;
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(S::kShared)));
    // A: gemm M x K, AᵀA K x N; B: K x N.
    const TmaOperand a(g.a, ata ? s.K : s.M, ata ? s.N : s.K, g.stream);
    const std::unique_ptr<TmaOperand> b = ata ? nullptr : std::make_unique<TmaOperand>(g.b, s.K, s.N, g.stream);
    const CUtensorMap a_map = ata ? make_input_map(a.data(), g.precision, s.K, s.N, a.ld(), 64, kBK)
                                  : make_input_map(a.data(), g.precision, s.M, s.K, a.ld(), kBK, S::p.bm);
    const CUtensorMap b_map = ata ? a_map : make_input_map(b->data(), g.precision, s.K, s.N, b->ld(), 64, kBK);
    // C by TMA stores where its rows are 16-byte aligned; otherwise (and where the configuration
    // stores from the registers) the map is a stand-in the kernel never reads.
    const bool use_c_map = S::p.tma_store && reinterpret_cast<std::uintptr_t>(g.c) % 16 == 0 && s.N % 4 == 0;
    const CUtensorMap c_map =
        use_c_map ? make_tensor_map(g.c, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, s.M, s.N, s.N, kCBoxCols, 64) : a_map;
    const CUtensorMap m_map =
        use_c_map && ata ? make_tensor_map(g.c, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, s.M, s.N, s.N, kCBoxCols, 32)
                         : a_map;
    const bool vec_c = reinterpret_cast<std::uintptr_t>(g.c) % 8 == 0 && s.N % 2 == 0;
    const Launch launch(S::p, blocks_of<CFG>(g.problem, s, kernel), S::kThreads, S::kShared, g.stream);
    CUDA_CHECK(cudaLaunchKernelEx(&launch.config, kernel, a_map, b_map, c_map, m_map, use_c_map,
                                  static_cast<float*>(g.c), static_cast<int>(s.M), static_cast<int>(s.N),
                                  static_cast<int>(s.K), vec_c, probe));
    CUDA_CHECK_LAUNCH("wgmma_tma_kernel");
  });
}

void wgmma_launch(const GemmArgs& g, int config_index) {
  launch_with(g, config_index, NoProbe{});
}
void wgmma_launch_traced(const GemmArgs& g, int config_index, const TraceBuffers& trace) {
  launch_with(g, config_index, TraceProbe{trace});
}
void wgmma_launch_timeline(const GemmArgs& g, int config_index, const TimelineBuffers& timeline) {
  launch_with(g, config_index, TimelineProbe{timeline});
}

TimelineLayout wgmma_timeline_layout(const GemmArgs& g, int config_index) {
  TimelineLayout out;
  visit_kernel<TimelineProbe>(g, config_index, [&](auto kernel, auto cfg_tag) {
    constexpr int CFG = decltype(cfg_tag)::value;
    using S = WgShape<CFG>;
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(S::kShared)));
    out.blocks = static_cast<int>(blocks_of<CFG>(g.problem, g.shape, kernel));
    out.stages = S::p.stages;
    out.consumers = S::p.consumers;
    out.cluster = S::p.cluster;
    out.slabs_per_tile = static_cast<int>(ceil_div(g.shape.K, kBK));
    out.slab_depth = kBK;
    out.tiles = tile_count(S::p, g.problem, g.shape);
    out.works = work_count(S::p, g.problem, g.shape);
  });
  return out;
}

KernelLaunchShape wgmma_kernel_for(const GemmArgs& g, int config_index) {
  KernelLaunchShape out;
  visit_kernel<NoProbe>(g, config_index, [&](auto kernel, auto cfg_tag) {
    out.kernel = reinterpret_cast<const void*>(kernel);
    out.threads_per_block = WgShape<decltype(cfg_tag)::value>::kThreads;
    out.dynamic_shared_bytes = WgShape<decltype(cfg_tag)::value>::kShared;
  });
  return out;
}

const WgmmaParams* params_of(const TileConfig& cfg) {
  for (const WgmmaParams& p : kParams)
    if (config_name(p) == cfg.name) return &p;
  return nullptr;
}

std::string wgmma_refuses(Problem problem, Precision, const TileConfig& cfg) {
  if (!kSm90aCodeBuilt)
    return "this build holds no sm_90a code (its CUDA architectures did not include 90), and wgmma_tma is nothing "
           "else";
  const WgmmaParams* p = params_of(cfg);
  if (!p) return "unknown configuration " + cfg.name;
  if (problem == Problem::Ata && p->cluster > 1)
    return "the clusters pair gemm tiles one above the other, which share B; AᵀA's upper triangle is not paired "
           "(choose " +
           config_name(kParams[kDefaultConfig]) + ")";
  if (problem == Problem::Ata && p->bm != p->bn)
    return "AᵀA mirrors square tiles across the diagonal: BM must equal BN (choose " +
           config_name(kParams[kDefaultConfig]) + " or " + config_name(kParams[2]) + ")";
  return "";
}

std::size_t wgmma_shared_bytes(const TileConfig& cfg, Precision) {
  const WgmmaParams* p = params_of(cfg);
  return p ? shared_bytes_of(*p) : 0;
}

// ---- the mapping model ---------------------------------------------------------------------------
// What wgmma_tma_kernel does, as plain host code: tile b is block b (a persistent block computes
// tiles b, b + grid, ... and says so to the traced build's probe); warps 0-3 copy, warps 4.. compute.
class WgmmaModel final : public BlockTileModel {
 public:
  WgmmaModel(const WgmmaParams& p, Problem problem, Precision precision, const Shape& shape)
      : BlockTileModel(
            {p.bm, p.bn, kBK, threads_of(p) / 32, "copied", " by the TMA, one thread issuing every box", p.cluster},
            problem, shape),
        p_(p) {
    build_picture(precision);
  }

  int writer_slots() const override { return slices_of(p_) * p_.bn / 2; }
  const FragmentPicture* fragments() const override { return &picture_; }

 private:
  // Row r is in slice r / 64, of consumer warpgroup slice / slices (warps 4 + 4 consumer ..), its
  // warp (r % 64) / 16; lane 4 g + t holds accumulator 4 j + r of the slice's C(16 q + g + 8 (r / 2),
  // 8 j + 2 t + r % 2) (wgmma_ptx.cuh); slots count on from one slice to the next.
  void owner_in_block(int r, int c, Owner* o) const override {
    const int slice = r / 64, r64 = r % 64, r16 = r % 16;
    o->thread_x = (r16 % 8) * 4 + (c % 8) / 2;
    o->thread_y = 4 + 4 * (slice / slices_of(p_)) + r64 / 16;
    o->slot = (slice % slices_of(p_)) * (p_.bn / 2) + 4 * (c / 8) + 2 * (r16 / 8) + c % 2;
  }
  // The TMA filled a stage of the ring; every consumer warpgroup multiplied its slices straight out
  // of it (the tensor cores read A and B there) and freed it, while the next slabs' copies ran.
  void describe_phase(int, int phase, PhaseWork* w) const override {
    const int slices = slices_of(p_), per_slice = kBK / 16, stage_kb = picture_.stage_bytes / 1024;
    const std::string bn = std::to_string(p_.bn);
    w->shared = {static_cast<std::int64_t>(p_.consumers) * slices * (64 + p_.bn), "slices x (64 + BN)",
                 std::to_string(p_.consumers * slices) + " x (64 + " + bn + ")"};
    w->words.push_back("One thread of the producer warpgroup had the TMA copy the slab from global memory into stage " +
                       std::to_string(phase % p_.stages) + " of a ring of " + std::to_string(p_.stages) + " (" +
                       std::to_string(stage_kb) + " KB a stage, 128-byte swizzled, zeros past the matrices' edges)" +
                       (p_.cluster > 1 ? ": this block's A box and its share of B's boxes, which the TMA multicast "
                                         "into the shared memory of every block of the cluster."
                                       : "."));
    w->words.push_back("Each of the " + std::to_string(p_.consumers) +
                       " consumer warpgroup(s) waited on the stage's "
                       "\"full\" mbarrier, then issued " +
                       std::to_string(per_slice) + " wgmma m64n" + bn + "k16 per slice of 64 rows (" +
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
    const char* type = precision == Precision::BF16 ? "bf16" : "f16";
    f.instruction = "wgmma.mma_async.sync.aligned.m64n" + std::to_string(p_.bn) + "k16.f32." + type + "." + type;
    f.mma_m = 64;
    f.mma_n = p_.bn;
    f.mma_k = 16;
    f.group_warps = 4;
    f.warps_m = p_.consumers;  // one warp tile per consumer warpgroup: its slices, the tile's width
    f.warps_n = 1;
    f.warp_m = 64 * slices_of(p_);
    f.warp_n = p_.bn;
    f.producer_warps = 4;
    f.stages = p_.stages;
    // While slab s is multiplied, s - 1 may still be (one commit group in flight) and its stage is
    // not free yet: the copies of s + 1 .. s + stages - 2 are in flight.
    f.in_flight = p_.stages - 2;
    f.swizzled = true;
    f.stage_barriers = true;
    for (int q = 0; q < 4; ++q)
      for (int lane = 0; lane < 32; ++lane)
        for (int j = 0; j < p_.bn / 8; ++j)
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
    const int box_bytes = 64 * kBK * 2;
    std::int64_t offset = 0;
    if (ata()) {
      for (int box = 0; box < p_.bm / 64; ++box, offset += box_bytes)
        f.stage_copies.push_back({"A", kBK, 64, box_bytes, offset,
                                  "k 0-63 x columns " + std::to_string(64 * box) + "-" + std::to_string(64 * box + 63) +
                                      " of the block's rows (as Aᵀ, read transposed)"});
    } else {
      f.stage_copies.push_back({"A", p_.bm, kBK, p_.bm * kBK * 2, 0,
                                "rows 0-" + std::to_string(p_.bm - 1) + " x k 0-63 (K-major: one 128-byte row each)"});
      offset = p_.bm * kBK * 2;
    }
    // In a cluster, block r of it copies the r-th share of B's boxes for all of them (multicast).
    const int share = p_.bn / 64 / p_.cluster;
    for (int box = 0; box < p_.bn / 64; ++box, offset += box_bytes)
      f.stage_copies.push_back({"B", kBK, 64, box_bytes, offset,
                                "k 0-63 x columns " + std::to_string(64 * box) + "-" + std::to_string(64 * box + 63) +
                                    " (N-major, read transposed)" +
                                    (p_.cluster > 1 ? "; copied by block " + std::to_string(box / share) +
                                                          " of the cluster into every block's shared memory (multicast)"
                                                    : "")});
    f.stage_bytes = static_cast<int>(offset);
  }

  WgmmaParams p_;
  FragmentPicture picture_;
};

std::unique_ptr<MappingModel> wgmma_model(int config_index, Problem problem, Precision precision, const Shape& shape) {
  return std::make_unique<WgmmaModel>(kParams[config_index], problem, precision, normalised(problem, shape));
}

std::vector<TileConfig> wgmma_configs() {
  std::vector<TileConfig> out;
  for (const WgmmaParams& p : kParams) {
    TileConfig c;
    c.name = config_name(p);
    c.bm = p.bm;
    c.bn = p.bn;
    c.bk = kBK;
    c.warp_m = 64 * slices_of(p);  // a consumer warpgroup's rows
    c.warp_n = p.bn;
    c.stages = p.stages;
    c.cluster_m = p.cluster;
    c.group_warps = 4;
    c.threads_x = 32;
    c.threads_y = threads_of(p) / 32;
    c.math = p.bn == 256   ? "wgmma m64n256k16 tensor cores, FP32 accumulation"
             : p.bn == 192 ? "wgmma m64n192k16 tensor cores, FP32 accumulation"
                           : "wgmma m64n128k16 tensor cores, FP32 accumulation";
    out.push_back(c);
  }
  return out;
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
      "For AᵀA only the upper-triangle tiles run and are mirrored.";
  v.role = Role::Kernel;
  v.backend = Backend::Cuda;
  v.configs = wgmma_configs();
  // 192x192_s3_st: runs AᵀA as well as gemm (the fastest AᵀA; gemm a few % under 128x256).
  v.default_config = kDefaultConfig;
  v.precisions = {Precision::F16, Precision::BF16};
  v.precision_note =
      "wgmma_tma is written for 16-bit inputs (FP32 accumulation, C in float); tf32 and f64 run on tensor cores "
      "in mma_sync";
  v.min_compute_capability = 90;
  v.max_compute_capability = 90;
  v.architecture_note =
      "wgmma, setmaxnreg and the tensor maps used here are Hopper's (sm_90a): its code runs on compute "
      "capability 9.0 alone";
  v.precisions_need_tensor_cores = true;
  v.refuses = wgmma_refuses;
  v.launch = wgmma_launch;
  v.launch_traced = wgmma_launch_traced;
  v.launch_timeline = wgmma_launch_timeline;
  v.timeline_layout = wgmma_timeline_layout;
  v.kernel_for = wgmma_kernel_for;
  v.shared_bytes = wgmma_shared_bytes;
  v.model = wgmma_model;
  v.model_caps.staged_phases = true;
  v.model_caps.prefetch = false;
  v.model_caps.mirrored_ata = true;
  v.model_caps.warp_level = false;
  return v;
}();

}  // namespace tilescope
