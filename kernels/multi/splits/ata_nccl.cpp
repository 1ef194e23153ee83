// ata_nccl — the seed's C = AᵀA cut along K across the GPUs, the partial sums added by NCCL.
//
// Idea: A (K x N) is a stack of row slabs; AᵀA = Σ_g A_gᵀ A_g, one term per slab. GPU g holds
// slab g (K/g rows of A) and computes the upper triangle of A_gᵀ A_g with the kernel the learner
// picked, all N x N of it but 1/g of the K loop; then ncclReduce adds the partial triangles into
// GPU 0's C, in bands of rows so that only the upper triangle travels (row i of it is the
// contiguous run of N - i elements from (i, i)).
//
// What travels: every GPU but the root sends its partial triangle, N²/2 elements, once; nothing of
// A. The transfer cannot start before the product that makes it, so the time is 1/g of one GPU's
// product plus the reduction: the split wins when K is long (much work per element of C) and loses
// when it is short, where splitting C's triangle instead (each GPU a balanced band of rows, A sent
// whole to every GPU) moves K·N elements instead of N²/2.
//
// What to look for in the timeline: the products side by side, then the reduction's bands on the
// transfer rows, after the slowest product.
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

std::string ata_nccl_refuses(const SplitQuery& q, int) {
  if (q.kernel->configs.at(q.kernel_config).c_in_input_type)
    return "the partial sums would be rounded to the 16-bit C once more on every GPU; choose a configuration that "
           "stores C in FP32";
  return "";
}

}  // namespace

extern const SplitDescriptor kAtaNcclSplit = [] {
  SplitDescriptor s;
  s.id = "ata_nccl";
  s.label = "NCCL AᵀA split";
  s.summary =
      "AᵀA cut along K: each GPU holds a slab of A's rows and computes its partial AᵀA, then NCCL adds the partial "
      "upper triangles into GPU 0. Only the triangles travel, once, after the products.";
  s.configs = {{"k_split", "slabs of A's rows per GPU; partial triangles summed into GPU 0 by ncclReduce"}};
  s.problems = {Problem::Ata};
  s.refuses = ata_nccl_refuses;
  s.layout = k_split_layout;
  s.launch = k_split_launch;
  s.predict = k_split_predict;
  return s;
}();

}  // namespace tilescope
