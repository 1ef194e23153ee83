// 05 mma_sync — the tensor cores with their fragments in the open: mma.sync PTX, ldmatrix,
// a ring of cp.async stages and an XOR-swizzled shared memory.
//
// The launch file of mma_sync: descriptor, compiled set, tiles a learner types, launch, mapping
// model; the story, the three kernels and the rules a tile must keep are in 05_mma_sync.cuh.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "kernels/core/kernel_common.cuh"
#include "kernels/core/kernel_names.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "kernels/core/variant_launch.cuh"
#include "kernels/instrument/probe.cuh"
#include "kernels/jit/jit_kernels.h"
#include "kernels/jit/kernel_calls.h"
#include "kernels/models/block_tile_model.h"
#include "kernels/variants/05_mma_sync.cuh"

namespace tilescope {

extern const VariantDescriptor kMmaSyncVariant;

namespace {

// ---- the compiled set ---------------------------------------------------------------------------
// Which input types a row computes (the tile sizes that suit them differ); a typed tile takes
// every type whose rules it keeps.
enum class Family { Bits16, Tf32, F64 };

constexpr Family family_of(Precision p) {
  return p == Precision::TF32 ? Family::Tf32 : p == Precision::F64 ? Family::F64 : Family::Bits16;
}

// One row per configuration; the descriptor's config list is built from the same rows. Each row
// names what it changes from the first (MmaParams' defaults: 16-bit inputs, a 128 x 128 block of
// 4 warps of 64 x 64, 32-deep slabs, 3 stages, swizzled, one block barrier per slab).
struct MmaRow {
  Family family = Family::Bits16;
  MmaParams tile;
  // What the row is or changes, where a learner meets its name (the window's tooltip, `bench --list`).
  const char* description = "";
};
// Measured on an H100 at 8192 (docs/benchmarks/): deeper slabs and per-stage barriers (_mb) are
// what made the 16-bit, TF32 and FP64 rows faster; the fragment pipeline (_fp) did not pay, and
// stays for comparison.
constexpr MmaRow kParams[] = {
    {.tile = {}, .description = "the first: 4 warps of 64 x 64, 32-deep slabs, 3 stages, one block barrier per slab"},
    {.tile = {.bn = 256}, .description = "twice the tile: 8 warps, a slab of A feeds twice the instructions"},
    {.tile = {.bn = 256, .stages = 2},
     .description = "double buffering only: one slab in flight while one is multiplied"},
    {.tile = {.bn = 256, .stages = 4}, .description = "one more slab in flight: 4 stages"},
    {.tile = {.bn = 256, .swizzle = false},
     .description = "8 warps, rows not swizzled: the fragment loads collide in the banks"},
    {.tile = {.bn = 256, .bk = 64}, .description = "64-deep slabs: half the barriers"},
    {.family = Family::Tf32, .tile = {}, .description = "TF32: 4 warps of 64 x 64, 32-deep slabs, 3 stages"},
    {.family = Family::Tf32,
     .tile = {.swizzle = false},
     .description = "TF32, rows not swizzled: the fragment loads collide in the banks"},
    {.family = Family::Tf32,
     .tile = {.bn = 256, .stages = 4, .pipeline = Pipeline::Fragments},
     .description = "TF32, 8 warps, 4 stages; the next k step's fragments load while this one multiplies"},
    {.family = Family::F64,
     .tile = {.bk = 16, .wn = 32},
     .description = "FP64: 8 warps of 64 x 32, 16-deep slabs, 3 stages"},
    {.family = Family::F64,
     .tile = {.bk = 16, .wn = 32, .swizzle = false},
     .description = "FP64, rows not swizzled: the fragment loads collide in the banks"},
    {.family = Family::F64,
     .tile = {.bk = 16, .wn = 32, .stages = 4, .pipeline = Pipeline::Fragments},
     .description = "FP64, 4 stages; the next k step's fragments load while this one multiplies"},
    {.family = Family::F64, .tile = {.wn = 32}, .description = "FP64 with 32-deep slabs: half the barriers"},
    {.tile = {.bk = 64}, .description = "4 warps, 64-deep slabs: two blocks per SM on an H100"},
    {.tile = {.bn = 256, .bk = 128, .stages = 2},
     .description = "8 warps, 128-deep slabs, 2 stages: a quarter of the barriers"},
    {.family = Family::Tf32,
     .tile = {.bn = 256, .bk = 64, .stages = 2},
     .description = "TF32, 8 warps, 64-deep slabs, 2 stages"},
    {.tile = {.bn = 256, .bk = 64, .stages = 4, .pipeline = Pipeline::Mbarriers},
     .description = "per-stage mbarriers instead of one block barrier per slab: 8 warps, 4 stages"},
    {.tile = {.bk = 64, .pipeline = Pipeline::Mbarriers},
     .description = "per-stage mbarriers, 4 warps, 3 stages: fits an A100"},
    {.family = Family::F64,
     .tile = {.wn = 32, .pipeline = Pipeline::Mbarriers},
     .description = "FP64 with per-stage mbarriers instead of one block barrier per slab"},
};
constexpr int kNumConfigs = sizeof(kParams) / sizeof(kParams[0]);

// The tile of row CFG as the kernels' template argument.
template <int CFG>
using RowTile =
    MmaTile<kParams[CFG].tile.bm, kParams[CFG].tile.bn, kParams[CFG].tile.bk, kParams[CFG].tile.wm,
            kParams[CFG].tile.wn, kParams[CFG].tile.stages, kParams[CFG].tile.swizzle, kParams[CFG].tile.pipeline>;

// "h128x256x32_s3": the family (h: 16-bit, tf32_, d: double), block tile and slab, stages, and
// _plain without the swizzle.
std::string config_name(const MmaRow& row) {
  const MmaParams& p = row.tile;
  const char* family = row.family == Family::Bits16 ? "h" : row.family == Family::Tf32 ? "tf32_" : "d";
  return std::string(family) + std::to_string(p.bm) + "x" + std::to_string(p.bn) + "x" + std::to_string(p.bk) + "_s" +
         std::to_string(p.stages) + (p.swizzle ? "" : "_plain") + (p.pipeline == Pipeline::Fragments ? "_fp" : "") +
         (p.pipeline == Pipeline::Mbarriers ? "_mb" : "");
}

// ---- tiles a learner types ------------------------------------------------------------------------
// The kernel template's parameters (MmaTile), by name (kernels/core/typed_configs.h).
const std::vector<TileParam> kTileParams = {
    {"bm", "rows of C per block"},
    {"bn", "columns of C per block"},
    {"bk", "k per slab of the ring (a power of two, whole instructions deep)"},
    {"wm", "rows of C per warp (a multiple of 16)"},
    {"wn", "columns of C per warp (a multiple of 16, a power of two)"},
    {"stages", "slabs in the cp.async ring (at least 2; 3 with mbarriers)"},
    {"swizzle", "1: XOR-swizzled shared-memory tiles, 0: plain rows (bank conflicts)"},
    {"pipeline", "0: one block barrier per slab, 1: the fragment pipeline, 2: per-stage mbarriers"},
};

TileValues values_of(const MmaParams& p) {
  return {{"bm", p.bm},
          {"bn", p.bn},
          {"bk", p.bk},
          {"wm", p.wm},
          {"wn", p.wn},
          {"stages", p.stages},
          {"swizzle", p.swizzle ? 1 : 0},
          {"pipeline", static_cast<int>(p.pipeline)}};
}

// The values as a tile; out-of-range swizzle and pipeline values stay out of range (typed_refusal
// refuses them before they are used).
MmaParams params_of_values(const TileValues& v) {
  MmaParams p;
  p.bm = tile_value(v, "bm", 0);
  p.bn = tile_value(v, "bn", 0);
  p.bk = tile_value(v, "bk", 0);
  p.wm = tile_value(v, "wm", 0);
  p.wn = tile_value(v, "wn", 0);
  p.stages = tile_value(v, "stages", 0);
  p.swizzle = tile_value(v, "swizzle", 1) != 0;
  p.pipeline = static_cast<Pipeline>(tile_value(v, "pipeline", 0));
  return p;
}

// The tile of any configuration: a compiled row's, or a typed one's values; none for a name of
// neither (a configuration from elsewhere).
const MmaRow* row_of(const TileConfig& cfg) {
  return tilescope::row_of(kParams, kMmaSyncVariant.configs, cfg);
}
std::optional<MmaParams> params_of(const TileConfig& cfg) {
  if (const MmaRow* row = row_of(cfg)) return row->tile;
  if (cfg.typed.empty()) return std::nullopt;
  return params_of_values(cfg.typed);
}
MmaParams params_at(int config_index) {
  const std::optional<MmaParams> p = params_of(config_at(kMmaSyncVariant, config_index));
  if (!p) throw GpuError(config_index_error(kMmaSyncVariant, config_index));
  return *p;
}

TileValues mma_tile_values(const TileConfig& cfg) {
  const std::optional<MmaParams> p = params_of(cfg);
  return p ? values_of(*p) : TileValues{};
}

// The words of the rule (mma_tile_fault, 05_mma_sync.cuh) that tile p breaks for input type P.
template <Precision P>
std::string fault_words(const MmaParams& p, bool ata) {
  using T = Tensor<P>;
  auto n = [](int v) { return std::to_string(v); };
  const int kk = T::kK, eb = static_cast<int>(sizeof(typename T::E)), threads = warps_of(p) * 32;
  auto tile_words = [&](const char* name, MmaTileDims d) {
    const int chunks = d.cols * eb / 16, step = threads / std::max(chunks, 1);
    const std::string shape = std::string(name) + "'s tile of " + n(d.rows) + " x " + n(d.cols) + " (" + n(chunks) +
                              " 16-byte chunks per row)";
    switch (tile_fault(d, eb, threads)) {
      case TileFault::SwizzleWidth:
        return shape +
               ": its swizzle's XOR would move chunks out of their row (rows of 2, 4 or 6 chunks, or a "
               "multiple of 8; a multiple of 8 for tf32 B and f64)";
      case TileFault::CopyColumns:
        return shape + ": the " + n(threads) + " threads copy it keeping one chunk column each, so " + n(chunks) +
               " must divide " + n(threads);
      case TileFault::CopyRows:
        return shape + ": the " + n(threads) + " threads copy " + n(step) + " rows at a time, which must divide its " +
               n(d.rows) + " rows";
      case TileFault::CopySwizzle:
        return shape + ": a thread's rows " + n(step) + " apart must share their swizzle, which repeats every " +
               n(swizzle_period(d.swizzle)) + " rows";
      case TileFault::None:
        break;
    }
    return shape;
  };
  switch (mma_tile_fault<P>(p, ata)) {
    case MmaFault::None:
      return "";
    case MmaFault::WarpTile:
      return "wm = " + n(p.wm) + ", wn = " + n(p.wn) +
             ": a warp tile is whole 16 x 16 pieces (16 x 8 instructions, B's in pairs): multiples of 16";
    case MmaFault::WarpTiling:
      return "the warp tile " + n(p.wm) + " x " + n(p.wn) + " does not tile the block tile " + n(p.bm) + " x " +
             n(p.bn);
    case MmaFault::Warps:
      return n(p.bm / p.wm) + " x " + n(p.bn / p.wn) + " = " + n(warps_of(p)) +
             " warps per block: the limit is 32 (1024 threads)";
    case MmaFault::SlabDepth:
      return "bk = " + n(p.bk) + ": a slab is whole m16n8k" + n(kk) + " instructions deep (a multiple of " + n(kk) +
             ")";
    case MmaFault::PowerOfTwo:
      return std::string("bk = ") + n(p.bk) + ", wn = " + n(p.wn) + (ata ? ", wm = " + n(p.wm) : "") +
             ": must be powers of two (a fragment's address is the lane's offset with the k step or the instruction "
             "tile XORed in" +
             (ata ? "; in AᵀA A's tile runs along m" : "") + ")";
    case MmaFault::Stages:
      return "stages = " + n(p.stages) +
             (p.pipeline == Pipeline::Mbarriers
                  ? ": per-stage mbarriers refill the stage of the slab before last, so the ring needs at least 3"
                  : ": a ring needs at least 2 stages (one copied while one is multiplied)");
    case MmaFault::FragmentSteps:
      return "bk = " + n(p.bk) + " is one k step of m16n8k" + n(kk) +
             ": the fragment pipeline loads the next k step during this one, so a slab needs at least 2";
    case MmaFault::Registers:
      return "a " + n(p.wm) + " x " + n(p.wn) + " warp tile holds " +
             n(p.wm * p.wn / 32 * static_cast<int>(sizeof(typename T::Acc) / 4)) +
             " accumulator registers per lane: a thread has at most 255";
    case MmaFault::TileA:
      return tile_words("A", a_tile_dims(p, P, ata));
    case MmaFault::TileB:
      return tile_words("B", b_tile_dims(p, P, ata));
  }
  return "";
}
std::string fault_words(const MmaParams& p, Precision q, bool ata) {
  return with_tensor_core_precision(q, [&](auto type) { return fault_words<decltype(type)::value>(p, ata); });
}

TileConfig mma_config(const MmaParams& p, const std::string& name, const char* description, const char* math);

// What no input type's kernel can take: values out of range, then the kernel text's rules (every
// type's, so that a tile is refused here only when every type refuses it; one that suits some
// types is refused for the others by mma_refuses, naming the rule). The device's limits (shared
// memory) are checked for every configuration by unsupported_reason().
std::string typed_refusal(const MmaParams& p, const TileValues& values) {
  auto n = [](int v) { return std::to_string(v); };
  if (p.bm < 1 || p.bn < 1 || p.bk < 1 || p.wm < 1 || p.wn < 1 || p.stages < 1)
    return "bm, bn, bk, wm, wn and stages must be at least 1";
  if (p.bm > 512 || p.bn > 512 || p.bk > 256 || p.stages > 16)
    return "bm and bn are at most 512, bk at most 256, stages at most 16";
  const int swizzle = tile_value(values, "swizzle", 1), pipeline = tile_value(values, "pipeline", 0);
  if (swizzle != 0 && swizzle != 1) return "swizzle = " + n(swizzle) + ": 1 (swizzled) or 0 (plain)";
  if (pipeline < 0 || pipeline > 2)
    return "pipeline = " + n(pipeline) + ": 0 (block barrier), 1 (fragment pipeline) or 2 (mbarriers)";
  std::string first, all;
  for (Precision q : kMmaSyncVariant.precisions) {
    const std::string why = fault_words(p, q, false);
    if (why.empty()) return "";
    if (first.empty()) first = why;
    if (why != first) all = "no input type takes it";
  }
  return all.empty() ? first : all + " (" + to_string(kMmaSyncVariant.precisions.front()) + ": " + first + ")";
}

bool mma_typed_config(const TileValues& values, TileConfig* out, std::string* why) {
  const MmaParams p = params_of_values(values);
  *why = typed_refusal(p, values);
  if (!why->empty()) return false;
  *out = mma_config(p, "", "a tile typed by the learner, compiled at run time",
                    "mma.sync tensor cores: m16n8k16 for f16 and bf16, m16n8k8 for tf32 and f64");
  return true;
}

// ---- launching --------------------------------------------------------------------------------
// The kernel of a tile: its pipeline's (05_mma_sync.cuh has one kernel per pipeline), and its
// name as the kernel text spells it. Only the chosen kernel is compiled for a row.
template <Precision P, typename Tile, bool kAta, typename Probe>
constexpr auto kernel_of() {
  if constexpr (Tile::p.pipeline == Pipeline::Mbarriers)
    return mma_sync_mbarrier_kernel<P, Tile, kAta, Probe>;
  else if constexpr (Tile::p.pipeline == Pipeline::Fragments)
    return mma_sync_fragment_pipeline_kernel<P, Tile, kAta, Probe>;
  else
    return mma_sync_kernel<P, Tile, kAta, Probe>;
}
constexpr const char* kernel_function(Pipeline pipeline) {
  return pipeline == Pipeline::Mbarriers   ? "mma_sync_mbarrier_kernel"
         : pipeline == Pipeline::Fragments ? "mma_sync_fragment_pipeline_kernel"
                                           : "mma_sync_kernel";
}

// The name expression of a tile's kernel, as NVRTC compiles it and as the runtime names the
// compiled one: "tilescope::mma_sync_kernel<(tilescope::Precision)3,
// tilescope::MmaTile<128, 128, 32, 64, 64, 3, true, (tilescope::Pipeline)0>, false, tilescope::NoProbe>".
std::string mma_kernel_name(const MmaParams& p, Precision q, bool ata, const char* probe) {
  auto n = [](int v) { return std::to_string(v); };
  const std::string tile = "tilescope::MmaTile<" + n(p.bm) + ", " + n(p.bn) + ", " + n(p.bk) + ", " + n(p.wm) + ", " +
                           n(p.wn) + ", " + n(p.stages) + ", " + cpp_bool(p.swizzle) + ", (tilescope::Pipeline)" +
                           n(static_cast<int>(p.pipeline)) + ">";
  return kernel_name(kernel_function(p.pipeline), {precision_argument(q), tile, cpp_bool(ata), probe});
}

// The compiled kernel of row CFG for these arguments; the template arguments are chosen here and
// nowhere else, so that kernel_for names exactly the kernel the launch runs.
template <typename Probe, int CFG>
const void* row_kernel(const GemmArgs& g) {
  constexpr Family f = kParams[CFG].family;
  using Tile = RowTile<CFG>;
  const bool ata = g.problem == Problem::Ata;
  auto by_problem = [&](auto precision_tag) -> const void* {
    constexpr Precision P = decltype(precision_tag)::value;
    if (!ata) return reinterpret_cast<const void*>(kernel_of<P, Tile, false, Probe>());
    if constexpr (Tile::p.bm == Tile::p.bn)  // AᵀA needs square blocks: no other is compiled
      return reinterpret_cast<const void*>(kernel_of<P, Tile, true, Probe>());
    throw GpuError("configuration " + config_name(kParams[CFG]) + " has no AᵀA kernel: BM must equal BN");
  };
  if constexpr (f == Family::Bits16) {
    if (g.precision == Precision::BF16) return by_problem(std::integral_constant<Precision, Precision::BF16>{});
    return by_problem(std::integral_constant<Precision, Precision::F16>{});
  } else if constexpr (f == Family::Tf32) {
    return by_problem(std::integral_constant<Precision, Precision::TF32>{});
  } else {
    return by_problem(std::integral_constant<Precision, Precision::F64>{});
  }
}

// The kernel of a launch: from the compiled set, or, for a typed tile, compiled at run time from
// the same text with the probe the launch asks for; with its block and shared memory.
template <typename Probe>
KernelLaunchShape kernel_of_launch(const GemmArgs& g, int config_index) {
  const MmaParams p = params_at(config_index);
  const bool ata = g.problem == Problem::Ata;
  KernelLaunchShape k;
  k.threads_per_block = warps_of(p) * 32;
  k.dynamic_shared_bytes =
      shared_bytes_of(p, element_bytes(g.precision), output_bytes(g.precision), Probe::kRecordsWriters);
  if (is_typed_config(kMmaSyncVariant, config_index)) {
    if (ata && p.bm != p.bn) throw GpuError("a tile with BM != BN has no AᵀA kernel");
    const ProbeSpelling probe = probe_spelling<Probe>();
    k.kernel = jit_kernel(kMmaSyncVariant, mma_kernel_name(p, g.precision, ata, probe.name), probe.header).kernel;
    k.run_time_compiled = true;
    return k;
  }
  k.kernel = with_row<kNumConfigs>(kMmaSyncVariant, config_index,
                                   [&](auto row) { return row_kernel<Probe, decltype(row)::value>(g); });
  return k;
}

// 16-byte copies need every row start aligned: the leading dimension a multiple of the chunk.
bool rows_aligned(const void* base, std::int64_t ld, std::size_t elem_bytes) {
  return reinterpret_cast<std::uintptr_t>(base) % 16 == 0 && (ld * static_cast<std::int64_t>(elem_bytes)) % 16 == 0;
}

std::int64_t grid_blocks(const MmaParams& p, Problem problem, const Shape& s) {
  return block_tile_count(problem == Problem::Ata, static_cast<int>(ceil_div(s.M, p.bm)),
                          static_cast<int>(ceil_div(s.N, p.bn)));
}

struct MmaLaunch {
  template <typename Probe>
  static void run(const GemmArgs& g, int config_index, const Probe& probe) {
    const MmaParams p = params_at(config_index);
    const KernelLaunchShape k = kernel_of_launch<Probe>(g, config_index);
    // Above 48 KB a block's dynamic shared memory must be allowed explicitly.
    if (k.dynamic_shared_bytes > 48 * 1024) allow_dynamic_shared(k);
    const Shape& s = g.shape;
    const bool ata = g.problem == Problem::Ata;
    const void* a = g.a;
    const void* b = ata ? g.a : g.b;
    void* c = g.c;
    int M = static_cast<int>(s.M), N = static_cast<int>(s.N), K = static_cast<int>(s.K);
    bool vec_a = rows_aligned(a, ata ? s.N : s.K, element_bytes(g.precision));
    bool vec_b = rows_aligned(b, s.N, element_bytes(g.precision));
    bool vec_c = rows_aligned(c, s.N, output_bytes(g.precision));
    const dim3 grid = checked_grid(grid_blocks(p, g.problem, s), 1);
    const dim3 block(32, warps_of(p));
    Probe kernel_probe = probe;
    // What <<<...>>> does, written out so that a kernel compiled at run time launches the same way.
    void* args[] = {&a, &b, &c, &M, &N, &K, &vec_a, &vec_b, &vec_c, &kernel_probe};
    launch_kernel(k, grid, block, args, g.stream);
  }
};

KernelLaunchShape mma_kernel_for(const GemmArgs& g, int config_index) {
  return kernel_of_launch<NoProbe>(g, config_index);
}

// The kernel a case runs, spelled for NVRTC: the one kernel_of_launch chooses for it.
std::vector<std::string> mma_kernel_names(const TileConfig& cfg, Precision q, Problem problem) {
  const std::optional<MmaParams> p = params_of(cfg);
  if (!p) return {};
  return {mma_kernel_name(*p, q, problem == Problem::Ata, kNoProbeName)};
}

const char* family_types(Family f) {
  return f == Family::Bits16 ? "f16 and bf16" : f == Family::Tf32 ? "tf32" : "f64";
}

std::string mma_refuses(Problem problem, Precision precision, const TileConfig& cfg) {
  const std::optional<MmaParams> p = params_of(cfg);
  if (!p) return "unknown configuration " + cfg.name;
  if (!supports(kMmaSyncVariant, precision)) return std::string("mma_sync takes no ") + to_string(precision);
  if (const MmaRow* row = row_of(cfg); row && family_of(precision) != row->family)
    return "configuration " + cfg.name + " is tiled for " + family_types(row->family) + "; choose one of " +
           family_types(family_of(precision));
  if (problem == Problem::Ata && cfg.bm != cfg.bn)
    return "AᵀA mirrors square blocks across the diagonal: BM must equal BN";
  if (std::string why = fault_words(*p, precision, problem == Problem::Ata); !why.empty())
    return std::string(to_string(precision)) + ": " + why;
  return "";
}

std::size_t mma_shared_bytes(const TileConfig& cfg, Precision precision) {
  const std::optional<MmaParams> p = params_of(cfg);
  return p ? shared_bytes_of(*p, element_bytes(precision), output_bytes(precision), false) : 0;
}

int mma_min_cc(Precision p) {
  return p == Precision::F64 ? 90 : 0;  // mma.sync m16n8k8 in FP64 came with sm_90
}

// ---- the mapping model ---------------------------------------------------------------------------
// What the mma_sync kernels do, as plain host code, for one tile, problem and input type.
class MmaModel final : public BlockTileModel {
 public:
  MmaModel(const MmaParams& p, Problem problem, Precision precision, const Shape& shape)
      : BlockTileModel({p.bm, p.bn, p.bk, warps_of(p), "copied", ", straight into shared memory (cp.async)"}, problem,
                       shape),
        p_(p),
        precision_(precision) {
    kk_ = instruction_k(precision);
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

  // ---- memory, one warp at a time: the kernels' memory instructions (mma_sync_block.cuh) ----
 public:
  // Per slab, every thread copies its chunks (or elements) of the A and B tiles global -> shared;
  // per k step each working warp reads its fragments; at the end, per instruction row mi of its
  // warp tile, it parks the accumulators in its strip, reads the strip back by rows (and AᵀA by
  // columns for the mirrors) and stores C.
  enum Site {
    kLoadA,
    kLoadB,
    kStoreA,
    kStoreB,
    kReadA,
    kReadB,
    kParkStrip,
    kReadStripRow,
    kStoreC,
    kReadStripColumn,
    kStoreMirror
  };
  std::vector<AccessSite> access_sites() const override {
    const std::string e = std::to_string(eb_) + "-byte";
    auto copy = [&](char m, bool vec) {
      return vec ? std::string(
                       "cp.async.cg.shared.global: 16-byte chunks straight into the stage (the profiler "
                       "counts these as LDGSTS, apart from plain loads)")
                 : "element by element through a register (its rows are not 16-byte aligned): " + e + " loads of " + m;
    };
    auto store = [&](const char* tile, bool vec, Swizzle sw) {
      const std::string layout = sw == Swizzle::None ? ", rows as they are (no swizzle)" : ", chunks XOR-swizzled";
      return vec ? std::string("cp.async's write of the same 16 bytes into ") + tile + layout
                 : std::string("the element's store into ") + tile + layout;
    };
    const Swizzle sa = tile_swizzle(p_.swizzle, precision_, ata(), true),
                  sb = tile_swizzle(p_.swizzle, precision_, ata(), false);
    const bool lda = ldmatrix_operand(precision_, ata(), true), ldb = ldmatrix_operand(precision_, ata(), false);
    const int ab = acc_bytes();
    std::vector<AccessSite> sites = {
        {"A from global memory", 'A', MemorySpace::Global, AccessKind::Load, site_bytes(kLoadA), copy('A', vec_a_),
         vec_a_ ? "chunk of a slab" : "element of a slab", kRecordLoadA},
        {"B from global memory", 'B', MemorySpace::Global, AccessKind::Load, site_bytes(kLoadB),
         copy(ata() ? 'A' : 'B', vec_b_), vec_b_ ? "chunk of a slab" : "element of a slab", kRecordLoadB},
        {"A into shared memory", 'A', MemorySpace::Shared, AccessKind::Store, site_bytes(kStoreA),
         store(ata() ? "the A tile [k][m]" : "the A tile [m][k]", vec_a_, sa),
         vec_a_ ? "chunk of a slab" : "element of a slab", kMmaAStored},
        {"B into shared memory", 'B', MemorySpace::Shared, AccessKind::Store, site_bytes(kStoreB),
         store("the B tile [k][n]", vec_b_, sb), vec_b_ ? "chunk of a slab" : "element of a slab", kMmaBStored},
        {"A out of shared memory", 'A', MemorySpace::Shared, AccessKind::Load, site_bytes(kReadA),
         lda ? std::string(ata() ? "ldmatrix.x4.trans" : "ldmatrix.x4") +
                   ": each lane gives the address of one 16-byte row of four 8 x 8 matrices, read eight rows a phase"
             : "ld.shared of one fragment element (scalar_a): four per instruction row",
         lda ? "instruction row mi of a k step" : "element of an instruction row", kMmaARead},
        {"B out of shared memory", 'B', MemorySpace::Shared, AccessKind::Load, site_bytes(kReadB),
         ldb ? std::string("ldmatrix.x4.trans: two 8-column instruction tiles' B at once, eight rows a phase")
             : "ld.shared of one fragment element (scalar_b): two per instruction column",
         ldb ? "pair of instruction columns of a k step" : "element of an instruction column", kMmaBRead},
        {"accumulators into the strip", 'C', MemorySpace::Shared, AccessKind::Store, site_bytes(kParkStrip),
         "strip[at], strip[at + 1] = a lane's two neighbouring accumulators: the compiler makes them one " +
             std::to_string(2 * ab) + "-byte store; rows padded by 8 so that the lanes spread over the banks",
         "pair of accumulators of an instruction row", kMmaStripStore, 2},
        {"a row of the strip out of shared memory", 'C', MemorySpace::Shared, AccessKind::Load,
         site_bytes(kReadStripRow), "load_vec: 16 bytes of a row of the strip, lanes side by side",
         "vector of an instruction row", kMmaStripRow},
        {"C to global memory", 'C', MemorySpace::Global, AccessKind::Store, site_bytes(kStoreC),
         ata() ? "16-byte stores of rows of C for i <= j; one element at a time at the right edge and the diagonal"
               : "16-byte stores of rows of C; one element at a time at the right edge",
         "vector of an instruction row, then its single elements", kRecordStoreC}};
    // cp.async's shared side is the same instruction as its global side.
    if (vec_a_) sites[kStoreA].async_copy_of = kLoadA;
    if (vec_b_) sites[kStoreB].async_copy_of = kLoadB;
    if (ata()) {
      sites.push_back({"a column of the strip out of shared memory", 'C', MemorySpace::Shared, AccessKind::Load,
                       site_bytes(kReadStripColumn),
                       "strip[(r + w) * LD + c]: the column of the strip that is a row of C's mirror",
                       "element of an instruction row", kMmaStripColumn});
      sites.push_back({"C's mirror to global memory", 'C', MemorySpace::Global, AccessKind::Store,
                       site_bytes(kStoreMirror),
                       "16-byte stores of C(j, i..) for i < j: the strip's columns are rows of the mirror",
                       "vector of an instruction row, then its single elements", kRecordStoreC});
    }
    return sites;
  }
  int site_steps(int site, int bx, int by) const override {
    if (!block_active(bx, by)) return 0;
    const int slabs = static_cast<int>(ceil_div(shape().K, p_.bk)), ksteps = p_.bk / kk_;
    switch (site) {
      case kLoadA:
      case kStoreA:
        return slabs * copies_per_slab(true);
      case kLoadB:
      case kStoreB:
        return slabs * copies_per_slab(false);
      case kReadA:
        return slabs * ksteps * mi_ * (ldmatrix_operand(precision_, ata(), true) ? 1 : 4);
      case kReadB:
        return slabs * ksteps * (ldmatrix_operand(precision_, ata(), false) ? ni_ / 2 : ni_ * 2);
      case kParkStrip:
        return mi_ * ni_ * 2;
      case kReadStripRow:
        return mi_ * row_rounds();
      case kStoreC:
        return mi_ * row_rounds() * (1 + vec());
      case kReadStripColumn:
        return ata() ? mi_ * column_rounds() * vec() : 0;
      case kStoreMirror:
        return ata() ? mi_ * column_rounds() * (1 + vec()) : 0;
    }
    return 0;
  }
  void warp_access(int site, int bx, int by, int warp, int step, WarpAccess* out) const override {
    out->bytes = site_bytes(site);
    if (!block_active(bx, by)) return;
    const TileRect c = c_tile(bx);
    const std::int64_t m0 = c.row0, n0 = c.col0;
    const int wm = warp / warps_n_, wn = warp % warps_n_;
    // AᵀA's diagonal blocks: the warps whose tile lies wholly below the diagonal only copy.
    const bool computes = !ata() || m0 != n0 || wm * p_.wm <= (wn + 1) * p_.wn - 1;
    switch (site) {
      case kLoadA:
      case kLoadB:
      case kStoreA:
      case kStoreB:
        return copy_access(site == kLoadA || site == kStoreA, site == kLoadA || site == kLoadB, m0, n0, warp, step,
                           out);
      case kReadA:
      case kReadB:
        if (computes) fragment_access(site == kReadA, wm, wn, step, out);
        return;
      default:
        if (computes) epilogue_access(site, m0, n0, warp, wm, wn, step, out);
        return;
    }
  }
  // C's stores: per instruction row mi, the rows of the strip, then (AᵀA) its columns: the
  // order the lanes record them in (their stream is one).
  std::vector<SiteStep> recorded_order(int stream, int bx, int by) const override {
    if (!ata() || stream != kRecordStoreC) return MappingModel::recorded_order(stream, bx, by);
    std::vector<SiteStep> order;
    const int rows = row_rounds() * (1 + vec()), columns = column_rounds() * (1 + vec());
    for (int mi = 0; mi < mi_ && block_active(bx, by); ++mi) {
      for (int s = 0; s < rows; ++s) order.push_back({kStoreC, mi * rows + s});
      for (int s = 0; s < columns; ++s) order.push_back({kStoreMirror, mi * columns + s});
    }
    return order;
  }

 private:
  int acc_bytes() const { return precision_ == Precision::F64 ? 8 : 4; }
  // A site's bytes per lane, as access_sites() lists them: warp_access runs for every warp and
  // step of a whole kernel's totals, where building the sites' words each time would cost more
  // than the addresses.
  int site_bytes(int site) const {
    switch (site) {
      case kLoadA:
      case kStoreA:
        return vec_a_ ? 16 : eb_;
      case kLoadB:
      case kStoreB:
        return vec_b_ ? 16 : eb_;
      case kReadA:
        return ldmatrix_operand(precision_, ata(), true) ? 16 : eb_;
      case kReadB:
        return ldmatrix_operand(precision_, ata(), false) ? 16 : eb_;
      case kParkStrip:
        return 2 * acc_bytes();
      case kReadStripColumn:
        return acc_bytes();
      default:
        return 16;  // the strip's rows, C and its mirror (single elements set their own)
    }
  }
  int vec() const { return 16 / acc_bytes(); }  // accumulators per 16-byte store of C
  int threads() const { return warps_of(p_) * 32; }
  // The epilogue's rounds of 32 lanes per instruction row: over the strip's row vectors
  // (store_rows), over its column vectors (store_mirrors).
  int row_rounds() const { return static_cast<int>(ceil_div(16 * (p_.wn / vec()), 32)); }
  int column_rounds() const { return static_cast<int>(ceil_div(p_.wn * (16 / vec()), 32)); }
  // A slab's tile of an operand: rows, columns, swizzle (05_mma_sync.cuh: a_tile_dims, b_tile_dims).
  MmaTileDims tile_dims(bool a) const {
    return a ? a_tile_dims(p_, precision_, ata()) : b_tile_dims(p_, precision_, ata());
  }
  // A thread's copies of one slab of an operand: 16-byte chunks, or elements (load_tile).
  int copies_per_slab(bool a) const {
    const MmaTileDims d = tile_dims(a);
    const int chunk = 16 / eb_;
    return (a ? vec_a_ : vec_b_) ? d.rows / (threads() / (d.cols / chunk)) : d.rows * d.cols / threads();
  }
  // Element offset of (row, col) in an operand's tile; the stage's first byte, and B's after A's.
  int tile_offset(bool a, int row, int col) const {
    const MmaTileDims d = tile_dims(a);
    return swizzled_offset(d.swizzle, eb_, d.cols, row, col);
  }
  std::int64_t stage_byte(int slab, bool a) const {
    const MmaTileDims da = tile_dims(true), db = tile_dims(false);
    const std::int64_t stage = static_cast<std::int64_t>(slab % p_.stages) * (da.rows * da.cols + db.rows * db.cols);
    return (stage + (a ? 0 : da.rows * da.cols)) * eb_;
  }

  // load_tile: thread tid copies chunk column tid % chunks of rows tid / chunks + l * row_step,
  // from the part of the matrix inside it (lanes outside read nothing; their zeros still land);
  // without 16-byte rows, elements tid, tid + threads, ...
  void copy_access(bool a, bool global, std::int64_t m0, std::int64_t n0, int warp, int step, WarpAccess* out) const {
    const MmaTileDims d = tile_dims(a);
    const bool vec = a ? vec_a_ : vec_b_;
    const int per = copies_per_slab(a), slab = step / per, l = step % per, chunk = 16 / eb_;
    const std::int64_t k0 = static_cast<std::int64_t>(slab) * p_.bk;
    // The slab's tile in its matrix: gemm A (m0, k0) of M x K; AᵀA A (k0, m0) of K x N; B (k0, n0) of K x N.
    const bool rows_m = a && !ata();
    const std::int64_t r0 = rows_m ? m0 : k0, c0 = a ? (ata() ? m0 : k0) : n0;
    const std::int64_t rows = rows_m ? shape().M : shape().K, cols = rows_m ? shape().K : shape().N;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const int tid = warp * kWarpLanes + lane;
      int r, col;
      if (vec) {
        const int chunks = d.cols / chunk;
        r = tid / chunks + l * (threads() / chunks);
        col = (tid % chunks) * chunk;
      } else {
        const int e = tid + l * threads();
        r = e / d.cols;
        col = e % d.cols;
      }
      const bool inside = r0 + r < rows && c0 + col < cols;
      if (global) {
        if (inside) out->address[lane] = ((r0 + r) * cols + c0 + col) * eb_;
      } else {
        out->address[lane] = stage_byte(slab, a) + static_cast<std::int64_t>(tile_offset(a, r, col)) * eb_;
      }
    }
  }

  // load_fragments: the lane's own offset (a_lane_offset, b_lane_offset) with the k step's and
  // the instruction's rows and columns added as SmemTile::fragment_offset adds them.
  void fragment_access(bool a, int wm, int wn, int step, WarpAccess* out) const {
    const MmaTileDims d = tile_dims(a);
    const int chunk = 16 / eb_, ksteps = p_.bk / kk_;
    const bool ldm = ldmatrix_operand(precision_, ata(), a);
    auto fragment_offset = [&](int lane_offset, int R, int C) {
      return (lane_offset ^ (C / chunk * chunk)) + R * d.cols;
    };
    const int per_step = a ? (ldm ? mi_ : mi_ * 4) : (ldm ? ni_ / 2 : ni_ * 2);
    const int slab = step / (ksteps * per_step), k0 = (step / per_step) % ksteps * kk_, j = step % per_step;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      int offset;
      if (a) {
        const int wm0 = wm * p_.wm;
        int lane_a;
        if (ldm) {
          const TileCoord c = ata() ? ldmatrix_a_trans(lane) : ldmatrix_a_rows(lane, chunk);
          lane_a = ata() ? tile_offset(true, c.row, wm0 + c.col) : tile_offset(true, wm0 + c.row, c.col);
          offset = ata() ? fragment_offset(lane_a, k0, j * 16) : fragment_offset(lane_a, j * 16, k0);
        } else {
          const TileCoord c = scalar_a(lane, 0);
          lane_a = ata() ? tile_offset(true, c.col, wm0 + c.row) : tile_offset(true, wm0 + c.row, c.col);
          const int mi = j / 4, i = j % 4, m = mi * 16 + 8 * (i % 2), k = k0 + 4 * (i / 2);
          offset = ata() ? fragment_offset(lane_a, k, m) : fragment_offset(lane_a, m, k);
        }
      } else {
        const int wn0 = wn * p_.wn;
        const TileCoord c = ldm ? ldmatrix_b_trans(lane) : scalar_b(lane, 0);
        const int lane_b = tile_offset(false, c.row, wn0 + c.col);
        offset = ldm ? fragment_offset(lane_b, k0, j * 16) : fragment_offset(lane_b, k0 + 4 * (j % 2), (j / 2) * 8);
      }
      out->address[lane] = stage_byte(slab, a) + static_cast<std::int64_t>(offset) * eb_;
    }
  }

  // write_c, per instruction row mi: park_strip, store_rows, store_mirrors. The strip's rows are
  // WN + 8 accumulators apart, warp w's 16 rows after the warps before it.
  void epilogue_access(int site, std::int64_t m0, std::int64_t n0, int warp, int wm, int wn, int step,
                       WarpAccess* out) const {
    const int ab = acc_bytes(), V = vec(), ld = strip_ld(p_);
    const std::int64_t strip = static_cast<std::int64_t>(warp) * 16 * ld, M = shape().M, N = shape().N;
    const bool vec_c = N % V == 0;  // rows of C 16-byte aligned (C itself is)
    const int per_mi = site_steps(site, 0, 0) / mi_, mi = step / per_mi, s = step % per_mi;
    const std::int64_t i0 = m0 + static_cast<std::int64_t>(wm) * p_.wm + mi * 16,
                       j0 = n0 + static_cast<std::int64_t>(wn) * p_.wn;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const int g = lane / 4, t = lane % 4;
      std::int64_t& at = out->address[lane];
      if (site == kParkStrip) {
        const int ni = s / 2, h = s % 2;
        at = (strip + (g + 8 * h) * ld + ni * 8 + 2 * t) * ab;
        continue;
      }
      const bool rows = site == kReadStripRow || site == kStoreC;
      // The round's item, and in a store, which of its instructions: 0 the vector, 1 + w element w.
      const int form = site == kStoreC || site == kStoreMirror ? s % (1 + V) : 0;
      const int round = site == kStoreC || site == kStoreMirror ? s / (1 + V) : site == kReadStripColumn ? s / V : s;
      const int item = lane + 32 * round, per = rows ? p_.wn / V : 16 / V;
      if (item >= 16 * (p_.wn / V)) continue;
      const int r = rows ? item / per : (item % per) * V, cc = rows ? (item % per) * V : item / per;
      const std::int64_t i = i0 + r, j = j0 + cc;
      if (rows) {
        if (i >= M) continue;
        if (site == kReadStripRow) {
          at = (strip + r * ld + cc) * ab;
          continue;
        }
        const bool vector = vec_c && j + V <= N && (!ata() || i <= j);
        if (form == 0 && vector) at = (i * N + j) * ab;
        if (form > 0 && !vector && j + form - 1 < N && (!ata() || i <= j + form - 1)) at = (i * N + j + form - 1) * ab;
      } else {
        if (j >= N) continue;
        if (site == kReadStripColumn) {
          at = (strip + (r + s % V) * ld + cc) * ab;
          continue;
        }
        // C(j, i .. i + V - 1) from the strip's column.
        const bool vector = vec_c && i + V - 1 < j;
        if (form == 0 && vector) at = (j * N + i) * ab;
        if (form > 0 && !vector && i + form - 1 < j) at = (j * N + i + form - 1) * ab;
      }
    }
    if (site == kStoreC || site == kStoreMirror) out->bytes = s % (1 + V) == 0 ? 16 : ab;
  }

  MmaParams p_;
  Precision precision_;
  int kk_ = 16, eb_ = 2, warps_n_ = 1, mi_ = 1, ni_ = 1;
  bool vec_a_ = false, vec_b_ = false;
  FragmentPicture picture_;
};

TileConfig mma_config(const MmaParams& p, const std::string& name, const char* description, const char* math) {
  TileConfig c;
  c.name = name;
  c.description = description;
  c.bm = p.bm;
  c.bn = p.bn;
  c.bk = p.bk;
  c.warp_m = p.wm;
  c.warp_n = p.wn;
  c.stages = p.stages;
  c.threads_x = 32;
  c.threads_y = warps_of(p);
  c.math = math;
  return c;
}

TileConfig row_config(const MmaRow& row) {
  return mma_config(row.tile, config_name(row), row.description,
                    row.family == Family::Bits16 ? "mma.sync m16n8k16 tensor cores, FP32 accumulation"
                    : row.family == Family::Tf32 ? "mma.sync m16n8k8 TF32 tensor cores, FP32 accumulation"
                                                 : "mma.sync m16n8k8 FP64 tensor cores (DMMA)");
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
  v.configs = configs_of(kParams, row_config);
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
  v.model = [](int config_index, Problem problem, Precision precision,
               const Shape& shape) -> std::unique_ptr<MappingModel> {
    return std::make_unique<MmaModel>(params_at(config_index), problem, precision, normalised(problem, shape));
  };
  v.tile_params = kTileParams;
  v.tile_values_of = mma_tile_values;
  v.typed_config = mma_typed_config;
  v.model_caps.mirrored_ata = true;
  v.model_caps.warp_level = true;
  return v;
}();

}  // namespace tilescope
