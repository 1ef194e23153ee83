// ata_nccl — the seed's C = AᵀA split across the GPUs two ways: along K (the partial sums added by
// NCCL), or C's upper triangle cut into bands of rows (A broadcast by NCCL).
//
// k_split. A (K x N) is a stack of row slabs; AᵀA = Σ_g A_gᵀ A_g, one term per slab. GPU g holds
// slab g (K/g rows of A) and computes the upper triangle of A_gᵀ A_g with the kernel the learner
// picked, all N x N of it but 1/g of the K loop; then ncclReduce adds the partial triangles into
// GPU 0's C, in bands of rows so that only the upper triangle travels (row i of it is the
// contiguous run of N - i elements from (i, i)).
// What travels: every GPU but the root sends its partial triangle, N²/2 elements, once; nothing of
// A. The transfer cannot start before the product that makes it, so the time is 1/g of one GPU's
// product plus the reduction, whatever K is.
//
// triangle. C's upper triangle cut into bands of rows of equal work (the first rows are the
// longest, so the first bands are the thinnest), one per GPU. Band g, rows [r0, r1) of C, is
// A[:, r0:r1]ᵀ A[:, r0:N]: with X = A's columns [r0, r1) (K x h), its diagonal block is the
// triangle XᵀX (AᵀA of X, with the learner's kernel) and the rest of its rows, the plain products
// Xᵀ A[:, c0:c1] of every later band's columns (gemm pieces, with the same kernel). A starts on
// GPU 0, stored in column panels, one per band; the panels a later band needs are broadcast
// (ncclBroadcast) in order, and each GPU multiplies as soon as the panel it needs has landed. Xᵀ
// is made once per GPU (cuBLAS's geam, a transpose of K x h elements: the gemm pieces take A
// row-major, and the triangle's rows are A's columns).
// What travels: A's columns from the second band on, about K·N elements to every GPU; nothing of C
// (each band stays on its GPU). The time is about 1/g of one GPU's product plus the transfers the
// products cannot hide: the last band's panel lands last and its GPU's one product waits for it.
//
// Which wins: the K split moves N²/2 elements after the products, the triangle K·N before and under
// them. Long K (K > N/2 or so): the K split; short K (a wide A of few rows): the triangle. The
// model (k_split_predict, triangle_predict) says where the two cross on a machine's measured link.
//
// What to look for in the timeline: k_split, the products side by side, then the reduction's bands
// on the transfer rows, after the slowest product; triangle, the panels on the transfer rows and
// each GPU's products starting when their panel has landed (the last GPU waits longest).
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/device_scope.h"
#include "kernels/multi/span_recorder.h"
#include "kernels/multi/split.h"
#include "kernels/multi/split_layout.h"
#include "kernels/multi/split_pieces.h"

namespace tilescope {
namespace {

// Slabs of A are multiples of this many rows (the kernels' K steps divide it).
constexpr std::int64_t kSlabMultiple = 64;
// The reduction's bands of C's rows: each one call, the last ones short (the triangle thins).
constexpr int kReductionBands = 8;

// The reduction's bands: rows [row0, row1) of C, the elements from `first` on (row-major), `count`
// of them. A kernel that writes both triangles (a full gemm) is summed whole, so that C is whole on
// GPU 0; otherwise a band runs from (row0, row0), the triangle's first element in its first row.
struct ReductionBand {
  std::int64_t row0 = 0, row1 = 0, first = 0, count = 0;
};
std::vector<ReductionBand> reduction_bands(std::int64_t n, const VariantDescriptor& kernel, int config) {
  const bool whole = kernel.configs.at(config).output == OutputPart::Full;
  const std::vector<std::int64_t> cuts =
      whole ? balanced_cuts(n, kReductionBands, 1) : triangle_row_cuts(n, kReductionBands);
  std::vector<ReductionBand> bands;
  for (std::size_t b = 0; b + 1 < cuts.size(); ++b) {
    if (cuts[b + 1] == cuts[b]) continue;
    ReductionBand band{cuts[b], cuts[b + 1], cuts[b] * n + (whole ? 0 : cuts[b]), 0};
    band.count = band.row1 * n - band.first;
    bands.push_back(band);
  }
  return bands;
}

SplitLayout k_split_layout(const SplitQuery& q, int) {
  const Shape& s = q.shape;
  const std::vector<std::int64_t> slabs = balanced_cuts(s.K, q.gpus, kSlabMultiple);
  SplitLayout layout;
  for (int g = 0; g < q.gpus; ++g) {
    GpuLayout l;
    const std::int64_t rows = slabs[g + 1] - slabs[g];
    if (rows > 0) l.a.push_back({slabs[g], 0, rows, s.N});
    if (g == 0) l.c.push_back({0, 0, s.N, s.N});  // the sum ends on GPU 0
    l.a_elements = rows * s.N;
    l.c_elements = s.N * s.N;  // every GPU's partial sum
    layout.gpus.push_back(l);
  }
  return layout;
}

void k_split_launch(const SplitArgs& args, int) {
  const Shape& s = args.shape;
  const NcclApi& nccl_api = *nccl();
  const std::size_t c_bytes = output_bytes(args.c_type);
  const std::vector<std::int64_t> slabs = balanced_cuts(s.K, static_cast<int>(args.gpus.size()), kSlabMultiple);
  SpanRecorder& spans = *args.spans;
  for (std::size_t g = 0; g < args.gpus.size(); ++g) {
    const GpuShare& gpu = args.gpus[g];
    const std::int64_t rows = slabs[g + 1] - slabs[g];
    spans.mark(static_cast<int>(g), SpanStream::Compute, gpu.compute,
               "AᵀA of A's rows " + range_words(slabs[g], slabs[g + 1]), [&] {
                 if (rows > 0)
                   multiply_piece(args, gpu, Problem::Ata, Shape{s.N, s.N, rows}, gpu.a, nullptr, gpu.c);
                 else  // more GPUs than slabs: this one adds nothing
                   CUDA_CHECK(cudaMemsetAsync(gpu.c, 0, static_cast<std::size_t>(s.N * s.N) * c_bytes, gpu.compute));
               });
  }
  // The transfer streams wait for their GPU's product, then add the triangle band by band.
  for (const GpuShare& gpu : args.gpus) {
    DeviceScope on(gpu.device);
    cudaEvent_t done = nullptr;
    CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventRecord(done, gpu.compute));
    CUDA_CHECK(cudaStreamWaitEvent(gpu.transfer, done, 0));
    CUDA_CHECK(cudaEventDestroy(done));  // released once the wait has happened
  }
  for (const ReductionBand& band : reduction_bands(s.N, *args.kernel, args.kernel_config)) {
    const std::int64_t r0 = band.row0, r1 = band.row1, first = band.first, count = band.count;
    std::vector<std::size_t> open;
    for (std::size_t g = 0; g < args.gpus.size(); ++g)
      open.push_back(spans.open(static_cast<int>(g), SpanStream::Transfer, args.gpus[g].transfer,
                                "sum of C rows " + range_words(r0, r1) + (g == 0 ? " into GPU 0" : " sent")));
    NCCL_CHECK(nccl_api.group_start());
    for (const GpuShare& gpu : args.gpus) {
      char* part = element_at(gpu.c, first, c_bytes);
      NCCL_CHECK(nccl_api.reduce(part, part, static_cast<std::size_t>(count), nccl_type_of(args.c_type), kNcclSum, 0,
                                 gpu.comm, gpu.transfer));
    }
    NCCL_CHECK(nccl_api.group_end());
    for (std::size_t i : open) spans.close(i);
  }
}

// The products side by side (the longest slab is the slowest GPU), then the bands' reductions one
// after another.
SplitPrediction k_split_predict(const SplitQuery& q, int, const MachineFigures& m) {
  const Shape& s = q.shape;
  const std::vector<std::int64_t> slabs = balanced_cuts(s.K, q.gpus, kSlabMultiple);
  std::int64_t longest = 0;
  for (int g = 0; g < q.gpus; ++g) longest = std::max(longest, slabs[g + 1] - slabs[g]);
  SplitPrediction p;
  p.compute_ms = m.one_gpu_ms * static_cast<double>(longest) / s.K;
  p.ms = p.compute_ms;
  const double c_bytes = static_cast<double>(output_bytes(output_type(q.precision, false)));
  if (q.gpus > 1)
    for (const ReductionBand& band : reduction_bands(s.N, *q.kernel, q.kernel_config))
      p.ms += collective_ms(static_cast<double>(band.count) * c_bytes, m.link.reduce_gbs, m.link.latency_us);
  return finish_prediction(p, m.one_gpu_ms, q.gpus);
}

// ---- triangle ------------------------------------------------------------------------------------

// Bands start at multiples of this (the kernels' tiles divide it, and their widest loads need it).
constexpr std::int64_t kBandMultiple = 128;

std::vector<std::int64_t> triangle_bands(std::int64_t n, int gpus) {
  return triangle_row_cuts(n, gpus, kBandMultiple);
}

// GPU 0 holds A in column panels, one per band (panel j: K x w_j, row-major, where it lies in every
// GPU's buffer); GPU g ends with its band's blocks of C: the diagonal one, then one per later band.
SplitLayout triangle_layout(const SplitQuery& q, int) {
  const Shape& s = q.shape;
  const std::vector<std::int64_t> bands = triangle_bands(s.N, q.gpus);
  SplitLayout layout;
  for (int g = 0; g < q.gpus; ++g) {
    GpuLayout l;
    const std::int64_t r0 = bands[g], h = bands[g + 1] - r0;
    bool gemm_pieces = false;
    for (int j = 0; j < q.gpus; ++j) {
      const std::int64_t c0 = bands[j], w = bands[j + 1] - c0;
      if (w == 0) continue;
      if (g == 0) l.a.push_back({0, c0, s.K, w});
      if (j >= g && h > 0) l.c.push_back({r0, c0, h, w});
      gemm_pieces = gemm_pieces || j > g;
    }
    l.a_elements = s.K * s.N;  // room for every panel: a broadcast lands where the panel lies on GPU 0
    l.c_elements = h * (s.N - r0);
    if (gemm_pieces && h > 0) l.scratch_bytes = static_cast<std::size_t>(h * s.K) * element_bytes(q.precision);  // Xᵀ
    layout.gpus.push_back(l);
  }
  return layout;
}

void triangle_launch(const SplitArgs& args, int) {
  const Shape& s = args.shape;
  const NcclApi& nccl_api = *nccl();
  const int gpus = static_cast<int>(args.gpus.size());
  const std::size_t in_bytes = element_bytes(args.precision), c_bytes = output_bytes(args.c_type);
  const std::vector<std::int64_t> bands = triangle_bands(s.N, gpus);
  const int gemm_config = gemm_piece_config(*args.kernel, args.kernel_config, args.precision);
  SpanRecorder& spans = *args.spans;
  auto panel = [&](const GpuShare& gpu, int j) { return element_at(gpu.a, s.K * bands[j], in_bytes); };

  // The panels later bands need, from GPU 0 to all, in order; landed[j][g]: panel j on GPU g (null
  // on GPU 0, which holds every panel from the start).
  std::vector<std::vector<cudaEvent_t>> landed(gpus, std::vector<cudaEvent_t>(gpus, nullptr));
  for (int j = 1; j < gpus; ++j) {
    const std::int64_t c0 = bands[j], w = bands[j + 1] - c0;
    if (w == 0) continue;
    std::vector<std::size_t> open;
    for (int g = 0; g < gpus; ++g)
      open.push_back(spans.open(g, SpanStream::Transfer, args.gpus[g].transfer,
                                "A columns " + range_words(c0, c0 + w) + (g == 0 ? " sent" : " from GPU 0")));
    NCCL_CHECK(nccl_api.group_start());
    for (const GpuShare& gpu : args.gpus)
      NCCL_CHECK(nccl_api.broadcast(panel(gpu, j), panel(gpu, j), static_cast<std::size_t>(s.K * w) * in_bytes,
                                    kNcclUint8, 0, gpu.comm, gpu.transfer));
    NCCL_CHECK(nccl_api.group_end());
    for (int g = 0; g < gpus; ++g) {
      cudaEvent_t e = spans.close(open[g]);
      if (g > 0) landed[j][g] = e;
    }
  }

  // Each GPU's band: the triangle of its own columns once their panel is there, then Xᵀ, then a
  // gemm piece per later panel as it lands.
  for (int g = 0; g < gpus; ++g) {
    const GpuShare& gpu = args.gpus[g];
    const std::int64_t r0 = bands[g], h = bands[g + 1] - r0;
    if (h == 0) continue;
    auto wait_for = [&](int j) {
      if (!landed[j][g]) return;
      DeviceScope on(gpu.device);
      CUDA_CHECK(cudaStreamWaitEvent(gpu.compute, landed[j][g], 0));
    };
    const std::string rows = "C rows " + range_words(r0, r0 + h);
    wait_for(g);
    spans.mark(g, SpanStream::Compute, gpu.compute, rows + ": AᵀA of A's columns " + range_words(r0, r0 + h), [&] {
      multiply_piece(args, gpu, Problem::Ata, Shape{h, h, s.K}, panel(gpu, g), nullptr, gpu.c);
    });
    std::int64_t c_at = h * h;  // the next block of the band in C's buffer
    for (int j = g + 1; j < gpus; ++j) {
      const std::int64_t c0 = bands[j], w = bands[j + 1] - c0;
      if (w == 0) continue;
      if (c_at == h * h)
        spans.mark(g, SpanStream::Compute, gpu.compute, "A's columns " + range_words(r0, r0 + h) + " transposed",
                   [&] { transpose_on(gpu, in_bytes, s.K, h, panel(gpu, g), gpu.scratch); });
      wait_for(j);
      spans.mark(g, SpanStream::Compute, gpu.compute, rows + ", columns " + range_words(c0, c0 + w), [&] {
        multiply_piece(args, gpu, Problem::Gemm, Shape{h, w, s.K}, gpu.scratch, panel(gpu, j),
                       element_at(gpu.c, c_at, c_bytes), gemm_config);
      });
      c_at += h * w;
    }
  }
}

// The panels' broadcasts back to back; each GPU's products in its order, a product waiting for its
// panel; a piece's time the one-GPU time in proportion to the triangle's elements it computes (the
// transpose, a pass over K x h elements at memory speed, is left out).
SplitPrediction triangle_predict(const SplitQuery& q, int, const MachineFigures& m) {
  const Shape& s = q.shape;
  const std::vector<std::int64_t> bands = triangle_bands(s.N, q.gpus);
  const double whole = static_cast<double>(s.N) * (s.N + 1) / 2.0;
  auto product_ms = [&](double elements) { return m.one_gpu_ms * elements / whole; };
  const double in_bytes = static_cast<double>(element_bytes(q.precision));
  std::vector<double> landed(q.gpus, 0.0);
  double link = 0;
  for (int j = 1; j < q.gpus; ++j) {
    const std::int64_t w = bands[j + 1] - bands[j];
    if (w > 0) link += collective_ms(static_cast<double>(s.K * w) * in_bytes, m.link.broadcast_gbs, m.link.latency_us);
    landed[j] = link;
  }
  SplitPrediction p;
  for (int g = 0; g < q.gpus; ++g) {
    const std::int64_t h = bands[g + 1] - bands[g];
    if (h == 0) continue;
    double busy = product_ms(static_cast<double>(h) * (h + 1) / 2.0);
    double t = (g == 0 ? 0.0 : landed[g]) + busy;
    for (int j = g + 1; j < q.gpus; ++j) {
      const double piece = product_ms(static_cast<double>(h) * static_cast<double>(bands[j + 1] - bands[j]));
      t = std::max(t, g == 0 ? 0.0 : landed[j]) + piece;
      busy += piece;
    }
    p.ms = std::max(p.ms, t);
    p.compute_ms = std::max(p.compute_ms, busy);
  }
  return finish_prediction(p, m.one_gpu_ms, q.gpus);
}

// ---- the descriptor --------------------------------------------------------------------------------

enum AtaNcclConfig { kKSplit = 0, kTriangle = 1 };

std::string ata_nccl_refuses(const SplitQuery& q, int config) {
  if (config == kKSplit && q.kernel->configs.at(q.kernel_config).c_in_input_type)
    return "the partial sums would be rounded to the 16-bit C once more on every GPU; choose a configuration that "
           "stores C in FP32";
  if (config == kTriangle) {
    const std::size_t bytes = element_bytes(q.precision);
    if (bytes != sizeof(float) && bytes != sizeof(double))
      return "the triangle transposes a slice of A with cuBLAS's geam, which has float and double only; split "
             "16-bit inputs along K (k_split)";
    if (gemm_piece_config(*q.kernel, q.kernel_config, q.precision) < 0)
      return std::string(q.kernel->label) +
             " has no configuration for the plain products of the triangle's bands; choose another kernel, or "
             "k_split";
  }
  return "";
}

SplitLayout ata_nccl_layout(const SplitQuery& q, int config) {
  return config == kKSplit ? k_split_layout(q, config) : triangle_layout(q, config);
}
void ata_nccl_launch(const SplitArgs& args, int config) {
  config == kKSplit ? k_split_launch(args, config) : triangle_launch(args, config);
}
SplitPrediction ata_nccl_predict(const SplitQuery& q, int config, const MachineFigures& m) {
  return config == kKSplit ? k_split_predict(q, config, m) : triangle_predict(q, config, m);
}

}  // namespace

extern const SplitDescriptor kAtaNcclSplit = [] {
  SplitDescriptor s;
  s.id = "ata_nccl";
  s.label = "NCCL AᵀA split";
  s.summary =
      "AᵀA across the GPUs: cut along K (each GPU a slab of A's rows and its partial AᵀA, the partial upper "
      "triangles added into GPU 0 by NCCL after the products), or C's upper triangle cut into bands of rows of equal "
      "work (A's columns broadcast from GPU 0 under the products, each band staying on its GPU).";
  s.configs = {{"k_split", "slabs of A's rows per GPU; partial triangles summed into GPU 0 by ncclReduce"},
               {"triangle",
                "bands of C's upper triangle per GPU, of equal work; A's columns broadcast from GPU 0 panel by "
                "panel, each band multiplied as its panels land",
                true}};
  s.problems = {Problem::Ata};
  s.refuses = ata_nccl_refuses;
  s.layout = ata_nccl_layout;
  s.launch = ata_nccl_launch;
  s.predict = ata_nccl_predict;
  return s;
}();

}  // namespace tilescope
