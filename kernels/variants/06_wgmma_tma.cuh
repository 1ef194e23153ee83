// 06 wgmma_tma — Hopper's own road to the tensor cores: warpgroups multiply straight out of shared
// memory (wgmma), the copy engine fills it (TMA), and the block splits into a warpgroup that copies
// and warpgroups that compute, handing the stages of a ring to each other through mbarriers.
//
// Built for sm_90a only (its launch file says so to CMake): wgmma and setmaxnreg exist nowhere else.
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
// The code, in the order it runs (the kernel, wgmma_tma_kernel, comes last in this file): the
//   block finds its ring in shared memory (Ring) and its tiles (BlockWork; both in
//   wgmma_pipeline.cuh, with the rest of the bookkeeping), thread 0 initialises the stages'
//   barriers, and the warpgroups part. In warpgroup 0, thread 0 runs produce: every slab of every
//   tile, stage after stage; in the timeline build, thread 32 runs observe. Each consumer warpgroup
//   runs, tile after tile, consume (per slab: multiply_stage issues the wgmma, free_stage hands
//   the stage before back to the producer), then store_tile: store_tile_staged through shared
//   memory and TMA stores, or store_tile_from_registers.
// Thread -> C: tile b of the 1-D order of block_order.h (bands of `band` block rows, 8 unless a
//   row says otherwise; AᵀA: the upper triangle). The tile is cut in slices of 64 rows, one wgmma's; consumer warpgroup
//   w (1, 2, ..) owns `slices` of them in a row (one each, or both with a single consumer): slice s is rows 64 s .. 64
//   s + 63. In a slice, warp q of the group holds rows 16 q .. 16 q + 15, and lane 4 g + t accumulator 4 j + r: C(16 q
//   + g + 8 (r / 2), 8 j + 2 t + r % 2) (wgmma_ptx.cuh).
// AᵀA (C = AᵀA, A is K x N): upper-triangle tiles only, mirrored: C(i, j), i <= j, is stored with
//   its mirror C(j, i); a diagonal tile computes its lower half and drops it. Both operands are
//   column blocks of A, read by the same tensor map.
// Layouts (16-bit types): a slab is bk deep (64 in their rows); 64 k of one row of gemm's K-major A is
//   exactly one 128-byte swizzled row, so A arrives in bk / 64 boxes of 64 k x bm rows side by side.
//   B (and both operands of AᵀA) are read N-major: a box is 64 columns x bk k rows, a 256-wide
//   tile four boxes side by side, and wgmma reads them with its transpose bit. One instruction is
//   64 x n x 16: a slice takes bn / n of them per 16 k (one in the compiled set, where n = bn).
// tf32 (the tf32_ rows): wgmma takes tf32 operands K-major only (no transpose bit), and a row-major
//   B is N-major. So the launch first transposes B (AᵀA: A) into a copy whose rows are its columns,
//   a pass counted in the time, and then both operands arrive as K-major boxes of 32 k (one
//   128-byte row of floats) x the tile's rows, A's as for the 16-bit types and B's from the copy;
//   an instruction is 64 x n x 8, its step 32 bytes along the rows as before. A slab of 32 k holds
//   the bytes of a 16-bit slab of 64.
// Register-sourced (the _rs rows, tf32 gemm): the pass costs as much as a tenth of the product, and
//   wgmma has a second form, whose A comes from the warpgroup's registers, laid out by the threads
//   themselves. So these rows compute each tile transposed, Cᵀ = Bᵀ Aᵀ: the instruction's A is 64
//   columns of B's slab, which the consumers read from its N-major stage (boxes of 32 columns, as B
//   lies) into four registers per 8 k, and its B is bm rows of A, K-major by descriptor. No operand
//   needs a transpose. The accumulators hold Cᵀ: a slice is 64 columns of the tile, the instruction's
//   n runs down bm rows, and C leaves from the registers one float at a time (consume_registers,
//   store_tile_transposed).
// Clusters (_c2, gemm): blocks launched as one cluster take tiles one above the other, which read
//   the same slab of B: each copies its A box and its share of B's boxes by a multicast TMA load
//   into all their shared memories (every "full" barrier counts the bytes), and each consumer warp
//   frees a stage on every block's "empty" barrier. Each B slab is read from L2 once per cluster.
// Split K (split_k > 1, persistent blocks): where C has too few tiles for the SMs (AᵀA at 2048 has
//   66 upper-triangle tiles of 192 for 132 SMs), each tile's K is cut in parts, one work each: part
//   p copies and multiplies its own run of slabs. All parts but the last leave their partial sums in
//   a workspace and mark it; the last waits for the marks (clearing each for the next launch), adds
//   the sums to its own and stores C (join_parts). split_k times the blocks at work, for the price of
//   a round trip of the partial sums through L2 (the mapping model and the trace count C's stores,
//   not those).
// Stream-K (stream_k, persistent blocks): where whole tiles leave the last wave's SMs idle (512
//   tiles of 128 x 256 at 4096 are 3.9 waves of 132), the tiles of the last, part-empty wave are
//   cut in their (tile, slab) iterations and every block takes an equal run of them after its whole
//   tiles (StreamShare, kernels/core/stream_k.h). A run that begins inside a tile leaves its sums in
//   its block's slot and marks it; the block holding the tile's first slab adds them and stores C
//   (join_runs). Every SM finishes within a slab of the others, for the same round trip of partial
//   sums as split K, paid by the last wave's tiles only. On an H100 it loses all the same: a whole
//   wave's blocks walk K in step and share each slab in L2, a shared-out run starts wherever its
//   share does, and the last wave's panels no longer fit the L2 together (docs/KERNELS.md).
// C: from the registers straight to global memory (two neighbours per store), or, in the _st
//   configurations, through shared memory: each consumer writes 64 x 32 boxes of its accumulators,
//   128-byte swizzled, into a buffer of its own and one of its threads hands each box to the TMA,
//   which stores it while the consumer goes on (two buffers take turns; the TMA must have read a
//   buffer before it is written again). AᵀA writes each box a second time, transposed, and the TMA
//   stores that as the mirror; diagonal tiles store from the registers (their lower half is dropped).
//   The _c16 rows store C in the 16-bit input type, as libraries write it: each accumulator rounded
//   to nearest (cvt.rn, two neighbours packed in one word), half the bytes of C; a box then holds 64
//   columns in the same 128-byte rows (c_element, c_pair, narrow_pair).
// Ragged sizes: the TMA fills what lies outside the matrix with zeros (and counts those bytes all
//   the same), the stores are predicated and the TMA stores drop what lies outside C. The TMA
//   needs 16-byte aligned rows (C's too, or C is stored from the registers): a matrix whose
//   leading dimension is not a multiple of 8 halves is first copied into one whose rows are
//   (counted in the time: that is what the ragged sizes cost here).
// Instrumented builds: the same text with another probe (probe.cuh). The traced build counts each
//   box's elements as reads and records who stored each element of C (a persistent block names
//   the tile it works on, so the ids are the model's one block per tile), and one warp's addresses
//   of C's stores: to global memory (probe.store) and into the boxes (probe.shared beside each
//   store into shared memory; the Mapping tab's memory view). The TMA's copies and stores are no
//   lane's and are not recorded. The timeline build (timeline_probe.cuh) stamps every slab: the
//   producer when it issues the copies, an observer (warp 1, idle otherwise, which joins the
//   "empty" count so the ring cannot lap it) when the bytes have landed, each consumer when it
//   begins and when its products are done.
// What to look for: % of cuBLAS in the same type (cuBLAS uses this instruction too) and of the
//   wgmma roof; 128 x 128 against 128 x 256 tiles (shared-memory bytes per instruction); 3 against 4
//   stages; one consumer warpgroup against two (while one waits for its products, the other
//   issues); persistent against one block per tile; C from the registers against TMA stores
//   (_st: the consumers do not wait for global memory, most of all in AᵀA's mirrored stores); in
//   the timeline, the copies of the next stages running under the products of this one; clusters
//   against single blocks (half of B's L2 reads); tf32 against cuBLAS's TF32 and against the same
//   tile in bf16 (twice the bytes per product, and the transposing pass); the register-sourced rows
//   against the pass (no pass, but the lanes read B's fragments, a 2-way bank conflict the memory
//   view shows, and each slab's products are waited for before the next fragments are read); C in
//   the input type against C in float (half the bytes; from the registers a row of four lanes fills
//   only half a sector, through the boxes no bank conflict), each against cuBLAS writing C alike; split
//   K against whole tiles where C has fewer tiles than the GPU has SMs, and in the timeline, each
//   block's parts of half the slabs; stream-K against whole tiles where the last wave is short, and
//   in the timeline, the blocks ending together, their last runs cut inside tiles.
// This file is the variant's kernel text, device-only: the build compiles it into the launch file
// (06_wgmma_tma.cu: the compiled set, descriptor, tensor maps, launch, mapping model), and NVRTC
// compiles it alone for sm_90a (a CPU test, and a tile a learner types, at run time).
#pragma once

#include "kernels/core/block_order.h"
#include "kernels/core/gemm_basics.h"
#include "kernels/instrument/no_probe.cuh"
#include "kernels/ptx/convert_ptx.cuh"
#include "kernels/ptx/device_traits.cuh"
#include "kernels/ptx/device_types.cuh"
#include "kernels/ptx/flag_ptx.cuh"
#include "kernels/ptx/wgmma_ptx.cuh"
#include "kernels/variants/wgmma_pipeline.cuh"

namespace tilescope {

// ---- the tile ---------------------------------------------------------------------------------
// A kernel takes its tile's values as template arguments (WgShape below), so that NVRTC compiles
// any tile a learner types as the build compiles the rows of its set (06_wgmma_tma.cu). The
// launch file refuses what these static_asserts would, with the reasons, before anything compiles.
struct WgmmaParams {
  int bm = 128, bn = 256;  // block tile of C, in slices of 64 rows
  int bk = 64;             // slab depth: whole 128-byte rows of 64 k (K-major boxes of A side by side)
  int n = 256;             // the wgmma's n (m64nNk16): bn / n instructions per slice and 16 k
  int stages = 4;          // buffers of the ring
  int consumers = 2;       // warpgroups that multiply: each takes bm / 64 / consumers slices of the tile
  int cluster = 1;         // blocks per cluster (gemm): tiles one above the other sharing B's slabs, multicast
  bool persistent = true;  // one block per SM walking the tiles (false: one block per tile)
  bool tma_store = false;  // C through shared memory and TMA stores (false: from the registers to global)
  bool tf32 = false;       // of the compiled set: the row's kernels take tf32 (else f16 and bf16)
  // tf32 gemm without the transposing pass: the block computes its tile of C transposed, Cᵀ = Bᵀ Aᵀ,
  // each slab of B read from its N-major stage into the registers as the instruction's A, and A's
  // K-major rows as its B. Then bm is the instruction's n (C's rows) and bn is cut in slices of 64
  // columns, one instruction's m.
  bool register_sourced = false;
  // Block rows per band of the tile order (block_order.h): the blocks that run together share the
  // band's panels of A, which should fit the L2 (a 256-row tile takes 4).
  int band = kGroupRows;
  // C stored in the 16-bit input type (f16, bf16), each element rounded to nearest from its FP32
  // accumulator: half the bytes of C, as libraries write it (false: C in float).
  bool c16 = false;
  // K cut in `split` parts, each a block's work of its own (persistent blocks, no clusters): where
  // C has too few tiles for the SMs, more blocks share them. Every part but the last leaves its
  // partial sums in a workspace; the last adds them to its own and stores C (join_parts).
  int split = 1;
  // Stream-K (persistent blocks, no clusters): the tiles of the last wave are cut in their (tile,
  // slab) iterations and every block takes an equal run of them (StreamShare, kernels/core/stream_k.h),
  // so that no SM idles through a last wave of whole tiles. A run may begin or end inside a tile:
  // the block holding the tile's first slab adds the others' partial sums (join_runs).
  bool stream_k = false;
  const char* description = "";
};

// What the producer warpgroup keeps (setmaxnreg): its one thread walks the block's work and issues
// the boxes. The consumers take what it gives up, and the block holds only what it was launched
// with (168 a thread for three warpgroups): at 48, two consumers could not get their 232 and the
// kernel hung. (Stream-K's walk spills a few words of the producer's at 40: one thread's.)
constexpr int kProducerRegisters = 40;
// The TMA takes boxes of at most 256 elements per dimension, and a 128-byte swizzled box rows of
// at most 128 bytes: one K-major box is 64 k deep for the 16-bit types, 32 for tf32.
constexpr int kMaxBoxSide = 256;
// Bytes of one element of A and B: 2 (f16, bf16) or 4 (tf32, stored as float).
__host__ __device__ constexpr int operand_bytes(Precision q) {
  return q == Precision::TF32 ? 4 : 2;
}
// The instruction's input type, and its k: 16 (f16, bf16) or 8 (tf32), 32 bytes of a row either way.
__host__ __device__ constexpr WgmmaInput wgmma_input(Precision q) {
  return q == Precision::TF32 ? WgmmaInput::TF32 : q == Precision::BF16 ? WgmmaInput::BF16 : WgmmaInput::F16;
}
__host__ __device__ constexpr int instruction_k(Precision q) {
  return wgmma_k(wgmma_input(q));
}
// k in one 128-byte swizzled row: a K-major box's depth.
__host__ __device__ constexpr int row_k(Precision q) {
  return 128 / operand_bytes(q);
}
// Blocks per cluster a launch may ask for without opting in to more (the portable size).
constexpr int kMaxCluster = 8;
// The most parts K may be cut in (split_k): each but the last costs a slot of the workspace per tile.
constexpr int kMaxSplit = 8;
// 64-row slices per consumer (register_sourced: 64-column slices).
__host__ __device__ constexpr int slices_of(const WgmmaParams& p) {
  return (p.register_sourced ? p.bn : p.bm) / 64 / p.consumers;
}
// The tile's side that each slice spans, and so each slice's accumulators: bn (register_sourced: bm).
__host__ __device__ constexpr int slice_span_of(const WgmmaParams& p) {
  return p.register_sourced ? p.bm : p.bn;
}
__host__ __device__ constexpr int threads_of(const WgmmaParams& p) {
  return 128 * (p.consumers + 1);  // one more warpgroup copies
}
// What setmaxnreg gives each consumer thread: the register file (65536) less the producer's,
// shared by the consumers, in steps of 8, at most 232.
__host__ __device__ constexpr int consumer_registers(const WgmmaParams& p) {
  const int each = (65536 - 128 * kProducerRegisters) / (128 * p.consumers) / 8 * 8;
  return each < 232 ? each : 232;
}
// An N-major box (the 16-bit types' B, and both operands of their AᵀA; the register-sourced B):
// bk k rows of 128 bytes, 64 columns of a 16-bit type or 32 floats.
__host__ __device__ constexpr int box_bytes_of(const WgmmaParams& p) {
  return 128 * p.bk;
}

// Bytes of one element of C as the tile stores it: a float, or (c16) the 16-bit input type.
__host__ __device__ constexpr int c_element_bytes(const WgmmaParams& p) {
  return p.c16 ? 2 : 4;
}
// C on its way out (tma_store): boxes of 64 rows of 128 bytes (the widest row the 128-byte swizzle
// takes): 32 floats, or 64 16-bit values; two per consumer so one fills while the TMA reads the other.
__host__ __device__ constexpr int c_box_cols_of(const WgmmaParams& p) {
  return 128 / c_element_bytes(p);
}
constexpr int kCBoxBytes = 64 * 128;

// Where the C boxes start, from the ring's 1024-byte aligned base (Ring, wgmma_pipeline.cuh): after
// the stages (A and B tiles each, of input type q) and the block of 1024 bytes that holds the
// 2 x stages mbarriers.
__host__ __device__ constexpr std::size_t c_boxes_offset_of(const WgmmaParams& p, Precision q) {
  return static_cast<std::size_t>(p.stages) * (p.bm + p.bn) * p.bk * operand_bytes(q) + kSwizzleAtom;
}
// Shared memory of a configuration for input type q: the ring, its mbarriers and the C boxes, plus
// room to align the ring to 1024 bytes.
__host__ __device__ constexpr std::size_t shared_bytes_of(const WgmmaParams& p, Precision q) {
  return kSwizzleAtom + c_boxes_offset_of(p, q) +
         (p.tma_store ? static_cast<std::size_t>(p.consumers) * 2 * kCBoxBytes : 0);
}

// The shared-memory accesses the instrumented build records one warp of (probe.shared beside
// each), numbered after the probe's own global streams; the mapping model's access sites name the
// same (06_wgmma_tma.cu). Nothing of it is compiled into the timed build (NoProbe).
enum WgmmaShared {
  kWgmmaCStaged = kRecordShared,  // a lane's pair of accumulators into its box of C (store_tile_staged)
  kWgmmaMirrorStaged,             // AᵀA: each of the two into the mirror's box, transposed
  kWgmmaBFragment,                // register_sourced: a lane's element of B out of its stage
};

// A tile: its values (the order of the typed keys), and what the code derives from them.
template <int kBM, int kBN, int kBK, int kN, int kStages, int kConsumers, int kCluster, bool kPersistent,
          bool kTmaStore, bool kRegisterSourced = false, int kBand = kGroupRows, bool kC16 = false, int kSplit = 1,
          bool kStreamK = false>
struct WgShape {
  static constexpr WgmmaParams p = {kBM,
                                    kBN,
                                    kBK,
                                    kN,
                                    kStages,
                                    kConsumers,
                                    kCluster,
                                    kPersistent,
                                    kTmaStore,
                                    /*tf32=*/false,
                                    kRegisterSourced,
                                    kBand,
                                    kC16,
                                    kSplit,
                                    kStreamK};
  static constexpr int kThreads = threads_of(p), kSlices = slices_of(p);
  static constexpr int kSliced = kRegisterSourced ? p.bn : p.bm;  // the side cut in 64-wide slices
  static constexpr int kSpan = slice_span_of(p);                  // the side each instruction's n runs along
  static_assert(p.consumers >= 1 && kSliced % (64 * p.consumers) == 0, "each consumer issues whole m64 instructions");
  static_assert(p.bm <= kMaxBoxSide, "gemm's A arrives in boxes of bm rows");
  static_assert(p.bn % 64 == 0, "B arrives in boxes 64 wide");
  static_assert(p.n % 64 == 0 && kSpan % p.n == 0, "each instruction covers whole boxes of its operand");
  static_assert(p.stages >= 2, "a stage is freed only once the next one's products are issued");
  static_assert(p.band >= 1, "a band holds at least one block row");
  static_assert(!kRegisterSourced || (p.cluster == 1 && !p.tma_store),
                "the register-sourced tile stores C from the registers, each block alone");
  static constexpr int kAcc = kSpan / 2;     // accumulators per thread and slice
  static constexpr int kInstrAcc = p.n / 2;  // of them, per instruction
  static_assert(2 * p.stages * sizeof(std::uint64_t) <= kSwizzleAtom, "the barriers fit their block");
  static constexpr int kCBoxCols = c_box_cols_of(p);
  static_assert(!p.tma_store || p.bn % kCBoxCols == 0, "C leaves in whole boxes");
  static_assert(!kC16 || !kRegisterSourced, "C in the input type is the 16-bit types' (register_sourced is tf32's)");
  static_assert(!p.tma_store || (p.bn / kCBoxCols) % 2 == 0, "a slice's boxes take the two buffers in turn");
  static_assert(p.cluster >= 1 && p.cluster <= kMaxCluster && (p.bn / 64) % p.cluster == 0,
                "B's boxes split among the cluster");
  static_assert(p.split >= 1 && p.split <= kMaxSplit &&
                    (p.split == 1 || (p.persistent && p.cluster == 1 && !kRegisterSourced)),
                "a split tile's last part waits for the others: every part's block must be resident (persistent), "
                "each block alone, C not transposed (register_sourced)");
  static_assert(!p.stream_k || (p.split == 1 && p.persistent && p.cluster == 1 && !kRegisterSourced),
                "stream-K's runs wait for each other's partial sums: every block resident (persistent), each alone, C "
                "not transposed (register_sourced), K not split besides");
};

// The tile's shared memory for input type Q (the kernel's first template argument): what the
// producer, the ring and the products derive from the element's size. Every helper below takes
// this as its S.
template <Precision Q, typename Shape>
struct WgLayout : Shape {
  static constexpr WgmmaParams p = Shape::p;
  static constexpr bool kTf32 = Q == Precision::TF32;  // K-major operands only (wgmma_ptx.cuh)
  // B from the registers (tf32 gemm): it stays N-major in its stage, as the 16-bit types' B.
  static constexpr bool kRegisterSourced = p.register_sourced;
  static_assert(!kRegisterSourced || kTf32, "the register-sourced tile is tf32's (the 16-bit types read B transposed)");
  // C's element: a float, or (c16, the 16-bit types) the input type's bits.
  static constexpr bool kC16 = p.c16;
  static_assert(!kC16 || !kTf32, "tf32 stores C in float");
  static constexpr bool kBf16 = Q == Precision::BF16;
  using CType = std::conditional_t<kC16, std::uint16_t, float>;
  static constexpr int kRowK = row_k(Q);            // k in a 128-byte row: 64 (16-bit) or 32 (tf32)
  static constexpr int kBoxCols = kRowK;            // an N-major box's columns, a 128-byte row of them
  static constexpr int kInstrK = instruction_k(Q);  // k of one instruction: 32 bytes of a row
  static_assert(p.bk % kRowK == 0 && p.bk <= kMaxBoxSide, "a slab is whole 128-byte rows of k");
  static constexpr int kBoxBytes = box_bytes_of(p);
  // A K-major box: kRowK k of the tile's rows, one 128-byte row each (gemm's A; tf32's B and AᵀA).
  static constexpr int kAKBlockBytes = p.bm * 128, kBKBlockBytes = p.bn * 128;
  static constexpr int kATileBytes = p.bm * p.bk * operand_bytes(Q), kBTileBytes = p.bn * p.bk * operand_bytes(Q);
  static constexpr int kStageBytes = kATileBytes + kBTileBytes;
  static_assert(kAKBlockBytes % kSwizzleAtom == 0 && kBTileBytes % kSwizzleAtom == 0, "tiles keep the 1024 alignment");
  static constexpr std::size_t kShared = shared_bytes_of(p, Q);
};

// ---- the producer -----------------------------------------------------------------------------
// One thread issues every box. For each slab of each of the block's tiles it waits until the
// consumers have freed the next stage (the first pass finds every stage free), announces the
// stage's bytes on its "full" barrier and has the TMA copy the slab's boxes into it.
// tf32 reads both operands K-major: B (and AᵀA's A) from a transposed copy whose rows are B's
// columns (the launch makes it), in K-major boxes like gemm's A; the register-sourced rows read B
// as it lies, N-major like the 16-bit types' B, in boxes of 32 columns.
template <typename S, bool kAta, typename Probe>
__device__ __forceinline__ void produce(const Ring<S>& ring, const BlockWork<S, kAta>& work, const CUtensorMap& a_map,
                                        const CUtensorMap& b_map, const Probe& probe) {
  constexpr WgmmaParams p = S::p;
  // The A operand's matrix (the traced build counts what lies inside): gemm M x K, AᵀA K x N.
  const std::int64_t a_width = kAta ? work.N : work.K, a_height = kAta ? work.K : work.M;
  RingCursor<p.stages> at;
  for (WorkRun r = work.begin(); work.more(r); work.next(r)) {
    const BlockTile tile = work.tile(r.tile);
    const int row0 = tile.row * p.bm, col0 = tile.col * p.bn;
    for (int i = 0; i < r.slabs; ++i) {
      const int slab = r.slab0 + i;
      mbarrier_wait_parity(&ring.empty[at.stage], at.phase ^ 1);  // the consumers are done with this stage
      probe.issued(at.n);
      unsigned char* const a_tile = ring.a_tile(at.stage);
      unsigned char* const b_tile = ring.b_tile(at.stage);
      std::uint64_t* const full = &ring.full[at.stage];
      mbarrier_arrive_expect_tx(full, S::kStageBytes);
      // A split's last part may run past the slabs that cover K (or the traced build's phase
      // limit): its boxes there start at the first whole slab past K, which the TMA fills with zeros
      // and reads nothing of (a box's start, like every slab's, a multiple of 16 bytes: K itself
      // may not be).
      const int k0 = (slab < work.slabs ? slab : static_cast<int>(ceil_div(work.K, p.bk))) * p.bk;
      if constexpr (S::kTf32 && !S::kRegisterSourced) {
        // Boxes of kRowK k side by side: the tile's rows of A (gemm) or of Aᵀ (AᵀA), then its
        // columns of Bᵀ (AᵀA: Aᵀ again; the same map). In a cluster, rank r copies its share of
        // Bᵀ's rows into every block of the cluster.
        constexpr int kShare = p.bn / p.cluster;
        const int rank = static_cast<int>(work.rank);
#pragma unroll
        for (int kb = 0; kb < p.bk / S::kRowK; ++kb) {
          const int k = k0 + kb * S::kRowK;
          tma_load_2d(a_tile + kb * S::kAKBlockBytes, &a_map, k, row0, full);
          if constexpr (kAta)
            probe.tma_box_transposed(Operand::A, k, row0, S::kRowK, p.bm, a_width, a_height);
          else
            probe.tma_box(Operand::A, k, row0, S::kRowK, p.bm, a_width, a_height);
          unsigned char* const b_rows = b_tile + kb * S::kBKBlockBytes + rank * kShare * 128;
          if constexpr (p.cluster > 1)
            tma_load_2d_multicast(b_rows, &b_map, k, col0 + rank * kShare, full, (1u << p.cluster) - 1);
          else
            tma_load_2d(b_rows, &b_map, k, col0, full);
          probe.tma_box_transposed(Operand::B, k, col0 + rank * kShare, S::kRowK, kShare, work.N, work.K);
        }
      } else if constexpr (kAta) {
        // Both operands are column blocks of A, N-major: the tile's rows, then its columns.
#pragma unroll
        for (int box = 0; box < p.bm / 64; ++box) {
          tma_load_2d(a_tile + box * S::kBoxBytes, &a_map, row0 + 64 * box, k0, full);
          probe.tma_box(Operand::A, row0 + 64 * box, k0, 64, p.bk, a_width, a_height);
        }
#pragma unroll
        for (int box = 0; box < p.bn / 64; ++box) {
          tma_load_2d(b_tile + box * S::kBoxBytes, &a_map, col0 + 64 * box, k0, full);
          probe.tma_box(Operand::B, col0 + 64 * box, k0, 64, p.bk, a_width, a_height);
        }
      } else {
        // A K-major box is one swizzled row of k deep (64, tf32's 32): a deeper slab takes several side
        // by side.
#pragma unroll
        for (int kb = 0; kb < p.bk / S::kRowK; ++kb) {
          const int k = k0 + kb * S::kRowK;
          tma_load_2d(a_tile + kb * S::kAKBlockBytes, &a_map, k, row0, full);
          probe.tma_box(Operand::A, k, row0, S::kRowK, p.bm, a_width, a_height);
        }
        // B in N-major boxes of kBoxCols columns. In a cluster, rank r copies its share of them
        // into every block of the cluster.
        constexpr int kCols = S::kBoxCols, kShare = p.bn / kCols / p.cluster;
        const int rank = static_cast<int>(work.rank);
#pragma unroll
        for (int box = rank * kShare; box < (rank + 1) * kShare; ++box) {
          if constexpr (p.cluster > 1)
            tma_load_2d_multicast(b_tile + box * S::kBoxBytes, &b_map, col0 + kCols * box, k0, full,
                                  (1u << p.cluster) - 1);
          else
            tma_load_2d(b_tile + box * S::kBoxBytes, &b_map, col0 + kCols * box, k0, full);
          probe.tma_box(Operand::B, col0 + kCols * box, k0, kCols, p.bk, work.N, work.K);
        }
      }
      at.advance();
    }
  }
}

// ---- the timeline's observer ------------------------------------------------------------------
// Thread 32 (warp 1 of the producer warpgroup, idle otherwise), in the timeline build only: it notes
// when each stage's bytes had all landed, and counts on the "empty" barrier so that the ring cannot
// lap it.
template <typename S, bool kAta, typename Probe>
__device__ __forceinline__ void observe(const Ring<S>& ring, const BlockWork<S, kAta>& work, const Probe& probe) {
  RingCursor<S::p.stages> at;
  for (WorkRun r = work.begin(); work.more(r); work.next(r))
    for (int slab = 0; slab < r.slabs; ++slab) {
      mbarrier_wait_parity(&ring.full[at.stage], at.phase);
      probe.arrived(at.n);
      mbarrier_arrive(&ring.empty[at.stage]);
      at.advance();
    }
}

// ---- the consumers: the products ----------------------------------------------------------------
// The wgmma of one stage for consumer warpgroup `group`, committed as one group: its slices, each
// bk / k steps (k = 16, or 8 for tf32: 32 bytes of a row either way) of bn / n instructions of
// 64 x n x k. A: gemm's, and tf32's always, is K-major (the slice's 64 rows, 32 bytes per step
// inside the swizzled rows of one K-major box); the 16-bit AᵀA's M-major (the slice's box, 16 k
// rows of 128 bytes per step). B: the 16-bit types' N-major boxes, instruction i from box
// i * n / 64 on; tf32's K-major, instruction i from row i * n of the box. An instruction's
// accumulators are the slice's n / 2 from i * n / 2 on: the layout of one instruction as wide as
// the tile (wgmma_ptx.cuh), so the stores see one numbering.
template <Precision P, typename S, bool kAta>
__device__ __forceinline__ void multiply_stage(const unsigned char* a_tile, const unsigned char* b_tile, int group,
                                               float (&acc)[S::kSlices][S::kAcc]) {
  constexpr WgmmaParams p = S::p;
  constexpr bool kAMnMajor = kAta && !S::kTf32, kBMnMajor = !S::kTf32;
  wgmma_fence();
#pragma unroll
  for (int sl = 0; sl < S::kSlices; ++sl) {
    const int slice = group * S::kSlices + sl;
#pragma unroll
    for (int kk = 0; kk < p.bk / S::kInstrK; ++kk) {
      // Step kk: 32 bytes into box kk / 4's rows (K-major), or 16 k rows down (MN-major).
      const std::uint64_t a =
          kAMnMajor ? sw128_descriptor(a_tile + slice * S::kBoxBytes + kk * 16 * 128, S::kBoxBytes, kSwizzleAtom)
                    : sw128_descriptor(a_tile + (kk / 4) * S::kAKBlockBytes + slice * 64 * 128 + (kk % 4) * 32, 16,
                                       kSwizzleAtom);
#pragma unroll
      for (int i = 0; i < p.bn / p.n; ++i) {
        const std::uint64_t b =
            kBMnMajor
                ? sw128_descriptor(b_tile + i * (p.n / 64) * S::kBoxBytes + kk * 16 * 128, S::kBoxBytes, kSwizzleAtom)
                : sw128_descriptor(b_tile + (kk / 4) * S::kBKBlockBytes + i * p.n * 128 + (kk % 4) * 32, 16,
                                   kSwizzleAtom);
        float(&d)[S::kInstrAcc] = *reinterpret_cast<float(*)[S::kInstrAcc]>(&acc[sl][i * S::kInstrAcc]);
        wgmma_m64<p.n, wgmma_input(P), kAMnMajor ? 1 : 0, kBMnMajor ? 1 : 0>(d, a, b, 1);
      }
    }
  }
  wgmma_commit();
}

// Slab n's products are done and its stage is free again: stamped by the group's leader, announced
// by lane 0 of each warp. A stage is free once every consumer warp of the cluster is done with it
// (the other blocks' copies land in it too).
template <typename S, bool kAta, typename Probe>
__device__ __forceinline__ void free_stage(const Ring<S>& ring, const BlockWork<S, kAta>& work,
                                           const ConsumerThread& me, int stage, int n, const Probe& probe) {
  if (me.leader) probe.done(me.group, n);
  if (me.lane != 0) return;
  mbarrier_arrive(&ring.empty[stage]);
  if constexpr (S::p.cluster > 1)
    for (unsigned other = 0; other < S::p.cluster; ++other)
      if (other != work.rank) mbarrier_arrive_remote(&ring.empty[stage], other);
}

// One tile's K loop for one consumer warpgroup: for each slab, wait until its stage is full and
// issue its products; then wait until at most these are pending, which means the previous slab's
// are done: the tensor cores no longer read that stage, and it is freed. So the products of one
// slab are always in flight while the warpgroup waits for the next.
template <Precision P, typename S, bool kAta, typename Probe>
__device__ __forceinline__ void consume(const Ring<S>& ring, const BlockWork<S, kAta>& work, const ConsumerThread& me,
                                        int slabs, RingCursor<S::p.stages>& at, float (&acc)[S::kSlices][S::kAcc],
                                        const Probe& probe) {
#pragma unroll
  for (int sl = 0; sl < S::kSlices; ++sl)
#pragma unroll
    for (int i = 0; i < S::kAcc; ++i) acc[sl][i] = 0.0f;
  int previous = -1;
  for (int slab = 0; slab < slabs; ++slab) {
    mbarrier_wait_parity(&ring.full[at.stage], at.phase);  // the TMA has delivered this stage
    if (me.leader) probe.started(me.group, at.n);
    multiply_stage<P, S, kAta>(ring.a_tile(at.stage), ring.b_tile(at.stage), me.group, acc);
    wgmma_wait<1>();
#pragma unroll
    for (int sl = 0; sl < S::kSlices; ++sl) fence_accumulators(acc[sl]);
    if (previous >= 0) free_stage(ring, work, me, previous, at.n - 1, probe);
    previous = at.stage;
    at.advance();
  }
  wgmma_wait<0>();
#pragma unroll
  for (int sl = 0; sl < S::kSlices; ++sl) fence_accumulators(acc[sl]);
  if (previous >= 0) free_stage(ring, work, me, previous, at.n - 1, probe);
}

// ---- the consumers, register-sourced: B out of its stage into the registers ----------------------
// The register_sourced rows compute their tile transposed, Cᵀ = Bᵀ Aᵀ: the instruction's A (64 x 8)
// is 64 columns of B's slab, which each thread reads out of the N-major stage into four registers,
// and its B (8 x n) is n rows of A, K-major, by descriptor as before. So no operand needs a
// transpose bit, which tf32 lacks, and B is read where it lies.
// A slice is 64 columns of the tile: consumer warpgroup w's slices are w * slices .. (w + 1) *
// slices - 1. Lane 4 g + t of warp q reads, for step kk (8 k), B(k, c) and B(k, c + 8) at k = 8 kk + t
// and k + 4, c = the slice's 16 q + g: the PTX ISA's tf32 A fragment, a lane's four registers.
// In the stage, B(k, c) lies in box c / 32, row k, float c % 32, 128-byte swizzled. The swizzle
// repeats every 8 rows (1024 bytes), and step kk's rows are step 0's plus 8 kk: so a lane's four
// places for step 0 serve every step, kk x 1024 bytes further, and are worked out once.
template <typename S>
struct BFragments {
  std::uint32_t a[S::kSlices][S::p.bk / 8][4];
};

// A lane's four places of step 0 in the B tile (bytes), per slice: rows t, t + 4 x columns c, c + 8.
template <typename S>
struct FragmentPlaces {
  int at[S::kSlices][4];

  __device__ __forceinline__ explicit FragmentPlaces(const ConsumerThread& me) {
    const int g = me.lane / 4, t = me.lane % 4;
#pragma unroll
    for (int sl = 0; sl < S::kSlices; ++sl) {
      const int c = 64 * (me.group * S::kSlices + sl) + 16 * me.warp + g;
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int row = t + 4 * (e / 2), col = c + 8 * (e % 2);
        at[sl][e] = (col / 32) * S::kBoxBytes + sw128_float_byte(row, col % 32);
      }
    }
  }
};

template <typename S, typename Probe>
__device__ __forceinline__ void load_b_fragments(const unsigned char* b_tile, const FragmentPlaces<S>& places,
                                                 BFragments<S>& f, const Probe& probe) {
#pragma unroll
  for (int sl = 0; sl < S::kSlices; ++sl)
#pragma unroll
    for (int kk = 0; kk < S::p.bk / 8; ++kk)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const float* const x = reinterpret_cast<const float*>(b_tile + places.at[sl][e] + kk * kSwizzleAtom);
        f.a[sl][kk][e] = __float_as_uint(*x);
        probe.shared(kWgmmaBFragment, x);
      }
}

// One stage's products for consumer warpgroup `group`: per slice and step kk, bm / n instructions
// of 64 x n x 8, the fragments as A and rows i * n .. of A's K-major box as B (32 bytes per step
// inside its swizzled rows). Accumulator 4 j + r of instruction i is Cᵀ(16 q + g + 8 (r / 2),
// i * n + 8 j + 2 t + r % 2) of the slice: C(i * n + 8 j + 2 t + r % 2, 16 q + g + 8 (r / 2)).
template <typename S>
__device__ __forceinline__ void multiply_stage_registers(const unsigned char* a_tile, const BFragments<S>& f,
                                                         float (&acc)[S::kSlices][S::kAcc]) {
  constexpr WgmmaParams p = S::p;
  wgmma_fence();  // the fragments were written by ordinary loads
#pragma unroll
  for (int sl = 0; sl < S::kSlices; ++sl)
#pragma unroll
    for (int kk = 0; kk < p.bk / 8; ++kk)
#pragma unroll
      for (int i = 0; i < p.bm / p.n; ++i) {
        const std::uint64_t b =
            sw128_descriptor(a_tile + (kk / 4) * S::kAKBlockBytes + i * p.n * 128 + (kk % 4) * 32, 16, kSwizzleAtom);
        float(&d)[S::kInstrAcc] = *reinterpret_cast<float(*)[S::kInstrAcc]>(&acc[sl][i * S::kInstrAcc]);
        wgmma_m64_tf32_registers<p.n>(d, f.a[sl][kk], b, 1);
      }
  wgmma_commit();
}

// One tile's K loop, register-sourced: for each slab, wait until its stage is full, read the
// fragments, issue the products and wait for them (the instruction reads the fragments' registers
// while it runs), then free the stage. The warpgroup's tensor cores idle while it reads the next
// fragments, but the other consumer's products fill that time. (Two sets of fragments, the next
// read while this slab's products run, make ptxas serialise the instructions: slower.)
template <typename S, bool kAta, typename Probe>
__device__ __forceinline__ void consume_registers(const Ring<S>& ring, const BlockWork<S, kAta>& work,
                                                  const ConsumerThread& me, int slabs, RingCursor<S::p.stages>& at,
                                                  float (&acc)[S::kSlices][S::kAcc], const Probe& probe) {
#pragma unroll
  for (int sl = 0; sl < S::kSlices; ++sl)
#pragma unroll
    for (int i = 0; i < S::kAcc; ++i) acc[sl][i] = 0.0f;
  const FragmentPlaces<S> places(me);
  BFragments<S> f;
  for (int slab = 0; slab < slabs; ++slab) {
    mbarrier_wait_parity(&ring.full[at.stage], at.phase);  // the TMA has delivered this stage
    if (me.leader) probe.started(me.group, at.n);
    load_b_fragments(ring.b_tile(at.stage), places, f, probe);
    multiply_stage_registers<S>(ring.a_tile(at.stage), f, acc);
    wgmma_wait<0>();
#pragma unroll
    for (int sl = 0; sl < S::kSlices; ++sl) fence_accumulators(acc[sl]);
    free_stage(ring, work, me, at.stage, at.n, probe);
    at.advance();
  }
}

// ---- split K and stream-K: the pieces of a tile meet -----------------------------------------------
// A piece that does not store C writes its group's partial sums into its slot of the workspace
// (accumulator i of the group's thread t at i * 128 + t: each store is a warp's 128 contiguous
// bytes), and the group's leader then marks the slot. The piece that stores C waits, in its leader,
// for each mark of its group; then the group adds the slots to its own sums (read from L2: the other
// SM's writes never reached this one's L1) and stores C. Every block is resident (persistent blocks,
// one per SM), and every piece waited for comes before anything its block waits for: it is running
// or done.
template <typename S>
__device__ __forceinline__ void leave_partials(const float (&acc)[S::kSlices][S::kAcc], const ConsumerThread& me,
                                               const SplitParts& parts, std::int64_t slot) {
  constexpr int kSlot = 128 * S::kSlices * S::kAcc;
  float* const out = parts.partials + slot * kSlot + me.warp * 32 + me.lane;
#pragma unroll
  for (int sl = 0; sl < S::kSlices; ++sl)
#pragma unroll
    for (int i = 0; i < S::kAcc; ++i) out[(sl * S::kAcc + i) * 128] = acc[sl][i];
  named_barrier_sync(1 + me.group, 128);  // the group's writes, ordered before the leader's mark
  if (me.leader) store_release_gpu(parts.marks + slot, 1);
}

// The leader's wait for a slot's mark (the group then meets at a named barrier before reading).
// Seen, the mark is cleared: each is waited for once per launch, so the launch leaves the marks
// zeroed for the next one on its stream, and the launch itself clears nothing before it runs.
__device__ __forceinline__ void wait_for_mark(const SplitParts& parts, std::int64_t slot) {
  for (long spins = 0; load_acquire_gpu(parts.marks + slot) == 0; ++spins) {
    if (spins > (1L << 26)) __trap();  // seconds: a piece that never ran (its block was not resident)
    sleep_ns(64);
  }
  parts.marks[slot] = 0;
}

template <typename S>
__device__ __forceinline__ void add_partials(float (&acc)[S::kSlices][S::kAcc], const ConsumerThread& me,
                                             const SplitParts& parts, std::int64_t slot) {
  constexpr int kSlot = 128 * S::kSlices * S::kAcc;
  const float* const in = parts.partials + slot * kSlot + me.warp * 32 + me.lane;
#pragma unroll
  for (int sl = 0; sl < S::kSlices; ++sl)
#pragma unroll
    for (int i = 0; i < S::kAcc; ++i) acc[sl][i] += load_l2(in + (sl * S::kAcc + i) * 128);
}

// Split K: the parts before the last leave their sums; the last adds them. The last part of a tile
// is the last of its works, which the blocks take in order. True: this part stores C.
template <typename S, bool kAta>
__device__ __forceinline__ bool join_parts(float (&acc)[S::kSlices][S::kAcc], const WorkRun& r,
                                           const BlockWork<S, kAta>& work, const ConsumerThread& me,
                                           const SplitParts& parts) {
  constexpr WgmmaParams p = S::p;
  const int part = r.w % p.split;
  const std::int64_t first_slot = (static_cast<std::int64_t>(r.tile) * (p.split - 1)) * p.consumers;
  auto slot = [&](int q) { return first_slot + static_cast<std::int64_t>(q) * p.consumers + me.group; };
  if (part < p.split - 1) {
    leave_partials<S>(acc, me, parts, slot(part));
    return false;
  }
  if (me.leader)
    for (int q = 0; q < p.split - 1; ++q) wait_for_mark(parts, slot(q));
  named_barrier_sync(1 + me.group, 128);  // every mark seen: the slots are complete
  for (int q = 0; q < p.split - 1; ++q) add_partials<S>(acc, me, parts, slot(q));
  return true;
}

// Stream-K: a run that begins inside its tile leaves its sums in its block's slot (only a block's
// first shared-out run can); the run that holds the tile's first slab adds those of the blocks after
// it whose runs hold the rest (StreamShare::block_of; each such run is its block's first shared-out
// one, after whole tiles only, before anything its block waits for) and stores C. A whole tile
// stores C at once. True: this run stores C.
template <typename S, bool kAta>
__device__ __forceinline__ bool join_runs(float (&acc)[S::kSlices][S::kAcc], const WorkRun& r,
                                          const BlockWork<S, kAta>& work, const ConsumerThread& me,
                                          const SplitParts& parts) {
  constexpr int kGroups = S::p.consumers;
  const int block = work.first;
  auto slot = [&](int b) { return static_cast<std::int64_t>(b) * kGroups + me.group; };
  if (!work.starts_tile(r)) {
    leave_partials<S>(acc, me, parts, slot(block));
    return false;
  }
  if (work.ends_tile(r)) return true;
  const int last = work.share.block_of(r.it + work.slabs - 1);
  if (me.leader)
    for (int b = block + 1; b <= last; ++b)
      if (work.share.holds_slabs(b)) wait_for_mark(parts, slot(b));
  named_barrier_sync(1 + me.group, 128);  // every mark seen: the slots are complete
  for (int b = block + 1; b <= last; ++b)
    if (work.share.holds_slabs(b)) add_partials<S>(acc, me, parts, slot(b));
  return true;
}

// ---- the epilogues: C of one tile -----------------------------------------------------------------
// C's elements as the tile stores them: the accumulators themselves, or (c16) each rounded to
// nearest into the 16-bit input type, two neighbours packed in one word as they lie in memory.
template <typename S>
__device__ __forceinline__ std::uint32_t narrow_pair(float v0, float v1) {
  return S::kBf16 ? pack_bf16x2(v0, v1) : pack_f16x2(v0, v1);
}
template <typename S>
__device__ __forceinline__ typename S::CType c_element(float v) {
  if constexpr (S::kC16)
    return static_cast<std::uint16_t>(narrow_pair<S>(v, 0.0f));
  else
    return v;
}
template <typename S>
__device__ __forceinline__ void c_pair(float v0, float v1, typename S::CType (&pair)[2]) {
  if constexpr (S::kC16) {
    const std::uint32_t both = narrow_pair<S>(v0, v1);
    pair[0] = static_cast<std::uint16_t>(both);
    pair[1] = static_cast<std::uint16_t>(both >> 16);
  } else {
    pair[0] = v0;
    pair[1] = v1;
  }
}

// Through shared memory, box by box: the group writes a box of its accumulators, 128-byte swizzled,
// and its leader has the TMA store it while the group goes on. Gemm: boxes of 64 rows x 32 columns
// (c16: 64 columns of 16 bits), two buffers taking turns (`boxes` counts them across the tiles).
// AᵀA: the box and its mirror (32 rows x 64 columns, as two boxes of 32 x 32) in one buffer.
// A lane's two neighbours leave in one 8-byte store, served half a warp at a time: rows g = 0-3 (or
// 4-7) of the box, two 16-byte chunks each, which the swizzle (chunk XOR row % 8) keeps inside four
// chunks, 16 of the 32 banks: two rows share each bank, a 2-way conflict. In 16 bits (c16) the pair
// is one 4-byte word: the warp writes one 16-byte chunk in each of eight rows, which the swizzle
// puts in eight different places, all 32 banks. The mirror's single floats land in four rows of its
// box, eight words each, which the swizzle spreads over all 32 banks.
template <typename S, bool kAta, typename Probe>
__device__ __forceinline__ void store_tile_staged(const float (&acc)[S::kSlices][S::kAcc], BlockTile tile,
                                                  const ConsumerThread& me, const BlockWork<S, kAta>& work,
                                                  const CDestination<typename S::CType>& out, unsigned char* c_boxes,
                                                  int& boxes, const Probe& probe) {
  constexpr WgmmaParams p = S::p;
  constexpr int kCBoxCols = S::kCBoxCols;
  static_assert(!(kAta && S::kC16), "AᵀA's mirrored boxes hold floats");
  const int g = me.lane / 4, tq = me.lane % 4;
  // Unrolled, like every loop over the accumulators: an index the compiler cannot resolve would put
  // them in local memory.
#pragma unroll
  for (int sl = 0; sl < S::kSlices; ++sl) {
    // A cluster's spare block below C stores nothing.
    if (tile.row * p.bm + 64 * (me.group * S::kSlices + sl) >= work.M) continue;
#pragma unroll
    for (int box = 0; box < p.bn / kCBoxCols; ++box, ++boxes) {
      unsigned char* const staged = c_boxes + (2 * me.group + (kAta ? 0 : boxes % 2)) * kCBoxBytes;
      unsigned char* const mirror = staged + kCBoxBytes;
      // The store issued from this buffer before must have read it.
      if (me.leader) {
        if constexpr (kAta)
          bulk_wait_read<0>();
        else
          bulk_wait_read<1>();
      }
      named_barrier_sync(1 + me.group, 128);
      const int row0 = tile.row * p.bm + 64 * (me.group * S::kSlices + sl), col0 = tile.col * p.bn + box * kCBoxCols;
#pragma unroll
      for (int jj = 0; jj < kCBoxCols / 8; ++jj)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int row = 16 * me.warp + g + 8 * h, col = 8 * jj + 2 * tq, r = 4 * (box * kCBoxCols / 8 + jj) + 2 * h;
          const float v0 = acc[sl][r], v1 = acc[sl][r + 1];
          if constexpr (S::kC16) {
            std::uint32_t* const pair = reinterpret_cast<std::uint32_t*>(staged + sw128_half_byte(row, col));
            *pair = narrow_pair<S>(v0, v1);
            probe.shared(kWgmmaCStaged, pair);
          } else {
            float2* const pair = reinterpret_cast<float2*>(sw128_float(staged, row, col));
            *pair = make_float2(v0, v1);
            probe.shared(kWgmmaCStaged, pair);
          }
          if constexpr (kAta) {
            // The mirror: element (row, col) of the box goes to row col, column row % 32 of mirror
            // box row / 32.
            unsigned char* const m = mirror + (row / 32) * (kCBoxBytes / 2);
            float* const m0 = sw128_float(m, col, row % 32);
            float* const m1 = sw128_float(m, col + 1, row % 32);
            *m0 = v0;
            probe.shared(kWgmmaMirrorStaged, m0);
            *m1 = v1;
            probe.shared(kWgmmaMirrorStaged, m1);
          }
          const std::int64_t grow = row0 + row, gcol = col0 + col;
          const int slot = sl * S::kAcc + r;
          if (grow < work.M && gcol < work.N) probe.staged(grow * work.N + gcol, slot);
          if (grow < work.M && gcol + 1 < work.N) probe.staged(grow * work.N + gcol + 1, slot + 1);
          if constexpr (kAta) {
            if (grow < work.M && gcol < work.N) probe.staged(gcol * work.N + grow, slot);
            if (grow < work.M && gcol + 1 < work.N) probe.staged((gcol + 1) * work.N + grow, slot + 1);
          }
        }
      fence_proxy_async();  // the writes above, seen by the TMA
      named_barrier_sync(1 + me.group, 128);
      if (me.leader) {
        tma_store_2d(out.c_map, staged, col0, row0);
        if constexpr (kAta) {
          tma_store_2d(out.m_map, mirror, row0, col0);
          tma_store_2d(out.m_map, mirror + kCBoxBytes / 2, row0 + 32, col0);
        }
        bulk_commit();
      }
    }
  }
}

// Straight from the accumulators to C, two neighbours per store (one store where C's alignment
// allows). AᵀA: the upper triangle and its mirror; a diagonal tile's lower half is dropped.
template <typename S, bool kAta, typename Probe>
__device__ __forceinline__ void store_tile_from_registers(const float (&acc)[S::kSlices][S::kAcc], BlockTile tile,
                                                          const ConsumerThread& me, const BlockWork<S, kAta>& work,
                                                          const CDestination<typename S::CType>& out,
                                                          const Probe& probe) {
  constexpr WgmmaParams p = S::p;
  const int M = work.M, N = work.N;
  const int g = me.lane / 4, tq = me.lane % 4;
  const int col_base = tile.col * p.bn + 2 * tq;
#pragma unroll
  for (int sl = 0; sl < S::kSlices; ++sl) {
    const int row_base = tile.row * p.bm + 64 * (me.group * S::kSlices + sl) + 16 * me.warp + g;
    const int slot0 = sl * S::kAcc;
#pragma unroll
    for (int j = 0; j < p.bn / 8; ++j)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = row_base + 8 * h, col = col_base + 8 * j, r = 4 * j + 2 * h;
        const float v0 = acc[sl][r], v1 = acc[sl][r + 1];
        if (row >= M) continue;
        if constexpr (kAta) {
          const typename S::CType c0 = c_element<S>(v0), c1 = c_element<S>(v1);
          if (col < N && row <= col) {
            probe.store(out.C, static_cast<std::int64_t>(row) * N + col, c0, slot0 + r);
            if (row < col) probe.store(out.C, static_cast<std::int64_t>(col) * N + row, c0, slot0 + r);
          }
          if (col + 1 < N && row <= col + 1) {
            probe.store(out.C, static_cast<std::int64_t>(row) * N + col + 1, c1, slot0 + r + 1);
            if (row < col + 1) probe.store(out.C, static_cast<std::int64_t>(col + 1) * N + row, c1, slot0 + r + 1);
          }
        } else {
          const std::int64_t at = static_cast<std::int64_t>(row) * N + col;
          typename S::CType pair[2];
          c_pair<S>(v0, v1, pair);
          if (out.vec && col + 1 < N) {
            probe.store(out.C, at, pair, slot0 + r);
          } else {
            if (col < N) probe.store(out.C, at, pair[0], slot0 + r);
            if (col + 1 < N) probe.store(out.C, at + 1, pair[1], slot0 + r + 1);
          }
        }
      }
  }
}

// The register-sourced tile's accumulators hold Cᵀ: accumulator 4 j + r of slice sl, lane 4 g + t
// of warp q, is C(8 j + 2 t + r % 2, 64 slice + 16 q + g + 8 (r / 2)) of the tile. One 4-byte store
// each: for one register, the lanes of a warp write four rows of C, eight neighbours in each.
template <typename S, bool kAta, typename Probe>
__device__ __forceinline__ void store_tile_transposed(const float (&acc)[S::kSlices][S::kAcc], BlockTile tile,
                                                      const ConsumerThread& me, const BlockWork<S, kAta>& work,
                                                      const CDestination<typename S::CType>& out, const Probe& probe) {
  constexpr WgmmaParams p = S::p;
  const int g = me.lane / 4, tq = me.lane % 4;
#pragma unroll
  for (int sl = 0; sl < S::kSlices; ++sl) {
    const int col_base = tile.col * p.bn + 64 * (me.group * S::kSlices + sl) + 16 * me.warp + g;
#pragma unroll
    for (int j = 0; j < S::kAcc / 4; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const int row = tile.row * p.bm + 8 * j + 2 * tq + r % 2, col = col_base + 8 * (r / 2);
        if (row < work.M && col < work.N)
          probe.store(out.C, static_cast<std::int64_t>(row) * work.N + col, acc[sl][4 * j + r],
                      sl * S::kAcc + 4 * j + r);
      }
  }
}

// Through shared memory where the configuration stores by TMA and C's rows allow it, except AᵀA's
// diagonal tiles (their lower half is dropped); from the registers otherwise (register-sourced
// tiles, transposed).
template <typename S, bool kAta, typename Probe>
__device__ __forceinline__ void store_tile(const float (&acc)[S::kSlices][S::kAcc], BlockTile tile,
                                           const ConsumerThread& me, const BlockWork<S, kAta>& work,
                                           const CDestination<typename S::CType>& out, unsigned char* c_boxes,
                                           int& boxes, const Probe& probe) {
  if constexpr (S::kRegisterSourced) {
    store_tile_transposed(acc, tile, me, work, out, probe);
  } else {
    if constexpr (S::p.tma_store) {
      if (out.use_maps && (!kAta || tile.row != tile.col)) {
        store_tile_staged(acc, tile, me, work, out, c_boxes, boxes, probe);
        return;
      }
    }
    store_tile_from_registers(acc, tile, me, work, out, probe);
  }
}

// ---- the kernel -------------------------------------------------------------------------------
// a_map: gemm's A (K-major boxes of 64 k x BM rows) or, for AᵀA, A itself (N-major boxes of 64
// columns x 64 k); b_map: B (N-major boxes), unused for AᵀA. The probe (probe.cuh) is NoProbe in
// the timed build; TraceProbe counts the boxes' reads and records the writers; TimelineProbe
// stamps the ring, and its observer notes when each stage landed. c_map (tma_store
// configurations): C in boxes of 32 columns x 64 rows, 128-byte swizzled; m_map (AᵀA's mirrors)
// the same C in boxes of 32 x 32; use_c_map false where C's rows are not 16-byte aligned (the
// stores then go from the registers).
template <Precision P, typename Shape, bool kAta, typename Probe>
__global__ void __launch_bounds__(Shape::kThreads, 1)
    wgmma_tma_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                     const __grid_constant__ CUtensorMap c_map, const __grid_constant__ CUtensorMap m_map,
                     bool use_c_map, void* C, int M, int N, int K, bool vec_c, SplitParts parts, Probe probe) {
#if defined(__CUDA_ARCH__) && !defined(TILESCOPE_SM90A_PTX)
  __trap();  // never launched: the descriptor refuses every GPU but compute capability 9.0
#else
  using S = WgLayout<P, Shape>;
  constexpr WgmmaParams p = S::p;
  static_assert(!kAta || (p.bm == p.bn && p.cluster == 1 && !p.register_sourced && !(p.c16 && p.tma_store)),
                "AᵀA mirrors square tiles, each block alone, both operands in shared memory (C in the input type "
                "from the registers: the mirrored boxes hold floats)");
  extern __shared__ unsigned char shared_raw[];
  const Ring<S> ring(shared_raw);
  const BlockWork<S, kAta> work(M, N, K, probe.k_end(K, p.bk));
  if (threadIdx.x == 0) {
    for (int s = 0; s < p.stages; ++s) {
      mbarrier_init(&ring.full[s], 1);  // the producer's arrival (plus the TMA's bytes)
      // One arrival per consumer warp of the cluster (and the timeline's observer).
      mbarrier_init(&ring.empty[s], 4 * p.consumers * p.cluster + (Probe::kObserves ? 1 : 0));
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
    release_registers<kProducerRegisters>();
    if (threadIdx.x == 0)
      produce(ring, work, a_map, b_map, probe);
    else if (Probe::kObserves && threadIdx.x == 32)
      observe(ring, work, probe);
  } else {
    claim_registers<consumer_registers(p)>();
    const ConsumerThread me(warpgroup);
    const CDestination<typename S::CType> out{static_cast<typename S::CType*>(C), vec_c, &c_map, &m_map, use_c_map};
    RingCursor<p.stages> at;
    int boxes = 0;  // C boxes this group staged: gemm's buffers take turns
    float acc[S::kSlices][S::kAcc];
    for (WorkRun r = work.begin(); work.more(r); work.next(r)) {
      const BlockTile tile = work.tile(r.tile);
      // The traced build names the tile's block of the model: one per tile (the block that stores it).
      probe.at_block(r.tile * p.cluster + static_cast<int>(work.rank));
      if constexpr (S::kRegisterSourced)
        consume_registers(ring, work, me, r.slabs, at, acc, probe);
      else
        consume<P>(ring, work, me, r.slabs, at, acc, probe);
      if constexpr (p.split > 1) {
        if (!join_parts(acc, r, work, me, parts)) continue;
      }
      if constexpr (p.stream_k) {
        if (!join_runs(acc, r, work, me, parts)) continue;
      }
      store_tile(acc, tile, me, work, out, ring.c_boxes, boxes, probe);
    }
    if constexpr (p.tma_store) {
      if (me.leader) bulk_wait_all();  // the last boxes written before the block's shared memory goes
    }
  }
  if constexpr (Probe::kObserves) {
    __syncthreads();  // the whole block is done: its last stamp
    if (threadIdx.x == 0) probe.block_end(work.block_slabs());
  }
  // No block leaves while another of its cluster may still arrive on its barriers.
  if constexpr (p.cluster > 1) cluster_sync();
#endif
}

}  // namespace tilescope
