// 06 wgmma_tma — Hopper's own road to the tensor cores: warpgroups multiply straight out of shared
// memory (wgmma), the copy engine fills it (TMA), and the block splits into a warpgroup that copies
// and warpgroups that compute, handing the stages of a ring to each other through mbarriers.
// Built for sm_90a only (CMakeLists.txt reads this line of the launch file, which includes the
// kernel text): wgmma and setmaxnreg exist nowhere else.
//
// The launch file of wgmma_tma: descriptor, tensor maps, launch, mapping model; the story, the
// compiled set and the kernel are in 06_wgmma_tma.cuh.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "kernels/core/kernel_common.cuh"
#include "kernels/core/kernel_names.h"
#include "kernels/core/variant.h"
#include "kernels/core/variant_launch.cuh"
#include "kernels/cuda/sm90a_build.h"
#include "kernels/instrument/probe.cuh"
#include "kernels/instrument/timeline_probe.cuh"
#include "kernels/models/block_tile_model.h"
#include "kernels/models/fragment_model.h"
#include "kernels/variants/06_wgmma_tma.cuh"

namespace tilescope {

extern const VariantDescriptor kWgmmaTmaVariant;

namespace {

constexpr int kNumConfigs = sizeof(kParams) / sizeof(kParams[0]);

// Copies a rows x cols matrix of 16-bit values between leading dimensions (to give the TMA
// 16-byte aligned rows).
__global__ void copy_rows_kernel(const std::uint16_t* __restrict__ src, std::int64_t src_ld,
                                 std::uint16_t* __restrict__ dst, std::int64_t dst_ld, std::int64_t rows,
                                 std::int64_t cols) {
  const std::int64_t total = rows * cols;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    dst[(e / cols) * dst_ld + e % cols] = src[(e / cols) * src_ld + e % cols];
}

// "128x256_s4": the block tile, the stages; _w1 for one consumer warpgroup where the tile would
// have more, _np for one block per tile, _st for C stored through shared memory by the TMA, _c2 for
// clusters of two.
std::string config_name(const WgmmaParams& p) {
  return std::to_string(p.bm) + "x" + std::to_string(p.bn) + "_s" + std::to_string(p.stages) +
         (p.consumers * 64 != p.bm ? "_w" + std::to_string(p.consumers) : "") + (p.persistent ? "" : "_np") +
         (p.tma_store ? "_st" : "") + (p.cluster > 1 ? "_c" + std::to_string(p.cluster) : "");
}

// ---- tensor maps ----------------------------------------------------------------------------------
// cuTensorMapEncodeTiled is a driver function; the runtime hands out its address, so the program
// links no driver library.
PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encoder = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || fn == nullptr)
      throw GpuError("the CUDA driver offers no cuTensorMapEncodeTiled (it needs a CUDA 12 driver)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }();
  return encoder;
}

// A 2-D map of a row-major rows x cols matrix (leading dimension ld elements, 16-byte aligned
// rows), read or written in boxes of box_cols x box_rows, 128-byte swizzled; outside the matrix,
// reads give zeros and writes are dropped.
CUtensorMap make_tensor_map(const void* base, CUtensorMapDataType type, int element_bytes, std::int64_t rows,
                            std::int64_t cols, std::int64_t ld, int box_cols, int box_rows) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(ld) * static_cast<cuuint64_t>(element_bytes)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = tensor_map_encoder()(&map, type, 2, const_cast<void*>(base), dims, strides, box, element_strides,
                                          CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                          CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw GpuError("cuTensorMapEncodeTiled failed (CUresult " + std::to_string(static_cast<int>(r)) + ") for a " +
                   std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
  return map;
}
// The inputs: 16-bit values.
CUtensorMap make_input_map(const void* base, Precision precision, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                           int box_cols, int box_rows) {
  return make_tensor_map(
      base, precision == Precision::BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, rows,
      cols, ld, box_cols, box_rows);
}

// A matrix as the TMA can read it: the caller's own when its rows are 16-byte aligned, otherwise a
// copy with a leading dimension rounded up to 8 (freed, stream-ordered, with this object).
class TmaOperand {
 public:
  TmaOperand(const void* data, std::int64_t rows, std::int64_t cols, cudaStream_t stream)
      : data_(data), ld_(cols), stream_(stream) {
    if (reinterpret_cast<std::uintptr_t>(data) % 16 == 0 && cols % 8 == 0) return;
    ld_ = (cols + 7) / 8 * 8;
    CUDA_CHECK(cudaMallocAsync(&copy_, static_cast<std::size_t>(rows * ld_) * 2, stream));
    const std::int64_t blocks = std::min<std::int64_t>(ceil_div(rows * cols, 256), 4096);
    copy_rows_kernel<<<static_cast<unsigned>(std::max<std::int64_t>(blocks, 1)), 256, 0, stream>>>(
        static_cast<const std::uint16_t*>(data), cols, static_cast<std::uint16_t*>(copy_), ld_, rows, cols);
    CUDA_CHECK_LAUNCH("copy_rows_kernel");
    data_ = copy_;
  }
  ~TmaOperand() {
    if (copy_) cudaFreeAsync(copy_, stream_);  // a failure here surfaces at the next checked call
  }
  TmaOperand(const TmaOperand&) = delete;
  TmaOperand& operator=(const TmaOperand&) = delete;
  const void* data() const { return data_; }
  std::int64_t ld() const { return ld_; }

 private:
  const void* data_;
  std::int64_t ld_;
  cudaStream_t stream_;
  void* copy_ = nullptr;
};

// ---- launching --------------------------------------------------------------------------------
// The template arguments of the kernel visit_config hands over (value: CFG), for those who spell it.
template <Precision P, int CFG, bool kAta>
struct KernelTag {
  static constexpr int value = CFG;
};

template <int CFG, typename Probe, typename Fn>
void visit_config(const GemmArgs& g, Fn&& fn) {
  static_assert(kParams[CFG].consumers <= kTimelineMaxConsumers, "the timeline stamps at most this many consumers");
  const bool ata = g.problem == Problem::Ata;
  auto by_problem = [&](auto precision_tag) {
    constexpr Precision P = decltype(precision_tag)::value;
    if (!ata)
      fn(wgmma_tma_kernel<P, CFG, false, Probe>, KernelTag<P, CFG, false>{});
    else if constexpr (kParams[CFG].bm == kParams[CFG].bn && kParams[CFG].cluster == 1)  // AᵀA: square, alone
      fn(wgmma_tma_kernel<P, CFG, true, Probe>, KernelTag<P, CFG, true>{});
    else
      throw GpuError("configuration " + config_name(kParams[CFG]) + " has no AᵀA kernel: BM must equal BN");
  };
  if (g.precision == Precision::BF16)
    by_problem(std::integral_constant<Precision, Precision::BF16>{});
  else
    by_problem(std::integral_constant<Precision, Precision::F16>{});
}

// Calls visit_config for the row of config_index (a run-time index, a compile-time row).
template <typename Probe, typename Fn>
void visit_kernel(const GemmArgs& g, int config_index, Fn&& fn) {
  with_row<kNumConfigs>(kWgmmaTmaVariant, config_index,
                        [&](auto row) { visit_config<decltype(row)::value, Probe>(g, fn); });
}

std::int64_t tile_count(const WgmmaParams& p, Problem problem, const Shape& s) {
  return block_tile_count(problem == Problem::Ata, static_cast<int>(ceil_div(s.M, p.bm)),
                          static_cast<int>(ceil_div(s.N, p.bn)));
}

// What the blocks share out: tiles, or for clusters groups of p.cluster tiles one above the other.
std::int64_t work_count(const WgmmaParams& p, Problem problem, const Shape& s) {
  if (p.cluster == 1) return tile_count(p, problem, s);
  return ceil_div(ceil_div(s.M, p.bm), p.cluster) * ceil_div(s.N, p.bn);
}

// A launch of `blocks` blocks (clusters of p.cluster) of a configuration on `stream`.
struct Launch {
  cudaLaunchAttribute cluster{};
  cudaLaunchConfig_t config{};
  Launch(const WgmmaParams& p, std::int64_t blocks, int threads, std::size_t shared, cudaStream_t stream) {
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = static_cast<unsigned>(p.cluster);
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    config.gridDim = checked_grid(blocks, 1);
    config.blockDim = dim3(static_cast<unsigned>(threads));
    config.dynamicSmemBytes = shared;
    config.stream = stream;
    config.attrs = &cluster;
    config.numAttrs = p.cluster > 1 ? 1 : 0;
  }
};

// How many clusters of a kernel (its launch configuration's cluster size, threads and shared
// memory) the GPU places at once. It depends on the kernel and the device alone, so it is asked
// once per pair rather than before every timed launch.
int resident_clusters(const void* kernel, const cudaLaunchConfig_t& config) {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  static std::mutex guard;
  static std::map<std::pair<const void*, int>, int> known;
  const std::lock_guard<std::mutex> lock(guard);
  const auto key = std::make_pair(kernel, device);
  if (const auto it = known.find(key); it != known.end()) return it->second;
  int clusters = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
  known[key] = clusters;
  return clusters;
}

// Blocks of the launch: one per tile (per tile of a group), or for the persistent configurations
// as many as are resident at once: one per SM, or as many clusters as the GPU can place together.
// The kernel's shared-memory attribute must be set.
template <int CFG, typename Kernel>
std::int64_t blocks_of(Problem problem, const Shape& s, Kernel kernel) {
  using S = WgShape<CFG>;
  const std::int64_t works = work_count(S::p, problem, s);
  if (!S::p.persistent) return works * S::p.cluster;
  if (S::p.cluster == 1) {
    int device = 0, sms = 1;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return std::min<std::int64_t>(works, sms);
  }
  const Launch probe_launch(S::p, S::p.cluster, S::kThreads, S::kShared, nullptr);
  const int clusters = resident_clusters(reinterpret_cast<const void*>(kernel), probe_launch.config);
  if (clusters < 1)
    throw GpuError("this GPU cannot place a cluster of " + std::to_string(S::p.cluster) + " blocks of " +
                   std::to_string(S::kShared / 1024) + " KB of shared memory");
  return std::min<std::int64_t>(works, clusters) * S::p.cluster;
}

// The timed, traced and timeline launches differ only in the probe.
template <typename Probe>
void launch_with(const GemmArgs& g, int config_index, const Probe& probe) {
  visit_kernel<Probe>(g, config_index, [&](auto kernel, auto cfg_tag) {
    constexpr int CFG = decltype(cfg_tag)::value;
    using S = WgShape<CFG>;
    const Shape& s = g.shape;
    const bool ata = g.problem == Problem::Ata;
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(S::kShared)));
    // A: gemm M x K, AᵀA K x N; B: K x N.
    const TmaOperand a(g.a, ata ? s.K : s.M, ata ? s.N : s.K, g.stream);
    const std::unique_ptr<TmaOperand> b = ata ? nullptr : std::make_unique<TmaOperand>(g.b, s.K, s.N, g.stream);
    const CUtensorMap a_map = ata ? make_input_map(a.data(), g.precision, s.K, s.N, a.ld(), 64, kBK)
                                  : make_input_map(a.data(), g.precision, s.M, s.K, a.ld(), kBK, S::p.bm);
    const CUtensorMap b_map = ata ? a_map : make_input_map(b->data(), g.precision, s.K, s.N, b->ld(), 64, kBK);
    // C by TMA stores where its rows are 16-byte aligned; otherwise (and where the configuration
    // stores from the registers) the map is a stand-in the kernel never reads.
    const bool use_c_map = S::p.tma_store && reinterpret_cast<std::uintptr_t>(g.c) % 16 == 0 && s.N % 4 == 0;
    const CUtensorMap c_map =
        use_c_map ? make_tensor_map(g.c, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, s.M, s.N, s.N, kCBoxCols, 64) : a_map;
    const CUtensorMap m_map =
        use_c_map && ata ? make_tensor_map(g.c, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, s.M, s.N, s.N, kCBoxCols, 32)
                         : a_map;
    const bool vec_c = reinterpret_cast<std::uintptr_t>(g.c) % 8 == 0 && s.N % 2 == 0;
    const Launch launch(S::p, blocks_of<CFG>(g.problem, s, kernel), S::kThreads, S::kShared, g.stream);
    CUDA_CHECK(cudaLaunchKernelEx(&launch.config, kernel, a_map, b_map, c_map, m_map, use_c_map,
                                  static_cast<float*>(g.c), static_cast<int>(s.M), static_cast<int>(s.N),
                                  static_cast<int>(s.K), vec_c, probe));
    CUDA_CHECK_LAUNCH("wgmma_tma_kernel");
  });
}

struct WgmmaLaunch {
  template <typename Probe>
  static void run(const GemmArgs& g, int config_index, const Probe& probe) {
    launch_with(g, config_index, probe);
  }
};
void wgmma_launch_timeline(const GemmArgs& g, int config_index, const TimelineBuffers& timeline) {
  launch_with(g, config_index, TimelineProbe{timeline});
}

TimelineLayout wgmma_timeline_layout(const GemmArgs& g, int config_index) {
  TimelineLayout out;
  visit_kernel<TimelineProbe>(g, config_index, [&](auto kernel, auto cfg_tag) {
    constexpr int CFG = decltype(cfg_tag)::value;
    using S = WgShape<CFG>;
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(S::kShared)));
    out.blocks = static_cast<int>(blocks_of<CFG>(g.problem, g.shape, kernel));
    out.stages = S::p.stages;
    out.consumers = S::p.consumers;
    out.cluster = S::p.cluster;
    out.slabs_per_tile = static_cast<int>(ceil_div(g.shape.K, kBK));
    out.slab_depth = kBK;
    out.tiles = tile_count(S::p, g.problem, g.shape);
    out.works = work_count(S::p, g.problem, g.shape);
  });
  return out;
}

KernelLaunchShape wgmma_kernel_for(const GemmArgs& g, int config_index) {
  KernelLaunchShape out;
  visit_kernel<NoProbe>(g, config_index, [&](auto kernel, auto cfg_tag) {
    out.kernel = reinterpret_cast<const void*>(kernel);
    out.threads_per_block = WgShape<decltype(cfg_tag)::value>::kThreads;
    out.dynamic_shared_bytes = WgShape<decltype(cfg_tag)::value>::kShared;
  });
  return out;
}

const WgmmaParams* params_of(const TileConfig& cfg) {
  return row_of(kParams, kWgmmaTmaVariant.configs, cfg);
}

// A tag's kernel (of the timed build) as NVRTC names it.
template <Precision P, int CFG, bool kAta>
std::string spelled(KernelTag<P, CFG, kAta>) {
  return kernel_name("wgmma_tma_kernel", {precision_argument(P), std::to_string(CFG), cpp_bool(kAta), kNoProbeName});
}

// The kernel a case runs, spelled for NVRTC: the one visit_kernel chooses for it.
std::vector<std::string> wgmma_kernel_names(const TileConfig& cfg, Precision q, Problem problem) {
  std::vector<std::string> out;
  const WgmmaParams* p = params_of(cfg);
  if (!p) return out;
  GemmArgs g;
  g.precision = q;
  g.problem = problem;
  visit_kernel<NoProbe>(g, static_cast<int>(p - kParams), [&](auto, auto tag) { out.push_back(spelled(tag)); });
  return out;
}

// The configurations that compute AᵀA (square tiles, no clusters), for a refusal to offer.
std::string ata_config_names() {
  std::string out;
  for (const WgmmaParams& p : kParams)
    if (p.bm == p.bn && p.cluster == 1) out += (out.empty() ? "" : ", ") + config_name(p);
  return out;
}

std::string wgmma_refuses(Problem problem, Precision, const TileConfig& cfg) {
  if (!kSm90aCodeBuilt)
    return "this build holds no sm_90a code (its CUDA architectures did not include 90), and wgmma_tma is nothing "
           "else";
  const WgmmaParams* p = params_of(cfg);
  if (!p) return "unknown configuration " + cfg.name;
  if (problem == Problem::Ata && p->cluster > 1)
    return "the clusters pair gemm tiles one above the other, which share B; AᵀA's upper triangle is not paired "
           "(choose " +
           ata_config_names() + ")";
  if (problem == Problem::Ata && p->bm != p->bn)
    return "AᵀA mirrors square tiles across the diagonal: BM must equal BN (choose " + ata_config_names() + ")";
  return "";
}

std::size_t wgmma_shared_bytes(const TileConfig& cfg, Precision) {
  const WgmmaParams* p = params_of(cfg);
  return p ? shared_bytes_of(*p) : 0;
}

// ---- the mapping model ---------------------------------------------------------------------------
// What wgmma_tma_kernel does, as plain host code: tile b is block b (a persistent block computes
// tiles b, b + grid, ... and says so to the traced build's probe); warps 0-3 copy, warps 4.. compute.
class WgmmaModel final : public BlockTileModel {
 public:
  WgmmaModel(const WgmmaParams& p, Problem problem, Precision precision, const Shape& shape)
      : BlockTileModel(
            {p.bm, p.bn, kBK, threads_of(p) / 32, "copied", " by the TMA, one thread issuing every box", p.cluster},
            problem, shape),
        p_(p) {
    build_picture(precision);
  }

  int writer_slots() const override { return slices_of(p_) * p_.bn / 2; }
  const FragmentPicture* fragments() const override { return &picture_; }

 private:
  // Row r is in slice r / 64, of consumer warpgroup slice / slices (warps 4 + 4 consumer ..), its
  // warp (r % 64) / 16; lane 4 g + t holds accumulator 4 j + r of the slice's C(16 q + g + 8 (r / 2),
  // 8 j + 2 t + r % 2) (wgmma_ptx.cuh); slots count on from one slice to the next.
  void owner_in_block(int r, int c, Owner* o) const override {
    const int slice = r / 64, r64 = r % 64, r16 = r % 16;
    o->thread_x = (r16 % 8) * 4 + (c % 8) / 2;
    o->thread_y = 4 + 4 * (slice / slices_of(p_)) + r64 / 16;
    o->slot = (slice % slices_of(p_)) * (p_.bn / 2) + 4 * (c / 8) + 2 * (r16 / 8) + c % 2;
  }
  // The TMA filled a stage of the ring; every consumer warpgroup multiplied its slices straight out
  // of it (the tensor cores read A and B there) and freed it, while the next slabs' copies ran.
  void describe_phase(int, int phase, PhaseWork* w) const override {
    const int slices = slices_of(p_), per_slice = kBK / 16, stage_kb = picture_.stage_bytes / 1024;
    const std::string bn = std::to_string(p_.bn);
    w->shared = {static_cast<std::int64_t>(p_.consumers) * slices * (64 + p_.bn), "slices x (64 + BN)",
                 std::to_string(p_.consumers * slices) + " x (64 + " + bn + ")"};
    w->words.push_back("One thread of the producer warpgroup had the TMA copy the slab from global memory into stage " +
                       std::to_string(phase % p_.stages) + " of a ring of " + std::to_string(p_.stages) + " (" +
                       std::to_string(stage_kb) + " KB a stage, 128-byte swizzled, zeros past the matrices' edges)" +
                       (p_.cluster > 1 ? ": this block's A box and its share of B's boxes, which the TMA multicast "
                                         "into the shared memory of every block of the cluster."
                                       : "."));
    w->words.push_back("Each of the " + std::to_string(p_.consumers) +
                       " consumer warpgroup(s) waited on the stage's "
                       "\"full\" mbarrier, then issued " +
                       std::to_string(per_slice) + " wgmma m64n" + bn + "k16 per slice of 64 rows (" +
                       std::to_string(slices) +
                       " slice(s) each): the tensor cores read A "
                       "and B straight from the stage into the warpgroup's accumulator registers. Then its warps "
                       "arrived on the stage's \"empty\" mbarrier, so that the producer may refill it.");
    const int ahead = std::min(picture_.in_flight, phases() - phase - 1);
    w->words.push_back(ahead > 0 ? "Meanwhile the TMA was copying the next " + std::to_string(ahead) +
                                       " slab(s) into other stages."
                                 : std::string("Nothing was left to copy for this tile."));
  }

  // Thread 0 issues every box; the TMA brings in what lies inside the matrix.
  void tile_loads(bool, int tile_rows, int tile_cols, std::int64_t r0, std::int64_t c0, std::int64_t rows,
                  std::int64_t cols, int tid, std::vector<ElementRef>* out) const override {
    if (tid != 0) return;
    for (std::int64_t r = r0; r < std::min<std::int64_t>(r0 + tile_rows, rows); ++r)
      for (std::int64_t c = c0; c < std::min<std::int64_t>(c0 + tile_cols, cols); ++c) out->push_back({r, c});
  }

  // ---- the pictures: the accumulator layout of one instruction, the boxes of a stage ----
  void build_picture(Precision precision) {
    FragmentPicture& f = picture_;
    const char* type = precision == Precision::BF16 ? "bf16" : "f16";
    f.instruction = "wgmma.mma_async.sync.aligned.m64n" + std::to_string(p_.bn) + "k16.f32." + type + "." + type;
    f.mma_m = 64;
    f.mma_n = p_.bn;
    f.mma_k = 16;
    f.group_warps = 4;
    f.warps_m = p_.consumers;  // one warp tile per consumer warpgroup: its slices, the tile's width
    f.warps_n = 1;
    f.warp_m = 64 * slices_of(p_);
    f.warp_n = p_.bn;
    f.producer_warps = 4;
    f.stages = p_.stages;
    // While slab s is multiplied, s - 1 may still be (one commit group in flight) and its stage is
    // not free yet: the copies of s + 1 .. s + stages - 2 are in flight.
    f.in_flight = p_.stages - 2;
    f.swizzled = true;
    f.stage_barriers = true;
    for (int q = 0; q < 4; ++q)
      for (int lane = 0; lane < 32; ++lane)
        for (int j = 0; j < p_.bn / 8; ++j)
          for (int r = 0; r < 4; ++r) {
            LaneElement e;
            e.warp = q;
            e.lane = lane;
            e.reg = 4 * j + r;
            e.row = 16 * q + lane / 4 + 8 * (r / 2);
            e.col = 8 * j + 2 * (lane % 4) + r % 2;
            f.c.push_back(e);
          }
    // The boxes of one stage, in the order the producer issues them (the kernel's loop).
    const int box_bytes = 64 * kBK * 2;
    std::int64_t offset = 0;
    if (ata()) {
      for (int box = 0; box < p_.bm / 64; ++box, offset += box_bytes)
        f.stage_copies.push_back({"A", kBK, 64, box_bytes, offset,
                                  "k 0-63 x columns " + std::to_string(64 * box) + "-" + std::to_string(64 * box + 63) +
                                      " of the block's rows (as Aᵀ, read transposed)"});
    } else {
      f.stage_copies.push_back({"A", p_.bm, kBK, p_.bm * kBK * 2, 0,
                                "rows 0-" + std::to_string(p_.bm - 1) + " x k 0-63 (K-major: one 128-byte row each)"});
      offset = p_.bm * kBK * 2;
    }
    // In a cluster, block r of it copies the r-th share of B's boxes for all of them (multicast).
    const int share = p_.bn / 64 / p_.cluster;
    for (int box = 0; box < p_.bn / 64; ++box, offset += box_bytes)
      f.stage_copies.push_back({"B", kBK, 64, box_bytes, offset,
                                "k 0-63 x columns " + std::to_string(64 * box) + "-" + std::to_string(64 * box + 63) +
                                    " (N-major, read transposed)" +
                                    (p_.cluster > 1 ? "; copied by block " + std::to_string(box / share) +
                                                          " of the cluster into every block's shared memory (multicast)"
                                                    : "")});
    f.stage_bytes = static_cast<int>(offset);
  }

  WgmmaParams p_;
  FragmentPicture picture_;
};

TileConfig wgmma_config(const WgmmaParams& p) {
  TileConfig c;
  c.name = config_name(p);
  c.description = p.description;
  c.bm = p.bm;
  c.bn = p.bn;
  c.bk = kBK;
  c.warp_m = 64 * slices_of(p);  // a consumer warpgroup's rows
  c.warp_n = p.bn;
  c.stages = p.stages;
  c.cluster_m = p.cluster;
  c.group_warps = 4;
  c.threads_x = 32;
  c.threads_y = threads_of(p) / 32;
  c.math = p.bn == 256   ? "wgmma m64n256k16 tensor cores, FP32 accumulation"
           : p.bn == 192 ? "wgmma m64n192k16 tensor cores, FP32 accumulation"
                         : "wgmma m64n128k16 tensor cores, FP32 accumulation";
  return c;
}

}  // namespace

extern const VariantDescriptor kWgmmaTmaVariant = [] {
  VariantDescriptor v;
  v.id = "wgmma_tma";
  v.label = "wgmma + TMA (Hopper)";
  v.summary =
      "Hopper's own path: a warpgroup of four warps issues wgmma, whose operands the tensor cores read straight "
      "from shared memory; the Tensor Memory Accelerator fills that memory from a tensor map. One warpgroup "
      "copies and the others (one to three) compute, passing the stages of a ring through mbarriers; one block per SM "
      "walks the tiles. "
      "For AᵀA only the upper-triangle tiles run and are mirrored.";
  v.configs = configs_of(kParams, wgmma_config);
  // The window's and the lessons' first choice: runs AᵀA as well as gemm (the fastest AᵀA; gemm a
  // few % under 128x256).
  v.default_config = config_named(v.configs, "192x192_s3_st");
  v.precisions = {Precision::F16, Precision::BF16};
  v.precision_note =
      "wgmma_tma is written for 16-bit inputs (FP32 accumulation, C in float); tf32 and f64 run on tensor cores "
      "in mma_sync";
  v.min_compute_capability = 90;
  v.max_compute_capability = 90;
  v.architecture_note =
      "wgmma, setmaxnreg and the tensor maps used here are Hopper's (sm_90a): its code runs on compute "
      "capability 9.0 alone";
  v.precisions_need_tensor_cores = true;
  v.refuses = wgmma_refuses;
  set_launches<WgmmaLaunch>(v);
  v.launch_timeline = wgmma_launch_timeline;
  v.timeline_layout = wgmma_timeline_layout;
  v.kernel_for = wgmma_kernel_for;
  v.kernel_text = "kernels/variants/06_wgmma_tma.cuh";
  v.kernel_names = wgmma_kernel_names;
  v.shared_bytes = wgmma_shared_bytes;
  v.model = row_model<WgmmaModel, kParams>;
  v.model_caps.mirrored_ata = true;
  return v;
}();

}  // namespace tilescope
