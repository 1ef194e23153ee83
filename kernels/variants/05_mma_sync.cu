// 05 mma_sync — the tensor cores with their fragments in the open: mma.sync PTX, ldmatrix,
// a ring of cp.async stages and an XOR-swizzled shared memory.
//
// The launch file of mma_sync: descriptor, launch, mapping model; the story, the compiled set and
// the three kernels are in 05_mma_sync.cuh.
#include <algorithm>
#include <cstdint>
#include <utility>

#include "kernels/core/kernel_common.cuh"
#include "kernels/core/kernel_names.h"
#include "kernels/core/variant.h"
#include "kernels/core/variant_launch.cuh"
#include "kernels/instrument/probe.cuh"
#include "kernels/models/block_tile_model.h"
#include "kernels/variants/05_mma_sync.cuh"

namespace tilescope {

extern const VariantDescriptor kMmaSyncVariant;

namespace {

constexpr int kNumConfigs = sizeof(kParams) / sizeof(kParams[0]);

// "h128x256x32_s3": the family (h: 16-bit, tf32_, d: double), block tile and slab, stages, and
// _plain without the swizzle.
std::string config_name(const MmaParams& p) {
  const char* family = p.family == Family::Bits16 ? "h" : p.family == Family::Tf32 ? "tf32_" : "d";
  return std::string(family) + std::to_string(p.bm) + "x" + std::to_string(p.bn) + "x" + std::to_string(p.bk) + "_s" +
         std::to_string(p.stages) + (p.swizzle ? "" : "_plain") + (p.pipeline == Pipeline::Fragments ? "_fp" : "") +
         (p.pipeline == Pipeline::Mbarriers ? "_mb" : "");
}

// ---- launching --------------------------------------------------------------------------------
// The kernel of a row: its pipeline's (05_mma_sync.cuh has one kernel per pipeline), and its
// name as the kernel text spells it. Only the chosen kernel is compiled for a row.
template <Precision P, int CFG, bool kAta, typename Probe>
constexpr auto kernel_of() {
  if constexpr (kParams[CFG].pipeline == Pipeline::Mbarriers)
    return mma_sync_mbarrier_kernel<P, CFG, kAta, Probe>;
  else if constexpr (kParams[CFG].pipeline == Pipeline::Fragments)
    return mma_sync_fragment_pipeline_kernel<P, CFG, kAta, Probe>;
  else
    return mma_sync_kernel<P, CFG, kAta, Probe>;
}
constexpr const char* kernel_function(Pipeline pipeline) {
  return pipeline == Pipeline::Mbarriers   ? "mma_sync_mbarrier_kernel"
         : pipeline == Pipeline::Fragments ? "mma_sync_fragment_pipeline_kernel"
                                           : "mma_sync_kernel";
}

// One compiled kernel: input type, row of kParams, problem, probe.
template <Precision P, int CFG, bool kAta, typename Probe>
struct Instance {
  using S = MmaShape<P, CFG, kAta>;
  static constexpr auto kernel = kernel_of<P, CFG, kAta, Probe>();
  static constexpr std::size_t shared = S::shared_bytes(Probe::kRecordsWriters);
};

// Calls fn(Instance<...>{}) for the kernel of these arguments; the template arguments are chosen
// here and nowhere else, so that kernel_for names exactly the kernel the launch runs.
template <typename Probe, int CFG, typename Fn>
void visit_config(const GemmArgs& g, Fn&& fn) {
  constexpr Family f = kParams[CFG].family;
  const bool ata = g.problem == Problem::Ata;
  auto by_problem = [&](auto precision_tag) {
    constexpr Precision P = decltype(precision_tag)::value;
    if (!ata)
      fn(Instance<P, CFG, false, Probe>{});
    else if constexpr (kParams[CFG].bm == kParams[CFG].bn)  // AᵀA needs square blocks: no other is compiled
      fn(Instance<P, CFG, true, Probe>{});
    else
      throw GpuError("configuration " + config_name(kParams[CFG]) + " has no AᵀA kernel: BM must equal BN");
  };
  if constexpr (f == Family::Bits16) {
    if (g.precision == Precision::BF16)
      by_problem(std::integral_constant<Precision, Precision::BF16>{});
    else
      by_problem(std::integral_constant<Precision, Precision::F16>{});
  } else if constexpr (f == Family::Tf32) {
    by_problem(std::integral_constant<Precision, Precision::TF32>{});
  } else {
    by_problem(std::integral_constant<Precision, Precision::F64>{});
  }
}

// Calls visit_config for the row of config_index (a run-time index, a compile-time row).
template <typename Probe, typename Fn>
void visit_kernel(const GemmArgs& g, int config_index, Fn&& fn) {
  with_row<kNumConfigs>(kMmaSyncVariant, config_index,
                        [&](auto row) { visit_config<Probe, decltype(row)::value>(g, fn); });
}

// 16-byte copies need every row start aligned: the leading dimension a multiple of the chunk.
bool rows_aligned(const void* base, std::int64_t ld, std::size_t elem_bytes) {
  return reinterpret_cast<std::uintptr_t>(base) % 16 == 0 && (ld * static_cast<std::int64_t>(elem_bytes)) % 16 == 0;
}

std::int64_t grid_blocks(const MmaParams& p, Problem problem, const Shape& s) {
  return block_tile_count(problem == Problem::Ata, static_cast<int>(ceil_div(s.M, p.bm)),
                          static_cast<int>(ceil_div(s.N, p.bn)));
}

template <typename Probe>
void launch_with(const GemmArgs& g, int config_index, const Probe& probe) {
  visit_kernel<Probe>(g, config_index, [&](auto instance) {
    using I = decltype(instance);
    using S = typename I::S;
    using E = typename S::E;
    using Acc = typename S::Acc;
    const auto kernel = I::kernel;
    // Above 48 KB a block's dynamic shared memory must be allowed explicitly.
    if (I::shared > 48 * 1024)
      CUDA_CHECK(
          cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(I::shared)));
    const Shape& s = g.shape;
    const bool ata = g.problem == Problem::Ata;
    const E* a = static_cast<const E*>(g.a);
    const E* b = ata ? a : static_cast<const E*>(g.b);
    const bool vec_a = rows_aligned(a, ata ? s.N : s.K, sizeof(E));
    const bool vec_b = rows_aligned(b, s.N, sizeof(E));
    const bool vec_c = rows_aligned(g.c, s.N, sizeof(Acc));
    const dim3 grid = checked_grid(grid_blocks(S::p, g.problem, s), 1);
    const dim3 block(32, S::WARPS);
    kernel<<<grid, block, I::shared, g.stream>>>(a, b, static_cast<Acc*>(g.c), static_cast<int>(s.M),
                                                 static_cast<int>(s.N), static_cast<int>(s.K), vec_a, vec_b, vec_c,
                                                 probe);
    CUDA_CHECK_LAUNCH(kernel_function(S::p.pipeline));
  });
}

struct MmaLaunch {
  template <typename Probe>
  static void run(const GemmArgs& g, int config_index, const Probe& probe) {
    launch_with(g, config_index, probe);
  }
};

KernelLaunchShape mma_kernel_for(const GemmArgs& g, int config_index) {
  KernelLaunchShape out;
  visit_kernel<NoProbe>(g, config_index, [&](auto instance) {
    using I = decltype(instance);
    out.kernel = reinterpret_cast<const void*>(I::kernel);
    out.threads_per_block = I::S::NT;
    out.dynamic_shared_bytes = I::shared;
  });
  return out;
}

const MmaParams* params_of(const TileConfig& cfg) {
  return row_of(kParams, kMmaSyncVariant.configs, cfg);
}

// An instance's kernel as NVRTC names it.
template <Precision P, int CFG, bool kAta>
std::string spelled(Instance<P, CFG, kAta, NoProbe>) {
  return kernel_name(kernel_function(kParams[CFG].pipeline),
                     {precision_argument(P), std::to_string(CFG), cpp_bool(kAta), kNoProbeName});
}

// The kernel a case runs, spelled for NVRTC: the one visit_kernel chooses for it.
std::vector<std::string> mma_kernel_names(const TileConfig& cfg, Precision q, Problem problem) {
  std::vector<std::string> out;
  const MmaParams* p = params_of(cfg);
  if (!p) return out;
  GemmArgs g;
  g.precision = q;
  g.problem = problem;
  visit_kernel<NoProbe>(g, static_cast<int>(p - kParams), [&](auto instance) { out.push_back(spelled(instance)); });
  return out;
}

const char* family_types(Family f) {
  return f == Family::Bits16 ? "f16 and bf16" : f == Family::Tf32 ? "tf32" : "f64";
}

std::string mma_refuses(Problem problem, Precision precision, const TileConfig& cfg) {
  const MmaParams* p = params_of(cfg);
  if (!p) return "unknown configuration " + cfg.name;
  if (family_of(precision) != p->family)
    return "configuration " + cfg.name + " is tiled for " + family_types(p->family) + "; choose one of " +
           family_types(family_of(precision));
  if (problem == Problem::Ata && cfg.bm != cfg.bn)
    return "AᵀA mirrors square blocks across the diagonal: BM must equal BN";
  return "";
}

std::size_t mma_shared_bytes(const TileConfig& cfg, Precision precision) {
  const MmaParams* p = params_of(cfg);
  return p ? shared_bytes_of(*p, element_bytes(precision), output_bytes(precision), false) : 0;
}

int mma_min_cc(Precision p) {
  return p == Precision::F64 ? 90 : 0;  // mma.sync m16n8k8 in FP64 came with sm_90
}

// ---- the mapping model ---------------------------------------------------------------------------
// What the mma_sync kernels do, as plain host code, for one row of kParams, problem and input type.
class MmaModel final : public BlockTileModel {
 public:
  MmaModel(const MmaParams& p, Problem problem, Precision precision, const Shape& shape)
      : BlockTileModel({p.bm, p.bn, p.bk, warps_of(p), "copied", ", straight into shared memory (cp.async)"}, problem,
                       shape),
        p_(p),
        precision_(precision) {
    kk_ = precision == Precision::F16 || precision == Precision::BF16 ? 16 : 8;
    eb_ = static_cast<int>(element_bytes(precision));
    warps_n_ = p.bn / p.wn;
    mi_ = p.wm / 16;
    ni_ = p.wn / 8;
    // As the launch decides for buffers of their own (cudaMalloc aligns them to 256 bytes).
    const int chunk = 16 / eb_;
    vec_a_ = (ata() ? shape.N : shape.K) % chunk == 0;
    vec_b_ = shape.N % chunk == 0;
    build_picture();
  }

  int writer_slots() const override { return mi_ * ni_ * 4; }
  const FragmentPicture* fragments() const override { return &picture_; }

 private:
  // Warp (r / WM, c / WN); in its tile, instruction tile (mi, ni) of 16 x 8; in that, lane 4g + t
  // holds accumulator (r16 / 8) * 2 + c8 % 2 (mma_ptx.cuh).
  void owner_in_block(int r, int c, Owner* o) const override {
    const int mi = (r % p_.wm) / 16, r16 = r % 16, ni = (c % p_.wn) / 8, c8 = c % 8;
    o->thread_x = (r16 % 8) * 4 + c8 / 2;  // lane 4g + t
    o->thread_y = (r / p_.wm) * warps_n_ + c / p_.wn;
    o->slot = (mi * ni_ + ni) * 4 + (r16 / 8) * 2 + c8 % 2;
  }

  // The slab arrived by cp.async in a stage of the ring; every working warp reads its fragments of
  // each k step from shared memory and issues MI x NI instructions, while the next slabs' copies
  // are in flight.
  void describe_phase(int bx, int phase, PhaseWork* w) const override {
    const Workers working = workers(bx, p_.wm, p_.wn, true);
    const int warps = warps_of(p_), steps = p_.bk / kk_, per_step = mi_ * ni_;
    w->outputs = working.outputs;
    const std::string wm = std::to_string(p_.wm), wn = std::to_string(p_.wn);
    w->shared = {static_cast<std::int64_t>(working.warps) * (p_.wm + p_.wn),
                 working.warps < warps ? "working warps x (WM + WN)" : "warps x (WM + WN)",
                 std::to_string(working.warps) + " x (" + wm + " + " + wn + ")"};
    // Rows that are not 16-byte aligned cannot be copied in cp.async's 16-byte chunks.
    auto how = [](bool vec) {
      return std::string(vec ? "by cp.async, straight into shared memory in 16-byte chunks"
                             : "element by element through registers (its rows are not 16-byte aligned)");
    };
    const std::string ring = ", into stage " + std::to_string(phase % p_.stages) + " of a ring of " +
                             std::to_string(p_.stages) +
                             (p_.swizzle ? ", its rows XOR-swizzled." : ", its rows plain (no swizzle).");
    w->words.push_back(vec_a_ == vec_b_ ? "The slab was copied from global memory " + how(vec_a_) + ring
                                        : "The slab's A was copied from global memory " + how(vec_a_) + " and its B " +
                                              how(vec_b_) + ring);
    w->words.push_back(p_.pipeline == Pipeline::Mbarriers
                           ? "The stage's mbarrier said when every thread's copies had landed: a warp waits only "
                             "for the slab it multiplies."
                           : "A block barrier per slab: every thread's copies had landed.");
    w->words.push_back("Each warp read its fragments from shared memory (" + picture_.a_reads.instruction + " for A, " +
                       picture_.b_reads.instruction + " for B: WM = " + wm + " rows of A and WN = " + wn +
                       " columns of B per k) and issued " + std::to_string(mi_) + " x " + std::to_string(ni_) + " = " +
                       std::to_string(per_step) + " mma.sync m16n8k" + std::to_string(kk_) + " per k step, " +
                       std::to_string(steps) + " k steps: " + std::to_string(per_step * steps) +
                       " in this phase, into its accumulator registers.");
    if (working.warps < warps)
      w->words.push_back(
          "Warps whose tiles lie below the diagonal only copy here: " + std::to_string(warps - working.warps) +
          " of the " + std::to_string(warps) + ", mirrors of tiles above it.");
    const int ahead = std::min(picture_.in_flight, phases() - phase - 1);
    w->words.push_back(ahead > 0 ? "Meanwhile the next " + std::to_string(ahead) +
                                       " slab(s) were being copied into other stages."
                                 : std::string("Nothing was left to copy: no slab is in flight."));
  }

  // load_tile: with 16-byte copies, chunk tid + l * NT of the tile, the part inside the matrix;
  // otherwise element by element.
  void tile_loads(bool a_operand, int tile_rows, int tile_cols, std::int64_t r0, std::int64_t c0, std::int64_t rows,
                  std::int64_t cols, int tid, std::vector<ElementRef>* out) const override {
    if (!(a_operand ? vec_a_ : vec_b_)) return element_loads(tile_rows, tile_cols, r0, c0, rows, cols, tid, out);
    const int chunk = 16 / eb_, per_row = tile_cols / chunk;
    for (int q = tid; q < tile_rows * per_row; q += 32 * tiling().warps) {
      const std::int64_t gr = r0 + q / per_row, gc = c0 + static_cast<std::int64_t>(q % per_row) * chunk;
      if (gr >= rows) continue;
      for (std::int64_t c = gc; c < std::min<std::int64_t>(gc + chunk, cols); ++c) out->push_back({gr, c});
    }
  }

  // ---- the fragment picture: the same formulas as the kernel ----
  void build_picture() {
    FragmentPicture& f = picture_;
    f.mma_m = 16;
    f.mma_n = 8;
    f.mma_k = kk_;
    f.warps_m = p_.bm / p_.wm;
    f.warps_n = warps_n_;
    f.warp_m = p_.wm;
    f.warp_n = p_.wn;
    f.stages = p_.stages;
    f.in_flight = p_.pipeline == Pipeline::Mbarriers ? p_.stages - 2 : p_.stages - 1;
    f.swizzled = p_.swizzle;
    const bool bits16 = kk_ == 16;
    const char* type = precision_ == Precision::F16    ? "f16"
                       : precision_ == Precision::BF16 ? "bf16"
                       : precision_ == Precision::TF32 ? "tf32"
                                                       : "f64";
    const char* acc = precision_ == Precision::F64 ? "f64" : "f32";
    f.instruction = std::string("mma.sync.aligned.m16n8k") + std::to_string(kk_) + ".row.col." + acc + "." + type +
                    "." + type + "." + acc;
    for (int lane = 0; lane < 32; ++lane) {
      const int g = lane / 4, t = lane % 4;
      for (int r = 0; r < 4; ++r) f.c.push_back({lane, r, g + 8 * (r / 2), 2 * t + r % 2});
      if (bits16) {
        for (int i = 0; i < 4; ++i)
          for (int e = 0; e < 2; ++e) f.a.push_back({lane, i, g + 8 * (i % 2), 2 * t + 8 * (i / 2) + e});
        for (int i = 0; i < 2; ++i)
          for (int e = 0; e < 2; ++e) f.b.push_back({lane, i, 2 * t + 8 * i + e, g});
      } else {
        for (int i = 0; i < 4; ++i) f.a.push_back({lane, i, scalar_a(lane, i).row, scalar_a(lane, i).col});
        for (int i = 0; i < 2; ++i) f.b.push_back({lane, i, scalar_b(lane, i).row, scalar_b(lane, i).col});
      }
    }
    // The patterns the kernel's swizzled tiles take (the plain configurations' included: the
    // picture compares the two layouts).
    const Swizzle a_pattern = tile_swizzle(true, precision_, ata(), true);
    const Swizzle b_pattern = tile_swizzle(true, precision_, ata(), false);
    const int a_rows = ata() ? p_.bk : p_.bm, a_cols = ata() ? p_.bm : p_.bk;
    f.a_reads = operand_reads(true, a_pattern, a_rows, a_cols);
    f.b_reads = operand_reads(false, b_pattern, p_.bk, p_.bn);
  }

  // Warp 0's reads of its first A (or B) fragment at k step 0, as the kernel issues them.
  OperandReads operand_reads(bool is_a, Swizzle pattern, int rows, int cols) const {
    OperandReads out;
    out.tile_rows = rows;
    out.tile_cols = cols;
    out.element_bytes = eb_;
    const bool ldmatrix = ldmatrix_operand(precision_, ata(), is_a);
    auto requests = [&](Swizzle sw) {
      std::vector<SharedRequest> reqs;
      if (ldmatrix) {
        // ldmatrix.x4: four phases of 8 lanes, 16 bytes each.
        for (int q = 0; q < 4; ++q) {
          SharedRequest r;
          for (int lane = 8 * q; lane < 8 * q + 8; ++lane) {
            const TileCoord c =
                is_a ? (ata() ? ldmatrix_a_trans(lane) : ldmatrix_a_rows(lane, 16 / eb_)) : ldmatrix_b_trans(lane);
            r.reads.push_back({lane, std::int64_t{swizzled_offset(sw, eb_, cols, c.row, c.col)} * eb_, 16});
          }
          reqs.push_back(r);
        }
      } else {
        // One load instruction of register 0: 32 lanes of 4 bytes, or two half-warps of 8.
        const int lanes_per_request = eb_ == 8 ? 16 : 32;
        for (int first = 0; first < 32; first += lanes_per_request) {
          SharedRequest r;
          for (int lane = first; lane < first + lanes_per_request; ++lane) {
            const TileCoord c = is_a ? scalar_a(lane, 0) : scalar_b(lane, 0);  // A (m, k), B (k, n)
            const TileCoord at = (is_a && ata()) ? TileCoord{c.col, c.row} : c;
            r.reads.push_back({lane, std::int64_t{swizzled_offset(sw, eb_, cols, at.row, at.col)} * eb_, eb_});
          }
          reqs.push_back(r);
        }
      }
      return reqs;
    };
    out.instruction = ldmatrix ? (is_a && !ata() ? "ldmatrix.sync.aligned.m8n8.x4.shared.b16"
                                                 : "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16")
                               : (eb_ == 8 ? "ld.shared.f64" : "ld.shared.b32");
    out.swizzled = requests(pattern);
    out.unswizzled = requests(Swizzle::None);
    return out;
  }

  MmaParams p_;
  Precision precision_;
  int kk_ = 16, eb_ = 2, warps_n_ = 1, mi_ = 1, ni_ = 1;
  bool vec_a_ = false, vec_b_ = false;
  FragmentPicture picture_;
};

TileConfig mma_config(const MmaParams& p) {
  TileConfig c;
  c.name = config_name(p);
  c.description = p.description;
  c.bm = p.bm;
  c.bn = p.bn;
  c.bk = p.bk;
  c.warp_m = p.wm;
  c.warp_n = p.wn;
  c.stages = p.stages;
  c.threads_x = 32;
  c.threads_y = warps_of(p);
  c.math = p.family == Family::Bits16 ? "mma.sync m16n8k16 tensor cores, FP32 accumulation"
           : p.family == Family::Tf32 ? "mma.sync m16n8k8 TF32 tensor cores, FP32 accumulation"
                                      : "mma.sync m16n8k8 FP64 tensor cores (DMMA)";
  return c;
}

}  // namespace

extern const VariantDescriptor kMmaSyncVariant = [] {
  VariantDescriptor v;
  v.id = "mma_sync";
  v.label = "mma.sync tensor cores";
  v.summary =
      "The tensor cores with nothing hidden: each warp issues mma.sync instructions on fragments held in "
      "named registers, fed from shared memory by ldmatrix; slabs of A and B arrive by cp.async in a ring "
      "of stages, laid out with an XOR swizzle so no two lanes collide in a bank. For AᵀA only the "
      "upper-triangle blocks run and are mirrored.";
  v.configs = configs_of(kParams, mma_config);
  // Per-stage barriers, fits an A100, the fastest 16-bit AᵀA.
  v.default_config = config_named(v.configs, "h128x128x64_s3_mb");
  v.precisions = {Precision::F16, Precision::BF16, Precision::TF32, Precision::F64};
  v.precision_note =
      "tensor cores take no FP32 inputs; float data go through them as TF32 (choose tf32), or through the FMA "
      "kernels as f32";
  v.min_compute_capability = 80;
  v.architecture_note = "cp.async and the mma.sync shapes used here came with Ampere (sm_80); FP64 m16n8k8 with Hopper";
  v.precisions_need_tensor_cores = true;
  v.min_compute_capability_for = mma_min_cc;
  v.refuses = mma_refuses;
  set_launches<MmaLaunch>(v);
  v.kernel_for = mma_kernel_for;
  v.kernel_text = "kernels/variants/05_mma_sync.cuh";
  v.kernel_names = mma_kernel_names;
  v.shared_bytes = mma_shared_bytes;
  v.model = row_model<MmaModel, kParams>;
  v.model_caps.mirrored_ata = true;
  v.model_caps.warp_level = true;
  return v;
}();

}  // namespace tilescope
