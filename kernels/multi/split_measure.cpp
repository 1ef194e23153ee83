#include "kernels/multi/split_measure.h"

#include <cuda_runtime.h>

#include <chrono>

#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/device_info.h"
#include "kernels/cuda/device_scope.h"
#include "kernels/measure/dgemm_reference.h"
#include "kernels/measure/gpu_buffers.h"
#include "kernels/multi/gpu_group.h"
#include "kernels/multi/span_recorder.h"
#include "kernels/multi/split_registry.h"

namespace tilescope {
namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// A's and B's leading dimensions (elements of a row) in tilescope's row-major storage.
std::int64_t a_row_length(Problem p, const Shape& s) {
  return p == Problem::Gemm ? s.K : s.N;  // Gemm: A is M x K; AᵀA: A is K x N
}

// Copies the blocks of a row-major matrix `whole` (rows of `row_length` elements) into a GPU's
// packed buffer, or back (gather), on `stream`; cudaMemcpyDefault finds each side's device.
void copy_blocks(const std::vector<Block>& blocks, char* whole, std::int64_t row_length, char* packed,
                 std::size_t bytes, cudaStream_t stream, bool gather) {
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const Block& b = blocks[i];
    if (b.elements() == 0) continue;
    char* in_whole = whole + (b.row0 * row_length + b.col0) * static_cast<std::int64_t>(bytes);
    char* in_packed = packed + packed_offset(blocks, i) * static_cast<std::int64_t>(bytes);
    const std::size_t whole_pitch = row_length * bytes, packed_pitch = b.cols * bytes;
    if (gather)
      CUDA_CHECK(cudaMemcpy2DAsync(in_whole, whole_pitch, in_packed, packed_pitch, packed_pitch, b.rows,
                                   cudaMemcpyDefault, stream));
    else
      CUDA_CHECK(cudaMemcpy2DAsync(in_packed, packed_pitch, in_whole, whole_pitch, packed_pitch, b.rows,
                                   cudaMemcpyDefault, stream));
  }
}

}  // namespace

struct SplitMeasurer::Impl {
  std::atomic<bool> cancel{false};
  std::unique_ptr<GpuGroup> group;
  std::unique_ptr<SpanRecorder> spans;
  // The events that bound a timed run: start and stop on GPU 0, and each GPU's streams' ends.
  std::vector<cudaEvent_t> ends;  // two per GPU (compute, transfer), made on their devices
  cudaEvent_t start = nullptr, stop = nullptr;
  // On GPU 0: the whole inputs and the gathered C, and the FP64 reference's.
  DeviceBuffer whole_a, whole_b, whole_c, ref_inputs, ref_c;

  ~Impl() { drop_group(); }

  void drop_group() {
    spans.reset();
    for (std::size_t i = 0; i < ends.size(); ++i) {
      if (cudaSetDevice(static_cast<int>(i / 2)) == cudaSuccess) cudaEventDestroy(ends[i]);
    }
    ends.clear();
    if (start && cudaSetDevice(0) == cudaSuccess) {
      cudaEventDestroy(start);
      cudaEventDestroy(stop);
    }
    start = stop = nullptr;
    // Never throws (it runs in the destructor, and on machines without a GPU): the buffers are GPU
    // 0's, freed with it current when there are any.
    if (whole_a.get() || whole_b.get() || whole_c.get() || ref_inputs.get() || ref_c.get()) {
      cudaSetDevice(0);
      whole_a.release();
      whole_b.release();
      whole_c.release();
      ref_inputs.release();
      ref_c.release();
    }
    group.reset();
  }

  void ensure_group(int count) {
    if (group && group->size() == count) return;
    drop_group();
    group = std::make_unique<GpuGroup>(count);
    spans = std::make_unique<SpanRecorder>(group->devices());
    for (int d = 0; d < count; ++d) {
      DeviceScope on(d);
      for (int k = 0; k < 2; ++k) {
        cudaEvent_t e = nullptr;
        CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
        ends.push_back(e);
      }
    }
    DeviceScope on(0);
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
  }

  void run_checked(const RunRequest& req, const SplitDescriptor& split, const VariantDescriptor& kernel,
                   RunResult& res);
  void place_inputs(const RunRequest& req, const SplitArgs& args);
  // `part`: the part of C the split delivers (the kernel's, or the upper triangle alone).
  void verify(const RunRequest& req, const SplitArgs& args, const TileConfig& cfg, OutputPart part, RunResult& res);
  // One product: the split's launch between the run's start and stop. Returns milliseconds.
  double run_once(const SplitDescriptor& split, const SplitArgs& args, int config);
};

SplitMeasurer::SplitMeasurer() : impl_(std::make_unique<Impl>()) {}
SplitMeasurer::~SplitMeasurer() = default;
std::atomic<bool>& SplitMeasurer::cancel_flag() {
  return impl_->cancel;
}

namespace {

// Why the request cannot run as a split ("" = it can), before anything touches a GPU but the
// device count.
std::string split_refusal(const RunRequest& req, const SplitDescriptor& split, const VariantDescriptor& kernel,
                          const DeviceInfo& dev) {
  if (std::string bad = gpu_count_error(req.gpus); !bad.empty()) return bad;
  if (!supports(split, req.problem))
    return std::string(split.id) + " splits " + (req.problem == Problem::Gemm ? "AᵀA" : "the gemm problem") +
           " only (choose another split for " + to_string(req.problem) + ")";
  if (split.needs_nccl && !nccl()) return nccl_unusable_reason();
  if (req.config_index >= static_cast<int>(kernel.configs.size()))
    return "a typed tile runs on one GPU only here; split a shipped configuration";
  if (!needs_cuda(kernel)) return std::string(kernel.label) + " does not run through CUDA: it cannot be split";
  if (std::string bad = unsupported_reason(kernel, req.config_index, req.problem, req.precision, dev.limits);
      !bad.empty())
    return bad;
  SplitQuery q{req.problem, req.precision, normalised(req.problem, req.shape), req.gpus, &kernel, req.config_index};
  return split.refuses ? split.refuses(q, req.split_config) : "";
}

}  // namespace

RunResult SplitMeasurer::run(const RunRequest& req) {
  RunResult res = requested_row(req);
  const SplitDescriptor* split = find_split(req.split);
  if (!split) {
    res.error = "unknown split '" + req.split + "'";
    return res;
  }
  if (std::string bad = split_config_error(*split, req.split_config); !bad.empty()) {
    res.error = bad;
    return res;
  }
  res.split_config = split->configs[req.split_config].name;
  const VariantDescriptor* kernel = requested_variant(req, res);
  if (!kernel) return res;
  const DeviceInfo& dev = probe_device();
  if (!dev.ok()) {
    res.error = "no usable GPU: " + dev.unavailable_reason;
    return res;
  }
  record_device(res, dev);
  if (std::string bad = cuda_size_error(res.shape); !bad.empty()) {
    res.error = bad;
    return res;
  }
  if (bad_repetitions(req)) {
    res.error = kRepetitionsError;
    return res;
  }
  if (std::string bad = split_refusal(req, *split, *kernel, dev); !bad.empty()) {
    res.error = "refused: " + bad;
    return res;
  }
  try {
    if (impl_->cancel.load()) throw GpuError("cancelled");
    impl_->run_checked(req, *split, *kernel, res);
  } catch (const std::exception& e) {
    res.error = e.what();
    res.spans.clear();
    // NCCL's communicators may be left in an error state, and a stream may hold the failed work:
    // the next run makes the group afresh.
    if (impl_->group) impl_->group->drop_communicators();
    impl_->drop_group();
    cudaGetLastError();
  }
  return res;
}

bool SplitMeasurer::measure_links(int gpus, int repetitions, LinkBench* out, std::string* error) {
  if (gpus < 2) {
    *error = "the link is between two GPUs or more";
    return false;
  }
  if (std::string bad = gpu_count_error(gpus); !bad.empty()) {
    *error = bad;
    return false;
  }
  try {
    impl_->ensure_group(gpus);
    *out = tilescope::measure_links(*impl_->group, repetitions);
    return true;
  } catch (const std::exception& e) {
    *error = e.what();
    impl_->drop_group();
    cudaGetLastError();
    return false;
  }
}

void SplitMeasurer::Impl::run_checked(const RunRequest& req, const SplitDescriptor& split,
                                      const VariantDescriptor& kernel, RunResult& res) {
  ensure_group(req.gpus);
  res.gpu_names.clear();
  for (const std::string& name : gpu_names(req.gpus)) res.gpu_names += (res.gpu_names.empty() ? "" : "; ") + name;
  if (split.needs_nccl) group->ensure_communicators();

  SplitArgs args;
  args.problem = req.problem;
  args.precision = req.precision;
  args.shape = res.shape;
  args.kernel = &kernel;
  args.kernel_config = req.config_index;
  args.c_type = res.c_type;
  const SplitQuery q{req.problem, req.precision, res.shape, req.gpus, &kernel, req.config_index};
  args.layout = split.layout(q, req.split_config);
  args.gpus = group->shares_for(args.layout, element_bytes(req.precision), output_bytes(res.c_type));
  int rows = 1, cols = 1;
  if (split.grid && split.grid(req.gpus, req.split_config, &rows, &cols)) {  // each grid row's and column's own
    for (int i = 0; i < rows; ++i) {
      std::vector<int> ranks;
      for (int j = 0; j < cols; ++j) ranks.push_back(i * cols + j);
      const std::vector<NcclComm>& comms = group->team_communicators(ranks);
      for (int j = 0; j < cols; ++j) args.gpus[i * cols + j].row_comm = comms[j];
    }
    for (int j = 0; j < cols; ++j) {
      std::vector<int> ranks;
      for (int i = 0; i < rows; ++i) ranks.push_back(i * cols + j);
      const std::vector<NcclComm>& comms = group->team_communicators(ranks);
      for (int i = 0; i < rows; ++i) args.gpus[i * cols + j].col_comm = comms[i];
    }
  }
  args.spans = spans.get();
  res.input_sets = 1;
  res.timer = split.host_timed ? "wall_clock" : "cuda_events";

  place_inputs(req, args);
  const auto t0 = std::chrono::steady_clock::now();
  run_once(split, args, req.split_config);
  res.first_ms = ms_since(t0);
  if (cancel.load()) throw GpuError("cancelled");
  if (req.verify) {
    const TileConfig& cfg = config_at(kernel, req.config_index);
    verify(req, args, cfg, split.configs[req.split_config].upper_triangle_only ? OutputPart::UpperTriangle : cfg.output,
           res);
  }

  for (int i = 0; i < req.warmup; ++i) run_once(split, args, req.split_config);
  std::vector<double> times;
  for (int i = 0; i < req.repetitions; ++i) {
    if (cancel.load()) throw GpuError("cancelled");
    times.push_back(run_once(split, args, req.split_config));
  }
  res.spans = spans->read();
  const DeviceInfo& dev = probe_device();
  record_timings(res, times, dev.peak_gflops(req.precision) * req.gpus);
}

// The seed's first input set (the one a one-GPU run of this request checks and times first) made
// whole on GPU 0, its blocks copied to the GPUs the layout names, and every GPU's C poisoned.
void SplitMeasurer::Impl::place_inputs(const RunRequest& req, const SplitArgs& args) {
  const Shape& s = args.shape;
  const std::size_t bytes = element_bytes(req.precision);
  const std::int64_t a_n = a_elements(req.problem, s), b_n = b_elements(req.problem, s);
  {
    DeviceScope on(0);
    whole_a.resize(a_n * bytes);
    whole_b.resize(std::max<std::int64_t>(b_n, 1) * bytes);
    fill_random(whole_a.get(), req.precision, a_n, req.seed, 0, args.gpus[0].compute);
    if (b_n) fill_random(whole_b.get(), req.precision, b_n, req.seed, 1, args.gpus[0].compute);
    CUDA_CHECK(cudaStreamSynchronize(args.gpus[0].compute));
  }
  for (std::size_t g = 0; g < args.gpus.size(); ++g) {
    const GpuShare& share = args.gpus[g];
    const GpuLayout& l = args.layout.gpus[g];
    DeviceScope on(share.device);
    copy_blocks(l.a, static_cast<char*>(whole_a.get()), a_row_length(req.problem, s), static_cast<char*>(share.a),
                bytes, share.compute, false);
    copy_blocks(l.b, static_cast<char*>(whole_b.get()), s.N, static_cast<char*>(share.b), bytes, share.compute, false);
    poison(share.c, args.c_type, l.c_elements, share.compute);
  }
  group->synchronize();
}

// C's blocks gathered onto GPU 0 (poisoned first, so a block no GPU holds shows as unwritten) and
// compared with cublasDgemm's blocked FP64 sum of the same inputs.
void SplitMeasurer::Impl::verify(const RunRequest& req, const SplitArgs& args, const TileConfig& cfg, OutputPart part,
                                 RunResult& res) {
  const Shape& s = args.shape;
  const std::size_t c_bytes = output_bytes(args.c_type);
  const std::int64_t a_n = a_elements(req.problem, s), b_n = b_elements(req.problem, s),
                     c_n = c_elements(req.problem, s);
  DeviceScope on(0);
  cudaStream_t stream = args.gpus[0].compute;
  whole_c.resize(c_n * c_bytes);
  poison(whole_c.get(), args.c_type, c_n, stream);
  for (std::size_t g = 0; g < args.gpus.size(); ++g)
    copy_blocks(args.layout.gpus[g].c, static_cast<char*>(whole_c.get()), s.N, static_cast<char*>(args.gpus[g].c),
                c_bytes, stream, true);
  ref_inputs.resize((a_n + b_n) * 8);
  ref_c.resize(c_n * 8);
  double* ra = static_cast<double*>(ref_inputs.get());
  double* rb = b_n ? ra + a_n : nullptr;
  widen_to_double(ra, whole_a.get(), req.precision, a_n, stream);
  if (b_n) widen_to_double(rb, whole_b.get(), req.precision, b_n, stream);
  blocked_dgemm_reference(args.gpus[0].cublas, stream, req.problem, s, ra, rb, static_cast<double*>(ref_c.get()));
  const ErrorReport er =
      device_compare(whole_c.get(), args.c_type, static_cast<const double*>(ref_c.get()), s.M, s.N, part, stream);
  const CheckVerdict v =
      judge_check(er, unit_roundoff_for(req.precision, cfg.tf32), s.K, c_n, error_growth_for(req.precision, cfg.tf32),
                  cfg.c_roundings * output_unit_roundoff(req.precision, args.c_type));
  res.verified = true;
  res.reference = "cublas_dgemm";
  res.rel_error = er.rel_error;
  res.unwritten = er.unwritten;
  res.tolerance = v.tolerance;
  res.passed = v.passed;
}

double SplitMeasurer::Impl::run_once(const SplitDescriptor& split, const SplitArgs& args, int config) {
  group->synchronize();
  if (split.host_timed) {
    spans->begin_run({});  // the library's streams are its own: no spans
    const auto t0 = std::chrono::steady_clock::now();
    split.launch(args, config);
    for (int d : group->devices()) {
      DeviceScope on(d);
      CUDA_CHECK(cudaDeviceSynchronize());
    }
    return ms_since(t0);
  }
  const std::size_t n = args.gpus.size();
  {
    DeviceScope on(0);
    CUDA_CHECK(cudaEventRecord(start, args.gpus[0].compute));
  }
  std::vector<cudaStream_t> origins;
  for (const GpuShare& g : args.gpus) {
    DeviceScope on(g.device);
    CUDA_CHECK(cudaStreamWaitEvent(g.compute, start, 0));
    CUDA_CHECK(cudaStreamWaitEvent(g.transfer, start, 0));
    origins.push_back(g.compute);
  }
  spans->begin_run(origins);
  split.launch(args, config);
  for (std::size_t i = 0; i < n; ++i) {
    const GpuShare& g = args.gpus[i];
    DeviceScope on(g.device);
    CUDA_CHECK(cudaEventRecord(ends[2 * i], g.compute));
    CUDA_CHECK(cudaEventRecord(ends[2 * i + 1], g.transfer));
  }
  DeviceScope on(0);
  for (cudaEvent_t e : ends) CUDA_CHECK(cudaStreamWaitEvent(args.gpus[0].compute, e, 0));
  CUDA_CHECK(cudaEventRecord(stop, args.gpus[0].compute));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  return ms;
}

}  // namespace tilescope
