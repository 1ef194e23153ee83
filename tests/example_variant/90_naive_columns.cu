// 90 naive_columns — naive with the threads turned the wrong way (an example variant, tests only).
//
// The launch file of naive_columns: descriptor, launch, mapping model; the story and the kernel are
// in 90_naive_columns.cuh.
#include <algorithm>

#include "kernels/core/kernel_common.cuh"
#include "kernels/core/kernel_names.h"
#include "kernels/core/variant.h"
#include "kernels/core/variant_launch.cuh"
#include "kernels/instrument/probe.cuh"
#include "tests/example_variant/90_naive_columns.cuh"

namespace tilescope {

extern const VariantDescriptor kNaiveColumnsVariant;

namespace {

// The one kernel of a launch, chosen here only, so that kernel_for names what the launch runs and
// kernel_names spells it for NVRTC.
template <typename T, typename Probe>
auto columns_kernel(Problem p) {
  return p == Problem::Ata ? naive_columns_kernel<T, true, Probe> : naive_columns_kernel<T, false, Probe>;
}

std::vector<std::string> columns_kernel_names(const TileConfig&, Precision q, Problem p) {
  return {kernel_name("naive_columns_kernel", {fma_element_type(q), cpp_bool(p == Problem::Ata), kNoProbeName})};
}

KernelLaunchShape columns_kernel_for(const GemmArgs& g, int config_index) {
  const void* kernel = with_fma_type(g.precision, [&](auto element) {
    return reinterpret_cast<const void*>(columns_kernel<decltype(element), NoProbe>(g.problem));
  });
  return {kernel, kNaiveColumnsVariant.configs[config_index].threads(), 0};
}

struct ColumnsLaunch {
  template <typename Probe>
  static void run(const GemmArgs& g, int config_index, const Probe& probe) {
    const TileConfig& cfg = kNaiveColumnsVariant.configs[config_index];
    with_fma_type(g.precision, [&](auto element) {
      using T = decltype(element);
      const int M = static_cast<int>(g.shape.M), N = static_cast<int>(g.shape.N), K = static_cast<int>(g.shape.K);
      const dim3 block(cfg.threads_x, cfg.threads_y);  // x: BM rows, y: BN columns
      const dim3 grid = checked_grid(ceil_div(N, cfg.bn), ceil_div(M, cfg.bm));
      const T* a = static_cast<const T*>(g.a);
      const T* b = g.problem == Problem::Ata ? a : static_cast<const T*>(g.b);
      const auto kernel = columns_kernel<T, Probe>(g.problem);
      kernel<<<grid, block, 0, g.stream>>>(a, b, static_cast<T*>(g.c), M, N, K, probe);
      CUDA_CHECK_LAUNCH("naive_columns_kernel");
    });
  }
};

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
TileConfig columns_config(int rows, int cols, const char* description) {
  TileConfig c;
  c.name = std::to_string(rows) + "r" + std::to_string(cols) + "c";
  c.description = description;
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
  v.configs = {columns_config(32, 8, "a warp holds 32 rows of one column of C: every load of A uncoalesced"),
               columns_config(16, 16, "a warp holds 16 rows of two columns: half as bad")};
  v.default_config = config_named(v.configs, "32r8c");
  set_launches<ColumnsLaunch>(v);
  v.kernel_for = columns_kernel_for;
  v.kernel_text = "tests/example_variant/90_naive_columns.cuh";
  v.kernel_names = columns_kernel_names;
  v.model = columns_model;
  v.model_caps.staged_phases = false;  // one phase: the whole K loop, straight from global memory
  return v;
}();

}  // namespace tilescope
