#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "kernels/core/external_runner.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/sm_clock.h"
#include "kernels/jit/kernel_calls.h"
#include "kernels/measure/dgemm_reference.h"
#include "kernels/measure/gpu_buffers.h"
#include "kernels/measure/launch_gate.h"
#include "kernels/measure/measure.h"
#include "kernels/measure/random_inputs.h"
#include "kernels/measure/reference.h"
#include "kernels/models/mapping_model.h"
#include "kernels/models/warp_access.h"

namespace tilescope {

double unit_roundoff_for(Precision p, bool tf32) {
  // A configuration that rounds float inputs to TF32 (cuBLAS's opt-in) adds TF32's rounding of
  // every input. Otherwise the inputs are exact in their type and their products exact in the
  // accumulator, so only the accumulation rounds: FP32's u for tf32, f16 and bf16 as for f32.
  return tf32 ? input_unit_roundoff(Precision::TF32) : accumulation_unit_roundoff(p);
}

double relative_error_tolerance(double u, std::int64_t k, double reference_norm, std::int64_t elements,
                                ErrorGrowth growth) {
  const double expected_norm = std::sqrt(static_cast<double>(elements) * static_cast<double>(k)) / 3.0;
  const double cancellation = reference_norm > 0 ? std::max(1.0, expected_norm / reference_norm) : 1.0;
  // The kernel's rounding and the reference's, independent: their sizes add in quadrature.
  const double u_both = std::hypot(u, kReferenceUnitRoundoff);
  const double kk = static_cast<double>(std::max<std::int64_t>(k, 1));
  const double rounding = 4.0 * u_both * std::sqrt(kk);
  return (growth == ErrorGrowth::Linear ? std::max(rounding, u_both * kk) : rounding) * cancellation;
}

ErrorGrowth error_growth_for(Precision p, bool tf32) {
  return !tf32 && precision_facts(p).min_tensor_core_cc > 0 ? ErrorGrowth::Linear : ErrorGrowth::SqrtK;
}

CheckVerdict judge_check(const ErrorReport& er, double unit_roundoff, std::int64_t k, std::int64_t elements,
                         ErrorGrowth growth, double output_roundoff) {
  CheckVerdict v;
  const double accumulated = relative_error_tolerance(unit_roundoff, k, er.reference_norm, elements, growth);
  v.tolerance = accumulated + output_roundoff * (1.0 + accumulated);
  v.passed = er.unwritten == 0 && std::isfinite(er.rel_error) && er.rel_error <= v.tolerance;
  return v;
}

namespace {

bool uses_cpu_reference(const RunRequest& r, const Shape& s) {
  if (r.reference == ReferenceSource::Cpu) return true;
  if (r.reference == ReferenceSource::CublasDgemm) return false;
  return flop_count(r.problem, s) / 2.0 <= kCpuReferenceMaxWork;
}

// Every matrix of an input set starts on a 256-byte boundary, as a buffer of its own from
// cudaMalloc would: a ragged A must not leave B (or the next set) off the alignment that the
// vector paths and the sectors a warp touches (warp_access.h) assume.
constexpr std::size_t kMatrixAlignment = 256;
std::size_t aligned_bytes(std::size_t bytes) {
  return (bytes + kMatrixAlignment - 1) / kMatrixAlignment * kMatrixAlignment;
}
std::size_t a_set_bytes(const RunRequest& r) {
  const Shape s = normalised(r.problem, r.shape);
  return aligned_bytes(static_cast<std::size_t>(a_elements(r.problem, s)) * element_bytes(r.precision));
}
std::size_t input_set_bytes(const RunRequest& r) {
  const Shape s = normalised(r.problem, r.shape);
  return a_set_bytes(r) +
         aligned_bytes(static_cast<std::size_t>(b_elements(r.problem, s)) * element_bytes(r.precision));
}

// Kernels (or cuBLAS routines) already run in this process: their next run is not cold.
std::mutex g_warm_mutex;
std::set<std::string> g_warm_kernels;

bool mark_warm(const std::string& key) {
  std::lock_guard<std::mutex> lock(g_warm_mutex);
  return g_warm_kernels.insert(key).second;  // true: first time
}

// The verdict of a check: error, unwritten elements, the tolerance for this K and arithmetic.
// `c_roundings`: how many times the configuration rounds C into its type (TileConfig::c_roundings).
void record_check(RunResult& res, const ErrorReport& er, double unit_roundoff, std::int64_t k, std::int64_t elements,
                  ErrorGrowth growth = ErrorGrowth::SqrtK, int c_roundings = 1) {
  res.rel_error = er.rel_error;
  res.unwritten = er.unwritten;
  const CheckVerdict verdict = judge_check(er, unit_roundoff, k, elements, growth,
                                           c_roundings * output_unit_roundoff(res.precision, res.c_type));
  res.tolerance = verdict.tolerance;
  res.passed = verdict.passed;
}

// The device inputs of a run: `count` sets of A (and B, where the problem has one) back to back;
// the warm-up and timed runs rotate through them.
struct InputSets {
  char* base = nullptr;
  std::size_t set_bytes = 0;
  std::size_t a_bytes = 0;  // where B starts within a set
  bool has_b = false;
  int count = 1;
  char* a(int i) const { return base + set_bytes * i; }
  char* b(int i) const { return has_b ? a(i) + a_bytes : nullptr; }
  // Points a launch at set i (modulo count).
  void use(GemmArgs& args, int i) const {
    args.a = a(i % count);
    args.b = b(i % count);
  }
};

// The product actually drawn, in double (for the reference) and in float (for the engine): Gemm
// as is; AᵀA as (Aᵀ) * A with Aᵀ made on the host (a texture could be sampled transposed for
// free; the upload is not timed either way).
struct ExternalInputs {
  int M = 0, N = 0, K = 0;
  std::vector<double> a64, b64;
  std::vector<float> a32, b32;
};

// What makes a kernel warm: the variant, configuration, problem and precision, and the kernel
// itself where a launch picks one of several.
std::string warm_key(const RunRequest& req, const VariantDescriptor& v, const KernelLaunchShape& shape) {
  std::string key = std::string(v.id) + ":" + config_at(v, req.config_index).name + ":" + to_string(req.problem) + ":" +
                    to_string(req.precision);
  if (shape.kernel) key += ":" + std::to_string(reinterpret_cast<std::uintptr_t>(shape.kernel));
  return key;
}

// The key of the cached CPU reference: the inputs and sizes it was computed for (a float and a
// double run of one seed have different inputs).
std::string host_reference_key(const RunRequest& req, const Shape& s) {
  return std::string(to_string(req.problem)) + ":" + to_string(req.precision) + ":" + shape_text(s) + ":" +
         std::to_string(req.seed);
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// kTimedLaunchesRange while it lives: pushed on this thread, popped when the timed runs end or
// throw (a cancel), so that a profiler sees every timed launch inside it and nothing else. The
// header-only NVTX3 API links and loads nothing: without a tool injected (through the environment
// of a profiler's launch), its first call finds none and every call after does nothing.
class TimedLaunchesRange {
 public:
  TimedLaunchesRange() { nvtxRangePushA(kTimedLaunchesRange); }
  ~TimedLaunchesRange() { nvtxRangePop(); }
  TimedLaunchesRange(const TimedLaunchesRange&) = delete;
  TimedLaunchesRange& operator=(const TimedLaunchesRange&) = delete;
};

}  // namespace

std::string size_error(const Shape& s) {
  if (s.M >= 1 && s.N >= 1 && s.K >= 1) return "";
  return "sizes must be at least 1 (got M=" + std::to_string(s.M) + " N=" + std::to_string(s.N) +
         " K=" + std::to_string(s.K) + ")";
}

std::string cuda_size_error(const Shape& s) {
  if (std::string bad = size_error(s); !bad.empty()) return bad;
  if (s.M > INT_MAX || s.N > INT_MAX || s.K > INT_MAX)
    return "sizes above 2147483647 are not supported (cuBLAS takes 32-bit sizes)";
  return "";
}

bool bad_repetitions(const RunRequest& r) {
  return r.repetitions < 1 || r.warmup < 0;
}

const VariantDescriptor* requested_variant(const RunRequest& req, RunResult& res) {
  const VariantDescriptor* v = find_variant(req.variant_id);
  if (!v) {
    res.error = "unknown variant '" + req.variant_id + "'";
    return nullptr;
  }
  record_variant(res, *v, req.config_index);
  if (std::string bad = config_index_error(*v, req.config_index); !bad.empty()) {
    res.error = bad;
    return nullptr;
  }
  return v;
}

void record_timings(RunResult& res, const std::vector<double>& times_ms, double peak_gflops) {
  res.median_ms = median_of(times_ms);
  res.min_ms = *std::min_element(times_ms.begin(), times_ms.end());
  res.max_ms = *std::max_element(times_ms.begin(), times_ms.end());
  res.gflops = res.median_ms > 0 ? flop_count(res.problem, res.shape) / (res.median_ms * 1.0e6) : 0;
  res.pct_of_peak = peak_gflops > 0 ? 100.0 * res.gflops / peak_gflops : 0;
}

void record_variant(RunResult& res, const VariantDescriptor& v, int config_index) {
  res.variant_label = v.label;
  res.backend = to_string(v.backend);
  if (!config_index_error(v, config_index).empty()) return;
  const TileConfig& cfg = config_at(v, config_index);
  res.config_name = cfg.name;
  res.math = cfg.math ? cfg.math : "";
  res.c_type = output_type(res.precision, cfg.c_in_input_type);
}

void record_device(RunResult& res, const DeviceInfo& dev) {
  res.device_name = dev.name;
  res.gpu_names = dev.name;  // one GPU's run; a split's names all of its GPUs (split_measure.h)
  res.sm_clock_mhz = dev.sm_clock_khz / 1000;
  res.driver_version = version_string(dev.driver_version);
  res.runtime_version = version_string(dev.runtime_version);
  res.cublas_version = dev.cublas_version;
}

std::size_t device_bytes_needed(const RunRequest& r, int input_sets) {
  const Shape s = normalised(r.problem, r.shape);
  const std::size_t c_bytes = static_cast<std::size_t>(c_elements(r.problem, s)) * output_bytes(request_output_type(r));
  std::size_t bytes = input_set_bytes(r) * static_cast<std::size_t>(std::max(1, input_sets)) + c_bytes;
  if (r.verify) {
    if (uses_cpu_reference(r, s))
      bytes += 0;  // the reference lives on the host
    else           // double copies of the inputs and a double C for cublasDgemm
      bytes +=
          static_cast<std::size_t>(a_elements(r.problem, s) + b_elements(r.problem, s) + c_elements(r.problem, s)) * 8;
  }
  return bytes;
}

struct Measurer::Impl {
  cudaStream_t stream = nullptr;
  cublasHandle_t cublas = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  DeviceBuffer inputs, c, ref_inputs, ref_c;
  std::atomic<bool> cancel{false};
  bool initialised = false;
  // The last CPU reference, reused while problem, shape and seed stay the same (a test or a
  // lesson runs many variants on one input).
  std::string host_ref_key;
  std::vector<double> host_ref;
  // The SM clock during the timed runs (NVML), made with the first run on a device.
  std::unique_ptr<SmClockSampler> clock;
  // Holds the stream while a timed run is enqueued (launch_gate.h).
  std::unique_ptr<LaunchGate> gate;

  void init() {
    if (initialised) return;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    CUBLAS_CHECK(cublasCreate(&cublas));
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    clock = std::make_unique<SmClockSampler>(device);
    gate = std::make_unique<LaunchGate>();
    initialised = true;
  }

  ~Impl() {
    if (cublas) cublasDestroy(cublas);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (stream) cudaStreamDestroy(stream);
  }

  void run_checked(const RunRequest& req, const VariantDescriptor& v, RunResult& res);
  // The steps of run_checked, in order.
  int choose_input_sets(const RunRequest& req, const DeviceInfo& dev);
  InputSets allocate_inputs(const RunRequest& req, const Shape& s, OutputType c_type, int count);
  double query_kernel(const KernelLaunchShape& shape, bool cold, const DeviceInfo& dev, RunResult& res);
  void fill_inputs(const RunRequest& req, const Shape& s, OutputType c_type, const InputSets& sets);
  void time_first_run(const VariantDescriptor& v, const RunRequest& req, const GemmArgs& args, RunResult& res);
  void verify(const RunRequest& req, const TileConfig& cfg, const InputSets& sets, RunResult& res);
  ErrorReport compare_with_host_reference(const RunRequest& req, const Shape& s, OutputType c_type, OutputPart part);
  void locate_first_wrong(const Shape& s, OutputPart part, bool host_reference, RunResult& res);
  void warm_up(const VariantDescriptor& v, const RunRequest& req, const InputSets& sets, GemmArgs args);
  std::vector<double> timed_runs(const VariantDescriptor& v, const RunRequest& req, const InputSets& sets,
                                 GemmArgs args, bool* gated);
  // cublasDgemm on double inputs already on the device (rb null for AᵀA) into ref_c, and the
  // device C, stored as c_type, compared with it over `part`.
  ErrorReport compare_with_cublas_dgemm(Problem problem, const Shape& s, const double* ra, const double* rb,
                                        const void* c_device, OutputType c_type, OutputPart part) {
    ref_c.resize(static_cast<std::size_t>(s.M) * s.N * 8);
    blocked_dgemm_reference(cublas, stream, problem, s, ra, rb, static_cast<double*>(ref_c.get()));
    return device_compare(c_device, c_type, static_cast<const double*>(ref_c.get()), s.M, s.N, part, stream);
  }
  void run_external(const RunRequest& req, const VariantDescriptor& v, RunResult& res);
  // The steps of run_external.
  ExternalRunner checked_external_runner(const RunRequest& req, const VariantDescriptor& v, const Shape& s);
  void verify_external(const RunRequest& req, const TileConfig& cfg, const ExternalInputs& in,
                       const std::vector<float>& c_out, const DeviceInfo& dev, RunResult& res);
};

Measurer::Measurer() : impl_(std::make_unique<Impl>()) {}
Measurer::~Measurer() = default;
std::atomic<bool>& Measurer::cancel_flag() {
  return impl_->cancel;
}

namespace {

// The model's counts of what the memory system made of the run's accesses (warp_access.h): a
// sample of the blocks on large sizes, a few tens of milliseconds of this (worker) thread.
void count_memory_accesses(const RunRequest& req, RunResult& res) {
  std::string why;
  const std::unique_ptr<MappingModel> model =
      make_mapping_model(req.variant_id, req.config_index, req.problem, req.precision, res.shape, &why);
  if (!model || model->access_sites().empty()) return;
  const AccessTotals t = access_totals(*model, std::int64_t{1} << 20);
  auto ratio = [](std::int64_t num, std::int64_t den) { return den > 0 ? static_cast<double>(num) / den : -1.0; };
  res.load_sectors_per_request = ratio(t.global_load.sectors, t.global_load.requests);
  res.store_sectors_per_request = ratio(t.global_store.sectors, t.global_store.requests);
  const std::int64_t shared = t.shared_load.requests + t.shared_store.requests;
  res.shared_conflicts_per_instruction =
      shared > 0 ? ratio(t.shared_load.conflicts() + t.shared_store.conflicts(), shared) : 0;
}

}  // namespace

RunResult Measurer::run(const RunRequest& req) {
  RunResult res = requested_row(req);

  const VariantDescriptor* v = requested_variant(req, res);
  if (!v) return res;

  if (!needs_cuda(*v)) {
    // Not CUDA: runs wherever OpenGL 3.3 does (a laptop's GPU, Mesa), with or without CUDA.
    try {
      impl_->run_external(req, *v, res);
    } catch (const std::exception& e) {
      res.error = e.what();
      cudaGetLastError();
    }
    return res;
  }

  const DeviceInfo& dev = probe_device();
  if (!dev.ok()) {
    res.error = "no usable GPU: " + dev.unavailable_reason;
    return res;
  }
  record_device(res, dev);

  const Shape& s = res.shape;
  if (std::string bad = cuda_size_error(s); !bad.empty()) {
    res.error = bad;
    return res;
  }
  if (bad_repetitions(req)) {
    res.error = kRepetitionsError;
    return res;
  }
  const std::string refused = unsupported_reason(*v, req.config_index, req.problem, req.precision, dev.limits);
  if (!refused.empty()) {
    res.error = "refused: " + refused;
    return res;
  }
  try {
    if (impl_->cancel.load()) throw GpuError("cancelled");
    impl_->run_checked(req, *v, res);
  } catch (const std::exception& e) {
    res.error = e.what();
    // A failed kernel can leave a sticky error; clear what can be cleared for the next run.
    cudaGetLastError();
  }
  if (res.ok()) count_memory_accesses(req, res);
  return res;
}

void Measurer::Impl::run_checked(const RunRequest& req, const VariantDescriptor& v, RunResult& res) {
  init();
  const DeviceInfo& dev = probe_device();
  const Shape s = res.shape;
  res.input_sets = choose_input_sets(req, dev);
  res.timer = "cuda_events";

  // Kernel resources, and the checks only a device can make (registers, occupancy).
  const InputSets sets = allocate_inputs(req, s, res.c_type, res.input_sets);
  GemmArgs args;
  args.problem = req.problem;
  args.precision = req.precision;
  args.shape = s;
  args.stream = stream;
  args.cublas = cublas;
  sets.use(args, 0);
  args.c = c.get();
  const KernelLaunchShape shape = v.kernel_for(args, req.config_index);
  const bool cold = mark_warm(warm_key(req, v, shape));
  // With lazy module loading (CUDA's default) the first query of a kernel loads its module: a
  // cost a cold launch would pay, so for a cold kernel it is timed and counted in first_ms.
  const double module_load_ms = shape.kernel ? query_kernel(shape, cold, dev, res) : 0;

  fill_inputs(req, s, res.c_type, sets);
  time_first_run(v, req, args, res);
  res.first_ms += module_load_ms;
  res.first_was_cold = cold;

  if (cancel.load()) throw GpuError("cancelled");
  if (req.verify) verify(req, config_at(v, req.config_index), sets, res);
  std::vector<double> times;
  warm_up(v, req, sets, args);
  {
    SampledSpan clock_during(*clock);
    bool gated = true;
    times = timed_runs(v, req, sets, args, &gated);
    res.run_clock_mhz = clock_during.done();
    if (gated) res.timer = "cuda_events_gated";
  }
  record_timings(res, times, dev.peak_gflops(req.precision));
}

// How many input sets to rotate through: enough that they do not all fit in the L2 at once, as
// many of those as fit in device memory (throws when not even one does).
int Measurer::Impl::choose_input_sets(const RunRequest& req, const DeviceInfo& dev) {
  const std::size_t set_bytes = input_set_bytes(req);
  int sets = static_cast<int>(
      std::clamp<std::size_t>((2 * dev.l2_bytes + set_bytes - 1) / std::max<std::size_t>(set_bytes, 1), 1, 8));
  sets = std::min(sets, req.repetitions);
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  // What we hold already counts as available to this run.
  const std::size_t held = inputs.bytes() + c.bytes() + ref_inputs.bytes() + ref_c.bytes();
  const std::size_t usable = static_cast<std::size_t>(0.92 * static_cast<double>(free_bytes + held));
  while (sets > 1 && device_bytes_needed(req, sets) > usable) --sets;
  const std::size_t needed = device_bytes_needed(req, sets);
  if (needed > usable)
    throw GpuError("does not fit in device memory: needs " + std::to_string(needed) + " bytes (" +
                   std::to_string(needed >> 20) + " MiB), " + std::to_string(usable >> 20) + " MiB usable of " +
                   std::to_string(total_bytes >> 20) + " MiB");
  return sets;
}

// Sizes the input sets and C on the device.
InputSets Measurer::Impl::allocate_inputs(const RunRequest& req, const Shape& s, OutputType c_type, int count) {
  InputSets sets;
  sets.set_bytes = input_set_bytes(req);
  sets.a_bytes = a_set_bytes(req);
  sets.has_b = b_elements(req.problem, s) > 0;
  sets.count = count;
  inputs.resize(sets.set_bytes * count);
  c.resize(static_cast<std::size_t>(c_elements(req.problem, s)) * output_bytes(c_type));
  sets.base = static_cast<char*>(inputs.get());
  return sets;
}

// Registers, shared memory and occupancy of the kernel into `res`; refuses (throws) what cannot
// launch. Returns the time the query took when the kernel is cold (its module's loading), else 0.
double Measurer::Impl::query_kernel(const KernelLaunchShape& shape, bool cold, const DeviceInfo& dev, RunResult& res) {
  const auto q0 = std::chrono::steady_clock::now();
  const KernelFacts attr = kernel_facts(shape);
  const double module_load_ms = cold ? ms_since(q0) : 0;
  res.registers_per_thread = attr.registers;
  res.static_shared_bytes = static_cast<int>(attr.static_shared_bytes);
  res.dynamic_shared_bytes = static_cast<int>(shape.dynamic_shared_bytes);
  res.threads_per_block = shape.threads_per_block;
  if (static_cast<long long>(attr.registers) * shape.threads_per_block > dev.limits.regs_per_block)
    throw GpuError("refused: " + std::to_string(attr.registers) + " registers x " +
                   std::to_string(shape.threads_per_block) + " threads exceed the " +
                   std::to_string(dev.limits.regs_per_block) + " registers of a block");
  if (shape.threads_per_block > attr.max_threads_per_block)
    throw GpuError("refused: the kernel can run at most " + std::to_string(attr.max_threads_per_block) +
                   " threads per block, the configuration needs " + std::to_string(shape.threads_per_block));
  if (shape.dynamic_shared_bytes > 48 * 1024) allow_dynamic_shared(shape);
  res.active_blocks_per_sm = blocks_per_sm(shape);
  if (res.active_blocks_per_sm == 0)
    throw GpuError("refused: not one block of this configuration fits on a multiprocessor");
  const int warps_per_block = (shape.threads_per_block + 31) / 32;
  res.occupancy = static_cast<double>(res.active_blocks_per_sm * warps_per_block) / (dev.max_threads_per_sm / 32);
  return module_load_ms;
}

// Fresh random inputs (set i uses seed + i, so no two sets are equal) and a poisoned C.
void Measurer::Impl::fill_inputs(const RunRequest& req, const Shape& s, OutputType c_type, const InputSets& sets) {
  const std::int64_t a_n = a_elements(req.problem, s), b_n = b_elements(req.problem, s);
  for (int i = 0; i < sets.count; ++i) {
    fill_random(sets.a(i), req.precision, a_n, req.seed + i, 0, stream);
    if (b_n) fill_random(sets.b(i), req.precision, b_n, req.seed + i, 1, stream);
  }
  poison(c.get(), c_type, c_elements(req.problem, s), stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

// The first run, cold if this kernel never ran in this process: host wall clock around
// launch + synchronize, so module loading and library start-up are included.
void Measurer::Impl::time_first_run(const VariantDescriptor& v, const RunRequest& req, const GemmArgs& args,
                                    RunResult& res) {
  const auto t0 = std::chrono::steady_clock::now();
  v.launch(args, req.config_index);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  res.first_ms = ms_since(t0);
}

// C of the first run against a double reference: the CPU's at small sizes, cublasDgemm above.
void Measurer::Impl::verify(const RunRequest& req, const TileConfig& cfg, const InputSets& sets, RunResult& res) {
  const Shape& s = res.shape;
  res.verified = true;
  ErrorReport er;
  if (uses_cpu_reference(req, s)) {
    res.reference = "cpu_fp64";
    er = compare_with_host_reference(req, s, res.c_type, cfg.output);
  } else {
    // cublasDgemm on the same inputs widened to double, summed in blocks of K: FP64 arithmetic,
    // far more precise than any float variant, and rounding in another order than the double ones.
    res.reference = "cublas_dgemm";
    const std::int64_t a_n = a_elements(req.problem, s), b_n = b_elements(req.problem, s);
    ref_inputs.resize(static_cast<std::size_t>(a_n + b_n) * 8);
    double* ra = static_cast<double*>(ref_inputs.get());
    double* rb = ra + a_n;
    widen_to_double(ra, sets.a(0), req.precision, a_n, stream);
    if (b_n) widen_to_double(rb, sets.b(0), req.precision, b_n, stream);
    er = compare_with_cublas_dgemm(req.problem, s, ra, b_n ? rb : nullptr, c.get(), res.c_type, cfg.output);
  }
  record_check(res, er, unit_roundoff_for(req.precision, cfg.tf32), s.K, er.checked,
               error_growth_for(req.precision, cfg.tf32), cfg.c_roundings);
  if (!res.passed && s.M * s.N <= kMaxLocatedElements)
    locate_first_wrong(s, cfg.output, res.reference == "cpu_fp64", res);
}

namespace {

// The device's C, count elements stored as t, on the host: float or double as stored, or a 16-bit
// type widened to float (exactly) so that the float comparisons take it.
struct HostC {
  OutputType type;
  std::vector<char> stored;
  std::vector<float> widened;
  HostC(const void* device_c, OutputType t, std::int64_t count) : type(t), stored(count * output_bytes(t)) {
    CUDA_CHECK(cudaMemcpy(stored.data(), device_c, stored.size(), cudaMemcpyDeviceToHost));
    if (output_bytes(t) != 2) return;
    widened.resize(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i)
      widened[i] = static_cast<float>(stored_output_value(stored.data() + 2 * i, t));
  }
  // f(const float*) or f(const double*) with C's values.
  template <typename F>
  auto with_values(F f) const {
    if (type == OutputType::F64) return f(reinterpret_cast<const double*>(stored.data()));
    return f(widened.empty() ? reinterpret_cast<const float*>(stored.data()) : widened.data());
  }
};

}  // namespace

// A failed check's first wrong element, from C and the reference the check compared (host_ref, or
// the cuBLAS one in ref_c).
void Measurer::Impl::locate_first_wrong(const Shape& s, OutputPart part, bool host_reference, RunResult& res) {
  const std::int64_t n = s.M * s.N;
  std::vector<double> device_ref;
  if (!host_reference) {
    device_ref.resize(static_cast<std::size_t>(n));
    CUDA_CHECK(cudaMemcpy(device_ref.data(), ref_c.get(), device_ref.size() * 8, cudaMemcpyDeviceToHost));
  }
  const double* ref = host_reference ? host_ref.data() : device_ref.data();
  const HostC out(c.get(), res.c_type, n);
  const WrongElement w = out.with_values(
      [&](const auto* values) { return first_wrong_element(values, ref, s.M, s.N, part, res.tolerance); });
  res.wrong_row = w.row;
  res.wrong_col = w.col;
  res.wrong_value = w.value;
  res.wrong_expected = w.expected;
}

// The device C against the CPU reference of input set 0, computed once per problem, precision,
// shape and seed.
ErrorReport Measurer::Impl::compare_with_host_reference(const RunRequest& req, const Shape& s, OutputType c_type,
                                                        OutputPart part) {
  const std::int64_t a_n = a_elements(req.problem, s), b_n = b_elements(req.problem, s);
  const std::int64_t c_n = c_elements(req.problem, s);
  const std::string key = host_reference_key(req, s);
  if (key != host_ref_key) {
    std::vector<double> ha(a_n), hb(b_n);
    host_ref.assign(c_n, 0.0);
    tilescope::fill_inputs(req.precision, req.seed, 0, a_n, ha.data());
    if (b_n) tilescope::fill_inputs(req.precision, req.seed, 1, b_n, hb.data());
    reference_gemm_f64(req.problem, s, ha.data(), hb.data(), host_ref.data());
    host_ref_key = key;
  }
  const HostC out(c.get(), c_type, c_n);
  return out.with_values(
      [&](const auto* values) { return compare_to_reference(values, host_ref.data(), s.M, s.N, part); });
}

void Measurer::Impl::warm_up(const VariantDescriptor& v, const RunRequest& req, const InputSets& sets, GemmArgs args) {
  const TimedLaunchesRange range;
  for (int i = 0; i < req.warmup; ++i) {
    if (cancel.load()) throw GpuError("cancelled");
    sets.use(args, i);
    v.launch(args, req.config_index);
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

// Timed runs, one event pair each, rotating input sets. Each behind a closed gate (launch_gate.h),
// so that its events time the GPU's work and not the host's launch path. A launch that waits for
// its own stream makes the gate time out: that run is timed again ungated, and so are the rest
// (*gated false). The gate is launched outside the profiler's range: only the run's own kernels
// are profiled (under a profiler, which runs each of them alone, a gate times out once).
std::vector<double> Measurer::Impl::timed_runs(const VariantDescriptor& v, const RunRequest& req, const InputSets& sets,
                                               GemmArgs args, bool* gated) {
  std::vector<double> times;
  times.reserve(req.repetitions);
  for (int i = 0; i < req.repetitions; ++i) {
    if (cancel.load()) throw GpuError("cancelled");
    sets.use(args, i);
    {
      const ClosedGate closed(*gate, stream, *gated);
      const TimedLaunchesRange range;
      CUDA_CHECK(cudaEventRecord(start, stream));
      v.launch(args, req.config_index);
      CUDA_CHECK(cudaEventRecord(stop, stream));
    }
    CUDA_CHECK(cudaEventSynchronize(stop));
    if (*gated && gate->timed_out()) {
      *gated = false;
      --i;
      continue;
    }
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  return times;
}

// ---- variants that run outside CUDA (external_runner.h) ----------------------------------------

// The external run's checks: sizes, repetitions, the descriptor's rules, a runner in this
// program, texture and host-memory limits. Returns the runner; throws why not.
ExternalRunner Measurer::Impl::checked_external_runner(const RunRequest& req, const VariantDescriptor& v,
                                                       const Shape& s) {
  if (std::string bad = size_error(s); !bad.empty()) throw GpuError(bad);
  if (bad_repetitions(req)) throw GpuError(kRepetitionsError);
  // No CUDA device limits apply: the variant's own rules are the refusals.
  const std::string refused = variant_refusal(v, req.config_index, req.problem, req.precision);
  if (!refused.empty()) throw GpuError("refused: " + refused);
  const ExternalRunner runner = external_runner(v.backend);
  if (!runner)
    throw GpuError(std::string(v.label) +
                   " needs tilescope's OpenGL part, which this program lacks "
                   "(built with -DTILESCOPE_GUI=OFF, or a test without it)");
  // Textures are at most 32768 texels wide anywhere; the engine checks this GL's own limit.
  if (s.M > 65536 || s.N > 65536 || s.K > 65536)
    throw GpuError("sizes above 65536 do not fit in textures (GL_MAX_TEXTURE_SIZE is at most 32768)");
  const double host_bytes = 4.0 * (2.0 * s.M * s.K + 2.0 * s.K * s.N + 2.0 * s.M * s.N);
  if (host_bytes > 16.0 * (1ull << 30))
    throw GpuError("needs " + std::to_string(static_cast<long long>(host_bytes / (1 << 20))) +
                   " MiB of host memory for the textures and their packed copies; the limit is 16 GiB");
  return runner;
}

namespace {

// The inputs of an external run (ExternalInputs) for this request.
ExternalInputs external_inputs(const RunRequest& req, const Shape& s) {
  ExternalInputs in;
  const int M = static_cast<int>(s.M), N = static_cast<int>(s.N), K = static_cast<int>(s.K);
  in.M = M, in.N = N, in.K = K;
  const std::int64_t a_n = a_elements(req.problem, s), b_n = b_elements(req.problem, s);
  std::vector<double>& a64 = in.a64;
  a64.resize(a_n);
  // The texture shaders compute in float: the float run's inputs, widened for the reference.
  fill_inputs(Precision::F32, req.seed, 0, a_n, a64.data());
  if (req.problem == Problem::Gemm) {
    in.b64.resize(b_n);
    fill_inputs(Precision::F32, req.seed, 1, b_n, in.b64.data());
  } else {  // A is K x N; the left operand is its transpose (N x K), the right one A itself
    in.b64 = a64;
    std::vector<double> at(static_cast<std::size_t>(N) * K);
    for (int k = 0; k < K; ++k)
      for (int i = 0; i < N; ++i) at[static_cast<std::size_t>(i) * K + k] = a64[static_cast<std::size_t>(k) * N + i];
    a64.swap(at);
  }
  // Float values widened: the float and double copies are equal.
  in.a32.assign(in.a64.begin(), in.a64.end());
  in.b32.assign(in.b64.begin(), in.b64.end());
  return in;
}

}  // namespace

void Measurer::Impl::run_external(const RunRequest& req, const VariantDescriptor& v, RunResult& res) {
  const Shape s = res.shape;
  const ExternalRunner runner = checked_external_runner(req, v, s);
  if (cancel.load()) throw GpuError("cancelled");

  ExternalRun run;
  run.variant = &v;
  run.config_index = req.config_index;
  run.M = static_cast<int>(s.M), run.N = static_cast<int>(s.N), run.K = static_cast<int>(s.K);
  run.warmup = req.warmup;
  run.repetitions = req.repetitions;
  run.cancel = &cancel;
  if (runner.refusal)
    if (std::string refused = runner.refusal(run); !refused.empty()) throw GpuError(refused);
  const ExternalInputs in = external_inputs(req, s);
  run.a = in.a32.data();
  run.b = in.b32.data();
  ExternalOutcome out = runner.run(run);
  if (!out.error.empty()) throw GpuError(out.error);
  if (out.times_ms.empty() || out.c.size() != static_cast<std::size_t>(in.M) * in.N)
    throw GpuError(std::string(v.id) + ": the runner returned no result");

  res.device_name = out.device_name;
  res.timer = out.timer;
  res.passes = out.passes;
  res.fetches_per_fma = out.fetches_per_fma;
  res.first_ms = out.first_ms;
  res.first_was_cold = out.first_was_cold;
  res.input_sets = 1;
  const DeviceInfo& dev = probe_device();
  // The CUDA device's figures describe this row only when GL drew on that same GPU.
  const bool same_gpu = dev.ok() && !dev.name.empty() && out.device_name.rfind(dev.name, 0) == 0;
  if (dev.ok()) {
    res.driver_version = version_string(dev.driver_version);
    res.runtime_version = version_string(dev.runtime_version);
  }
  if (same_gpu) res.sm_clock_mhz = dev.sm_clock_khz / 1000;

  if (req.verify) verify_external(req, config_at(v, req.config_index), in, out.c, dev, res);
  record_timings(res, out.times_ms, same_gpu ? dev.peak_gflops(Precision::F32) : 0);
}

// The engine's C against the CPU reference at small sizes, cublasDgemm where there is a CUDA
// device, else against a sample of elements computed on the CPU.
void Measurer::Impl::verify_external(const RunRequest& req, const TileConfig& cfg, const ExternalInputs& in,
                                     const std::vector<float>& c_out, const DeviceInfo& dev, RunResult& res) {
  const int M = in.M, N = in.N, K = in.K;
  res.verified = true;
  ErrorReport er;
  if (uses_cpu_reference(req, res.shape)) {
    res.reference = "cpu_fp64";
    std::vector<double> ref(static_cast<std::size_t>(M) * N);
    reference_gemm_f64(Problem::Gemm, Shape{M, N, K}, in.a64.data(), in.b64.data(), ref.data());
    er = compare_to_reference(c_out.data(), ref.data(), M, N, OutputPart::Full);
  } else if (dev.ok()) {
    // cublasDgemm on the same inputs, as for the CUDA variants.
    res.reference = "cublas_dgemm";
    init();
    ref_inputs.resize(in.a64.size() * 8 + in.b64.size() * 8);
    c.resize(c_out.size() * 4);
    double* ra = static_cast<double*>(ref_inputs.get());
    double* rb = ra + in.a64.size();
    CUDA_CHECK(cudaMemcpyAsync(ra, in.a64.data(), in.a64.size() * 8, cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(rb, in.b64.data(), in.b64.size() * 8, cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(c.get(), c_out.data(), c_out.size() * 4, cudaMemcpyHostToDevice, stream));
    er = compare_with_cublas_dgemm(Problem::Gemm, Shape{M, N, K}, ra, rb, c.get(), OutputType::F32, OutputPart::Full);
  } else {
    res.reference = "cpu_fp64_sampled";
    er = sampled_compare_to_reference(c_out.data(), Problem::Gemm, Shape{M, N, K}, in.a64.data(), in.b64.data(),
                                      kSampledReferencePoints, req.seed);
  }
  // All of C counts for the tolerance's size estimate, also when only a sample was checked.
  record_check(res, er, unit_roundoff_for(Precision::F32, cfg.tf32), res.shape.K, static_cast<std::int64_t>(M) * N);
}

bool is_baseline_row(const RunResult& r) {
  const VariantDescriptor* v = find_variant(r.variant_id);
  return r.split.empty() && v && is_baseline(*v, find_config(*v, r.config_name));
}

void fill_pct_of_cublas(std::vector<RunResult>& rows) {
  // The best baseline per problem, precision and shape, in one pass: histories grow long.
  std::map<std::tuple<Problem, Precision, OutputType, std::int64_t, std::int64_t, std::int64_t, int>, double> best;
  auto key = [](const RunResult& r) {
    return std::make_tuple(r.problem, r.precision, r.c_type, r.shape.M, r.shape.N, r.shape.K, r.round);
  };
  for (const RunResult& b : rows) {
    if (!b.ok() || !is_baseline_row(b)) continue;
    double& top = best[key(b)];
    top = std::max(top, b.gflops);
  }
  for (RunResult& r : rows) {
    if (!r.ok() || !r.split.empty()) continue;  // a split's bar is its kernel on one GPU (below)
    const auto it = best.find(key(r));
    r.pct_of_cublas = it != best.end() && it->second > 0 ? 100.0 * r.gflops / it->second : -1;
  }
}

void fill_speedup_over_one_gpu(std::vector<RunResult>& rows) {
  std::map<decltype(product_key(std::declval<const RunResult&>())), double> one_gpu;
  for (const RunResult& r : rows)
    if (r.ok() && r.split.empty() && r.median_ms > 0) one_gpu[product_key(r)] = r.median_ms;
  for (RunResult& r : rows) {
    if (!r.ok() || r.split.empty() || r.median_ms <= 0) continue;
    const auto it = one_gpu.find(product_key(r));
    r.speedup_over_one_gpu = it != one_gpu.end() ? it->second / r.median_ms : -1;
  }
}

}  // namespace tilescope
