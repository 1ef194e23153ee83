// 04 wmma — the first tensor-core step: a warp multiplies whole fragments of A and B with one
// call, through nvcuda::wmma, and never says which of its lanes holds what.
//
// The launch file of wmma: descriptor, compiled set, launch, mapping model; the story and the
// kernel are in 04_wmma.cuh.
#include <algorithm>
#include <cstdint>

#include "kernels/core/kernel_common.cuh"
#include "kernels/core/kernel_names.h"
#include "kernels/core/variant.h"
#include "kernels/core/variant_launch.cuh"
#include "kernels/instrument/probe.cuh"
#include "kernels/models/block_tile_model.h"
#include "kernels/variants/04_wmma.cuh"

namespace tilescope {

extern const VariantDescriptor kWmmaVariant;

namespace {

// WmmaTypes' fragment shape (04_wmma.cuh) for host code that has the precision as a value (f32 is
// refused before it gets here).
FragmentShape fragment_shape(Precision p) {
  return with_tensor_core_precision(p, [](auto type) { return WmmaTypes<decltype(type)::value>::kShape; });
}

// ---- the compiled set ---------------------------------------------------------------------
// One row per configuration, for every input type (BK = 32 is a whole number of k steps of each
// fragment shape); the descriptor's config list is built from the same rows.
struct WmmaParams {
  int bm = 0, bn = 0, bk = 0;    // block tile of C and slab depth
  int warps_m = 0, warps_n = 0;  // the block's warps, as a grid over its tile
  const char* description = "";
  constexpr int warps() const { return warps_m * warps_n; }
};
constexpr WmmaParams kParams[] = {
    {.bm = 64,
     .bn = 64,
     .bk = 32,
     .warps_m = 2,
     .warps_n = 2,
     .description = "4 warps of 32 x 32: 2 x 2 fragments each in f16 (4 x 4 in f64)"},
    {.bm = 128,
     .bn = 128,
     .bk = 32,
     .warps_m = 2,
     .warps_n = 4,
     .description = "8 warps of 64 x 32: 4 x 2 fragments each in f16 (8 x 4 in f64), each slab feeds twice the tile"},
};
constexpr int kNumConfigs = sizeof(kParams) / sizeof(kParams[0]);

template <Precision P, typename Probe>
struct WmmaKernel {
  using In = typename WmmaTypes<P>::In;
  using Acc = typename WmmaTypes<P>::Acc;
  void (*kernel)(const In*, const In*, Acc*, int, int, int, Probe) = nullptr;
  int warps = 0;
  std::size_t shared_bytes = 0;
};

template <Precision P, int C, typename Probe>
WmmaKernel<P, Probe> config_kernel(bool ata) {
  constexpr WmmaParams p = kParams[C];
  using S = WmmaShape<P, p.bm, p.bn, p.bk, p.warps_m, p.warps_n>;
  // A traced lane's writer ids number the warp's fragments (trace.h).
  static_assert(S::FRAGS_M * S::FRAGS_N <= kTraceSlots, "a writer id has room for the warp's fragments");
  WmmaKernel<P, Probe> k;
  k.kernel = ata ? wmma_kernel<P, p.bm, p.bn, p.bk, p.warps_m, p.warps_n, true, Probe>
                 : wmma_kernel<P, p.bm, p.bn, p.bk, p.warps_m, p.warps_n, false, Probe>;
  k.warps = p.warps_m * p.warps_n;
  using Types = WmmaTypes<P>;
  k.shared_bytes = shared_bytes_for(p.bm, p.bn, p.bk, p.warps(), sizeof(typename Types::In),
                                    sizeof(typename Types::Acc), Types::kShape.m, Types::kShape.n);
  return k;
}

// The one kernel of a launch: its template arguments are chosen here and nowhere else, so that
// kernel_for names exactly the kernel the launch runs.
template <Precision P, typename Probe>
WmmaKernel<P, Probe> launch_kernel(const GemmArgs& g, int config_index) {
  return with_row<kNumConfigs>(kWmmaVariant, config_index, [&](auto row) {
    return config_kernel<P, decltype(row)::value, Probe>(g.problem == Problem::Ata);
  });
}

// The kernel a case runs, spelled for NVRTC: config_kernel's, for the row of kParams the
// configuration was built from.
std::vector<std::string> wmma_kernel_names(const TileConfig& cfg, Precision q, Problem problem) {
  const WmmaParams* p = row_of(kParams, kWmmaVariant.configs, cfg);
  if (!p) return {};
  return {kernel_name("wmma_kernel", {precision_argument(q), std::to_string(p->bm), std::to_string(p->bn),
                                      std::to_string(p->bk), std::to_string(p->warps_m), std::to_string(p->warps_n),
                                      cpp_bool(problem == Problem::Ata), kNoProbeName})};
}

// The grid: one block per block tile (gemm), or per upper-triangle block tile (AᵀA).
std::int64_t block_count(Problem problem, const Shape& s, const WmmaParams& p) {
  return block_tile_count(problem == Problem::Ata, static_cast<int>(ceil_div(s.M, p.bm)),
                          static_cast<int>(ceil_div(s.N, p.bn)));
}

struct WmmaLaunch {
  template <typename Probe>
  static void run(const GemmArgs& g, int config_index, const Probe& probe) {
    with_tensor_core_precision(g.precision, [&](auto type) {
      constexpr Precision P = decltype(type)::value;
      using In = typename WmmaTypes<P>::In;
      using Acc = typename WmmaTypes<P>::Acc;
      const WmmaKernel<P, Probe> k = launch_kernel<P, Probe>(g, config_index);
      // Above 48 KB a block's dynamic shared memory must be allowed explicitly.
      if (k.shared_bytes > 48 * 1024)
        CUDA_CHECK(cudaFuncSetAttribute(k.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(k.shared_bytes)));
      const Shape s = normalised(g.problem, g.shape);
      const int M = static_cast<int>(s.M), N = static_cast<int>(s.N), K = static_cast<int>(s.K);
      const dim3 grid = checked_grid(block_count(g.problem, s, kParams[config_index]), 1);
      const dim3 block(kWarpSize, k.warps);
      const In* a = static_cast<const In*>(g.a);
      const In* b = g.problem == Problem::Ata ? a : static_cast<const In*>(g.b);
      const auto kernel = k.kernel;
      kernel<<<grid, block, k.shared_bytes, g.stream>>>(a, b, static_cast<Acc*>(g.c), M, N, K, probe);
      CUDA_CHECK_LAUNCH("wmma_kernel");
    });
  }
};

KernelLaunchShape wmma_kernel_for(const GemmArgs& g, int config_index) {
  return with_tensor_core_precision(g.precision, [&](auto type) {
    const auto k = launch_kernel<decltype(type)::value, NoProbe>(g, config_index);
    return KernelLaunchShape{reinterpret_cast<const void*>(k.kernel), kWarpSize * k.warps, k.shared_bytes};
  });
}

std::string wmma_refuses(Problem problem, Precision, const TileConfig& cfg) {
  if (problem == Problem::Ata && cfg.bm != cfg.bn)
    return "AᵀA mirrors square blocks across the diagonal: BM must equal BN";
  return "";
}

std::size_t wmma_shared_bytes(const TileConfig& cfg, Precision p) {
  const FragmentShape f = fragment_shape(p);
  return shared_bytes_for(cfg.bm, cfg.bn, cfg.bk, cfg.threads() / kWarpSize, static_cast<int>(element_bytes(p)),
                          static_cast<int>(output_bytes(p)), f.m, f.n);
}

// FP64 wmma (8 x 8 x 4 double fragments) exists from sm_80, beyond the sm_70 of f16.
int wmma_min_cc_for(Precision p) {
  return p == Precision::F64 ? 80 : 0;
}

// ---- the mapping model ---------------------------------------------------------------------
// What wmma_kernel does, as plain host code, for one row of kParams and one input type (the
// fragment shape and the chunk width W of the copy-out depend on it). Blocks are numbered as
// the 1-D grid launches them: block_x = the linear index, block_y = 0.
class WmmaModel final : public BlockTileModel {
 public:
  WmmaModel(const WmmaParams& p, Problem problem, Precision precision, const Shape& shape)
      : BlockTileModel({p.bm, p.bn, p.bk, p.warps()}, problem, shape), p_(p), f_(fragment_shape(precision)) {
    chunk_ = kVecBytes / static_cast<int>(output_bytes(precision));
    wm_ = p.bm / p.warps_m;
    wn_ = p.bn / p.warps_n;
    frags_n_ = wn_ / f_.n;
  }

  // The writer ids' slot is the warp's accumulator fragment.
  int writer_slots() const override { return (wm_ / f_.m) * frags_n_; }
  // No fragment picture: wmma promises no lane layout for its fragments (that is the lesson;
  // mma.sync, the next variant, has one). Owners are lanes as the copy-out assigns them.
  const FragmentPicture* fragments() const override { return nullptr; }

 private:
  // The warp tile, the fragment in it (the slot), and the lane whose chunk of the fragment holds
  // the element (copy_fragment_out). Slabs are staged element by element (stage_slab): the
  // base's tile_loads.
  void owner_in_block(int r, int c, Owner* o) const override {
    const int fr = (r % wm_) / f_.m, fc = (c % wn_) / f_.n;
    const int chunk = (r % f_.m) * (f_.n / chunk_) + (c % f_.n) / chunk_;
    o->thread_x = chunk % kWarpSize;
    o->thread_y = (r / wm_) * p_.warps_n + c / wn_;
    o->slot = fr * frags_n_ + fc;
  }

  // The threads stage the slab element by element (stage_slab); every working warp loads its
  // fragments of each k step from shared memory and issues one mma_sync per accumulator fragment.
  void describe_phase(int bx, int, PhaseWork* w) const override {
    const Workers working = workers(bx, wm_, wn_, true);
    const int warps = p_.warps(), frags_m = wm_ / f_.m, steps = p_.bk / f_.k;
    w->outputs = working.outputs;
    const std::string wm = std::to_string(wm_), wn = std::to_string(wn_);
    w->shared = {static_cast<std::int64_t>(working.warps) * (wm_ + wn_),
                 working.warps < warps ? "working warps x (WM + WN)" : "warps x (WM + WN)",
                 std::to_string(working.warps) + " x (" + wm + " + " + wn + ")"};
    const std::string bm = std::to_string(p_.bm), bn = std::to_string(p_.bn), bk = std::to_string(p_.bk);
    w->words.push_back("The block's " + std::to_string(warps * kWarpSize) + " threads loaded the slab (" +
                       (ata() ? "A as Aᵀ: BK x BM = " + bk + " x " + bm : "A: BM x BK = " + bm + " x " + bk) +
                       ", B: BK x BN = " + bk + " x " + bn +
                       ") from global memory and stored it in shared memory, element by element (0 outside the "
                       "matrices); a barrier.");
    w->words.push_back(
        "Each warp loaded its fragments from shared memory (wmma::load_matrix_sync: " + std::to_string(frags_m) +
        " of A and " + std::to_string(frags_n_) + " of B per k step) and issued " + std::to_string(frags_m * frags_n_) +
        " wmma::mma_sync of " + std::to_string(f_.m) + " x " + std::to_string(f_.n) + " x " + std::to_string(f_.k) +
        " per k step, " + std::to_string(steps) + " k steps: " + std::to_string(frags_m * frags_n_ * steps) +
        " in this phase, into accumulator fragments in its registers; a second barrier.");
    if (working.warps < warps)
      w->words.push_back(
          "Warps whose tiles lie below the diagonal compute nothing here: " + std::to_string(warps - working.warps) +
          " of the " + std::to_string(warps) + ", mirrors of tiles above it.");
  }

  WmmaParams p_;
  FragmentShape f_;
  int chunk_ = 4, wm_ = 1, wn_ = 1, frags_n_ = 1;
};

TileConfig wmma_config(const WmmaParams& p) {
  TileConfig c;
  const int wm = p.bm / p.warps_m, wn = p.bn / p.warps_n;
  c.name = std::to_string(p.bm) + "x" + std::to_string(p.bn) + "x" + std::to_string(p.bk) + "_w" + std::to_string(wm) +
           "x" + std::to_string(wn);
  c.description = p.description;
  c.bm = p.bm;
  c.bn = p.bn;
  c.bk = p.bk;
  c.warp_m = wm;
  c.warp_n = wn;
  c.threads_x = kWarpSize;
  c.threads_y = p.warps();
  c.math = "tensor cores (nvcuda::wmma): f16, bf16 16x16x16 and tf32 16x16x8 with FP32 accumulation; f64 8x8x4";
  return c;
}

}  // namespace

extern const VariantDescriptor kWmmaVariant = [] {
  VariantDescriptor v;
  v.id = "wmma";
  v.label = "Tensor cores (wmma)";
  v.summary =
      "The first tensor-core kernel: each warp multiplies 16 x 16 fragments of A and B (8 x 8 in "
      "double) with one wmma::mma_sync, from slabs staged in shared memory as in the tiled kernel. "
      "The fragments are opaque: which lane holds which element is not said, so C leaves through "
      "shared memory. For AᵀA only the upper-triangle blocks are launched, and mirrored.";
  v.configs = configs_of(kParams, wmma_config);
  v.default_config = config_named(v.configs, "64x64x32_w32x32");  // the smallest picture of warps and fragments
  v.precisions = {Precision::TF32, Precision::F16, Precision::BF16, Precision::F64};
  v.precision_note = "f32 runs on the FMA cores; tf32 is the tensor-core path for float data";
  v.min_compute_capability = 70;
  v.architecture_note = "wmma needs tensor cores: f16 from compute capability 7.0; tf32, bf16 and f64 from 8.0";
  v.precisions_need_tensor_cores = true;
  v.min_compute_capability_for = wmma_min_cc_for;
  v.refuses = wmma_refuses;
  set_launches<WmmaLaunch>(v);
  v.kernel_for = wmma_kernel_for;
  v.kernel_text = "kernels/variants/04_wmma.cuh";
  v.kernel_names = wmma_kernel_names;
  v.shared_bytes = wmma_shared_bytes;
  v.model = row_model<WmmaModel, kParams>;
  v.model_caps.mirrored_ata = true;
  v.model_caps.warp_level = true;
  return v;
}();

}  // namespace tilescope
