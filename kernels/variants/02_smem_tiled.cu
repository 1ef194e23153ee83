// 02 smem_tiled — TILE x TILE tiles of A and B staged in shared memory.
//
// The launch file of smem_tiled: descriptor, launch, mapping model; the story and the kernel are
// in 02_smem_tiled.cuh.
#include <algorithm>

#include "kernels/core/kernel_common.cuh"
#include "kernels/core/kernel_names.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "kernels/core/variant_launch.cuh"
#include "kernels/instrument/probe.cuh"
#include "kernels/jit/jit_kernels.h"
#include "kernels/jit/kernel_calls.h"
#include "kernels/variants/02_smem_tiled.cuh"

namespace tilescope {

extern const VariantDescriptor kSmemTiledVariant;

namespace {

// The one kernel of a launch: its template arguments are chosen here and nowhere else (TILE by
// the configuration's bm, kAta by tiled_ata), so that smem_tiled_kernel_for names exactly the
// kernel the launch runs and smem_tiled_kernel_names spells it for NVRTC.
bool tiled_ata(Problem p) {
  return p == Problem::Ata;
}

template <typename T, int TILE, typename Probe>
auto tiled_kernel(Problem p) {
  return tiled_ata(p) ? smem_tiled_kernel<T, TILE, true, Probe> : smem_tiled_kernel<T, TILE, false, Probe>;
}

template <typename T, typename Probe>
auto tiled_kernel(Problem p, int tile) {
  switch (tile) {
    case 8:
      return tiled_kernel<T, 8, Probe>(p);
    case 16:
      return tiled_kernel<T, 16, Probe>(p);
    case 32:
      return tiled_kernel<T, 32, Probe>(p);
    default:
      throw GpuError("smem_tiled was not compiled for TILE = " + std::to_string(tile));
  }
}

// The name expression of the kernel, as NVRTC compiles it.
std::string smem_tiled_kernel_name(int tile, Precision q, Problem p, const char* probe) {
  return kernel_name("smem_tiled_kernel", {fma_element_type(q), std::to_string(tile), cpp_bool(tiled_ata(p)), probe});
}

std::vector<std::string> smem_tiled_kernel_names(const TileConfig& cfg, Precision q, Problem p) {
  return {smem_tiled_kernel_name(cfg.bm, q, p, kNoProbeName)};
}

// The kernel of a launch: from the compiled set, or, for a typed tile, compiled at run time from
// the same text with the probe the launch asks for.
template <typename T, typename Probe>
KernelLaunchShape kernel_of_launch(const GemmArgs& g, int config_index) {
  const TileConfig& cfg = config_at(kSmemTiledVariant, config_index);
  KernelLaunchShape k{nullptr, cfg.threads(), 0};
  if (is_typed_config(kSmemTiledVariant, config_index)) {
    const ProbeSpelling probe = probe_spelling<Probe>();
    k.kernel =
        jit_kernel(kSmemTiledVariant, smem_tiled_kernel_name(cfg.bm, g.precision, g.problem, probe.name), probe.header)
            .kernel;
    k.run_time_compiled = true;
  } else {
    k.kernel = reinterpret_cast<const void*>(tiled_kernel<T, Probe>(g.problem, cfg.bm));
  }
  return k;
}

KernelLaunchShape smem_tiled_kernel_for(const GemmArgs& g, int config_index) {
  return with_fma_type(g.precision,
                       [&](auto element) { return kernel_of_launch<decltype(element), NoProbe>(g, config_index); });
}

struct SmemTiledLaunch {
  template <typename Probe>
  static void run(const GemmArgs& g, int config_index, const Probe& probe) {
    const int tile = config_at(kSmemTiledVariant, config_index).bm;
    with_fma_type(g.precision, [&](auto element) {
      using T = decltype(element);
      int M = static_cast<int>(g.shape.M), N = static_cast<int>(g.shape.N), K = static_cast<int>(g.shape.K);
      const dim3 block(tile, tile);
      const dim3 grid = checked_grid(ceil_div(N, tile), ceil_div(M, tile));
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

std::size_t smem_tiled_shared_bytes(const TileConfig& cfg, Precision p) {
  return 2u * cfg.bm * cfg.bm * element_bytes(p);
}

// ---- the mapping model ---------------------------------------------------------------------
// What smem_tiled_kernel does, as plain host code: one output per thread (as naive), and in phase
// p the block stages rows/columns [p * TILE, (p + 1) * TILE) of k of both operands, one element
// per thread, the out-of-matrix ones replaced by 0 without a read.
class SmemTiledModel final : public MappingModel {
 public:
  SmemTiledModel(int tile, Problem problem, Precision precision, const Shape& shape)
      : ata_(problem == Problem::Ata),
        bytes_(static_cast<int>(element_bytes(precision))),
        t_(tile),
        s_(shape),
        grid_{static_cast<int>(ceil_div(shape.N, tile)), static_cast<int>(ceil_div(shape.M, tile))} {}

  Dim2 grid() const override { return grid_; }
  Dim2 block() const override { return {t_, t_}; }
  int phases() const override { return static_cast<int>(ceil_div(s_.K, t_)); }
  bool block_active(int, int) const override { return true; }
  Owner owner(std::int64_t i, std::int64_t j) const override {
    Owner o;
    o.block_x = static_cast<int>(j / t_);
    o.block_y = static_cast<int>(i / t_);
    o.thread_x = static_cast<int>(j % t_);
    o.thread_y = static_cast<int>(i % t_);
    return o;
  }
  // Gemm: rows of the block x this phase's k of A. AᵀA: this phase's k x the block row's
  // columns of A (loaded as A[k][m], read transposed from shared memory).
  TileRect a_tile(int, int by, int phase) const override {
    const TileRect rows = span(by, s_.M), ks = span(phase, s_.K);
    return ata_ ? TileRect{ks.row0, ks.row1, rows.row0, rows.row1} : TileRect{rows.row0, rows.row1, ks.row0, ks.row1};
  }
  TileRect b_tile(int bx, int, int phase) const override {
    const TileRect cols = span(bx, s_.N), ks = span(phase, s_.K);
    return {ks.row0, ks.row1, cols.row0, cols.row1};
  }
  void thread_loads(int bx, int by, int tx, int ty, int phase, int piece, std::vector<ElementRef>* a,
                    std::vector<ElementRef>* b) const override {
    a->clear();
    b->clear();
    if (piece != 0 || phase < 0 || phase >= phases()) return;
    const std::int64_t k0 = static_cast<std::int64_t>(phase) * t_;
    const std::int64_t row = static_cast<std::int64_t>(by) * t_ + ty, col = static_cast<std::int64_t>(bx) * t_ + tx;
    if (ata_) {
      const std::int64_t k = k0 + ty, m = static_cast<std::int64_t>(by) * t_ + tx;
      if (k < s_.K && m < s_.M) a->push_back({k, m});
    } else {
      const std::int64_t k = k0 + tx;
      if (row < s_.M && k < s_.K) a->push_back({row, k});
    }
    const std::int64_t k = k0 + ty;
    if (k < s_.K && col < s_.N) b->push_back({k, col});
  }
  // Phase p: every thread stages one element of each tile, then reads a row of the A tile and a
  // column of the B tile from shared memory, TILE steps (zeros past K included).
  PhaseWork phase_work(int bx, int by, int phase) const override {
    PhaseWork w;
    const TileRect ks = span(phase, s_.K), rows = span(by, s_.M), cols = span(bx, s_.N);
    w.k0 = ks.row0;
    w.k1 = ks.row1;
    w.steps = t_;
    w.outputs = (rows.row1 - rows.row0) * (cols.row1 - cols.row0);
    const std::string t = std::to_string(t_), threads = std::to_string(t_ * t_);
    w.global = {2LL * t_, "2 x TILE", "2 x " + t};
    w.shared = {2LL * t_ * t_, "2 x threads", "2 x " + threads};
    w.words.push_back("Each of the block's " + t + " x " + t + " threads loaded one element of the " + t + " x " + t +
                      " tile of " + (ata_ ? "Aᵀ (loaded as rows of A, read transposed)" : "A") +
                      " and one of the tile of " + (ata_ ? "A" : "B") +
                      " from global memory and stored them in shared memory (0 without a load outside the matrices); "
                      "a barrier, so that the tiles are whole before anyone reads them.");
    w.words.push_back("Then each thread read " + t +
                      " values of each tile from shared memory, a row of the first and a "
                      "column of the second, and added their products to its one element of C; a second barrier "
                      "before the tiles are overwritten. Every element loaded is used by " +
                      t + " threads.");
    return w;
  }
  // Gemm: A(r, k) is staged once by each of the ceil(N / TILE) blocks of block row r / TILE;
  // B(k, c) once by each of the ceil(M / TILE) blocks of block column c / TILE. AᵀA: both roles.
  std::int64_t a_reads(std::int64_t, std::int64_t) const override {
    return ata_ ? 2 * ceil_div(s_.N, t_) : ceil_div(s_.N, t_);
  }
  std::int64_t b_reads(std::int64_t, std::int64_t) const override { return ata_ ? 0 : ceil_div(s_.M, t_); }
  // Every element of a matrix is read equally often: the totals are the count times the size.
  std::int64_t a_reads_total(std::int64_t rows, std::int64_t cols) const override {
    return rows * cols * a_reads(0, 0);
  }
  std::int64_t b_reads_total(std::int64_t rows, std::int64_t cols) const override {
    return rows * cols * b_reads(0, 0);
  }
  // Seven memory instructions: per phase each thread loads one element of each tile and stores it
  // into shared memory; per k it reads As and Bs; at the end it stores its element of C.
  enum Site { kLoadA, kLoadB, kStoreAs, kStoreBs, kReadAs, kReadBs, kStoreC };
  std::vector<AccessSite> access_sites() const override {
    const int wa = a_read_width();
    const std::string as_read =
        ata_ ? "As[kk][ty]: a column of the tile, one element per k"
             : "As[ty][kk]" + (wa > 1 ? " ... As[ty][kk + " + std::to_string(wa - 1) + "]: the compiler reads " +
                                            std::to_string(wa) + " neighbouring k as one " +
                                            std::to_string(wa * bytes_) + "-byte vector"
                                      : std::string(": one element per k"));
    return {{"A from global memory", 'A', MemorySpace::Global, AccessKind::Load, bytes_,
             ata_ ? "A[k0 + ty][m]: the tile of Aᵀ read as rows of A" : "A[row][k0 + tx]", "phase", kRecordLoadA},
            {"B from global memory", 'B', MemorySpace::Global, AccessKind::Load, bytes_, "B[k0 + ty][col]", "phase",
             kRecordLoadB},
            {"A into shared memory", 'A', MemorySpace::Shared, AccessKind::Store, bytes_, "As[ty][tx] = ...", "phase",
             kSmemAsStored},
            {"B into shared memory", 'B', MemorySpace::Shared, AccessKind::Store, bytes_, "Bs[ty][tx] = ...", "phase",
             kSmemBsStored},
            {"A out of shared memory", 'A', MemorySpace::Shared, AccessKind::Load, bytes_ * wa, as_read,
             wa > 1 ? "vector of k" : "k", kSmemAsRead, wa},
            {"B out of shared memory", 'B', MemorySpace::Shared, AccessKind::Load, bytes_,
             "Bs[kk][tx]: a row of the tile, one element per k", "k", kSmemBsRead},
            {"C to global memory", 'C', MemorySpace::Global, AccessKind::Store, bytes_, "C[row][col] = acc", "store",
             kRecordStoreC}};
  }
  int site_steps(int site, int, int) const override {
    const int p = phases();
    switch (site) {
      case kReadAs:
        return p * (t_ / a_read_width());
      case kReadBs:
        return p * t_;
      case kStoreC:
        return 1;
      default:
        return p;
    }
  }
  void warp_access(int site, int bx, int by, int warp, int step, WarpAccess* out) const override {
    const std::int64_t tile_bytes = static_cast<std::int64_t>(t_) * t_ * bytes_;  // As, then Bs
    const int wa = a_read_width();
    out->bytes = site == kReadAs ? bytes_ * wa : bytes_;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const int t = warp * kWarpLanes + lane;
      if (t >= t_ * t_) break;
      const int tx = t % t_, ty = t / t_;
      const std::int64_t row = static_cast<std::int64_t>(by) * t_ + ty, col = static_cast<std::int64_t>(bx) * t_ + tx;
      const std::int64_t k0 = static_cast<std::int64_t>(step) * t_;  // the phase's first k (loads, stores)
      std::int64_t a = -1;
      switch (site) {
        case kLoadA:
          if (ata_) {
            const std::int64_t k = k0 + ty, m = static_cast<std::int64_t>(by) * t_ + tx;
            if (k < s_.K && m < s_.M) a = (k * s_.N + m) * bytes_;
          } else if (row < s_.M && k0 + tx < s_.K) {
            a = (row * s_.K + k0 + tx) * bytes_;
          }
          break;
        case kLoadB:
          if (k0 + ty < s_.K && col < s_.N) a = ((k0 + ty) * s_.N + col) * bytes_;
          break;
        case kStoreAs:
          a = (static_cast<std::int64_t>(ty) * t_ + tx) * bytes_;
          break;
        case kStoreBs:
          a = tile_bytes + (static_cast<std::int64_t>(ty) * t_ + tx) * bytes_;
          break;
        case kReadAs: {
          const int kk = (step % (t_ / wa)) * wa;
          a = (ata_ ? static_cast<std::int64_t>(kk) * t_ + ty : static_cast<std::int64_t>(ty) * t_ + kk) * bytes_;
          break;
        }
        case kReadBs:
          a = tile_bytes + (static_cast<std::int64_t>(step % t_) * t_ + tx) * bytes_;
          break;
        case kStoreC:
          if (row < s_.M && col < s_.N) a = (row * s_.N + col) * bytes_;
          break;
      }
      out->address[lane] = a;
    }
  }
  std::string reads_summary() const override {
    const std::string t = std::to_string(t_);
    if (ata_)
      return "each element of A is read 2 ceil(N / " + t + ") = " + std::to_string(2 * ceil_div(s_.N, t_)) +
             " times from global memory: once per block of its block row (as A^T) and once per block of its block "
             "column";
    return "each element of A is read ceil(N / " + t + ") = " + std::to_string(ceil_div(s_.N, t_)) +
           " times and each element of B ceil(M / " + t + ") = " + std::to_string(ceil_div(s_.M, t_)) +
           " times from global memory (naive: N and M)";
  }

 private:
  // [index * TILE, (index + 1) * TILE) clipped to [0, n), in row0/row1.
  TileRect span(int index, std::int64_t n) const {
    const std::int64_t lo = std::min<std::int64_t>(static_cast<std::int64_t>(index) * t_, n);
    return {lo, std::min<std::int64_t>(lo + t_, n), 0, 0};
  }

  // How many elements of a row of As the compiler reads as one vector in gemm: the unrolled
  // As[ty][kk], As[ty][kk + 1], ... lie side by side, so it merges them into the widest access
  // (<= 16 bytes) that divides the row (LDS.128 for float tiles of 8, 16, 32; the compiled code's
  // listing shows it). AᵀA reads As[kk][ty], a column: one element at a time.
  int a_read_width() const {
    if (ata_) return 1;
    int w = 16 / bytes_;
    while (w > 1 && t_ % w != 0) w /= 2;
    return w;
  }

  bool ata_;
  int bytes_;  // of an element
  int t_;
  Shape s_;
  Dim2 grid_;
};

std::unique_ptr<MappingModel> smem_tiled_model(int config_index, Problem problem, Precision precision,
                                               const Shape& shape) {
  return std::make_unique<SmemTiledModel>(config_at(kSmemTiledVariant, config_index).bm, problem, precision,
                                          normalised(problem, shape));
}

TileConfig tile_config(int tile, const char* description) {
  TileConfig c;
  c.name = std::to_string(tile);
  c.description = description;
  c.bm = c.bn = c.bk = tile;
  c.threads_x = c.threads_y = tile;
  c.math = "FP32 / FP64 FMA";
  return c;
}

// ---- tiles a learner types (kernels/core/typed_configs.h) -------------------------------------
const std::vector<TileParam> kTileParams = {{"tile", "rows and columns of C per block, one element per thread"}};

TileValues smem_tiled_tile_values(const TileConfig& cfg) {
  return {{"tile", cfg.bm}};
}

bool smem_tiled_typed_config(const TileValues& values, TileConfig* out, std::string* why) {
  const int tile = tile_value(values, "tile", 0);
  if (tile < 1 || tile > 32) {
    *why = "tile = " + std::to_string(tile) + ": a block of tile x tile threads needs 1 <= tile <= 32 (1024 threads)";
    return false;
  }
  *out = tile_config(tile, "a tile typed by the learner, compiled at run time");
  return true;
}

}  // namespace

extern const VariantDescriptor kSmemTiledVariant = [] {
  VariantDescriptor v;
  v.id = "smem_tiled";
  v.label = "Shared-memory tiled";
  v.summary =
      "The block's threads cooperatively copy a TILE x TILE tile of A and of B into fast on-chip "
      "shared memory, wait for each other, then each thread multiplies from there. Every element "
      "fetched from global memory is now reused TILE times.";
  v.configs = {tile_config(8, "8 x 8 tiles: each element fetched from global memory serves 8 products"),
               tile_config(16, "16 x 16 tiles, the textbook's choice: 16 products per fetched element"),
               tile_config(32, "32 x 32 tiles: 32 products per fetch, 1024 threads and 8 KB (float) per block")};
  v.default_config = config_named(v.configs, "16");  // the textbook's choice
  set_launches<SmemTiledLaunch>(v);
  v.kernel_for = smem_tiled_kernel_for;
  v.kernel_text = "kernels/variants/02_smem_tiled.cuh";
  v.kernel_names = smem_tiled_kernel_names;
  v.shared_bytes = smem_tiled_shared_bytes;
  v.model = smem_tiled_model;
  v.tile_params = kTileParams;
  v.tile_values_of = smem_tiled_tile_values;
  v.typed_config = smem_tiled_typed_config;
  return v;
}();

}  // namespace tilescope
