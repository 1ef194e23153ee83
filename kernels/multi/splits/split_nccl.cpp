// split_nccl — C = A·B cut by block rows across the GPUs, B broadcast in panels with NCCL.
//
// Idea: the first split of every course. GPU g owns a band of C's rows and the same band of A's
// rows (rows_g x K); every GPU needs all of B. B starts on GPU 0, stored as column panels, and is
// broadcast panel by panel (ncclBroadcast, on each GPU's transfer stream); each GPU multiplies
// its band of A by panel j (C's band, columns of panel j) as soon as panel j has landed, with the
// kernel the learner picked, while panel j + 1 is on its way. C stays where it was computed: each
// GPU ends with its band (the check gathers them).
//
// What travels: B once to every other GPU, K·N elements each; nothing of A or C. Per GPU the
// work is 1/g of the product, so with transfers hidden behind products the time is 1/g of one
// GPU's plus the first panel's transfer.
//
// What to look for in the timeline: the first panel's broadcast before the first product (the
// start-up that cannot hide), then each broadcast under the product before it; a product that
// waits (a gap on the compute row) means the link is slower than the multiply at this panel size.
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/device_scope.h"
#include "kernels/multi/span_recorder.h"
#include "kernels/multi/split.h"
#include "kernels/multi/split_layout.h"
#include "kernels/multi/split_pieces.h"

namespace tilescope {
namespace {

// Rows per GPU are multiples of this (the kernels' tiles divide it), panels too.
constexpr std::int64_t kRowMultiple = 128;
// Panels at least this wide (a product of 2048 columns keeps a GPU's tensor cores busy), at most
// this many (each costs a broadcast's start-up).
constexpr std::int64_t kMinPanelWidth = 2048;
constexpr int kMostPanels = 8;

std::vector<std::int64_t> column_panels(const Shape& s) {
  return balanced_cuts(s.N, panel_count(s.N, kMinPanelWidth, kMostPanels), kRowMultiple);
}

SplitLayout rows_layout(const SplitQuery& q, int) {
  const Shape& s = q.shape;
  const std::vector<std::int64_t> rows = balanced_cuts(s.M, q.gpus, kRowMultiple);
  const std::vector<std::int64_t> panels = column_panels(s);
  SplitLayout layout;
  for (int g = 0; g < q.gpus; ++g) {
    GpuLayout l;
    const std::int64_t r0 = rows[g], band = rows[g + 1] - rows[g];
    if (band > 0) l.a.push_back({r0, 0, band, s.K});
    for (std::size_t j = 0; j + 1 < panels.size(); ++j) {
      const std::int64_t c0 = panels[j], w = panels[j + 1] - panels[j];
      if (g == 0) l.b.push_back({0, c0, s.K, w});  // B starts on GPU 0, panel by panel
      if (band > 0) l.c.push_back({r0, c0, band, w});
    }
    l.a_elements = band * s.K;
    l.b_elements = s.K * s.N;  // every GPU receives all of B
    l.c_elements = band * s.N;
    layout.gpus.push_back(l);
  }
  return layout;
}

void rows_launch(const SplitArgs& args, int) {
  const Shape& s = args.shape;
  const NcclApi& nccl_api = *nccl();
  const std::size_t in_bytes = element_bytes(args.precision), c_bytes = output_bytes(args.c_type);
  const std::vector<std::int64_t> rows = balanced_cuts(s.M, static_cast<int>(args.gpus.size()), kRowMultiple);
  const std::vector<std::int64_t> panels = column_panels(s);
  SpanRecorder& spans = *args.spans;
  for (std::size_t j = 0; j + 1 < panels.size(); ++j) {
    const std::int64_t c0 = panels[j], w = panels[j + 1] - panels[j];
    const std::int64_t offset = s.K * c0;  // panel j in the packed B of every GPU
    // Panel j from GPU 0 to all: one grouped call per GPU, launched together at the group's end.
    std::vector<std::size_t> open;
    for (std::size_t g = 0; g < args.gpus.size(); ++g)
      open.push_back(spans.open(static_cast<int>(g), SpanStream::Transfer, args.gpus[g].transfer,
                                "B columns " + range_words(c0, c0 + w) + (g == 0 ? " sent" : " from GPU 0")));
    NCCL_CHECK(nccl_api.group_start());
    for (const GpuShare& gpu : args.gpus) {
      char* panel = element_at(gpu.b, offset, in_bytes);
      NCCL_CHECK(nccl_api.broadcast(panel, panel, static_cast<std::size_t>(s.K * w) * in_bytes, kNcclUint8, 0, gpu.comm,
                                    gpu.transfer));
    }
    NCCL_CHECK(nccl_api.group_end());
    for (std::size_t g = 0; g < args.gpus.size(); ++g) {
      const GpuShare& gpu = args.gpus[g];
      cudaEvent_t landed = spans.close(open[g]);
      const std::int64_t band = rows[g + 1] - rows[g];
      if (band == 0) continue;
      {
        DeviceScope on(gpu.device);
        CUDA_CHECK(cudaStreamWaitEvent(gpu.compute, landed, 0));
      }
      spans.mark(static_cast<int>(g), SpanStream::Compute, gpu.compute,
                 "C rows " + range_words(rows[g], rows[g + 1]) + ", columns " + range_words(c0, c0 + w), [&] {
                   multiply_piece(args, gpu, Problem::Gemm, Shape{band, w, s.K}, gpu.a,
                                  element_at(gpu.b, offset, in_bytes), element_at(gpu.c, band * c0, c_bytes));
                 });
    }
  }
}

// Every GPU receives each panel (one broadcast after another) and multiplies its band by it as it
// lands; the widest band is the slowest GPU.
SplitPrediction rows_predict(const SplitQuery& q, int, const MachineFigures& m) {
  const Shape& s = q.shape;
  const std::vector<std::int64_t> rows = balanced_cuts(s.M, q.gpus, kRowMultiple);
  const std::vector<std::int64_t> panels = column_panels(s);
  std::int64_t widest = 0;
  for (int g = 0; g < q.gpus; ++g) widest = std::max(widest, rows[g + 1] - rows[g]);
  std::vector<double> transfers, products;
  SplitPrediction p;
  for (std::size_t j = 0; j + 1 < panels.size(); ++j) {
    const std::int64_t w = panels[j + 1] - panels[j];
    const double bytes = static_cast<double>(s.K * w) * static_cast<double>(element_bytes(q.precision));
    transfers.push_back(q.gpus > 1 ? collective_ms(bytes, m.link.broadcast_gbs, m.link.latency_us) : 0.0);
    products.push_back(m.one_gpu_ms * static_cast<double>(widest) / s.M * static_cast<double>(w) / s.N);
    p.compute_ms += products.back();
  }
  p.ms = pipelined_ms(transfers, products);
  return finish_prediction(p, m.one_gpu_ms, q.gpus);
}

std::string split_nccl_refuses(const SplitQuery& q, int) {
  if (q.shape.M < q.gpus) return "C has fewer rows than GPUs";
  return "";
}

}  // namespace

extern const SplitDescriptor kSplitNcclSplit = [] {
  SplitDescriptor s;
  s.id = "split_nccl";
  s.label = "NCCL split";
  s.summary =
      "C cut by block rows across the GPUs: each GPU holds its rows of A and multiplies them by B, which GPU 0 "
      "broadcasts with NCCL panel by panel while the previous panel is multiplied. Only B travels.";
  s.configs = {{"rows_1d", "block rows of C per GPU; B broadcast from GPU 0 in column panels, overlapped"}};
  s.problems = {Problem::Gemm};
  s.refuses = split_nccl_refuses;
  s.layout = rows_layout;
  s.launch = rows_launch;
  s.predict = rows_predict;
  return s;
}();

}  // namespace tilescope
