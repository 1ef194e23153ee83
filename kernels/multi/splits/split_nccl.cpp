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
//
// summa_2d — the same product on a grid of GPUs (rows x columns, as square as the count allows),
// SUMMA-style. GPU (i, j) owns C's block (row band i, column band j). K is cut into panels; panel
// k of A's row band i starts on the GPU of grid row i and column k mod columns, panel k of B's
// column band j on the GPU of grid column j and row k mod rows. For each panel, its owners
// broadcast it along their grid row (A) and grid column (B), each grid row and column with a
// communicator of its own (ncclBroadcast) on the transfer streams,
// while the GPUs multiply the panel before; each GPU adds A(i, k) B(k, j) into its C block (the
// first panel's product written, the later ones computed aside and added with cuBLAS's axpy).
// What travels: each GPU receives its row band of A and column band of B less what it owns, about
// (M K / rows + K N / columns) elements: on 4 GPUs in a 2 x 2 grid, half of A and half of B each,
// where the row split sends all of B to every GPU. The saving grows with the grid: the 1-D split
// moves K N elements per GPU whatever the count, the 2-D one about (M K + K N) / sqrt(count).
#include <cublas_v2.h>

#include <algorithm>

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

// ---- summa_2d ------------------------------------------------------------------------------------

struct Grid {
  int rows = 1, cols = 1;
};
// rows x cols = gpus, rows <= cols, as square as the count allows (2: 1 x 2; 4: 2 x 2; 8: 2 x 4).
Grid grid_of(int gpus) {
  int rows = 1;
  for (int r = 1; r * r <= gpus; ++r)
    if (gpus % r == 0) rows = r;
  return {rows, gpus / rows};
}

void summa_grid(int gpus, int, int* rows, int* cols) {
  const Grid g = grid_of(gpus);
  *rows = g.rows;
  *cols = g.cols;
}

// K's panels: two per GPU of the grid's longer side, so that each owner sends more than once and
// the next panel travels while the current one is multiplied.
constexpr int kPanelsPerGridSide = 2;
constexpr std::int64_t kPanelMultiple = 64;

struct Summa {
  Grid grid;
  std::vector<std::int64_t> rows, cols, panels;  // C's row bands, column bands, K's panels (cuts)
  int rank(int i, int j) const { return i * grid.cols + j; }
};
Summa summa_of(const Shape& s, int gpus) {
  Summa m;
  m.grid = grid_of(gpus);
  m.rows = balanced_cuts(s.M, m.grid.rows, kRowMultiple);
  m.cols = balanced_cuts(s.N, m.grid.cols, kRowMultiple);
  m.panels = balanced_cuts(s.K, kPanelsPerGridSide * std::max(m.grid.rows, m.grid.cols), kPanelMultiple);
  return m;
}

// GPU (i, j)'s A area holds its row band's panels in K's order (panel k at rows_i x k0), its B area
// its column band's (panel k at k0 x cols_j); it owns the panels it starts with.
SplitLayout summa_layout(const SplitQuery& q, int) {
  const Shape& s = q.shape;
  const Summa m = summa_of(s, q.gpus);
  SplitLayout layout;
  for (int i = 0; i < m.grid.rows; ++i)
    for (int j = 0; j < m.grid.cols; ++j) {
      GpuLayout l;
      const std::int64_t r0 = m.rows[i], h = m.rows[i + 1] - r0, c0 = m.cols[j], w = m.cols[j + 1] - c0;
      for (std::size_t k = 0; k + 1 < m.panels.size(); ++k) {
        const std::int64_t k0 = m.panels[k], kw = m.panels[k + 1] - k0;
        if (kw == 0) continue;
        if (static_cast<int>(k) % m.grid.cols == j && h > 0) l.a.push_back({r0, k0, h, kw, h * k0});
        if (static_cast<int>(k) % m.grid.rows == i && w > 0) l.b.push_back({k0, c0, kw, w, k0 * w});
      }
      if (h > 0 && w > 0) l.c.push_back({r0, c0, h, w});
      l.a_elements = h * s.K;
      l.b_elements = s.K * w;
      l.c_elements = h * w;
      l.scratch_bytes = static_cast<std::size_t>(h * w) * output_bytes(output_type(q.precision, false));
      layout.gpus.push_back(l);
    }
  return layout;
}

// C += the scratch's product, on the compute stream (cuBLAS's axpy, in pieces its int counts take).
void add_into(const GpuShare& gpu, OutputType t, std::int64_t count) {
  CUBLAS_CHECK(cublasSetStream(gpu.cublas, gpu.compute));
  constexpr std::int64_t kMostPerCall = std::int64_t{1} << 30;
  const float one_f = 1.f;
  const double one_d = 1.0;
  for (std::int64_t done = 0; done < count; done += kMostPerCall) {
    const int n = static_cast<int>(std::min(kMostPerCall, count - done));
    if (t == OutputType::F64)
      CUBLAS_CHECK(cublasDaxpy(gpu.cublas, n, &one_d, static_cast<const double*>(gpu.scratch) + done, 1,
                               static_cast<double*>(gpu.c) + done, 1));
    else
      CUBLAS_CHECK(cublasSaxpy(gpu.cublas, n, &one_f, static_cast<const float*>(gpu.scratch) + done, 1,
                               static_cast<float*>(gpu.c) + done, 1));
  }
}

// What GPU (i, j) receives of panel k, in a span's words: A along its grid row (where the grid has
// more than one column), B along its grid column (more than one row).
std::string panel_sources(const Summa& m, int i, int j, int a_col, int b_row) {
  std::string words;
  if (m.grid.cols > 1)
    words += j == a_col ? " A sent along the row" : " A from GPU " + std::to_string(m.rank(i, a_col));
  if (m.grid.rows > 1)
    words += std::string(words.empty() ? "" : ",") +
             (i == b_row ? " B sent down the column" : " B from GPU " + std::to_string(m.rank(b_row, j)));
  return words.empty() ? " nothing travels (one GPU)" : words;
}

void summa_launch(const SplitArgs& args, int) {
  const Shape& s = args.shape;
  const NcclApi& nccl_api = *nccl();
  const std::size_t in_bytes = element_bytes(args.precision);
  const Summa m = summa_of(s, static_cast<int>(args.gpus.size()));
  SpanRecorder& spans = *args.spans;
  bool first = true;
  for (std::size_t k = 0; k + 1 < m.panels.size(); ++k) {
    const std::int64_t k0 = m.panels[k], kw = m.panels[k + 1] - k0;
    if (kw == 0) continue;
    const int a_col = static_cast<int>(k) % m.grid.cols, b_row = static_cast<int>(k) % m.grid.rows;
    // Panel k along the grid: A's from column a_col of each grid row, B's from row b_row of each grid
    // column, all GPUs' sends and receives in one group.
    std::vector<std::size_t> open;
    for (int i = 0; i < m.grid.rows; ++i)
      for (int j = 0; j < m.grid.cols; ++j)
        open.push_back(spans.open(m.rank(i, j), SpanStream::Transfer, args.gpus[m.rank(i, j)].transfer,
                                  "K " + range_words(k0, k0 + kw) + ":" + panel_sources(m, i, j, a_col, b_row)));
    NCCL_CHECK(nccl_api.group_start());
    for (int i = 0; i < m.grid.rows; ++i)
      for (int j = 0; j < m.grid.cols; ++j) {
        const GpuShare& gpu = args.gpus[m.rank(i, j)];
        const std::int64_t h = m.rows[i + 1] - m.rows[i], w = m.cols[j + 1] - m.cols[j];
        char* a_panel = element_at(gpu.a, h * k0, in_bytes);
        char* b_panel = element_at(gpu.b, k0 * w, in_bytes);
        // Along the grid row from its column a_col (the row's communicator ranks by column), along
        // the grid column from its row b_row.
        if (m.grid.cols > 1 && h > 0)
          NCCL_CHECK(nccl_api.broadcast(a_panel, a_panel, static_cast<std::size_t>(h * kw) * in_bytes, kNcclUint8,
                                        a_col, gpu.row_comm, gpu.transfer));
        if (m.grid.rows > 1 && w > 0)
          NCCL_CHECK(nccl_api.broadcast(b_panel, b_panel, static_cast<std::size_t>(kw * w) * in_bytes, kNcclUint8,
                                        b_row, gpu.col_comm, gpu.transfer));
      }
    NCCL_CHECK(nccl_api.group_end());
    for (int i = 0; i < m.grid.rows; ++i)
      for (int j = 0; j < m.grid.cols; ++j) {
        const int rank = m.rank(i, j);
        const GpuShare& gpu = args.gpus[rank];
        cudaEvent_t landed = spans.close(open[rank]);
        const std::int64_t h = m.rows[i + 1] - m.rows[i], w = m.cols[j + 1] - m.cols[j];
        if (h == 0 || w == 0) continue;
        {
          DeviceScope on(gpu.device);
          CUDA_CHECK(cudaStreamWaitEvent(gpu.compute, landed, 0));
        }
        spans.mark(rank, SpanStream::Compute, gpu.compute,
                   "C rows " + range_words(m.rows[i], m.rows[i + 1]) + ", columns " +
                       range_words(m.cols[j], m.cols[j + 1]) + (first ? " = " : " += ") + "A·B over K " +
                       range_words(k0, k0 + kw),
                   [&] {
                     multiply_piece(args, gpu, Problem::Gemm, Shape{h, w, kw}, element_at(gpu.a, h * k0, in_bytes),
                                    element_at(gpu.b, k0 * w, in_bytes), first ? gpu.c : gpu.scratch);
                     if (!first) add_into(gpu, args.c_type, h * w);
                   });
      }
    first = false;
  }
}

// Per panel: the broadcasts along the grid's rows and columns, one after the other, then the
// product of the largest block; the adds are not in the model (about 3 reads and writes of C's
// block per panel).
SplitPrediction summa_predict(const SplitQuery& q, int, const MachineFigures& m) {
  const Shape& s = q.shape;
  const Summa g = summa_of(s, q.gpus);
  std::int64_t h = 0, w = 0;
  for (int i = 0; i < g.grid.rows; ++i) h = std::max(h, g.rows[i + 1] - g.rows[i]);
  for (int j = 0; j < g.grid.cols; ++j) w = std::max(w, g.cols[j + 1] - g.cols[j]);
  const double in_bytes = static_cast<double>(element_bytes(q.precision));
  std::vector<double> transfers, products;
  SplitPrediction p;
  for (std::size_t k = 0; k + 1 < g.panels.size(); ++k) {
    const std::int64_t kw = g.panels[k + 1] - g.panels[k];
    if (kw == 0) continue;
    double t = 0;
    if (g.grid.cols > 1)
      t += collective_ms(static_cast<double>(h * kw) * in_bytes, m.link.broadcast_gbs, m.link.latency_us);
    if (g.grid.rows > 1)
      t += collective_ms(static_cast<double>(kw * w) * in_bytes, m.link.broadcast_gbs, m.link.latency_us);
    transfers.push_back(t);
    products.push_back(m.one_gpu_ms * static_cast<double>(h) / s.M * static_cast<double>(w) / s.N *
                       static_cast<double>(kw) / s.K);
    p.compute_ms += products.back();
  }
  p.ms = pipelined_ms(transfers, products);
  return finish_prediction(p, m.one_gpu_ms, q.gpus);
}

enum SplitNcclConfig { kRows1d = 0, kSumma2d = 1 };

std::string split_nccl_refuses(const SplitQuery& q, int config) {
  if (config == kRows1d && q.shape.M < q.gpus) return "C has fewer rows than GPUs";
  if (config == kSumma2d && q.kernel->configs.at(q.kernel_config).c_in_input_type)
    return "summa_2d adds each panel's product into C, which a 16-bit C would round once more per panel; choose a "
           "configuration that stores C in FP32";
  return "";
}

SplitLayout split_nccl_layout(const SplitQuery& q, int config) {
  return config == kRows1d ? rows_layout(q, config) : summa_layout(q, config);
}
void split_nccl_launch(const SplitArgs& args, int config) {
  config == kRows1d ? rows_launch(args, config) : summa_launch(args, config);
}
SplitPrediction split_nccl_predict(const SplitQuery& q, int config, const MachineFigures& m) {
  return config == kRows1d ? rows_predict(q, config, m) : summa_predict(q, config, m);
}
bool split_nccl_grid(int gpus, int config, int* rows, int* cols) {
  if (config != kSumma2d) return false;  // the row split broadcasts to every GPU at once
  summa_grid(gpus, config, rows, cols);
  return true;
}

}  // namespace

extern const SplitDescriptor kSplitNcclSplit = [] {
  SplitDescriptor s;
  s.id = "split_nccl";
  s.label = "NCCL split";
  s.summary =
      "C cut across the GPUs with NCCL moving the operands: by block rows (each GPU its rows of A times B, which GPU "
      "0 broadcasts panel by panel under the products), or in blocks over a grid of GPUs (SUMMA: panels of A and B "
      "sent along grid rows and columns). Each GPU multiplies with the kernel picked.";
  s.configs = {{"rows_1d", "block rows of C per GPU; B broadcast from GPU 0 in column panels, overlapped"},
               {"summa_2d",
                "a grid of GPUs, a block of C each; panels of A and B sent along grid rows and columns "
                "(SUMMA), the next under the current product"}};
  s.problems = {Problem::Gemm};
  s.refuses = split_nccl_refuses;
  s.layout = split_nccl_layout;
  s.launch = split_nccl_launch;
  s.predict = split_nccl_predict;
  s.grid = split_nccl_grid;
  return s;
}();

}  // namespace tilescope
