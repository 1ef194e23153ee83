// 90 naive_columns — naive with the threads turned the wrong way (an example variant, tests only).
//
// Idea: the same one-thread-per-element product as 01 naive, but threadIdx.x runs down a column
// of C instead of along a row. Nothing else changes, and the result is the same to the bit.
// Changed from naive: the thread -> C mapping only.
// Thread -> C: a block covers a BM x BN tile of C with BM = blockDim.x and BN = blockDim.y;
//   C(row, col) with row = blockIdx.y * BM + threadIdx.x, col = blockIdx.x * BN + threadIdx.y.
//   The 32 threads of a warp now hold 32 consecutive rows of one column: at every k they read
//   B[k][col] (one address: a broadcast) and A[row][k] for 32 rows, 32 addresses K elements apart
//   (gemm) — one memory transaction per thread instead of one per warp. Their stores to C are
//   strided by N as well. AᵀA: the A^T operand A[k][row] is contiguous again (a column of A^T is
//   a row of A), so only the stores stay uncoalesced.
// What to look for: the mapping view shows the same counts of reads as naive (each element of A
//   read N times, of B M times: the work is identical); the difference is only in which threads
//   of a warp read neighbouring addresses. That is why coalescing is a matter of thread order,
//   not of how much is read — compare the timings of naive and naive_columns.
// Trace build (trace.h): the same kernel with a TraceProbe (probe.cuh), as in naive; the K loop
//   is one phase, so a phase limit p = 0 computes nothing.
//
// This file is the example variant of tests/example_variant/: it is built through the same CMake
// function as the product's variants and registered in test_registry.cpp only, so that the
// generic per-variant test suites show that a new variant needs no test code of its own.
#include <algorithm>

#include "kernel_common.cuh"
#include "probe.cuh"
#include "variant.h"

namespace tilescope {

extern const VariantDescriptor kNaiveColumnsVariant;

namespace {

// Probe: NoProbe in the timed build, TraceProbe in the instrumented one (probe.cuh).
template <typename T, bool kAta, typename Probe>
__global__ void naive_columns_kernel(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int M, int N,
                                     int K, Probe probe) {
  const int row = blockIdx.y * blockDim.x + threadIdx.x;  // threadIdx.x runs down a column of C
  const int col = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  // K; a trace's phase limit may end it sooner. The whole K loop is one phase, as in naive.
  const int k_end = probe.k_end(K, K);
  T acc = 0;
  for (int k = 0; k < k_end; ++k) {
    // AᵀA: A^T[row][k] = A[k][row], and B is A.
    const T a = probe.load(Operand::A, A, kAta ? (std::int64_t)k * N + row : (std::int64_t)row * K + k);
    const T b = probe.load(Operand::B, kAta ? A : B, (std::int64_t)k * N + col);
    acc += a * b;
  }
  probe.store(C, (std::int64_t)row * N + col, acc, 0);
}

// The one kernel of a launch, chosen here only, so that kernel_for names what launch runs.
template <typename T, typename Probe>
auto columns_kernel(Problem p) {
  return p == Problem::Ata ? naive_columns_kernel<T, true, Probe> : naive_columns_kernel<T, false, Probe>;
}

KernelLaunchShape columns_kernel_for(const GemmArgs& g, int config_index) {
  const TileConfig& cfg = kNaiveColumnsVariant.configs[config_index];
  KernelLaunchShape k;
  k.kernel = g.precision == Precision::F32 ? reinterpret_cast<const void*>(columns_kernel<float, NoProbe>(g.problem))
                                           : reinterpret_cast<const void*>(columns_kernel<double, NoProbe>(g.problem));
  k.threads_per_block = cfg.threads();
  return k;
}

template <typename T, typename Probe>
void launch_typed(const GemmArgs& g, const TileConfig& cfg, const Probe& probe) {
  const int M = static_cast<int>(g.shape.M), N = static_cast<int>(g.shape.N), K = static_cast<int>(g.shape.K);
  const dim3 block(cfg.threads_x, cfg.threads_y);  // x: BM rows, y: BN columns
  const dim3 grid = checked_grid(ceil_div(N, cfg.bn), ceil_div(M, cfg.bm));
  const T* a = static_cast<const T*>(g.a);
  const T* b = g.problem == Problem::Ata ? a : static_cast<const T*>(g.b);
  const auto kernel = columns_kernel<T, Probe>(g.problem);
  kernel<<<grid, block, 0, g.stream>>>(a, b, static_cast<T*>(g.c), M, N, K, probe);
  CUDA_CHECK_LAUNCH("naive_columns_kernel");
}

void columns_launch(const GemmArgs& g, int config_index) {
  const TileConfig& cfg = kNaiveColumnsVariant.configs[config_index];
  if (g.precision == Precision::F32)
    launch_typed<float>(g, cfg, NoProbe{});
  else
    launch_typed<double>(g, cfg, NoProbe{});
}

void columns_launch_traced(const GemmArgs& g, int config_index, const TraceBuffers& trace) {
  const TileConfig& cfg = kNaiveColumnsVariant.configs[config_index];
  if (g.precision == Precision::F32)
    launch_typed<float>(g, cfg, TraceProbe{trace});
  else
    launch_typed<double>(g, cfg, TraceProbe{trace});
}

// ---- the mapping model ---------------------------------------------------------------------
// What naive_columns_kernel does, as plain host code: the launcher's grid, one output per
// thread with threadIdx.x along the rows, one phase, every operand from global memory.
class NaiveColumnsModel final : public MappingModel {
 public:
  NaiveColumnsModel(const TileConfig& cfg, Problem problem, const Shape& shape)
      : ata_(problem == Problem::Ata),
        s_(shape),
        bm_(cfg.bm),
        bn_(cfg.bn),
        block_{cfg.threads_x, cfg.threads_y},
        grid_{static_cast<int>(ceil_div(shape.N, cfg.bn)), static_cast<int>(ceil_div(shape.M, cfg.bm))} {}

  Dim2 grid() const override { return grid_; }
  Dim2 block() const override { return block_; }
  int phases() const override { return 1; }
  bool block_active(int, int) const override { return true; }
  Owner owner(std::int64_t i, std::int64_t j) const override {
    Owner o;
    o.block_x = static_cast<int>(j / bn_);
    o.block_y = static_cast<int>(i / bm_);
    o.thread_x = static_cast<int>(i % bm_);  // the row inside the block
    o.thread_y = static_cast<int>(j % bn_);  // the column inside the block
    return o;
  }
  TileRect a_tile(int, int, int) const override { return {}; }
  TileRect b_tile(int, int, int) const override { return {}; }
  void thread_loads(int bx, int by, int tx, int ty, int phase, int piece, std::vector<ElementRef>* a,
                    std::vector<ElementRef>* b) const override {
    a->clear();
    b->clear();
    const std::int64_t row = static_cast<std::int64_t>(by) * bm_ + tx;
    const std::int64_t col = static_cast<std::int64_t>(bx) * bn_ + ty;
    if (phase != 0 || piece != 0 || row >= s_.M || col >= s_.N) return;
    for (std::int64_t k = 0; k < s_.K; ++k) {
      a->push_back(ata_ ? ElementRef{k, row} : ElementRef{row, k});
      b->push_back({k, col});
    }
  }
  // One phase, all of K; each thread inside C reads two operands per k straight from global memory.
  PhaseWork phase_work(int bx, int by, int) const override {
    PhaseWork w;
    w.k1 = w.steps = s_.K;
    const std::int64_t rows = std::min<std::int64_t>(bm_, s_.M - static_cast<std::int64_t>(by) * bm_);
    const std::int64_t cols = std::min<std::int64_t>(bn_, s_.N - static_cast<std::int64_t>(bx) * bn_);
    w.outputs = rows * cols;
    w.global = {2LL * bm_ * bn_, "2 x rows x cols", "2 x " + std::to_string(bm_) + " x " + std::to_string(bn_)};
    w.words.push_back("Each thread read its operands straight from global memory and added the K = " +
                      std::to_string(s_.K) + " products into its one element of C; a warp runs down a column of C.");
    return w;
  }
  // The same counts as naive: the mapping changes which thread reads what, not how often.
  std::int64_t a_reads(std::int64_t, std::int64_t) const override { return ata_ ? 2 * s_.N : s_.N; }
  std::int64_t b_reads(std::int64_t, std::int64_t) const override { return ata_ ? 0 : s_.M; }
  std::string reads_summary() const override {
    if (ata_)
      return "each element of A is read 2N = " + std::to_string(2 * s_.N) +
             " times from global memory, as in naive; only the order of the threads differs";
    return "each element of A is read N = " + std::to_string(s_.N) +
           " times and each element of B M = " + std::to_string(s_.M) +
           " times from global memory, as in naive; a warp now reads a column of A";
  }

 private:
  bool ata_;
  Shape s_;
  int bm_, bn_;
  Dim2 block_, grid_;
};

std::unique_ptr<MappingModel> columns_model(int config_index, Problem problem, Precision, const Shape& shape) {
  return std::make_unique<NaiveColumnsModel>(kNaiveColumnsVariant.configs[config_index], problem,
                                             normalised(problem, shape));
}

// rows x cols of C per block: threads_x = rows (threadIdx.x runs down a column), threads_y = cols.
TileConfig columns_config(int rows, int cols) {
  TileConfig c;
  c.name = std::to_string(rows) + "r" + std::to_string(cols) + "c";
  c.bm = rows;
  c.bn = cols;
  c.threads_x = rows;
  c.threads_y = cols;
  c.math = "FP32 / FP64 FMA";
  return c;
}

}  // namespace

extern const VariantDescriptor kNaiveColumnsVariant = [] {
  VariantDescriptor v;
  v.id = "naive_columns";
  v.label = "Naive (columns)";
  v.summary =
      "Naive with threadIdx.x running down a column of C: a warp reads 32 rows of A at once, 32 "
      "separate memory transactions where naive needs one. The same reads, in the wrong order.";
  v.role = Role::Extra;
  v.backend = Backend::Cuda;
  v.configs = {columns_config(32, 8), columns_config(16, 16)};
  v.default_config = 0;
  v.launch = columns_launch;
  v.launch_traced = columns_launch_traced;
  v.kernel_for = columns_kernel_for;
  v.model = columns_model;
  v.model_caps.staged_phases = false;  // one phase: the whole K loop, straight from global memory
  return v;
}();

}  // namespace tilescope
