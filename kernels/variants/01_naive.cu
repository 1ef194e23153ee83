// 01 naive — one thread per element of C.
//
// The launch file of naive: descriptor, tiles a learner types, launch, mapping model; the story
// and the kernel are in 01_naive.cuh.
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
#include "kernels/variants/01_naive.cuh"

namespace tilescope {

extern const VariantDescriptor kNaiveVariant;

namespace {

// The compiled set: a block shape, and whether threadIdx.x runs along a row of C or down a column.
struct NaiveParams {
  int bx = 0, by = 0;
  bool down_columns = false;
  const char* description = "";
};
const NaiveParams kParams[] = {
    {16, 16, false, "blocks of 16 x 16 threads, one output each"},
    {32, 32, false, "blocks of 32 x 32 threads: the largest block, 1024 threads"},
    {32, 8, false, "blocks of 32 x 8 threads: a warp holds 32 neighbours along one row of C, coalesced"},
    {32, 8, true,
     "the same 32 x 8 threads turned down the columns: a warp holds 32 rows of one column of C, and each of its "
     "loads of A and stores of C touches a sector of its own (uncoalesced)"},
};

std::string config_name(int bx, int by, bool down_columns) {
  return std::to_string(bx) + "x" + std::to_string(by) + (down_columns ? "_columns" : "");
}

// Whether a configuration's threads run down the columns of C: a typed tile's order, or its row of
// the compiled set.
bool down_columns(const TileConfig& cfg) {
  if (!cfg.typed.empty()) return tile_value(cfg.typed, "order", 0) == 1;
  for (const NaiveParams& p : kParams)
    if (cfg.name == config_name(p.bx, p.by, p.down_columns)) return p.down_columns;
  return false;
}

// The one kernel of a launch: its template arguments are chosen here and nowhere else (kAta by
// naive_ata, kDownColumns by down_columns), so that naive_kernel_for names exactly the kernel the
// launch runs and naive_kernel_names spells it for NVRTC. The block's shape is no template argument
// (the kernel reads blockDim): every block shape, typed or compiled, runs the same kernel.
bool naive_ata(Problem p) {
  return p == Problem::Ata;
}

template <typename T, typename Probe>
auto naive_kernel(Problem p, bool down) {
  if (naive_ata(p)) return down ? naive_gemm_kernel<T, true, true, Probe> : naive_gemm_kernel<T, true, false, Probe>;
  return down ? naive_gemm_kernel<T, false, true, Probe> : naive_gemm_kernel<T, false, false, Probe>;
}

// The name expression of the kernel, as NVRTC compiles it.
std::string naive_kernel_name(Precision q, Problem p, bool down, const char* probe) {
  return kernel_name("naive_gemm_kernel", {fma_element_type(q), cpp_bool(naive_ata(p)), cpp_bool(down), probe});
}

std::vector<std::string> naive_kernel_names(const TileConfig& cfg, Precision q, Problem p) {
  return {naive_kernel_name(q, p, down_columns(cfg), kNoProbeName)};
}

// The kernel of a launch: from the build, or, for a typed block shape, compiled at run time from
// the same text with the probe the launch asks for (the same code: the block's shape is chosen at
// launch, but a typed tile runs what NVRTC compiles, as every typed tile does).
template <typename T, typename Probe>
KernelLaunchShape kernel_of_launch(const GemmArgs& g, int config_index) {
  const TileConfig& cfg = config_at(kNaiveVariant, config_index);
  KernelLaunchShape k{nullptr, cfg.threads(), 0};
  if (is_typed_config(kNaiveVariant, config_index)) {
    const ProbeSpelling probe = probe_spelling<Probe>();
    k.kernel = jit_kernel(kNaiveVariant, naive_kernel_name(g.precision, g.problem, down_columns(cfg), probe.name),
                          probe.header)
                   .kernel;
    k.run_time_compiled = true;
  } else {
    k.kernel = reinterpret_cast<const void*>(naive_kernel<T, Probe>(g.problem, down_columns(cfg)));
  }
  return k;
}

KernelLaunchShape naive_kernel_for(const GemmArgs& g, int config_index) {
  return with_fma_type(g.precision,
                       [&](auto element) { return kernel_of_launch<decltype(element), NoProbe>(g, config_index); });
}

struct NaiveLaunch {
  template <typename Probe>
  static void run(const GemmArgs& g, int config_index, const Probe& probe) {
    const TileConfig& cfg = config_at(kNaiveVariant, config_index);
    with_fma_type(g.precision, [&](auto element) {
      using T = decltype(element);
      int M = static_cast<int>(g.shape.M), N = static_cast<int>(g.shape.N), K = static_cast<int>(g.shape.K);
      // A block covers bm rows and bn columns of C: threads_y x threads_x along the rows,
      // threads_x x threads_y down the columns.
      const dim3 block(cfg.threads_x, cfg.threads_y);
      const dim3 grid = checked_grid(ceil_div(N, cfg.bn), ceil_div(M, cfg.bm));
      const T* a = static_cast<const T*>(g.a);
      const T* b = g.problem == Problem::Ata ? a : static_cast<const T*>(g.b);
      T* c = static_cast<T*>(g.c);
      Probe kernel_probe = probe;
      // What <<<...>>> does, written out so that a kernel compiled at run time launches the same way.
      void* args[] = {&a, &b, &c, &M, &N, &K, &kernel_probe};
      launch_kernel(kernel_of_launch<T, Probe>(g, config_index), grid, block, args, g.stream);
    });
  }
};

// ---- the mapping model ---------------------------------------------------------------------
// What naive_gemm_kernel does, as plain host code: the launcher's grid, one output per thread,
// nothing through shared memory (one "phase": the whole K loop), every operand from global memory.
// A block covers tile_.y rows and tile_.x columns of C; down the columns, threadIdx.x counts rows.
class NaiveModel final : public MappingModel {
 public:
  NaiveModel(const TileConfig& cfg, Problem problem, Precision precision, const Shape& shape)
      : ata_(problem == Problem::Ata),
        bytes_(static_cast<int>(element_bytes(precision))),
        down_(down_columns(cfg)),
        s_(shape),
        block_{cfg.threads_x, cfg.threads_y},
        tile_{cfg.bn, cfg.bm},
        grid_{static_cast<int>(ceil_div(shape.N, cfg.bn)), static_cast<int>(ceil_div(shape.M, cfg.bm))} {}

  Dim2 grid() const override { return grid_; }
  Dim2 block() const override { return block_; }
  int phases() const override { return 1; }
  // Every block runs; its threads outside C return before reading anything.
  bool block_active(int, int) const override { return true; }
  Owner owner(std::int64_t i, std::int64_t j) const override {
    Owner o;
    o.block_x = static_cast<int>(j / tile_.x);
    o.block_y = static_cast<int>(i / tile_.y);
    const int r = static_cast<int>(i % tile_.y), c = static_cast<int>(j % tile_.x);
    o.thread_x = down_ ? r : c;
    o.thread_y = down_ ? c : r;
    return o;
  }
  TileRect a_tile(int, int, int) const override { return {}; }
  TileRect b_tile(int, int, int) const override { return {}; }
  void thread_loads(int bx, int by, int tx, int ty, int phase, int piece, std::vector<ElementRef>* a,
                    std::vector<ElementRef>* b) const override {
    a->clear();
    b->clear();
    const std::int64_t row = static_cast<std::int64_t>(by) * tile_.y + (down_ ? tx : ty);
    const std::int64_t col = static_cast<std::int64_t>(bx) * tile_.x + (down_ ? ty : tx);
    if (phase != 0 || piece != 0 || row >= s_.M || col >= s_.N) return;
    for (std::int64_t k = 0; k < s_.K; ++k) {
      // Gemm: A[row][k] and B[k][col]. AᵀA: A^T[row][k] = A[k][row], and A[k][col].
      a->push_back(ata_ ? ElementRef{k, row} : ElementRef{row, k});
      b->push_back({k, col});
    }
  }
  // The one phase is the whole K loop; the block's threads inside C each read two operands per k
  // and keep their one sum in a register.
  PhaseWork phase_work(int bx, int by, int) const override {
    PhaseWork w;
    w.k1 = w.steps = s_.K;
    const TileRect c = block_rect(bx, by);
    w.outputs = c.elements();
    w.global = {2LL * block_.x * block_.y, "2 x rows x cols",
                "2 x " + std::to_string(block_.y) + " x " + std::to_string(block_.x)};
    const std::string k = std::to_string(s_.K);
    w.words.push_back(std::string("Each thread read ") +
                      (ata_ ? "two columns of A (one as its row of Aᵀ)" : "its row of A and its column of B") +
                      " straight from global memory, one element of each per k: 2 x K = " + std::to_string(2 * s_.K) +
                      " loads.");
    w.words.push_back("It added the K = " + k +
                      " products into its one element of C, kept in a register. Nothing is reused: the " +
                      std::to_string(tile_.x) + " threads of a row of the block each load the same row of " +
                      (ata_ ? "Aᵀ" : "A") + " again.");
    if (down_)
      w.words.push_back(std::string("threadIdx.x runs down a column: a warp's threads hold neighbouring rows, so ") +
                        (ata_ ? "their stores to C are N elements apart"
                              : "their loads of A are K elements apart and their stores to C N elements apart") +
                        ", each in a sector of its own (uncoalesced).");
    return w;
  }
  // Gemm: A(r, k) is read by the N threads of row r, B(k, c) by the M threads of column c.
  // AᵀA: A(k, c) is read by the N threads of row c (as A^T) and the N of column c.
  std::int64_t a_reads(std::int64_t, std::int64_t) const override { return ata_ ? 2 * s_.N : s_.N; }
  std::int64_t b_reads(std::int64_t, std::int64_t) const override { return ata_ ? 0 : s_.M; }
  // Every element of a matrix is read equally often: the totals are the count times the size.
  std::int64_t a_reads_total(std::int64_t rows, std::int64_t cols) const override {
    return rows * cols * a_reads(0, 0);
  }
  std::int64_t b_reads_total(std::int64_t rows, std::int64_t cols) const override {
    return rows * cols * b_reads(0, 0);
  }
  // Three memory instructions: the loads of A and B at every k, and the one store of C.
  enum Site { kLoadA, kLoadB, kStoreC };
  std::vector<AccessSite> access_sites() const override {
    const std::string a = ata_ ? "A[k][row] (a row of Aᵀ is a column of A)" : "A[row][k]";
    return {{"A from global memory", 'A', MemorySpace::Global, AccessKind::Load, bytes_,
             "a = " + a + ": one load per k", "k", kRecordLoadA},
            {"B from global memory", 'B', MemorySpace::Global, AccessKind::Load, bytes_,
             std::string("b = ") + (ata_ ? "A[k][col]" : "B[k][col]") + ": one load per k", "k", kRecordLoadB},
            {"C to global memory", 'C', MemorySpace::Global, AccessKind::Store, bytes_,
             "C[row][col] = acc: one store after the K loop", "store", kRecordStoreC}};
  }
  int site_steps(int site, int, int) const override { return site == kStoreC ? 1 : static_cast<int>(s_.K); }
  void warp_access(int site, int bx, int by, int warp, int step, WarpAccess* out) const override {
    out->bytes = bytes_;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const int t = warp * kWarpLanes + lane;
      if (t >= block_.x * block_.y) break;
      const int tx = t % block_.x, ty = t / block_.x;
      const std::int64_t row = static_cast<std::int64_t>(by) * tile_.y + (down_ ? tx : ty);
      const std::int64_t col = static_cast<std::int64_t>(bx) * tile_.x + (down_ ? ty : tx);
      if (row >= s_.M || col >= s_.N) continue;  // the thread returned at once
      const std::int64_t k = step;
      const std::int64_t element = site == kLoadA   ? (ata_ ? k * s_.N + row : row * s_.K + k)
                                   : site == kLoadB ? k * s_.N + col
                                                    : row * s_.N + col;
      out->address[lane] = element * bytes_;
    }
  }
  std::string reads_summary() const override {
    if (ata_)
      return "each element of A is read 2N = " + std::to_string(2 * s_.N) +
             " times from global memory: N times as an element of A^T and N times as one of A";
    return "each element of A is read N = " + std::to_string(s_.N) +
           " times and each element of B M = " + std::to_string(s_.M) + " times from global memory";
  }

 private:
  // The block's tile of C: its threads' elements, clipped to C.
  TileRect block_rect(int bx, int by) const {
    const std::int64_t r0 = static_cast<std::int64_t>(by) * tile_.y, c0 = static_cast<std::int64_t>(bx) * tile_.x;
    return {std::min<std::int64_t>(r0, s_.M), std::min<std::int64_t>(r0 + tile_.y, s_.M),
            std::min<std::int64_t>(c0, s_.N), std::min<std::int64_t>(c0 + tile_.x, s_.N)};
  }

  bool ata_;
  int bytes_;  // of an element
  bool down_;
  Shape s_;
  Dim2 block_, tile_, grid_;  // tile_: the block's columns (x) and rows (y) of C
};

std::unique_ptr<MappingModel> naive_model(int config_index, Problem problem, Precision precision, const Shape& shape) {
  return std::make_unique<NaiveModel>(config_at(kNaiveVariant, config_index), problem, precision,
                                      normalised(problem, shape));
}

TileConfig naive_config(int bx, int by, bool down, const char* description) {
  TileConfig c;
  c.name = config_name(bx, by, down);
  c.description = description;
  c.bm = down ? bx : by;
  c.bn = down ? by : bx;
  c.threads_x = bx;
  c.threads_y = by;
  c.math = "FP32 / FP64 FMA";
  return c;
}

// ---- tiles a learner types (kernels/core/typed_configs.h) -------------------------------------
// The block's shape: the kernel reads it from blockDim, so it is no template argument; a typed one
// is launched with the kernel NVRTC compiles, the same code for every shape.
const std::vector<TileParam> kTileParams = {
    {"block_x", "threads per block along a row of C (its columns), one element each"},
    {"block_y", "threads per block along a column of C (its rows)"},
    {"order", "0: threadIdx.x runs along a row of C (coalesced), 1: down a column (block_x rows, uncoalesced)"},
};

TileValues naive_tile_values(const TileConfig& cfg) {
  return {{"block_x", cfg.threads_x}, {"block_y", cfg.threads_y}, {"order", down_columns(cfg) ? 1 : 0}};
}

// What a block cannot be: the device's limit of 1024 threads (which bounds each side too). A
// block that is not whole warps is taken: its last warp runs partly empty, which is worth seeing.
std::string typed_refusal(int bx, int by, int order) {
  auto n = [](int v) { return std::to_string(v); };
  if (order != 0 && order != 1) return "order = " + n(order) + ": 0 (along a row) or 1 (down a column)";
  if (bx < 1 || by < 1) return "block_x = " + n(bx) + ", block_y = " + n(by) + ": a block has at least 1 x 1 threads";
  const std::int64_t threads = std::int64_t{bx} * by;
  if (threads > 1024)
    return n(bx) + " x " + n(by) + " = " + std::to_string(threads) + " threads per block: the limit is 1024";
  return "";
}

bool naive_typed_config(const TileValues& values, TileConfig* out, std::string* why) {
  const int bx = tile_value(values, "block_x", 0), by = tile_value(values, "block_y", 0);
  const int order = tile_value(values, "order", 0);
  *why = typed_refusal(bx, by, order);
  if (!why->empty()) return false;
  *out = naive_config(bx, by, order == 1, "a block shape typed by the learner, compiled at run time");
  return true;
}

}  // namespace

extern const VariantDescriptor kNaiveVariant = [] {
  VariantDescriptor v;
  v.id = "naive";
  v.label = "Naive";
  v.summary =
      "One thread computes one element of C, reading a whole row of A and a whole column of B "
      "straight from global memory. Simple and correct, but every element of A and B is fetched "
      "again and again.";
  for (const NaiveParams& p : kParams) v.configs.push_back(naive_config(p.bx, p.by, p.down_columns, p.description));
  v.default_config = config_named(v.configs, "16x16");
  set_launches<NaiveLaunch>(v);
  v.kernel_for = naive_kernel_for;
  v.kernel_text = "kernels/variants/01_naive.cuh";
  v.kernel_names = naive_kernel_names;
  v.model = naive_model;
  v.tile_params = kTileParams;
  v.tile_values_of = naive_tile_values;
  v.typed_config = naive_typed_config;
  v.model_caps.staged_phases = false;  // one phase: the whole K loop, straight from global memory
  return v;
}();

}  // namespace tilescope
