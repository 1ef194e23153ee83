#include "measure.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "cuda_check.h"
#include "external_runner.h"
#include "gpu_buffers.h"
#include "random_inputs.h"
#include "reference.h"
#include "registry.h"

namespace tilescope {

double unit_roundoff_for(Precision p, bool tf32) {
  if (p == Precision::F32 && tf32) return std::ldexp(1.0, -11);
  return p == Precision::F32 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
}

double relative_error_tolerance(double u, std::int64_t k, double reference_norm, std::int64_t elements) {
  const double expected_norm = std::sqrt(static_cast<double>(elements) * static_cast<double>(k)) / 3.0;
  const double cancellation = reference_norm > 0 ? std::max(1.0, expected_norm / reference_norm) : 1.0;
  return 4.0 * u * std::sqrt(static_cast<double>(std::max<std::int64_t>(k, 1))) * cancellation;
}

namespace {

bool uses_cpu_reference(const RunRequest& r, const Shape& s) {
  if (r.reference == ReferenceSource::Cpu) return true;
  if (r.reference == ReferenceSource::CublasDgemm) return false;
  return flop_count(r.problem, s) / 2.0 <= kCpuReferenceMaxWork;
}

std::size_t input_set_bytes(const RunRequest& r) {
  const Shape s = normalised(r.problem, r.shape);
  return static_cast<std::size_t>(a_elements(r.problem, s) + b_elements(r.problem, s)) * element_bytes(r.precision);
}

// Kernels (or cuBLAS routines) already run in this process: their next run is not cold.
std::mutex g_warm_mutex;
std::set<std::string> g_warm_kernels;

bool mark_warm(const std::string& key) {
  std::lock_guard<std::mutex> lock(g_warm_mutex);
  return g_warm_kernels.insert(key).second;  // true: first time
}

// The verdict of a check: error, unwritten elements, the tolerance for this K and arithmetic.
void record_check(RunResult& res, const ErrorReport& er, double unit_roundoff, std::int64_t k, std::int64_t elements) {
  res.rel_error = er.rel_error;
  res.unwritten = er.unwritten;
  res.tolerance = relative_error_tolerance(unit_roundoff, k, er.reference_norm, elements);
  res.passed = er.unwritten == 0 && std::isfinite(er.rel_error) && er.rel_error <= res.tolerance;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

std::size_t device_bytes_needed(const RunRequest& r, int input_sets) {
  const Shape s = normalised(r.problem, r.shape);
  const std::size_t c_bytes = static_cast<std::size_t>(c_elements(r.problem, s)) * element_bytes(r.precision);
  std::size_t bytes = input_set_bytes(r) * static_cast<std::size_t>(std::max(1, input_sets)) + c_bytes;
  if (r.verify) {
    if (uses_cpu_reference(r, s))
      bytes += 0;  // the reference lives on the host
    else  // double copies of the inputs and a double C for cublasDgemm
      bytes += static_cast<std::size_t>(a_elements(r.problem, s) + b_elements(r.problem, s) + c_elements(r.problem, s)) * 8;
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

  void init() {
    if (initialised) return;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    CUBLAS_CHECK(cublasCreate(&cublas));
    initialised = true;
  }

  ~Impl() {
    if (cublas) cublasDestroy(cublas);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (stream) cudaStreamDestroy(stream);
  }

  void run_checked(const RunRequest& req, const VariantDescriptor& v, RunResult& res);
  // cublasDgemm on double inputs already on the device (rb null for AᵀA) into ref_c, and the
  // device C of `precision` compared with it over `part`.
  ErrorReport compare_with_cublas_dgemm(Problem problem, const Shape& s, const double* ra, const double* rb,
                                        const void* c_device, Precision precision, OutputPart part) {
    ref_c.resize(static_cast<std::size_t>(s.M) * s.N * 8);
    GemmArgs ref;
    ref.problem = problem;
    ref.precision = Precision::F64;
    ref.shape = s;
    ref.a = ra;
    ref.b = rb;
    ref.c = ref_c.get();
    ref.stream = stream;
    ref.cublas = cublas;
    // The baseline's default configuration in double: cublasDgemm.
    const VariantDescriptor* library = baseline_variant();
    if (!library || !library->launch) throw GpuError("no library baseline to compute the FP64 reference with");
    library->launch(ref, library->default_config);
    return device_compare(c_device, precision, static_cast<const double*>(ref_c.get()), s.M, s.N, part, stream);
  }
  void run_external(const RunRequest& req, const VariantDescriptor& v, RunResult& res);
};

Measurer::Measurer() : impl_(std::make_unique<Impl>()) {}
Measurer::~Measurer() = default;
std::atomic<bool>& Measurer::cancel_flag() { return impl_->cancel; }

RunResult Measurer::run(const RunRequest& req) {
  RunResult res;
  res.variant_id = req.variant_id;
  res.problem = req.problem;
  res.precision = req.precision;
  res.shape = normalised(req.problem, req.shape);
  res.repetitions = req.repetitions;
  res.warmup = req.warmup;
  res.seed = req.seed;
  res.timestamp = utc_timestamp_now();

  const VariantDescriptor* v = find_variant(req.variant_id);
  if (!v) {
    res.error = "unknown variant '" + req.variant_id + "'";
    return res;
  }
  res.variant_label = v->label;
  res.backend = to_string(v->backend);
  if (std::string bad = config_index_error(*v, req.config_index); !bad.empty()) {
    res.error = bad;
    return res;
  }
  const TileConfig& cfg = v->configs[req.config_index];
  res.config_name = cfg.name;
  res.math = cfg.math;

  if (v->backend == Backend::GlShader) {
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
  res.device_name = dev.name;
  res.sm_clock_mhz = dev.sm_clock_khz / 1000;
  res.driver_version = version_string(dev.driver_version);
  res.runtime_version = version_string(dev.runtime_version);
  res.cublas_version = dev.cublas_version;

  const Shape& s = res.shape;
  if (s.M < 1 || s.N < 1 || s.K < 1) {
    res.error = "sizes must be at least 1 (got M=" + std::to_string(s.M) + " N=" + std::to_string(s.N) +
                " K=" + std::to_string(s.K) + ")";
    return res;
  }
  if (s.M > INT_MAX || s.N > INT_MAX || s.K > INT_MAX) {
    res.error = "sizes above 2147483647 are not supported (cuBLAS takes 32-bit sizes)";
    return res;
  }
  if (req.repetitions < 1 || req.warmup < 0) {
    res.error = "repetitions must be >= 1 and warm-up >= 0";
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
  return res;
}

void Measurer::Impl::run_checked(const RunRequest& req, const VariantDescriptor& v, RunResult& res) {
  init();
  const DeviceInfo& dev = probe_device();
  const Shape s = res.shape;
  const TileConfig& cfg = v.configs[req.config_index];
  const std::size_t eb = element_bytes(req.precision);
  const std::int64_t a_n = a_elements(req.problem, s), b_n = b_elements(req.problem, s);
  const std::int64_t c_n = c_elements(req.problem, s);

  // How many input sets to rotate through: enough that they do not all fit in the L2 at once.
  const std::size_t set_bytes = input_set_bytes(req);
  int sets = static_cast<int>(std::clamp<std::size_t>((2 * dev.l2_bytes + set_bytes - 1) / std::max<std::size_t>(set_bytes, 1), 1, 8));
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
  res.input_sets = sets;
  res.timer = "cuda_events";

  // Kernel resources, and the checks only a device can make (registers, occupancy).
  GemmArgs args;
  args.problem = req.problem;
  args.precision = req.precision;
  args.shape = s;
  args.stream = stream;
  args.cublas = cublas;
  inputs.resize(set_bytes * sets);
  c.resize(static_cast<std::size_t>(c_n) * eb);
  auto set_a = [&](int i) { return static_cast<char*>(inputs.get()) + set_bytes * i; };
  auto set_b = [&](int i) { return set_a(i) + static_cast<std::size_t>(a_n) * eb; };
  args.a = set_a(0);
  args.b = b_n ? set_b(0) : nullptr;
  args.c = c.get();

  std::string warm_key = std::string(v.id) + ":" + cfg.name + ":" + to_string(req.problem) + ":" + to_string(req.precision);
  const KernelLaunchShape shape = v.kernel_for(args, req.config_index);
  if (shape.kernel) warm_key += ":" + std::to_string(reinterpret_cast<std::uintptr_t>(shape.kernel));
  const bool cold = mark_warm(warm_key);
  // With lazy module loading (CUDA's default) the first query of a kernel loads its module: a
  // cost a cold launch would pay, so for a cold kernel it is timed and counted in first_ms.
  double module_load_ms = 0;
  if (shape.kernel) {
    cudaFuncAttributes attr{};
    const auto q0 = std::chrono::steady_clock::now();
    CUDA_CHECK(cudaFuncGetAttributes(&attr, shape.kernel));
    if (cold) module_load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - q0).count();
    res.registers_per_thread = attr.numRegs;
    res.static_shared_bytes = static_cast<int>(attr.sharedSizeBytes);
    res.dynamic_shared_bytes = static_cast<int>(shape.dynamic_shared_bytes);
    res.threads_per_block = shape.threads_per_block;
    if (static_cast<long long>(attr.numRegs) * shape.threads_per_block > dev.limits.regs_per_block)
      throw GpuError("refused: " + std::to_string(attr.numRegs) + " registers x " +
                     std::to_string(shape.threads_per_block) + " threads exceed the " +
                     std::to_string(dev.limits.regs_per_block) + " registers of a block");
    if (shape.threads_per_block > attr.maxThreadsPerBlock)
      throw GpuError("refused: the kernel can run at most " + std::to_string(attr.maxThreadsPerBlock) +
                     " threads per block, the configuration needs " + std::to_string(shape.threads_per_block));
    if (shape.dynamic_shared_bytes > 48 * 1024)
      CUDA_CHECK(cudaFuncSetAttribute(shape.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(shape.dynamic_shared_bytes)));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&res.active_blocks_per_sm, shape.kernel,
                                                             shape.threads_per_block, shape.dynamic_shared_bytes));
    if (res.active_blocks_per_sm == 0)
      throw GpuError("refused: not one block of this configuration fits on a multiprocessor");
    const int warps_per_block = (shape.threads_per_block + 31) / 32;
    res.occupancy = static_cast<double>(res.active_blocks_per_sm * warps_per_block) / (dev.max_threads_per_sm / 32);
  }

  // Fresh random inputs: set i uses seed + i, so no two sets are equal.
  for (int i = 0; i < sets; ++i) {
    fill_random(set_a(i), req.precision, a_n, req.seed + i, 0, stream);
    if (b_n) fill_random(set_b(i), req.precision, b_n, req.seed + i, 1, stream);
  }
  poison(c.get(), req.precision, c_n, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));

  // The first run, cold if this kernel never ran in this process: host wall clock around
  // launch + synchronize, so module loading and library start-up are included.
  const auto t0 = std::chrono::steady_clock::now();
  v.launch(args, req.config_index);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  const auto t1 = std::chrono::steady_clock::now();
  res.first_ms = module_load_ms + std::chrono::duration<double, std::milli>(t1 - t0).count();
  res.first_was_cold = cold;

  if (cancel.load()) throw GpuError("cancelled");
  if (req.verify) {
    res.verified = true;
    ErrorReport er;
    if (uses_cpu_reference(req, s)) {
      res.reference = "cpu_fp64";
      const std::string key = std::string(to_string(req.problem)) + ":" + std::to_string(s.M) + "x" +
                              std::to_string(s.N) + "x" + std::to_string(s.K) + ":" + std::to_string(req.seed);
      if (key != host_ref_key) {
        std::vector<double> ha(a_n), hb(b_n);
        host_ref.assign(c_n, 0.0);
        fill_inputs_f64(req.seed, 0, a_n, ha.data());
        if (b_n) fill_inputs_f64(req.seed, 1, b_n, hb.data());
        reference_gemm_f64(req.problem, s, ha.data(), hb.data(), host_ref.data());
        host_ref_key = key;
      }
      const std::vector<double>& hc = host_ref;
      std::vector<char> out(static_cast<std::size_t>(c_n) * eb);
      CUDA_CHECK(cudaMemcpy(out.data(), c.get(), out.size(), cudaMemcpyDeviceToHost));
      er = req.precision == Precision::F32
               ? compare_to_reference(reinterpret_cast<const float*>(out.data()), hc.data(), s.M, s.N, cfg.output)
               : compare_to_reference(reinterpret_cast<const double*>(out.data()), hc.data(), s.M, s.N, cfg.output);
    } else {
      // cublasDgemm on the same inputs widened to double: FP64 arithmetic, a reference far more
      // precise than any float variant (and an independent one for the double variants).
      res.reference = "cublas_dgemm";
      ref_inputs.resize(static_cast<std::size_t>(a_n + b_n) * 8);
      double* ra = static_cast<double*>(ref_inputs.get());
      double* rb = ra + a_n;
      widen_to_double(ra, set_a(0), req.precision, a_n, stream);
      if (b_n) widen_to_double(rb, set_b(0), req.precision, b_n, stream);
      er = compare_with_cublas_dgemm(req.problem, s, ra, b_n ? rb : nullptr, c.get(), req.precision, cfg.output);
    }
    record_check(res, er, unit_roundoff_for(req.precision, cfg.tf32), s.K, er.checked);
  }

  for (int i = 0; i < req.warmup; ++i) {
    if (cancel.load()) throw GpuError("cancelled");
    args.a = set_a(i % sets);
    args.b = b_n ? set_b(i % sets) : nullptr;
    v.launch(args, req.config_index);
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));

  // Timed runs, one event pair each, rotating input sets.
  std::vector<double> times;
  times.reserve(req.repetitions);
  for (int i = 0; i < req.repetitions; ++i) {
    if (cancel.load()) throw GpuError("cancelled");
    args.a = set_a(i % sets);
    args.b = b_n ? set_b(i % sets) : nullptr;
    CUDA_CHECK(cudaEventRecord(start, stream));
    v.launch(args, req.config_index);
    CUDA_CHECK(cudaEventRecord(stop, stream));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  res.median_ms = median_of(times);
  res.min_ms = *std::min_element(times.begin(), times.end());
  res.max_ms = *std::max_element(times.begin(), times.end());
  res.gflops = flop_count(req.problem, s) / (res.median_ms * 1.0e6);
  const double peak = dev.peak_gflops(req.precision);
  res.pct_of_peak = peak > 0 ? 100.0 * res.gflops / peak : 0;
}

// ---- variants that run outside CUDA (external_runner.h) ----------------------------------------

namespace {

// The relative error over kSampledReferencePoints elements picked at random (the same for a
// given seed), each a double dot product on the CPU: how a texture-shader run is checked at
// sizes where a full CPU reference takes too long and no CUDA device can compute one.
ErrorReport sampled_compare(const std::vector<float>& c, const std::vector<double>& a, const std::vector<double>& b,
                            int M, int N, int K, std::uint64_t seed) {
  ErrorReport r;
  double diff2 = 0, ref2 = 0;
  const std::int64_t total = static_cast<std::int64_t>(M) * N;
  const int samples = static_cast<int>(std::min<std::int64_t>(total, kSampledReferencePoints));
  for (int s = 0; s < samples; ++s) {
    const std::int64_t index =
        samples == total ? s : static_cast<std::int64_t>(splitmix64(seed * 7919 + s) % static_cast<std::uint64_t>(total));
    const std::int64_t i = index / N, j = index % N;
    double ref = 0;
    for (int k = 0; k < K; ++k) ref += a[i * K + k] * b[static_cast<std::int64_t>(k) * N + j];
    const double v = c[index];
    if (std::isnan(v)) continue;  // counted over all of C below
    diff2 += (v - ref) * (v - ref);
    ref2 += ref * ref;
    ++r.checked;
  }
  for (float v : c) r.unwritten += std::isnan(v) ? 1 : 0;
  r.reference_norm = std::sqrt(ref2 * static_cast<double>(total) / std::max<std::int64_t>(r.checked, 1));
  r.rel_error = ref2 > 0 ? std::sqrt(diff2 / ref2) : (diff2 > 0 ? INFINITY : 0.0);
  return r;
}

}  // namespace

void Measurer::Impl::run_external(const RunRequest& req, const VariantDescriptor& v, RunResult& res) {
  const Shape s = res.shape;
  const TileConfig& cfg = v.configs[req.config_index];
  if (s.M < 1 || s.N < 1 || s.K < 1)
    throw GpuError("sizes must be at least 1 (got M=" + std::to_string(s.M) + " N=" + std::to_string(s.N) +
                   " K=" + std::to_string(s.K) + ")");
  if (req.repetitions < 1 || req.warmup < 0) throw GpuError("repetitions must be >= 1 and warm-up >= 0");
  const std::string refused = unsupported_reason(v, req.config_index, req.problem, req.precision, DeviceLimits());
  if (!refused.empty()) throw GpuError("refused: " + refused);
  const ExternalRunner runner = external_runner(v.backend);
  if (!runner)
    throw GpuError(std::string(v.label) + " needs tilescope's OpenGL part, which this program lacks "
                   "(built with -DTILESCOPE_GUI=OFF, or a test without it)");
  // Textures are at most 32768 texels wide anywhere; the engine checks this GL's own limit.
  if (s.M > 65536 || s.N > 65536 || s.K > 65536)
    throw GpuError("sizes above 65536 do not fit in textures (GL_MAX_TEXTURE_SIZE is at most 32768)");
  const double host_bytes = 4.0 * (2.0 * s.M * s.K + 2.0 * s.K * s.N + 2.0 * s.M * s.N);
  if (host_bytes > 16.0 * (1ull << 30))
    throw GpuError("needs " + std::to_string(static_cast<long long>(host_bytes / (1 << 20))) +
                   " MiB of host memory for the textures and their packed copies; the limit is 16 GiB");
  if (cancel.load()) throw GpuError("cancelled");

  // The product actually drawn: Gemm as is; AᵀA as (Aᵀ) * A with Aᵀ made on the host (a texture
  // could be sampled transposed for free; the upload is not timed either way).
  const int M = static_cast<int>(s.M), N = static_cast<int>(s.N), K = static_cast<int>(s.K);
  const std::int64_t a_n = a_elements(req.problem, s), b_n = b_elements(req.problem, s);
  std::vector<double> a64(a_n), b64;
  fill_inputs_f64(req.seed, 0, a_n, a64.data());
  if (req.problem == Problem::Gemm) {
    b64.resize(b_n);
    fill_inputs_f64(req.seed, 1, b_n, b64.data());
  } else {  // A is K x N; the left operand is its transpose (N x K), the right one A itself
    b64 = a64;
    std::vector<double> at(static_cast<std::size_t>(N) * K);
    for (int k = 0; k < K; ++k)
      for (int i = 0; i < N; ++i) at[static_cast<std::size_t>(i) * K + k] = a64[static_cast<std::size_t>(k) * N + i];
    a64.swap(at);
  }
  // Exactly representable in float (random_inputs.h): the float and double copies are equal.
  const std::vector<float> a32(a64.begin(), a64.end()), b32(b64.begin(), b64.end());

  ExternalRun run;
  run.variant = &v;
  run.config_index = req.config_index;
  run.M = M, run.N = N, run.K = K;
  run.a = a32.data();
  run.b = b32.data();
  run.warmup = req.warmup;
  run.repetitions = req.repetitions;
  run.cancel = &cancel;
  ExternalOutcome out = runner(run);
  if (!out.error.empty()) throw GpuError(out.error);
  if (out.times_ms.empty() || out.c.size() != static_cast<std::size_t>(M) * N)
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

  if (req.verify) {
    res.verified = true;
    ErrorReport er;
    const bool cpu = uses_cpu_reference(req, s);
    if (cpu) {
      res.reference = "cpu_fp64";
      std::vector<double> ref(static_cast<std::size_t>(M) * N);
      reference_gemm_f64(Problem::Gemm, Shape{M, N, K}, a64.data(), b64.data(), ref.data());
      er = compare_to_reference(out.c.data(), ref.data(), M, N, OutputPart::Full);
    } else if (dev.ok()) {
      // cublasDgemm on the same inputs, as for the CUDA variants.
      res.reference = "cublas_dgemm";
      init();
      ref_inputs.resize(a64.size() * 8 + b64.size() * 8);
      c.resize(out.c.size() * 4);
      double* ra = static_cast<double*>(ref_inputs.get());
      double* rb = ra + a64.size();
      CUDA_CHECK(cudaMemcpyAsync(ra, a64.data(), a64.size() * 8, cudaMemcpyHostToDevice, stream));
      CUDA_CHECK(cudaMemcpyAsync(rb, b64.data(), b64.size() * 8, cudaMemcpyHostToDevice, stream));
      CUDA_CHECK(cudaMemcpyAsync(c.get(), out.c.data(), out.c.size() * 4, cudaMemcpyHostToDevice, stream));
      er = compare_with_cublas_dgemm(Problem::Gemm, Shape{M, N, K}, ra, rb, c.get(), Precision::F32, OutputPart::Full);
    } else {
      res.reference = "cpu_fp64_sampled";
      er = sampled_compare(out.c, a64, b64, M, N, K, req.seed);
    }
    // All of C counts for the tolerance's size estimate, also when only a sample was checked.
    record_check(res, er, unit_roundoff_for(Precision::F32, cfg.tf32), s.K, static_cast<std::int64_t>(M) * N);
  }

  res.median_ms = median_of(out.times_ms);
  res.min_ms = *std::min_element(out.times_ms.begin(), out.times_ms.end());
  res.max_ms = *std::max_element(out.times_ms.begin(), out.times_ms.end());
  res.gflops = flop_count(req.problem, s) / (res.median_ms * 1.0e6);
  const double peak = same_gpu ? dev.peak_gflops(Precision::F32) : 0;
  res.pct_of_peak = peak > 0 ? 100.0 * res.gflops / peak : 0;
}

bool is_baseline_row(const RunResult& r) {
  const VariantDescriptor* v = find_variant(r.variant_id);
  return v && is_baseline(*v, find_config(*v, r.config_name));
}

void fill_pct_of_cublas(std::vector<RunResult>& rows) {
  for (RunResult& r : rows) {
    if (!r.ok()) continue;
    double best = 0;
    for (const RunResult& b : rows) {
      if (!b.ok() || b.problem != r.problem || b.precision != r.precision || b.shape.M != r.shape.M ||
          b.shape.N != r.shape.N || b.shape.K != r.shape.K || !is_baseline_row(b))
        continue;
      best = std::max(best, b.gflops);
    }
    r.pct_of_cublas = best > 0 ? 100.0 * r.gflops / best : -1;
  }
}

}  // namespace tilescope
