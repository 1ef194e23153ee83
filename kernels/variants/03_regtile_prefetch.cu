// 03 regtile_prefetch — register tiles per thread, shared-memory slabs per block, and the next
// slab prefetched from global memory into registers while the current one is computed.
//
// The launch file of regtile_prefetch: descriptor, compiled set, launch, mapping model; the story
// and the kernel are in 03_regtile_prefetch.cuh.
#include <algorithm>
#include <cstdint>

#include "kernels/core/kernel_common.cuh"
#include "kernels/core/kernel_names.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "kernels/core/variant_launch.cuh"
#include "kernels/instrument/probe.cuh"
#include "kernels/jit/jit_kernels.h"
#include "kernels/jit/kernel_calls.h"
#include "kernels/variants/03_regtile_prefetch.cuh"

namespace tilescope {

extern const VariantDescriptor kRegtilePrefetchVariant;

namespace {

// ---- the compiled set ---------------------------------------------------------------------
// One row per configuration; the descriptor's config list is built from the same rows.
struct RegtileParams {
  int bm = 0, bn = 0, bk = 0;  // block tile of C and slab depth
  int tm = 0, tn = 0;          // a thread's tile of C
  int pieces = 1;              // the next slab is prefetched in this many pieces of BK / pieces
  int min_blocks = 1;          // blocks per multiprocessor asked of the compiler (float)
  bool padded = true;          // rows of the shared slabs padded by 16 bytes (RegtileShape::PAD)
  bool bands = false;          // blocks walk down bands of kGroupRows tile rows (block_order.h); AᵀA: 1-D
  const char* description = "";
};
// Deep slabs (one barrier per 32 k) prefetched in 4 pieces of 8, and room for 2 blocks per
// multiprocessor (float: <= 128 registers). Measured on an H200 at N = 4096: 94% of cublasSgemm,
// where the same tile with BK = 16 in one piece and 1 block/SM reached 63%.
constexpr RegtileParams kDeepSlabs = {
    .bm = 128,
    .bn = 128,
    .bk = 32,
    .tm = 8,
    .tn = 8,
    .pieces = 4,
    .min_blocks = 2,
    .description = "deep slabs (one barrier per 32 k) prefetched in 4 pieces, 2 blocks per multiprocessor"};
// A row of the compiled set whose blocks take their tiles in bands of rows.
constexpr RegtileParams in_bands(RegtileParams p, const char* description) {
  p.bands = true;
  p.description = description;
  return p;
}
// A row of the compiled set without the 16 bytes of padding per row.
constexpr RegtileParams unpadded(RegtileParams p, const char* description) {
  p.padded = false;
  p.description = description;
  return p;
}
constexpr RegtileParams kParams[] = {
    {.bm = 48, .bn = 48, .bk = 16, .tm = 3, .tn = 3, .description = "the seed: 16 x 16 threads of 3 x 3 outputs each"},
    {.bm = 64,
     .bn = 64,
     .bk = 8,
     .tm = 8,
     .tn = 8,
     .description = "8 x 8 threads of 8 x 8 outputs: fewer loads per FMA"},
    {.bm = 128,
     .bn = 128,
     .bk = 8,
     .tm = 8,
     .tn = 8,
     .description = "a 128 x 128 block tile: one slab in shared memory feeds 256 threads"},
    kDeepSlabs,
    unpadded(kDeepSlabs,
             "the same without the 16 bytes of padding per row: the transposing stores of A collide in the banks "
             "(2-way)"),
    in_bands(kDeepSlabs,
             "the same with the blocks in bands of 8 rows of tiles: at large N they share panels of A and B in L2 "
             "(AᵀA: a grid of the upper triangle only)"),
    {.bm = 128,
     .bn = 64,
     .bk = 32,
     .tm = 8,
     .tn = 4,
     .pieces = 2,
     .min_blocks = 2,
     .description =
         "half the 128 x 128 tile, 8 x 4 per thread: twice the blocks, so small sizes (N = 1024: 64 tiles of "
         "128 x 128 for 132 SMs) fill the GPU"},
    {.bm = 64,
     .bn = 64,
     .bk = 32,
     .tm = 4,
     .tn = 8,
     .pieces = 4,
     .min_blocks = 2,
     .bands = true,
     .description =
         "AᵀA at small sizes: 64 x 64 tiles, 4 x 8 per thread, the upper triangle's tiles only (N = 2048: 528 "
         "blocks where 128 x 128 tiles give 136)"},
};
constexpr int kNumConfigs = sizeof(kParams) / sizeof(kParams[0]);

// A thread's accumulators: float ones and their operands fit its 255 registers up to 16 x 8.
constexpr int kMaxAccumulators = 128;

std::string config_name(const RegtileParams& p) {
  return std::to_string(p.bm) + "x" + std::to_string(p.bn) + "x" + std::to_string(p.bk) + "_" + std::to_string(p.tm) +
         "x" + std::to_string(p.tn) + (p.padded ? "" : "_nopad") + (p.bands ? "_bands" : "");
}

// ---- tiles a learner types ----------------------------------------------------------------
// The kernel template's parameters, by name (kernels/core/typed_configs.h).
const std::vector<TileParam> kTileParams = {
    {"bm", "rows of C per block"},
    {"bn", "columns of C per block"},
    {"bk", "k per shared-memory slab"},
    {"tm", "rows of C per thread"},
    {"tn", "columns of C per thread"},
    {"pieces", "the next slab is prefetched in this many pieces"},
    {"min_blocks", "blocks per multiprocessor asked of the compiler (float)"},
    {"pad", "1: rows of the shared slabs padded by 16 bytes, 0: unpadded (the transposing stores collide)"},
    {"bands",
     "1: blocks take their tiles in bands of 8 tile rows (L2-friendly; AᵀA: a 1-D grid of the upper triangle), 0: "
     "row by row"},
};

TileValues values_of(const RegtileParams& p) {
  return {{"bm", p.bm},
          {"bn", p.bn},
          {"bk", p.bk},
          {"tm", p.tm},
          {"tn", p.tn},
          {"pieces", p.pieces},
          {"min_blocks", p.min_blocks},
          {"pad", p.padded ? 1 : 0},
          {"bands", p.bands ? 1 : 0}};
}

RegtileParams params_of_values(const TileValues& v) {
  RegtileParams p;
  p.bm = tile_value(v, "bm", 0);
  p.bn = tile_value(v, "bn", 0);
  p.bk = tile_value(v, "bk", 0);
  p.tm = tile_value(v, "tm", 0);
  p.tn = tile_value(v, "tn", 0);
  p.pieces = tile_value(v, "pieces", 1);
  p.min_blocks = tile_value(v, "min_blocks", 1);
  p.padded = tile_value(v, "pad", 1) != 0;
  p.bands = tile_value(v, "bands", 0) != 0;
  p.description = "a tile typed by the learner, compiled at run time";
  return p;
}

// The row of any configuration: the compiled set's, or a typed one's values.
RegtileParams params_of(const TileConfig& cfg) {
  if (const RegtileParams* row = row_of(kParams, kRegtilePrefetchVariant.configs, cfg)) return *row;
  return params_of_values(cfg.typed);
}
RegtileParams params_at(int config_index) {
  return params_of(config_at(kRegtilePrefetchVariant, config_index));
}

TileValues regtile_tile_values(const TileConfig& cfg) {
  return values_of(params_of(cfg));
}

TileConfig regtile_config(const RegtileParams& p);
std::size_t regtile_shared_bytes(const TileConfig& cfg, Precision p);

// What the kernel text cannot take, in the words of its static_asserts and launch; the device's
// limits (threads, shared memory) are checked for every configuration by unsupported_reason().
std::string typed_refusal(const RegtileParams& p, int pad, int bands) {
  auto n = [](int v) { return std::to_string(v); };
  if (pad != 0 && pad != 1) return "pad = " + n(pad) + ": 1 (rows padded by 16 bytes) or 0 (unpadded)";
  if (bands != 0 && bands != 1) return "bands = " + n(bands) + ": 1 (bands of 8 tile rows) or 0 (row by row)";
  if (p.bm < 1 || p.bn < 1 || p.bk < 1 || p.tm < 1 || p.tn < 1 || p.pieces < 1 || p.min_blocks < 1)
    return "every parameter must be at least 1";
  if (p.bm > 512 || p.bn > 512 || p.bk > 128) return "bm and bn are at most 512, bk at most 128";
  if (p.bm % p.tm != 0) return "tm = " + n(p.tm) + " does not divide bm = " + n(p.bm) + " (threads own whole rows)";
  if (p.bn % p.tn != 0) return "tn = " + n(p.tn) + " does not divide bn = " + n(p.bn) + " (threads own whole columns)";
  const int threads = (p.bm / p.tm) * (p.bn / p.tn);
  if (threads > 1024)
    return n(p.bm / p.tm) + " x " + n(p.bn / p.tn) + " = " + n(threads) + " threads per block: the limit is 1024";
  if (threads < 32) return n(threads) + " threads per block: a block needs at least one warp (32 threads)";
  if (p.bk % p.pieces != 0) return "pieces = " + n(p.pieces) + " does not divide bk = " + n(p.bk);
  if (p.tm * p.tn > kMaxAccumulators)
    return "tm x tn = " + n(p.tm * p.tn) + " accumulators per thread: at most " + n(kMaxAccumulators) +
           " (a thread has 255 registers for its accumulators, operands and addresses)";
  if (p.min_blocks > 32) return "min_blocks is at most 32";
  return "";
}

bool regtile_typed_config(const TileValues& values, TileConfig* out, std::string* why) {
  const RegtileParams p = params_of_values(values);
  *why = typed_refusal(p, tile_value(values, "pad", 1), tile_value(values, "bands", 0));
  if (!why->empty()) return false;
  *out = regtile_config(p);
  return true;
}

// kMinBlocks of a row for elements of `element_bytes`: 64 double accumulators alone take 128
// registers, so double never asks for 2 blocks per SM.
constexpr int min_blocks_of(const RegtileParams& p, std::size_t element_bytes) {
  return element_bytes == 4 ? p.min_blocks : 1;
}

template <typename T, int C, bool kAta, bool kVec, typename Probe>
auto instance() {
  constexpr RegtileParams p = kParams[C];
  constexpr int kMinBlocks = min_blocks_of(p, sizeof(T));
  return regtile_prefetch_kernel < T, p.bm, p.bn, p.bk, p.tm, p.tn, p.pieces, kMinBlocks, p.padded ? 1 : 0,
         p.bands ? 1 : 0, kAta, kVec, Probe > ;
}

template <typename T, int C, typename Probe>
const void* config_kernel(bool ata, bool vec) {
  // A traced thread's writer ids number its accumulators (trace.h).
  static_assert(kParams[C].tm * kParams[C].tn <= kMaxAccumulators, "a thread's registers hold its accumulators");
  if (ata)
    return reinterpret_cast<const void*>(vec ? instance<T, C, true, true, Probe>()
                                             : instance<T, C, true, false, Probe>());
  return reinterpret_cast<const void*>(vec ? instance<T, C, false, true, Probe>()
                                           : instance<T, C, false, false, Probe>());
}

// 16-byte loads need every row start aligned: leading dimensions multiples of the vector.
bool can_vectorize(const GemmArgs& g) {
  const std::int64_t w = kVecBytes / static_cast<std::int64_t>(element_bytes(g.precision));
  auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % kVecBytes == 0; };
  if (!aligned(g.a) || !aligned(g.c) || (g.problem == Problem::Gemm && !aligned(g.b))) return false;
  if (g.problem == Problem::Ata) return g.shape.N % w == 0;
  return g.shape.K % w == 0 && g.shape.N % w == 0;
}

// The name expression of one kernel, as NVRTC compiles it.
std::string regtile_kernel_name(const RegtileParams& p, Precision q, Problem problem, bool vec, const char* probe) {
  return kernel_name("regtile_prefetch_kernel",
                     {fma_element_type(q), std::to_string(p.bm), std::to_string(p.bn), std::to_string(p.bk),
                      std::to_string(p.tm), std::to_string(p.tn), std::to_string(p.pieces),
                      std::to_string(min_blocks_of(p, element_bytes(q))), std::to_string(p.padded ? 1 : 0),
                      std::to_string(p.bands ? 1 : 0), cpp_bool(problem == Problem::Ata), cpp_bool(vec), probe});
}

// The one kernel of a launch: its template arguments are chosen here and nowhere else, so that
// regtile_kernel_for names exactly the kernel the launch runs. The traced build doubles the
// instantiations (TraceProbe for every configuration x type x problem x vec), which is what
// run_trace needs to trace exactly the path the timed launch takes; a typed tile's kernel is
// compiled at run time from the same text, with the probe the launch asks for.
template <typename T, typename Probe>
KernelLaunchShape kernel_of_launch(const GemmArgs& g, int config_index) {
  const TileConfig& cfg = config_at(kRegtilePrefetchVariant, config_index);
  const RegtileParams p = params_of(cfg);
  KernelLaunchShape k;
  k.threads_per_block = cfg.threads();
  k.dynamic_shared_bytes = regtile_shared_bytes(cfg, g.precision);
  const bool ata = g.problem == Problem::Ata, vec = can_vectorize(g);
  if (is_typed_config(kRegtilePrefetchVariant, config_index)) {
    const ProbeSpelling probe = probe_spelling<Probe>();
    k.kernel = jit_kernel(kRegtilePrefetchVariant, regtile_kernel_name(p, g.precision, g.problem, vec, probe.name),
                          probe.header)
                   .kernel;
    k.run_time_compiled = true;
    return k;
  }
  k.kernel = with_row<kNumConfigs>(kRegtilePrefetchVariant, config_index,
                                   [&](auto row) { return config_kernel<T, decltype(row)::value, Probe>(ata, vec); });
  return k;
}

// The kernels a case may run, spelled for NVRTC: launch_kernel's two, with and without vectors
// (can_vectorize decides per launch, by the buffers' alignment and the sizes).
std::vector<std::string> regtile_kernel_names(const TileConfig& cfg, Precision q, Problem problem) {
  const RegtileParams p = params_of(cfg);
  std::vector<std::string> out;
  for (bool vec : {false, true}) out.push_back(regtile_kernel_name(p, q, problem, vec, kNoProbeName));
  return out;
}

KernelLaunchShape regtile_kernel_for(const GemmArgs& g, int config_index) {
  return with_fma_type(g.precision,
                       [&](auto element) { return kernel_of_launch<decltype(element), NoProbe>(g, config_index); });
}

struct RegtileLaunch {
  template <typename Probe>
  static void run(const GemmArgs& g, int config_index, const Probe& probe) {
    with_fma_type(g.precision, [&](auto element) {
      using T = decltype(element);
      const RegtileParams p = params_at(config_index);
      const KernelLaunchShape k = kernel_of_launch<T, Probe>(g, config_index);
      // Above 48 KB a block's dynamic shared memory must be allowed explicitly.
      if (k.dynamic_shared_bytes > 48 * 1024) allow_dynamic_shared(k);
      int M = static_cast<int>(g.shape.M), N = static_cast<int>(g.shape.N), K = static_cast<int>(g.shape.K);
      const dim3 block(p.bn / p.tn, p.bm / p.tm);
      const std::int64_t tiles_x = ceil_div(N, p.bn), tiles_y = ceil_div(M, p.bm);
      // AᵀA in bands: a 1-D grid of the upper-triangle tiles (the kernel's upper_block_tile).
      const bool triangle = p.bands && g.problem == Problem::Ata;
      const dim3 grid =
          triangle ? checked_grid(upper_block_count(static_cast<int>(tiles_x)), 1) : checked_grid(tiles_x, tiles_y);
      const T* a = static_cast<const T*>(g.a);
      const T* b = g.problem == Problem::Ata ? a : static_cast<const T*>(g.b);
      T* c = static_cast<T*>(g.c);
      Probe kernel_probe = probe;
      // What <<<...>>> does, written out so that a kernel compiled at run time launches the same way.
      void* args[] = {&a, &b, &c, &M, &N, &K, &kernel_probe};
      launch_kernel(k, grid, block, args, g.stream);
    });
  }
};

std::string regtile_refuses(Problem problem, Precision, const TileConfig& cfg) {
  if (problem == Problem::Ata && cfg.bm != cfg.bn)
    return "AᵀA mirrors square blocks across the diagonal: BM must equal BN";
  return "";
}

std::size_t regtile_shared_bytes(const TileConfig& cfg, Precision p) {
  const std::size_t pad = params_of(cfg).padded ? kVecBytes / element_bytes(p) : 0;
  return 2u * cfg.bk * ((cfg.bm + pad) + (cfg.bn + pad)) * element_bytes(p);
}

// ---- the mapping model ---------------------------------------------------------------------
// What regtile_prefetch_kernel does, as plain host code, for one row of kParams and one
// precision (the vector width W of row_in_tile/col_in_tile and of the loads depends on it).
class RegtileModel final : public MappingModel {
 public:
  RegtileModel(const RegtileParams& p, Problem problem, Precision precision, const Shape& shape)
      : p_(p), ata_(problem == Problem::Ata), bands_(p.bands), f32_(precision == Precision::F32), s_(shape) {
    const int w = kVecBytes / static_cast<int>(element_bytes(precision));
    cw_ = (p.tm % w == 0 && p.tn % w == 0) ? w : 1;
    tx_ = p.bn / p.tn;
    ty_ = p.bm / p.tm;
    bkp_ = p.bk / p.pieces;
    // As can_vectorize() decides for buffers of their own (cudaMalloc aligns them to 256 bytes).
    vec_ = ata_ ? s_.N % w == 0 : (s_.K % w == 0 && s_.N % w == 0);
    grid_ = {static_cast<int>(ceil_div(s_.N, p.bn)), static_cast<int>(ceil_div(s_.M, p.bm))};
    tiles_ = grid_;
    if (ata_ && bands_) grid_ = {static_cast<int>(upper_block_count(tiles_.x)), 1};
  }

  Dim2 grid() const override { return grid_; }
  Dim2 block() const override { return {tx_, ty_}; }
  int phases() const override { return static_cast<int>(ceil_div(s_.K, p_.bk)); }
  int pieces() const override { return p_.pieces; }
  // Writer ids number a thread's TM x TN accumulators (slot i * TN + j).
  int writer_slots() const override { return std::max(kTraceSlots, p_.tm * p_.tn); }
  // AᵀA: the lower-triangle blocks return at once; their mirrors write their elements.
  bool block_active(int bx, int by) const override {
    const BlockTile t = tile_of(bx, by);
    return !ata_ || t.row <= t.col;
  }

  Owner owner(std::int64_t i, std::int64_t j) const override {
    // AᵀA: C(i, j) below the diagonal is stored by the thread that computed C(j, i), as its mirror.
    if (ata_ && i > j) {
      Owner o = direct_owner(j, i);
      o.mirrored = true;
      return o;
    }
    return direct_owner(i, j);
  }

  TileRect a_tile(int bx, int by, int phase) const override {
    if (!block_active(bx, by)) return {};
    const Span rows = span(tile_of(bx, by).row, p_.bm, s_.M), ks = span(phase, p_.bk, s_.K);
    // Gemm: the block's rows of A x the slab's k. AᵀA: the slab's rows of A x the block row's columns.
    return ata_ ? TileRect{ks.lo, ks.hi, rows.lo, rows.hi} : TileRect{rows.lo, rows.hi, ks.lo, ks.hi};
  }
  TileRect b_tile(int bx, int by, int phase) const override {
    if (!block_active(bx, by)) return {};
    const Span cols = span(tile_of(bx, by).col, p_.bn, s_.N), ks = span(phase, p_.bk, s_.K);
    return {ks.lo, ks.hi, cols.lo, cols.hi};
  }

  // The TileMover loads of fetch(phase * BK + piece * BKP): vector v = tid + l * NT of the
  // piece, row v / (COLS / LW), columns (v % (COLS / LW)) * LW + [0, LW), read when its first
  // element lies inside the matrix (with LW > 1 a vector is all in or all out).
  void thread_loads(int bx, int by, int tx, int ty, int phase, int piece, std::vector<ElementRef>* a,
                    std::vector<ElementRef>* b) const override {
    a->clear();
    b->clear();
    if (!block_active(bx, by) || phase < 0 || phase >= phases() || piece < 0 || piece >= p_.pieces) return;
    const int tid = ty * tx_ + tx;
    const std::int64_t k0 = static_cast<std::int64_t>(phase) * p_.bk + static_cast<std::int64_t>(piece) * bkp_;
    const BlockTile t = tile_of(bx, by);
    const std::int64_t m0 = static_cast<std::int64_t>(t.row) * p_.bm, n0 = static_cast<std::int64_t>(t.col) * p_.bn;
    if (ata_)
      mover_loads(bkp_, p_.bm, k0, m0, s_.K, s_.N, tid, a);
    else
      mover_loads(p_.bm, bkp_, m0, k0, s_.M, s_.K, tid, a);
    mover_loads(bkp_, p_.bn, k0, n0, s_.K, s_.N, tid, b);
  }

  // Slab `phase` waits in shared memory (it came through the prefetch registers); every thread
  // reads TM + TN values of it per k for TM x TN multiply-adds, BK steps, while its loads of the
  // next slab are in flight into the prefetch registers.
  PhaseWork phase_work(int bx, int by, int phase) const override {
    PhaseWork w;
    const BlockTile t = tile_of(bx, by);
    const Span ks = span(phase, p_.bk, s_.K), rows = span(t.row, p_.bm, s_.M), cols = span(t.col, p_.bn, s_.N);
    w.k0 = ks.lo;
    w.k1 = ks.hi;
    w.steps = p_.bk;
    w.outputs = (rows.hi - rows.lo) * (cols.hi - cols.lo);
    const std::string bm = std::to_string(p_.bm), bn = std::to_string(p_.bn), bk = std::to_string(p_.bk);
    const std::string tm = std::to_string(p_.tm), tn = std::to_string(p_.tn);
    w.global = {static_cast<std::int64_t>(p_.bm) + p_.bn, "BM + BN", bm + " + " + bn};
    w.shared = {static_cast<std::int64_t>(tx_) * ty_ * (p_.tm + p_.tn), "threads x (TM + TN)",
                std::to_string(tx_ * ty_) + " x (" + tm + " + " + tn + ")"};
    const std::string slab = std::string("The slab (") + (ata_ ? "A as Aᵀ: BK x BM = " : "A: BM x BK = ") +
                             (ata_ ? bk + " x " + bm : bm + " x " + bk) + ", B: BK x BN = " + bk + " x " + bn + ")";
    w.words.push_back(phase == 0 ? slab +
                                       " was loaded before the loop: from global memory into the prefetch "
                                       "registers, then into shared memory; one barrier."
                                 : slab + " came from global memory into the prefetch registers during phase " +
                                       std::to_string(phase) +
                                       " and was parked in the other shared-memory buffer; one barrier.");
    w.words.push_back("Each thread read TM = " + tm + " values of A and TN = " + tn +
                      " of B from shared memory per k and did TM x TN = " + std::to_string(p_.tm * p_.tn) +
                      " multiply-adds with them into its registers (an outer product), BK = " + bk + " times.");
    if (phase + 1 < phases()) {
      const Span next = span(phase + 1, p_.bk, s_.K);
      w.words.push_back("Meanwhile each thread loaded its part of the next slab (k = " + std::to_string(next.lo) +
                        " ... " + std::to_string(next.hi - 1) + ") from global memory into its prefetch registers" +
                        (p_.pieces > 1 ? ", in " + std::to_string(p_.pieces) + " pieces of " + std::to_string(bkp_) +
                                             " k, each parked in the other buffer one piece later."
                                       : ", and parked it in the other buffer after the last k."));
    } else {
      w.words.push_back("Nothing was left to prefetch: this was the last slab.");
    }
    return w;
  }

  // Each block loads every slab of its rows (A) and columns (B) exactly once, clipped to the
  // matrix. Gemm: A(r, k) by the g = ceil(N / BN) blocks of block row r / BM; B(k, c) by the
  // ceil(M / BM) blocks of block column c / BN. AᵀA (active blocks by <= bx only): A(k, c) with
  // b = c / BN as the A operand by blocks (bx >= b, by = b): g - b of them, and as the B operand
  // by blocks (bx = b, by <= b): b + 1 of them; g + 1 in all, whatever the column.
  std::int64_t a_reads(std::int64_t, std::int64_t) const override {
    return ata_ ? ceil_div(s_.N, p_.bn) + 1 : ceil_div(s_.N, p_.bn);
  }
  std::int64_t b_reads(std::int64_t, std::int64_t) const override { return ata_ ? 0 : ceil_div(s_.M, p_.bm); }
  // Every element of a matrix is read equally often: the totals are the count times the size.
  std::int64_t a_reads_total(std::int64_t rows, std::int64_t cols) const override {
    return rows * cols * a_reads(0, 0);
  }
  std::int64_t b_reads_total(std::int64_t rows, std::int64_t cols) const override {
    return rows * cols * b_reads(0, 0);
  }
  // The memory instructions of regtile_prefetch_kernel. Per piece of a slab, each thread moves
  // its vectors of A and B global -> prefetch registers -> shared memory (TileMover: vector l of
  // kPerThread is one instruction, A's transposed store one per element of it); per k of the slab
  // it reads TM / CW vectors of As and TN / CW of Bs; at the end it stores its TM x TN outputs.
  enum Site { kLoadA, kLoadB, kStoreAs, kStoreBs, kReadAs, kReadBs, kStoreC, kStoreMirror };
  std::vector<AccessSite> access_sites() const override {
    const int sz = bytes(), la = mover_width(a_cols()), lb = mover_width(p_.bn);
    const std::string vec_a = std::to_string(la * sz) + "-byte", vec_b = std::to_string(lb * sz) + "-byte";
    const std::string vec_c = std::to_string(cw_ * sz) + "-byte";
    std::vector<AccessSite> sites = {
        {"A from global memory", 'A', MemorySpace::Global, AccessKind::Load, la * sz,
         "a_next.load: " + vec_a + " vectors of " + (ata_ ? "rows of A (the slab of Aᵀ)" : "rows of A") +
             " into the prefetch registers",
         "vector of a piece", kRecordLoadA},
        {"B from global memory", 'B', MemorySpace::Global, AccessKind::Load, lb * sz,
         "b_next.load: " + vec_b + " vectors of rows of B into the prefetch registers", "vector of a piece",
         kRecordLoadB},
        a_store_site(),
        {"B into shared memory", 'B', MemorySpace::Shared, AccessKind::Store, lb * sz,
         "b_next.store: the vectors as they are, Bs[k][n]", "vector of a piece", kRegtileBsStored},
        {"A out of shared memory", 'A', MemorySpace::Shared, AccessKind::Load, cw_ * sz,
         "as[kk * LDA + row_in_tile(i, ty)]: TM = " + std::to_string(p_.tm) + " values in " +
             std::to_string(p_.tm / cw_) + " vectors per k",
         "vector of a k", kRegtileAsRead},
        {"B out of shared memory", 'B', MemorySpace::Shared, AccessKind::Load, cw_ * sz,
         "bs[kk * LDB + col_in_tile(j, tx)]: TN = " + std::to_string(p_.tn) + " values in " +
             std::to_string(p_.tn / cw_) + " vectors per k",
         "vector of a k", kRegtileBsRead},
        {"C to global memory", 'C', MemorySpace::Global, AccessKind::Store, (ata_vectors() ? cw_ : c_width()) * sz,
         ata_ ? (ata_vectors() ? "C[row][col..] = acc[i][j..]: " + vec_c +
                                     " vectors of a row above the diagonal, "
                                     "one element at a time (row <= col) in the diagonal's tiles"
                               : std::string("C[row][col] = acc[i][j] for row <= col"))
              : "C[row][col] = acc[i][j]",
         c_step_unit(), kRecordStoreC}};
    if (ata_)
      sites.push_back({"C's mirror to global memory", 'C', MemorySpace::Global, AccessKind::Store,
                       (ata_vectors() ? cw_ : 1) * sz,
                       ata_vectors() ? "C[col][row..] = acc[i..][j]: a thread's " + std::to_string(cw_) +
                                           " rows of a column, transposed into one " + vec_c +
                                           " vector of the mirror's row, above the diagonal; one element at a time "
                                           "(row < col, N elements apart) in the diagonal's tiles"
                                     : "C[col][row] = acc[i][j] for row < col: a column of C, N elements apart",
                       c_step_unit(), kRecordStoreC});
    return sites;
  }
  AccessSite a_store_site() const {
    const int sz = bytes();
    AccessSite site{"A into shared memory", 'A', MemorySpace::Shared, AccessKind::Store, sz, "", "element of a piece",
                    kRegtileAsStored};
    if (ata_) {
      site.bytes = mover_width(a_cols()) * sz;
      site.what = "a_next.store: the vectors as they are, As[k][m]";
      site.step_unit = "vector of a piece";
    } else {
      site.what = std::string("a_next.store<true>: transposed, one element at a time, As[c + w][r]") +
                  (p_.padded ? " (rows padded by 16 bytes)" : " (rows not padded: the stores collide)");
    }
    return site;
  }
  int site_steps(int site, int bx, int by) const override {
    if (!block_active(bx, by)) return 0;
    const int fetches = phases() * p_.pieces;
    switch (site) {
      case kLoadA:
        return fetches * per_thread(a_rows(), a_cols());
      case kLoadB:
        return fetches * per_thread(bkp_, p_.bn);
      case kStoreAs:
        return fetches * per_thread(a_rows(), a_cols()) * (ata_ ? 1 : mover_width(a_cols()));
      case kStoreBs:
        return fetches * per_thread(bkp_, p_.bn);
      case kReadAs:
        return phases() * p_.bk * (p_.tm / cw_);
      case kReadBs:
        return phases() * p_.bk * (p_.tn / cw_);
      case kStoreC:
        return p_.tm * p_.tn / (vector_epilogue(bx, by) ? cw_ : c_width());
      case kStoreMirror:
        return !ata_ ? 0 : p_.tm * p_.tn / (vector_epilogue(bx, by) ? cw_ : 1);
    }
    return 0;
  }
  void warp_access(int site, int bx, int by, int warp, int step, WarpAccess* out) const override {
    const int sz = bytes();
    const std::int64_t lda = p_.bm + pad(), ldb = p_.bn + pad();
    const std::int64_t bs_base = 2LL * p_.bk * lda;  // Bs follows both buffers of As (elements)
    const BlockTile t = tile_of(bx, by);
    const std::int64_t m0 = static_cast<std::int64_t>(t.row) * p_.bm, n0 = static_cast<std::int64_t>(t.col) * p_.bn;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const int tid = warp * kWarpLanes + lane;
      if (tid >= tx_ * ty_) break;
      const int tx = tid % tx_, ty = tid / tx_;
      std::int64_t a = -1;
      int width = 1;
      switch (site) {
        case kLoadA:
        case kLoadB:
        case kStoreAs:
        case kStoreBs: {
          const bool is_a = site == kLoadA || site == kStoreAs;
          const int rows = is_a ? a_rows() : bkp_, cols = is_a ? a_cols() : p_.bn, lw = mover_width(cols);
          const int per = per_thread(rows, cols);
          const int elems = site == kStoreAs && !ata_ ? lw : 1;  // transposed: one store per element
          const int w = step % elems, l = (step / elems) % per, fetch = step / elems / per;
          const int slab = fetch / p_.pieces, piece = fetch % p_.pieces;
          const int v = tid + l * tx_ * ty_;
          if (v >= rows * (cols / lw)) break;  // TileMover: this thread has no vector l
          const int r = v / (cols / lw), c = (v % (cols / lw)) * lw;
          const std::int64_t k0 = static_cast<std::int64_t>(slab) * p_.bk + static_cast<std::int64_t>(piece) * bkp_;
          width = site == kStoreAs && !ata_ ? 1 : lw;
          if (site == kLoadA || site == kLoadB) {
            // load(src, ld, r0, c0, rows, cols): gemm A(m0 + r, k0 + c); AᵀA A(k0 + r, m0 + c); B(k0 + r, n0 + c).
            const std::int64_t gr = is_a && !ata_ ? m0 + r : k0 + r;
            const std::int64_t gc = is_a ? (ata_ ? m0 + c : k0 + c) : n0 + c;
            const std::int64_t nrows = is_a && !ata_ ? s_.M : s_.K, ncols = is_a && !ata_ ? s_.K : s_.N;
            if (gr < nrows && gc < ncols) a = (gr * ncols + gc) * sz;
          } else {
            const std::int64_t buf = slab & 1;
            if (is_a) {
              const std::int64_t base = (buf * p_.bk + static_cast<std::int64_t>(piece) * bkp_) * lda;
              a = (base + (ata_ ? r * lda + c : (c + w) * lda + r)) * sz;
            } else {
              const std::int64_t base = bs_base + (buf * p_.bk + static_cast<std::int64_t>(piece) * bkp_) * ldb;
              a = (base + r * ldb + c) * sz;
            }
          }
          break;
        }
        case kReadAs:
        case kReadBs: {
          const int per_k = (site == kReadAs ? p_.tm : p_.tn) / cw_;
          const int i = (step % per_k) * cw_, kk = (step / per_k) % p_.bk, slab = step / per_k / p_.bk;
          const std::int64_t buf = slab & 1;
          a = site == kReadAs ? (buf * p_.bk * lda + kk * lda + tile_row(i, ty)) * sz
                              : (bs_base + buf * p_.bk * ldb + kk * ldb + tile_col(i, tx)) * sz;
          width = cw_;
          break;
        }
        case kStoreC:
        case kStoreMirror: {
          if (vector_epilogue(bx, by)) {
            // Per CW x CW chunk (ic, jc) of the thread's accumulators: CW row vectors of C, then
            // CW row vectors of the mirror (recorded_order), all in or all out.
            const int r = step % cw_, chunk = step / cw_, jc = (chunk % (p_.tn / cw_)) * cw_;
            const int ic = (chunk / (p_.tn / cw_)) * cw_;
            const std::int64_t row = m0 + tile_row(ic, ty), col = n0 + tile_col(jc, tx);
            width = cw_;
            if (row < s_.N && col < s_.N) a = (site == kStoreC ? (row + r) * s_.N + col : (col + r) * s_.N + row) * sz;
            break;
          }
          const int cwc = site == kStoreC ? c_width() : 1;
          const int i = step / (p_.tn / cwc), j = (step % (p_.tn / cwc)) * cwc;
          const std::int64_t row = m0 + tile_row(i, ty), col = n0 + tile_col(j, tx);
          width = cwc;
          if (row >= s_.M || col >= s_.N) break;
          if (ata_ && row > col) break;
          if (site == kStoreMirror) {
            if (row != col) a = (col * s_.N + row) * sz;
          } else {
            a = (row * s_.N + col) * sz;
          }
          break;
        }
      }
      out->address[lane] = a;
      out->bytes = width * sz;
    }
  }

  // The tile's row of accumulator row i of a thread in thread row ty, and the tile's column of
  // accumulator column j of a thread in thread column tx: the thread's chunks of CW are CW x ty_
  // (CW x tx_) apart, each thread's CW side by side (the kernel's thread -> C mapping).
  int tile_row(int i, int ty) const { return (i / cw_) * (cw_ * ty_) + ty * cw_ + i % cw_; }
  int tile_col(int j, int tx) const { return (j / cw_) * (cw_ * tx_) + tx * cw_ + j % cw_; }

  // AᵀA above the diagonal with vectors: per chunk of CW x CW accumulators, its CW stores of C
  // and then its CW stores of the mirror (one recording stream).
  std::vector<SiteStep> recorded_order(int stream, int bx, int by) const override {
    if (stream != kRecordStoreC || !vector_epilogue(bx, by)) return MappingModel::recorded_order(stream, bx, by);
    std::vector<SiteStep> order;
    for (int chunk = 0; chunk < p_.tm * p_.tn / (cw_ * cw_); ++chunk) {
      for (int r = 0; r < cw_; ++r) order.push_back({kStoreC, chunk * cw_ + r});
      for (int r = 0; r < cw_; ++r) order.push_back({kStoreMirror, chunk * cw_ + r});
    }
    return order;
  }

  std::string reads_summary() const override {
    const std::int64_t g = ceil_div(s_.N, p_.bn);
    if (ata_)
      return "each element of A is read g + 1 = " + std::to_string(g + 1) + " times from global memory (g = ceil(N / " +
             std::to_string(p_.bn) + ") = " + std::to_string(g) +
             "): by the upper-triangle blocks of its block row as A^T and of its block column as A";
    return "each element of A is read ceil(N / " + std::to_string(p_.bn) + ") = " + std::to_string(g) +
           " times and each element of B ceil(M / " + std::to_string(p_.bm) +
           ") = " + std::to_string(ceil_div(s_.M, p_.bm)) + " times from global memory";
  }

 private:
  struct Span {
    std::int64_t lo, hi;
  };
  static Span span(int index, int size, std::int64_t n) {
    const std::int64_t lo = std::min<std::int64_t>(static_cast<std::int64_t>(index) * size, n);
    return {lo, std::min<std::int64_t>(lo + size, n)};
  }

  // Inverts RegtileShape::row_in_tile / col_in_tile: r = (i / W) * W * T + t * W + i % W.
  void invert(int r, int threads, int* t, int* i) const {
    const int chunk = r / (cw_ * threads), within = r % (cw_ * threads);
    *t = within / cw_;
    *i = chunk * cw_ + within % cw_;
  }
  // The tile of C that block (bx, by) computes (the kernel's `tile`), and the block of a tile.
  BlockTile tile_of(int bx, int by) const {
    if (!bands_) return {by, bx};
    if (ata_) return upper_block_tile(bx, tiles_.x);
    return gemm_block_tile(by * grid_.x + bx, grid_.y, grid_.x);
  }
  Owner direct_owner(std::int64_t i, std::int64_t j) const {
    Owner o;
    const BlockTile t{static_cast<int>(i / p_.bm), static_cast<int>(j / p_.bn)};
    const int index = !bands_ ? t.row * grid_.x + t.col
                      : ata_  ? upper_block_index(t, tiles_.x)
                              : gemm_block_index(t, grid_.y, grid_.x);
    o.block_x = index % grid_.x;
    o.block_y = index / grid_.x;
    int ii = 0, jj = 0;
    invert(static_cast<int>(i % p_.bm), ty_, &o.thread_y, &ii);
    invert(static_cast<int>(j % p_.bn), tx_, &o.thread_x, &jj);
    o.slot = ii * p_.tn + jj;
    return o;
  }

  int bytes() const { return f32_ ? 4 : 8; }
  int pad() const { return p_.padded ? kVecBytes / bytes() : 0; }
  // The A-operand piece's shape (gemm: BM rows along k; AᵀA: BKP rows of A along m).
  int a_rows() const { return ata_ ? bkp_ : p_.bm; }
  int a_cols() const { return ata_ ? p_.bm : bkp_; }
  // TileMover's vector width LW for a piece `cols` wide, and its vectors per thread.
  int mover_width(int cols) const {
    return !vec_ ? 1 : f32_ ? widest_dividing<float>(cols) : widest_dividing<double>(cols);
  }
  int per_thread(int rows, int cols) const {
    const int vecs = rows * (cols / mover_width(cols)), nt = tx_ * ty_;
    return (vecs + nt - 1) / nt;
  }
  // The epilogue's stores: CW-wide vectors where gemm's rows allow them (the kernel's kVec branch).
  int c_width() const { return !ata_ && vec_ && cw_ == kVecBytes / bytes() ? cw_ : 1; }
  // AᵀA's blocks above the diagonal store C and its mirror as CW-wide vectors where N allows them
  // (the kernel's kAta && kVec branch); the diagonal's blocks store one element at a time.
  bool ata_vectors() const { return ata_ && vec_ && cw_ == kVecBytes / bytes(); }
  // What one step of a C site stores: a vector of outputs, an output, or (AᵀA, whose diagonal
  // tiles store one output a step and the others a vector) one store instruction.
  std::string c_step_unit() const {
    if (ata_vectors()) return "store";
    return c_width() > 1 ? "vector of " + std::to_string(cw_) + " outputs" : "output";
  }
  bool vector_epilogue(int bx, int by) const {
    if (!ata_vectors() || !block_active(bx, by)) return false;
    const BlockTile t = tile_of(bx, by);
    return t.row < t.col;
  }

  // TileMover<T, rows_in_tile, cols_in_tile, NT, LW>::load(src, ld, r0, c0, rows, cols, tid).
  void mover_loads(int tile_rows, int tile_cols, std::int64_t r0, std::int64_t c0, std::int64_t rows, std::int64_t cols,
                   int tid, std::vector<ElementRef>* out) const {
    const int lw = !vec_ ? 1 : f32_ ? widest_dividing<float>(tile_cols) : widest_dividing<double>(tile_cols);
    const int vecs_per_row = tile_cols / lw, vecs = tile_rows * vecs_per_row, nt = tx_ * ty_;
    for (int v = tid; v < vecs; v += nt) {
      const std::int64_t gr = r0 + v / vecs_per_row, gc = c0 + (v % vecs_per_row) * lw;
      if (gr < rows && gc < cols)
        for (int w = 0; w < lw; ++w) out->push_back({gr, gc + w});
    }
  }

  RegtileParams p_;
  bool ata_, bands_, f32_;
  Shape s_;
  int cw_ = 1, tx_ = 1, ty_ = 1, bkp_ = 1;
  bool vec_ = false;
  Dim2 grid_;   // the launch's grid
  Dim2 tiles_;  // tiles of C: columns x rows
};

TileConfig regtile_config(const RegtileParams& p) {
  TileConfig c;
  c.name = config_name(p);
  c.description = p.description;
  c.bm = p.bm;
  c.bn = p.bn;
  c.bk = p.bk;
  c.tm = p.tm;
  c.tn = p.tn;
  c.threads_x = p.bn / p.tn;
  c.threads_y = p.bm / p.tm;
  c.banded = p.bands;
  c.math = "FP32 / FP64 FMA";
  return c;
}

}  // namespace

extern const VariantDescriptor kRegtilePrefetchVariant = [] {
  VariantDescriptor v;
  v.id = "regtile_prefetch";
  v.label = "Register-tiled + prefetch";
  v.summary =
      "Each block owns a large tile of C and each thread a small TM x TN tile of it, kept in "
      "registers. Slabs of A and B go through shared memory, and the next slab is already being "
      "fetched from global memory while the current one is multiplied, hiding memory latency. "
      "For AᵀA only the upper-triangle blocks are computed and mirrored.";
  v.configs = configs_of(kParams, regtile_config);
  v.default_config = config_named(v.configs, "128x128x32_8x8");  // the deep-slab tile the lesson ends on
  v.refuses = regtile_refuses;
  set_launches<RegtileLaunch>(v);
  v.kernel_for = regtile_kernel_for;
  v.kernel_text = "kernels/variants/03_regtile_prefetch.cuh";
  v.kernel_names = regtile_kernel_names;
  v.shared_bytes = regtile_shared_bytes;
  v.model = [](int config_index, Problem problem, Precision precision,
               const Shape& shape) -> std::unique_ptr<MappingModel> {
    return std::make_unique<RegtileModel>(params_at(config_index), problem, precision, normalised(problem, shape));
  };
  v.tile_params = kTileParams;
  v.tile_values_of = regtile_tile_values;
  v.typed_config = regtile_typed_config;
  v.model_caps.prefetch = true;
  v.model_caps.mirrored_ata = true;
  return v;
}();

}  // namespace tilescope
