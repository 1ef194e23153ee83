// 04 wmma — the first tensor-core step: a warp multiplies whole fragments of A and B with one
// call, through nvcuda::wmma, and never says which of its lanes holds what.
//
// The launch file of wmma: descriptor, compiled set, tiles a learner types, launch, mapping model;
// the story, the kernel and the rules a tile must keep are in 04_wmma.cuh.
#include <algorithm>
#include <cstdint>
#include <optional>

#include "kernels/core/kernel_common.cuh"
#include "kernels/core/kernel_names.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "kernels/core/variant_launch.cuh"
#include "kernels/instrument/probe.cuh"
#include "kernels/jit/jit_kernels.h"
#include "kernels/jit/kernel_calls.h"
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
struct WmmaRow {
  WmmaTile tile;  // block tile of C, slab depth, warp tile (04_wmma.cuh)
  const char* description = "";
};
constexpr WmmaRow kParams[] = {
    {.tile = {.bm = 64, .bn = 64, .bk = 32, .wm = 32, .wn = 32},
     .description = "4 warps of 32 x 32: 2 x 2 fragments each in f16 (4 x 4 in f64)"},
    {.tile = {.bm = 128, .bn = 128, .bk = 32, .wm = 64, .wn = 32},
     .description = "8 warps of 64 x 32: 4 x 2 fragments each in f16 (8 x 4 in f64), each slab feeds twice the tile"},
};
constexpr int kNumConfigs = sizeof(kParams) / sizeof(kParams[0]);

// "64x64x32_w32x32": block tile and slab, warp tile.
std::string config_name(const WmmaTile& t) {
  return std::to_string(t.bm) + "x" + std::to_string(t.bn) + "x" + std::to_string(t.bk) + "_w" + std::to_string(t.wm) +
         "x" + std::to_string(t.wn);
}

// ---- tiles a learner types ----------------------------------------------------------------
// The kernel template's parameters, by name (kernels/core/typed_configs.h); the warps are given
// by their tile, as the configurations' names give them (the kernel takes bm / wm x bn / wn).
const std::vector<TileParam> kTileParams = {
    {"bm", "rows of C per block"},
    {"bn", "columns of C per block"},
    {"bk", "k per shared-memory slab (whole fragments deep)"},
    {"wm", "rows of C per warp (whole fragments; divides bm)"},
    {"wn", "columns of C per warp (whole fragments; divides bn)"},
};

TileValues values_of(const WmmaTile& t) {
  return {{"bm", t.bm}, {"bn", t.bn}, {"bk", t.bk}, {"wm", t.wm}, {"wn", t.wn}};
}

WmmaTile tile_of_values(const TileValues& v) {
  return {tile_value(v, "bm", 0), tile_value(v, "bn", 0), tile_value(v, "bk", 0), tile_value(v, "wm", 0),
          tile_value(v, "wn", 0)};
}

// The tile of any configuration: a compiled row's, or a typed one's values; none for a name of
// neither (a configuration from elsewhere).
std::optional<WmmaTile> tile_of(const TileConfig& cfg) {
  if (const WmmaRow* row = row_of(kParams, kWmmaVariant.configs, cfg)) return row->tile;
  if (cfg.typed.empty()) return std::nullopt;
  return tile_of_values(cfg.typed);
}
WmmaTile tile_at(int config_index) {
  const std::optional<WmmaTile> t = tile_of(config_at(kWmmaVariant, config_index));
  if (!t) throw GpuError(config_index_error(kWmmaVariant, config_index));
  return *t;
}

TileValues wmma_tile_values(const TileConfig& cfg) {
  const std::optional<WmmaTile> t = tile_of(cfg);
  return t ? values_of(*t) : TileValues{};
}

// The words of the rule (wmma_tile_fault, 04_wmma.cuh) that tile t breaks for input type P.
template <Precision P>
std::string fault_words(const WmmaTile& t) {
  auto n = [](int v) { return std::to_string(v); };
  constexpr FragmentShape f = WmmaTypes<P>::kShape;
  const std::string fragment = n(f.m) + " x " + n(f.n) + " x " + n(f.k);
  switch (wmma_tile_fault<P>(t)) {
    case WmmaFault::None:
      return "";
    case WmmaFault::WarpTiling:
      return "the warp tile " + n(t.wm) + " x " + n(t.wn) + " does not tile the block tile " + n(t.bm) + " x " +
             n(t.bn);
    case WmmaFault::Warps:
      return n(t.bm / t.wm) + " x " + n(t.bn / t.wn) + " = " + n(warps_of(t)) +
             " warps per block: the limit is 32 (1024 threads)";
    case WmmaFault::WarpTile:
      return "wm = " + n(t.wm) + ", wn = " + n(t.wn) + ": a warp tile is whole " + n(f.m) + " x " + n(f.n) +
             " fragments (the fragment " + fragment + ")";
    case WmmaFault::SlabDepth:
      return "bk = " + n(t.bk) + ": a slab is whole fragments deep, a multiple of " + n(f.k) + " (the fragment " +
             fragment + ")";
    case WmmaFault::Registers:
      return "a " + n(t.wm) + " x " + n(t.wn) + " warp tile holds " +
             n(accumulator_registers(t, f, static_cast<int>(sizeof(typename WmmaTypes<P>::Acc)))) +
             " accumulator registers per lane: a thread has at most 255";
  }
  return "";
}
std::string fault_words(const WmmaTile& t, Precision q) {
  return with_tensor_core_precision(q, [&](auto type) { return fault_words<decltype(type)::value>(t); });
}

TileConfig wmma_config(const WmmaTile& t, const std::string& name, const char* description);

// What no input type's kernel can take: values out of range, then the kernel text's rules (every
// type's, so that a tile is refused here only when every type refuses it; one that suits some
// types is refused for the others by wmma_refuses, naming the rule). The device's limits (shared
// memory) are checked for every configuration by unsupported_reason().
std::string typed_refusal(const WmmaTile& t) {
  if (t.bm < 1 || t.bn < 1 || t.bk < 1 || t.wm < 1 || t.wn < 1) return "bm, bn, bk, wm and wn must be at least 1";
  if (t.bm > 512 || t.bn > 512 || t.bk > 256) return "bm and bn are at most 512, bk at most 256";
  std::string first, all;
  for (Precision q : kWmmaVariant.precisions) {
    const std::string why = fault_words(t, q);
    if (why.empty()) return "";
    if (first.empty()) first = why;
    if (why != first) all = "no input type takes it";
  }
  return all.empty() ? first : all + " (" + to_string(kWmmaVariant.precisions.front()) + ": " + first + ")";
}

bool wmma_typed_config(const TileValues& values, TileConfig* out, std::string* why) {
  const WmmaTile t = tile_of_values(values);
  *why = typed_refusal(t);
  if (!why->empty()) return false;
  *out = wmma_config(t, "", "a tile typed by the learner, compiled at run time");
  return true;
}

// ---- launching --------------------------------------------------------------------------------
// Shared memory of a tile's kernel for input type P (slabs, then the staging areas of C).
template <Precision P>
std::size_t tile_shared_bytes(const WmmaTile& t) {
  using Types = WmmaTypes<P>;
  return shared_bytes_for(t.bm, t.bn, t.bk, warps_of(t), sizeof(typename Types::In), sizeof(typename Types::Acc),
                          Types::kShape.m, Types::kShape.n);
}

// The compiled kernel of row C; the template arguments are chosen here and nowhere else, so that
// kernel_for names exactly the kernel the launch runs.
template <Precision P, int C, typename Probe>
const void* row_kernel(bool ata) {
  constexpr WmmaTile t = kParams[C].tile;
  constexpr int kWarpsM = t.bm / t.wm, kWarpsN = t.bn / t.wn;
  return ata ? reinterpret_cast<const void*>(wmma_kernel<P, t.bm, t.bn, t.bk, kWarpsM, kWarpsN, true, Probe>)
             : reinterpret_cast<const void*>(wmma_kernel<P, t.bm, t.bn, t.bk, kWarpsM, kWarpsN, false, Probe>);
}

// The name expression of a tile's kernel, as NVRTC compiles it and as the runtime names the
// compiled one: "tilescope::wmma_kernel<(tilescope::Precision)2, 64, 64, 32, 2, 2, false,
// tilescope::NoProbe>".
std::string wmma_kernel_name(const WmmaTile& t, Precision q, bool ata, const char* probe) {
  auto n = [](int v) { return std::to_string(v); };
  return kernel_name("wmma_kernel", {precision_argument(q), n(t.bm), n(t.bn), n(t.bk), n(t.bm / t.wm), n(t.bn / t.wn),
                                     cpp_bool(ata), probe});
}

// The kernel of a launch: from the compiled set, or, for a typed tile, compiled at run time from
// the same text with the probe the launch asks for; with its block and shared memory.
template <Precision P, typename Probe>
KernelLaunchShape kernel_of_launch(const GemmArgs& g, int config_index) {
  const WmmaTile t = tile_at(config_index);
  const bool ata = g.problem == Problem::Ata;
  KernelLaunchShape k;
  k.threads_per_block = kWarpSize * warps_of(t);
  k.dynamic_shared_bytes = tile_shared_bytes<P>(t);
  if (is_typed_config(kWmmaVariant, config_index)) {
    if (ata && t.bm != t.bn) throw GpuError("a tile with BM != BN has no AᵀA kernel");
    const ProbeSpelling probe = probe_spelling<Probe>();
    k.kernel = jit_kernel(kWmmaVariant, wmma_kernel_name(t, P, ata, probe.name), probe.header).kernel;
    k.run_time_compiled = true;
    return k;
  }
  k.kernel = with_row<kNumConfigs>(kWmmaVariant, config_index,
                                   [&](auto row) { return row_kernel<P, decltype(row)::value, Probe>(ata); });
  return k;
}

// The kernel a case runs, spelled for NVRTC: the one kernel_of_launch chooses for it.
std::vector<std::string> wmma_kernel_names(const TileConfig& cfg, Precision q, Problem problem) {
  const std::optional<WmmaTile> t = tile_of(cfg);
  if (!t) return {};
  return {wmma_kernel_name(*t, q, problem == Problem::Ata, kNoProbeName)};
}

// The grid: one block per block tile (gemm), or per upper-triangle block tile (AᵀA).
std::int64_t block_count(Problem problem, const Shape& s, const WmmaTile& t) {
  return block_tile_count(problem == Problem::Ata, static_cast<int>(ceil_div(s.M, t.bm)),
                          static_cast<int>(ceil_div(s.N, t.bn)));
}

struct WmmaLaunch {
  template <typename Probe>
  static void run(const GemmArgs& g, int config_index, const Probe& probe) {
    const WmmaTile t = tile_at(config_index);
    with_tensor_core_precision(g.precision, [&](auto type) {
      constexpr Precision P = decltype(type)::value;
      using In = typename WmmaTypes<P>::In;
      using Acc = typename WmmaTypes<P>::Acc;
      const KernelLaunchShape k = kernel_of_launch<P, Probe>(g, config_index);
      // Above 48 KB a block's dynamic shared memory must be allowed explicitly.
      if (k.dynamic_shared_bytes > 48 * 1024) allow_dynamic_shared(k);
      const Shape s = normalised(g.problem, g.shape);
      int M = static_cast<int>(s.M), N = static_cast<int>(s.N), K = static_cast<int>(s.K);
      const dim3 grid = checked_grid(block_count(g.problem, s, t), 1);
      const dim3 block(kWarpSize, warps_of(t));
      const In* a = static_cast<const In*>(g.a);
      const In* b = g.problem == Problem::Ata ? a : static_cast<const In*>(g.b);
      Acc* c = static_cast<Acc*>(g.c);
      Probe kernel_probe = probe;
      // What <<<...>>> does, written out so that a kernel compiled at run time launches the same way.
      void* args[] = {&a, &b, &c, &M, &N, &K, &kernel_probe};
      launch_kernel(k, grid, block, args, g.stream);
    });
  }
};

KernelLaunchShape wmma_kernel_for(const GemmArgs& g, int config_index) {
  return with_tensor_core_precision(
      g.precision, [&](auto type) { return kernel_of_launch<decltype(type)::value, NoProbe>(g, config_index); });
}

std::string wmma_refuses(Problem problem, Precision precision, const TileConfig& cfg) {
  const std::optional<WmmaTile> t = tile_of(cfg);
  if (!t) return "unknown configuration " + cfg.name;
  if (!supports(kWmmaVariant, precision)) return std::string("wmma takes no ") + to_string(precision);
  if (problem == Problem::Ata && cfg.bm != cfg.bn)
    return "AᵀA mirrors square blocks across the diagonal: BM must equal BN";
  if (std::string why = fault_words(*t, precision); !why.empty()) return std::string(to_string(precision)) + ": " + why;
  return "";
}

std::size_t wmma_shared_bytes(const TileConfig& cfg, Precision p) {
  const std::optional<WmmaTile> t = tile_of(cfg);
  if (!t) return 0;
  return with_tensor_core_precision(p, [&](auto type) { return tile_shared_bytes<decltype(type)::value>(*t); });
}

// FP64 wmma (8 x 8 x 4 double fragments) exists from sm_80, beyond the sm_70 of f16.
int wmma_min_cc_for(Precision p) {
  return p == Precision::F64 ? 80 : 0;
}

// ---- the mapping model ---------------------------------------------------------------------
// What wmma_kernel does, as plain host code, for one tile and one input type (the fragment shape
// and the chunk width W of the copy-out depend on it). Blocks are numbered as
// the 1-D grid launches them: block_x = the linear index, block_y = 0.
class WmmaModel final : public BlockTileModel {
 public:
  WmmaModel(const WmmaTile& t, Problem problem, Precision precision, const Shape& shape)
      : BlockTileModel({t.bm, t.bn, t.bk, warps_of(t)}, problem, shape), t_(t), f_(fragment_shape(precision)) {
    eb_ = static_cast<int>(element_bytes(precision));
    ab_ = static_cast<int>(output_bytes(precision));
    chunk_ = kVecBytes / ab_;
    wm_ = t.wm;
    wn_ = t.wn;
    frags_m_ = wm_ / f_.m;
    frags_n_ = wn_ / f_.n;
  }

  // The writer ids' slot is the warp's accumulator fragment.
  int writer_slots() const override { return (wm_ / f_.m) * frags_n_; }
  // No fragment picture: wmma promises no lane layout for its fragments (that is the lesson;
  // mma.sync, the next variant, has one). Owners are lanes as the copy-out assigns them.
  const FragmentPicture* fragments() const override { return nullptr; }
  // The fragments' loads and stores are listed as the compiler makes them on Hopper, not recorded.
  std::string memory_note() const override {
    return "load_matrix_sync and store_matrix_sync name a whole fragment, not which lane reads which element: "
           "the compiler chooses. Their accesses are drawn as the compiler makes them for sm_90 (the lane layout of "
           "the mma instruction a fragment feeds; ldmatrix for 16-bit types), checked against the profiler's counts "
           "but not recorded from the kernel. mma_sync, the next variant, names every lane's address itself.";
  }

  // ---- memory, one warp at a time: the kernel's memory instructions (04_wmma.cuh) ----
  // Per slab every thread copies its elements of the A and B slabs global -> shared; per k step
  // each working warp loads its fragments; at the end, per fragment, the warp stores it into its
  // staging area, and each lane reads its chunks back and stores them to C (AᵀA: with mirrors).
  enum Site {
    kLoadA,
    kLoadB,
    kStoreA,
    kStoreB,
    kFragmentA,
    kFragmentB,
    kStoreFragment,
    kReadStaging,
    kStoreC,
    kStoreMirror
  };
  std::vector<AccessSite> access_sites() const override {
    const std::string e = std::to_string(eb_) + "-byte";
    const std::string a_src = ata() ? "A[k0 + r][m0 + c]: the slab of Aᵀ read as rows of A" : "A[m0 + r][k0 + c]";
    const std::string b_src = ata() ? "A[k0 + r][n0 + c]" : "B[k0 + r][n0 + c]";
    auto load = [&](const std::string& src) {
      return src + ", element e = tid, tid + threads, .. of the slab (r = e / columns): one " + e +
             " load each, none outside the matrix";
    };
    auto store = [&](const char* tile) {
      return std::string(tile) + " = the element (0 outside the matrix): rows padded by 16 bytes";
    };
    std::vector<AccessSite> sites = {
        {"A from global memory", 'A', MemorySpace::Global, AccessKind::Load, site_bytes(kLoadA), load(a_src),
         "element of a slab", kRecordLoadA},
        {"B from global memory", 'B', MemorySpace::Global, AccessKind::Load, site_bytes(kLoadB), load(b_src),
         "element of a slab", kRecordLoadB},
        {"A into shared memory", 'A', MemorySpace::Shared, AccessKind::Store, site_bytes(kStoreA),
         store(ata() ? "At[r][c] (k-major)" : "As[r][c]"), "element of a slab", kWmmaAStored},
        {"B into shared memory", 'B', MemorySpace::Shared, AccessKind::Store, site_bytes(kStoreB), store("Bs[r][c]"),
         "element of a slab", kWmmaBStored},
        {"A fragments out of shared memory", 'A', MemorySpace::Shared, AccessKind::Load, site_bytes(kFragmentA),
         "load_matrix_sync(a, ..): " + fragment_words(true), "instruction of a fragment of a k step"},
        {"B fragments out of shared memory", 'B', MemorySpace::Shared, AccessKind::Load, site_bytes(kFragmentB),
         "load_matrix_sync(b[j], ..): " + fragment_words(false), "instruction of a fragment of a k step"},
        {"accumulators into the staging area", 'C', MemorySpace::Shared, AccessKind::Store, site_bytes(kStoreFragment),
         "store_matrix_sync(stage, acc[i][j], " + std::to_string(f_.n) +
             ", mem_row_major): each lane stores its pairs of neighbouring accumulators as " + std::to_string(2 * ab_) +
             "-byte stores (the mma layout: lane 4g + t holds row g and g + 8, columns 2t, 2t + 1 of each 8); rows "
             "of " +
             std::to_string(f_.n * ab_) + " bytes, unpadded",
         "instruction of a fragment"},
        {"the staging area out of shared memory", 'C', MemorySpace::Shared, AccessKind::Load, site_bytes(kReadStaging),
         vector_staging()
             ? "s[0 .. " + std::to_string(chunk_ - 1) + "]: the lane's chunk of " + std::to_string(chunk_) +
                   " elements as one 16-byte load (the compiler merges them even where C's elements "
                   "leave one at a time)"
             : std::string("s[w]: one element of the lane's chunk at a time (those with row <= column)"),
         vector_staging() ? "chunk of a fragment" : "element of a chunk of a fragment", kWmmaStagingRead},
        {"C to global memory", 'C', MemorySpace::Global, AccessKind::Store, site_bytes(kStoreC),
         vector_c()
             ? std::string("C[row][col .. col + ") + std::to_string(chunk_ - 1) + "]: the chunk as one 16-byte store"
         : ata() ? "C[row][col + w] for row <= col + w: one element at a time"
                 : "C[row][col + w]: one element at a time (N is not a multiple of " + std::to_string(chunk_) + ")",
         vector_c() ? "chunk of a fragment" : "element of a chunk of a fragment", kRecordStoreC}};
    if (ata())
      sites.push_back({"C's mirror to global memory", 'C', MemorySpace::Global, AccessKind::Store,
                       site_bytes(kStoreMirror),
                       "C[col + w][row] for row < col + w: the element's mirror, right after it",
                       "element of a chunk of a fragment", kRecordStoreC});
    return sites;
  }
  int site_steps(int site, int bx, int by) const override {
    if (!block_active(bx, by)) return 0;
    const int slabs = static_cast<int>(ceil_div(shape().K, t_.bk)), ksteps = t_.bk / f_.k;
    switch (site) {
      case kLoadA:
      case kStoreA:
        return slabs * copies_per_slab(t_.bm);
      case kLoadB:
      case kStoreB:
        return slabs * copies_per_slab(t_.bn);
      case kFragmentA:
        return slabs * ksteps * frags_m_ * fragment_instructions(true);
      case kFragmentB:
        return slabs * ksteps * frags_n_ * fragment_instructions(false);
      case kStoreFragment:
        return frags_m_ * frags_n_ * staging_stores();
      case kReadStaging:
        return frags_m_ * frags_n_ * chunks_per_lane() * (vector_staging() ? 1 : chunk_);
      case kStoreC:
        return frags_m_ * frags_n_ * chunks_per_lane() * (vector_c() ? 1 : chunk_);
      case kStoreMirror:
        return ata() ? frags_m_ * frags_n_ * chunks_per_lane() * chunk_ : 0;
    }
    return 0;
  }
  void warp_access(int site, int bx, int by, int warp, int step, WarpAccess* out) const override {
    out->bytes = site_bytes(site);
    if (!block_active(bx, by)) return;
    const TileRect c = c_tile(bx);
    const int wm = warp / (t_.bn / wn_), wn = warp % (t_.bn / wn_);
    // AᵀA's diagonal blocks: a warp tile wholly below the diagonal only copies.
    const bool works = !ata() || c.row0 + static_cast<std::int64_t>(wm) * wm_ <= c.col0 + (wn + 1) * wn_ - 1;
    switch (site) {
      case kLoadA:
      case kLoadB:
      case kStoreA:
      case kStoreB:
        return copy_access(site == kLoadA || site == kStoreA, site == kLoadA || site == kLoadB, c, warp, step, out);
      case kFragmentA:
      case kFragmentB:
        if (works) fragment_access(site == kFragmentA, wm, wn, step, out);
        return;
      default:
        if (works) epilogue_access(site, c, warp, wm, wn, step, out);
        return;
    }
  }

 private:
  // ---- the memory instructions, as the compiler makes them for sm_90 ----
  // 16-bit fragments load by ldmatrix.x4 (LDSM; .trans where the fragment's rows are k), as do
  // tf32 A fragments of a row-major A: 8 rows of 16 bytes a phase. The others load one element a
  // lane per instruction: tf32 B (and AᵀA's A) four times, f64 once (8 x 4 and 4 x 8 fragments).
  bool ldmatrix(bool a) const {
    if (eb_ == 2) return true;
    return eb_ == 4 && a && !ata();
  }
  int fragment_instructions(bool a) const { return ldmatrix(a) || eb_ == 8 ? 1 : 4; }
  int fragment_bytes(bool a) const { return ldmatrix(a) ? kVecBytes : eb_; }
  std::string fragment_words(bool a) const {
    const std::string rows = a ? (ata() ? "k-major rows of At" : "rows of As") : "rows of Bs";
    if (ldmatrix(a))
      return std::string(a && !ata() ? "ldmatrix.x4" : "ldmatrix.x4.trans") +
             ": each lane gives the address of one 16-byte piece of the " + rows + ", eight pieces a phase";
    if (eb_ == 8)
      return std::string("one 8-byte load a lane (lane 4g + t: ") + (a ? "A(g, t)" : "B(t, g)") + " of the " +
             (a ? "8 x 4" : "4 x 8") + " fragment, from the " + rows + ")";
    return std::string("four 4-byte loads a lane (lane 4g + t: ") +
           (a ? "A(g, t), A(g + 8, t), A(g, t + 4), A(g + 8, t + 4)"
              : "B(t, g), B(t + 4, g), B(t, g + 8), B(t + 4, g + 8)") +
           ", from the " + rows + ")";
  }
  // store_matrix_sync: a lane's pairs of neighbouring accumulators, 8 of 16 x 16 floats in four
  // 8-byte stores, 2 of 8 x 8 doubles in one 16-byte store.
  int staging_stores() const { return ab_ == 8 ? 1 : 4; }
  int chunks_per_lane() const { return f_.m * f_.n / chunk_ / kWarpSize; }
  // C leaves in 16-byte chunks where every row of C starts on 16 bytes (gemm); AᵀA stores one
  // element at a time, each with its mirror.
  bool vector_c() const { return !ata() && shape().N % chunk_ == 0; }
  // Gemm's lanes read their chunks of the staging area whole either way; AᵀA's element by element,
  // only those it stores (row <= column), so the compiler keeps those loads apart.
  bool vector_staging() const { return !ata(); }
  int threads() const { return warps_of(t_) * kWarpSize; }
  // A thread's elements of one slab of `cols` columns (stage_slab: BK x cols, or BM x BK for gemm's A).
  int copies_per_slab(int cols) const {
    return static_cast<int>(ceil_div(static_cast<std::int64_t>(t_.bk) * cols, threads()));
  }
  int site_bytes(int site) const {
    switch (site) {
      case kFragmentA:
        return fragment_bytes(true);
      case kFragmentB:
        return fragment_bytes(false);
      case kStoreFragment:
        return 2 * ab_;
      case kReadStaging:
        return vector_staging() ? kVecBytes : ab_;
      case kStoreC:
        return vector_c() ? kVecBytes : ab_;
      case kStoreMirror:
        return ab_;
      default:
        return eb_;
    }
  }
  // Shared memory: the A region (padded rows), then Bs; after the K loop each warp's staging area.
  int lda() const { return padded(t_.bk, eb_); }
  int ldt() const { return padded(t_.bm, eb_); }
  int ldb() const { return padded(t_.bn, eb_); }
  std::int64_t b_region() const { return static_cast<std::int64_t>(a_region_elements(t_.bm, t_.bk, eb_)) * eb_; }

  // stage_slab: element e = tid + l * threads of the slab, row e / cols, column e % cols; the
  // global load only inside the matrix, the shared store always (zeros outside).
  void copy_access(bool a, bool global, const TileRect& c, int warp, int step, WarpAccess* out) const {
    const bool rows_m = a && !ata();  // gemm's A slab: BM rows of BK
    const int rows = rows_m ? t_.bm : t_.bk, cols = rows_m ? t_.bk : (a ? t_.bm : t_.bn);
    const int per = copies_per_slab(a ? t_.bm : t_.bn), slab = step / per, l = step % per;
    const std::int64_t k0 = static_cast<std::int64_t>(slab) * t_.bk;
    const std::int64_t r0 = rows_m ? c.row0 : k0, c0 = a ? (rows_m ? k0 : c.row0) : c.col0;
    const std::int64_t height = rows_m ? shape().M : shape().K, width = rows_m ? shape().K : shape().N;
    const int ld = rows_m ? lda() : (a ? ldt() : ldb());
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const int e = warp * kWarpLanes + lane + l * threads();
      if (e >= rows * cols) continue;
      const int r = e / cols, col = e % cols;
      if (global) {
        if (r0 + r < height && c0 + col < width) out->address[lane] = ((r0 + r) * width + c0 + col) * eb_;
      } else {
        out->address[lane] = (a ? 0 : b_region()) + (static_cast<std::int64_t>(r) * ld + col) * eb_;
      }
    }
  }

  // Per slab and k step: the warp's B fragments j = 0 .., then its A fragments i = 0 ..; each
  // fragment_instructions() loads.
  void fragment_access(bool a, int wm, int wn, int step, WarpAccess* out) const {
    const int ksteps = t_.bk / f_.k, per_fragment = fragment_instructions(a), frags = a ? frags_m_ : frags_n_;
    const int per_step = frags * per_fragment;
    const int kk = (step / per_step) % ksteps * f_.k, fragment = step % per_step / per_fragment,
              part = step % per_fragment;
    const int m = wm * wm_ + fragment * f_.m, n = wn * wn_ + fragment * f_.n;
    const int chunk = kVecBytes / eb_;  // elements of a 16-byte piece
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const int g = lane / 4, t = lane % 4, q = lane / 8, rr = lane % 8;
      std::int64_t at;  // element offset in the A region or in Bs
      if (ldmatrix(a)) {
        // Matrix q of the four: 8 rows of one 16-byte column piece; rows of the fragment's m (A)
        // or k (At, Bs).
        if (a && !ata())
          at = static_cast<std::int64_t>(m + (q % 2) * 8 + rr) * lda() + kk + (q / 2) * chunk;
        else if (a)
          at = static_cast<std::int64_t>(kk + (q / 2) * 8 + rr) * ldt() + m + (q % 2) * chunk;
        else
          at = static_cast<std::int64_t>(kk + (q % 2) * 8 + rr) * ldb() + n + (q / 2) * chunk;
      } else if (eb_ == 8) {
        if (a && !ata())
          at = static_cast<std::int64_t>(m + g) * lda() + kk + t;
        else if (a)
          at = static_cast<std::int64_t>(kk + t) * ldt() + m + g;
        else
          at = static_cast<std::int64_t>(kk + t) * ldb() + n + g;
      } else {
        // tf32 element `part`: k + 4 (part / 2)... of the mma layout, row or column + 8 (part % 2).
        const int dk = 4 * (part / 2), d8 = 8 * (part % 2);
        if (a)  // AᵀA's A, k-major: A(g + d8, t + dk) at At[t + dk][g + d8]
          at = static_cast<std::int64_t>(kk + t + dk) * ldt() + m + g + d8;
        else
          at = static_cast<std::int64_t>(kk + t + dk) * ldb() + n + g + d8;
      }
      out->address[lane] = (a ? 0 : b_region()) + at * eb_;
    }
  }

  // The epilogue, fragment (i, j) by fragment, skipping those that start outside C (or below
  // AᵀA's diagonal): store_matrix_sync into the warp's staging area, then copy_fragment_out.
  void epilogue_access(int site, const TileRect& c, int warp, int wm, int wn, int step, WarpAccess* out) const {
    const int per_fragment = site_steps(site, 0, 0) / (frags_m_ * frags_n_);
    const int fragment = step / per_fragment, s = step % per_fragment, i = fragment / frags_n_, j = fragment % frags_n_;
    const std::int64_t M = shape().M, N = shape().N;
    const std::int64_t r0 = c.row0 + static_cast<std::int64_t>(wm) * wm_ + i * f_.m,
                       c0 = c.col0 + static_cast<std::int64_t>(wn) * wn_ + j * f_.n;
    if (r0 >= M || c0 >= N || (ata() && r0 > c0 + f_.n - 1)) return;
    const std::int64_t stage = static_cast<std::int64_t>(warp) * f_.m * f_.n * ab_;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      std::int64_t& at = out->address[lane];
      if (site == kStoreFragment) {
        // Pair s: rows g + 8 (s / 2), columns 8 (s % 2) + 2t (16 x 16); the 8 x 8 fragment's row g.
        const int g = lane / 4, t = lane % 4;
        const int row = g + (ab_ == 8 ? 0 : 8 * (s / 2)), col = (ab_ == 8 ? 0 : 8 * (s % 2)) + 2 * t;
        at = stage + static_cast<std::int64_t>(row * f_.n + col) * ab_;
        continue;
      }
      const bool whole = site == kReadStaging ? vector_staging() : vector_c();
      const int per_chunk = whole ? 1 : chunk_, round = s / per_chunk, w = s % per_chunk;
      const int v = lane + kWarpSize * round, r = v / (f_.n / chunk_), cc = (v % (f_.n / chunk_)) * chunk_;
      const std::int64_t row = r0 + r, col = c0 + cc + w;
      // Gemm's whole-chunk read of the staging area asks only that the row be inside C (the
      // compiler loads the chunk before it looks at the columns).
      if (row >= M || (col >= N && !(site == kReadStaging && vector_staging()))) continue;
      if (ata() && row > col) continue;
      if (site == kReadStaging)
        at = stage + static_cast<std::int64_t>(r * f_.n + cc + w) * ab_;
      else if (site == kStoreC)
        at = (row * N + col) * ab_;
      else if (row < col)
        at = (col * N + row) * ab_;
    }
  }

  // The warp tile, the fragment in it (the slot), and the lane whose chunk of the fragment holds
  // the element (copy_fragment_out). Slabs are staged element by element (stage_slab): the
  // base's tile_loads.
  void owner_in_block(int r, int c, Owner* o) const override {
    const int fr = (r % wm_) / f_.m, fc = (c % wn_) / f_.n;
    const int chunk = (r % f_.m) * (f_.n / chunk_) + (c % f_.n) / chunk_;
    o->thread_x = chunk % kWarpSize;
    o->thread_y = (r / wm_) * (t_.bn / wn_) + c / wn_;
    o->slot = fr * frags_n_ + fc;
  }

  // The threads stage the slab element by element (stage_slab); every working warp loads its
  // fragments of each k step from shared memory and issues one mma_sync per accumulator fragment.
  void describe_phase(int bx, int, PhaseWork* w) const override {
    const Workers working = workers(bx, wm_, wn_, true);
    const int warps = warps_of(t_), frags_m = wm_ / f_.m, steps = t_.bk / f_.k;
    w->outputs = working.outputs;
    const std::string wm = std::to_string(wm_), wn = std::to_string(wn_);
    w->shared = {static_cast<std::int64_t>(working.warps) * (wm_ + wn_),
                 working.warps < warps ? "working warps x (WM + WN)" : "warps x (WM + WN)",
                 std::to_string(working.warps) + " x (" + wm + " + " + wn + ")"};
    const std::string bm = std::to_string(t_.bm), bn = std::to_string(t_.bn), bk = std::to_string(t_.bk);
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

  WmmaTile t_;
  FragmentShape f_;
  int eb_ = 2, ab_ = 4, chunk_ = 4, wm_ = 1, wn_ = 1, frags_m_ = 1, frags_n_ = 1;
};

TileConfig wmma_config(const WmmaTile& t, const std::string& name, const char* description) {
  TileConfig c;
  c.name = name;
  c.description = description;
  c.bm = t.bm;
  c.bn = t.bn;
  c.bk = t.bk;
  c.warp_m = t.wm;
  c.warp_n = t.wn;
  c.threads_x = kWarpSize;
  c.threads_y = warps_of(t);
  c.math = "tensor cores (nvcuda::wmma): f16, bf16 16x16x16 and tf32 16x16x8 with FP32 accumulation; f64 8x8x4";
  return c;
}

TileConfig row_config(const WmmaRow& row) {
  return wmma_config(row.tile, config_name(row.tile), row.description);
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
  v.configs = configs_of(kParams, row_config);
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
  v.model = [](int config_index, Problem problem, Precision precision,
               const Shape& shape) -> std::unique_ptr<MappingModel> {
    return std::make_unique<WmmaModel>(tile_at(config_index), problem, precision, normalised(problem, shape));
  };
  v.tile_params = kTileParams;
  v.tile_values_of = wmma_tile_values;
  v.typed_config = wmma_typed_config;
  v.model_caps.mirrored_ata = true;
  v.model_caps.warp_level = true;
  return v;
}();

}  // namespace tilescope
