// Runs one variant configuration on one problem size and measures it: random inputs (several
// sets, rotated, so that repetitions do not just re-read the L2), a poisoned output, a cold first
// run timed apart, warm-up, timed repetitions with CUDA events, verification against a
// higher-precision reference. Results are plain data; nothing here prints.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/core/gemm_types.h"
#include "kernels/core/no_copy.h"
#include "kernels/cuda/device_info.h"
#include "kernels/measure/profile_figures.h"
#include "kernels/measure/reference.h"
#include "kernels/measure/run_span.h"

namespace tilescope {

struct VariantDescriptor;  // variant.h

// Where the reference for verification comes from. Auto: the CPU in double precision while
// M*N*K <= kCpuReferenceMaxWork, cublasDgemm on the same (widened) inputs above that, summed in
// about sqrt(K) blocks of K (so that it rounds differently from the kernels' one FMA chain per element).
enum class ReferenceSource { Auto, Cpu, CublasDgemm };
constexpr double kCpuReferenceMaxWork = 300.0 * 300.0 * 300.0;
// A failed check locates its first wrong element (RunResult::wrong_row) when C has at most this
// many elements: C and the reference are copied to the host for it (768 MiB at this size).
constexpr std::int64_t kMaxLocatedElements = 8192LL * 8192LL;
constexpr int kSampledReferencePoints = 4096;
// The NVTX push/pop range around a run's warm-up and each timed launch, and nothing else (not the
// inputs, the poison, the first run, the reference or the gate that holds the stream before a
// timed launch): `bench --profile` has Nsight Compute profile exactly the kernels inside it
// (--nvtx-include "tilescope_timed_launches/"). NVTX calls do nothing unless a tool injects
// itself, so the range costs the timings nothing.
constexpr const char* kTimedLaunchesRange = "tilescope_timed_launches";

struct RunRequest {
  std::string variant_id;
  int config_index = 0;
  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  Shape shape;
  int repetitions = 10;  // timed runs (median, min, max)
  int warmup = 2;        // untimed runs after the cold one
  bool verify = true;
  ReferenceSource reference = ReferenceSource::Auto;
  std::uint64_t seed = 1;
  // Split across GPUs (kernels/multi/split_measure.h): the split's id and configuration, and how
  // many GPUs. An empty split is a run on one GPU, by the Measurer.
  std::string split;
  int split_config = 0;
  int gpus = 1;
};

struct RunResult {
  // What was asked (labels resolved from the registry).
  std::string variant_id, variant_label, config_name, backend, math;
  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  // The type the configuration stores C in (TileConfig::c_in_input_type): "% of cuBLAS" compares
  // rows that store C alike.
  OutputType c_type = OutputType::F32;
  Shape shape;
  int repetitions = 0;
  int warmup = 0;
  std::uint64_t seed = 0;
  std::string timestamp;  // when the run started, UTC, ISO 8601 ("2026-11-21T23:40:05Z")

  // Empty when the run happened; otherwise why it did not (refused configuration, not enough
  // memory, failed CUDA call) and nothing below is meaningful.
  std::string error;
  bool ok() const { return error.empty(); }

  // Timings in milliseconds. `first_ms` is the first run of this request without warm-up, host
  // wall clock around launch + synchronize; `first_was_cold` says whether it was also the first
  // use of that kernel in this process, and then first_ms includes its start-up: loading the
  // kernel's module (timed where the resource query triggers it) or cuBLAS's first-call costs.
  double first_ms = 0;
  bool first_was_cold = false;
  double median_ms = 0, min_ms = 0, max_ms = 0;
  double gflops = 0;          // flop_count / median
  double pct_of_peak = 0;     // of the plain FMA peak of this precision
  double pct_of_cublas = -1;  // filled by the caller that holds the cuBLAS rows (-1 = none)

  // Verification. rel_error = max |C - C_ref| / max |C_ref| over the part the config writes
  // (reference.h); the tolerance is relative_error_tolerance's (below).
  bool verified = false;  // verification ran
  bool passed = false;
  double rel_error = -1;
  double tolerance = 0;
  std::int64_t unwritten = 0;  // elements still holding the poison (NaN) after the run
  // A failed check's first wrong element (row-major order over the checked part: the poison, or
  // off by more than the tolerance), its value and the reference's: where a learner starts looking.
  // -1 when none was located (the check passed, or C was too large to copy back:
  // kMaxLocatedElements).
  std::int64_t wrong_row = -1, wrong_col = -1;
  double wrong_value = 0, wrong_expected = 0;
  // "cpu_fp64" | "cublas_dgemm" | "cpu_fp64_sampled" (texture shaders without a CUDA device,
  // above kCpuReferenceMaxWork: the error over kSampledReferencePoints random elements, the
  // poison check over all of C).
  std::string reference;

  // Kernel resources (0/-1 for cuBLAS, which is opaque).
  int registers_per_thread = 0;
  int static_shared_bytes = 0;
  int dynamic_shared_bytes = 0;
  int threads_per_block = 0;
  int active_blocks_per_sm = 0;
  double occupancy = -1;  // active warps / max warps per SM
  // What the memory system makes of the kernel's accesses, counted from its mapping model
  // (warp_access.h; on a sample of the blocks for large sizes): 32-byte sectors per global load
  // and store request (4 coalesced floats' worth, 32 when every lane has a sector of its own), and
  // shared-memory bank conflicts: wavefronts beyond the ideal per shared-memory instruction (0:
  // none; 1: every instruction replayed once). -1 where the model lists no accesses.
  double load_sectors_per_request = -1;
  double store_sectors_per_request = -1;
  double shared_conflicts_per_instruction = -1;

  int input_sets = 1;  // how many input sets the timed runs rotated through

  // How the times were taken: "cuda_events_gated" (CUDA events around each run, which was enqueued
  // behind a gate: the GPU's time alone, launch_gate.h), "cuda_events" (the same without the gate,
  // where a launch waited for its stream, so the host's launch path is in the time),
  // "gl_time_elapsed", "wall_clock" (GL where the driver's timer is known to undercount),
  // "cpu_wall_clock" (the CPU reference).
  std::string timer;
  // Texture-shader rows only (0 elsewhere): draw calls per run, and texels fetched per useful
  // multiply-add as counted from the passes drawn (2 for one output per fragment, 0.094 for 4 x 8).
  int passes = 0;
  double fetches_per_fma = 0;

  // The median SM clock while the timed runs ran, in MHz (sm_clock.h); 0 = unknown (no NVML, or
  // not a CUDA run). A board at its power limit runs below sm_clock_mhz, its maximum.
  double run_clock_mhz = 0;
  // `tilescope bench --rounds`: the round of the sweep this run belongs to (1, 2, ..); 0 where the
  // run was not one of a bench sweep's rounds (the window, files written before rounds existed).
  int round = 0;

  // `tilescope bench --profile`: Nsight Compute's figures of this configuration's timed kernels,
  // from a run of its own (all NaN where it was not profiled).
  ProfileFigures profile;

  // Split across GPUs: the split and its configuration ("" for a run on one GPU), how many GPUs
  // ran it, each one's name ("NVIDIA H200; NVIDIA H200"), and the run's timeline: per GPU and
  // stream, each product and transfer of the last timed run (split_measure.h).
  std::string split, split_config;
  int gpus = 1;
  std::string gpu_names;
  std::vector<RunSpan> spans;
  // A split's speed-up over its kernel alone on one GPU (the row of the same variant, configuration,
  // problem, precision, shape and round); -1 where there is no such row (fill_speedup_over_one_gpu).
  double speedup_over_one_gpu = -1;
  // The split's time on this many GPUs as its model predicts it from the kernel's one-GPU row and the
  // measured link (kernels/multi/split_model.h); 0 where there is none.
  double predicted_ms = 0;
  // The link between the GPUs that prediction used (kernels/multi/split_model.h's LinkFigures, which
  // this layer does not include): a collective's latency and the broadcast's and reduction's
  // bandwidths, measured on the GPUs of the run; 0 where unknown. A file carrying them can be
  // predicted again, for other GPU counts, without measuring (kernels/multi/split_forecast.h).
  double link_latency_us = 0, link_broadcast_gbs = 0, link_reduce_gbs = 0;

  // The machine, recorded with every row.
  std::string device_name;
  int sm_clock_mhz = 0;
  std::string driver_version, runtime_version;
  int cublas_version = 0;
};

// The tolerance of reference.h's error measure (max |C - C_ref| / max |C_ref|), one rule for every
// input type:
//
//   tolerance = 4 * sqrt(u^2 + u_ref^2) * sqrt(K) * cancellation
//
// Rounding errors of a length-K dot product of random data grow like sqrt(K): each of the K
// additions rounds by up to u relative to a partial sum of size ~sqrt(k); summed in order (the
// worst order, that of a one-thread-per-element kernel) the largest element error over C comes to
// 0.5-1.0 u sqrt(K) of the largest element of C (0.5 at 67 x 45 x 129, 0.9 at 2048 x 2048 x 128
// on the CPU; 0.9-1.0 for every float kernel and cuBLAS at 4096^3 on an H100), so the factor 4
// leaves a margin of 4 while a wrong element, a skipped k or a float sum in a double run lands
// orders of magnitude above it (tests/cpu/check_injection_test.cpp).
// `unit_roundoff` (u) is that of the accumulation (accumulation_unit_roundoff in gemm_types.h:
// 2^-53 for f64, FP32's 2^-24 for f32, tf32, f16 and bf16), or TF32's for a configuration that
// rounds float inputs to TF32 (TileConfig::tf32). The inputs are generated exact in their type
// and their products are exact in the accumulator (11 + 11 or 8 + 8 significant bits in FP32's
// 24), so only the sums round. The input type's own u would be far looser (bf16: 4 2^-8 sqrt(K)
// reaches 1 at K = 4096, where even C = 0 would pass), and would let a bf16 accumulator or a
// skipped k through (tests/cpu/check_injection_test.cpp). u_ref = 2^-53 is the reference's own, which rounds as much as
// a double kernel does (for float it changes the tolerance by a factor 1 + 2^-59). `reference_norm` guards tiny outputs
// against cancellation: when ||C_ref||_F is below what uniform (-1, 1) inputs give on average (sqrt(elements * K) / 3),
// the tolerance grows by that ratio.
//
// tf32, f16 and bf16 are summed by tensor cores (cuBLAS's GemmEx here), which align the terms of
// each MMA to the largest and truncate rather than round to nearest: their errors do not cancel
// and grow like K u, not sqrt(K) u (cuBLAS tf32 on an H100: 3.2e-6, 1.1e-5, 2.2e-5 at K = 1024,
// 4096, 8192; 0.05-0.13 K u up to 8192). For them (ErrorGrowth::Linear) the tolerance is
// max(4 u sqrt(K), u K): still FP32's u, so a skipped k or a bf16 accumulator fails
// (tests/cpu/check_injection_test.cpp), where the input type's u would let them, or C = 0, through.
//
// C stored in the 16-bit input type (TileConfig::c_in_input_type) rounds each element once more on
// its way out, by at most u_out |c| (output_unit_roundoff: 2^-8 for bf16, 2^-11 for f16), and |c| is
// at most (1 + tolerance) max |C_ref|: judge_check adds u_out (1 + tolerance), times the number of
// times the configuration rounds C (TileConfig::c_roundings: a library that stores partial sums of K
// in C's type rounds twice). The check can be no tighter than C's own type: a bf16 C hides errors
// below 2^-8 of its largest element.
constexpr double kReferenceUnitRoundoff = 0x1p-53;
enum class ErrorGrowth { SqrtK, Linear };
double relative_error_tolerance(double unit_roundoff, std::int64_t k, double reference_norm, std::int64_t elements,
                                ErrorGrowth growth = ErrorGrowth::SqrtK);
double unit_roundoff_for(Precision p, bool tf32);
ErrorGrowth error_growth_for(Precision p, bool tf32);

// The verdict of a check: nothing unwritten, a finite error within the tolerance for this K and
// arithmetic. `elements` counts all of C (also when only a sample was compared).
struct CheckVerdict {
  double tolerance = 0;
  bool passed = false;
};
CheckVerdict judge_check(const ErrorReport& er, double unit_roundoff, std::int64_t k, std::int64_t elements,
                         ErrorGrowth growth = ErrorGrowth::SqrtK, double output_roundoff = 0);

// The type C of a request is stored in: its configuration's (a request for an unknown variant or
// configuration: the accumulator's).
OutputType request_output_type(const RunRequest& r);
// Bytes of device memory a run needs (inputs, output, reference), for the "does it fit" check.
std::size_t device_bytes_needed(const RunRequest& r, int input_sets);

// Owns the CUDA stream, the cuBLAS handle and the scratch buffers; reuses allocations between
// runs. One per thread that runs GEMMs (the CLI; later the app's worker).
class Measurer : NoCopy {
 public:
  Measurer();
  ~Measurer();

  // Never throws; a failure is reported in RunResult::error.
  RunResult run(const RunRequest& request);

  // Set from another thread (or a signal handler) to stop the current run between repetitions
  // and refuse further runs with "cancelled". It stays set until the caller clears it, so a
  // cancel that lands between two runs is not lost.
  std::atomic<bool>& cancel_flag();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The checks every measurer makes of a request before it touches a GPU, written once.
// Why the sizes cannot run at all ("" = fine), and for CUDA (cuBLAS takes 32-bit sizes).
std::string size_error(const Shape& s);
std::string cuda_size_error(const Shape& s);
constexpr const char* kRepetitionsError = "repetitions must be >= 1 and warm-up >= 0";
bool bad_repetitions(const RunRequest& r);
// The request's variant and configuration, recorded into `res`; nullptr with res.error saying why
// (an unknown variant, a configuration it does not have).
const VariantDescriptor* requested_variant(const RunRequest& req, RunResult& res);

// The statistics of a row's timed runs (times_ms not empty): median, min and max, GFLOP/s of the
// median (0 when the median is 0) and its % of `peak_gflops` (0 when the peak is unknown: 0).
void record_timings(RunResult& res, const std::vector<double>& times_ms, double peak_gflops);
// The machine's fields of a row (name, clock, driver, runtime, cuBLAS) from the CUDA device.
void record_device(RunResult& res, const DeviceInfo& device);
// The registry's words of a row: the variant's label and backend and, where `config_index` is
// one of its configurations, that configuration's name and math (a row refused for a bad index
// still says which variant it was).
void record_variant(RunResult& res, const VariantDescriptor& v, int config_index);

// "2026-11-21T23:40:05Z": now, UTC, as RunResult::timestamp.
std::string utc_timestamp_now();
// A row for a request with only what was asked filled in: variant id, problem, precision, the
// normalised shape, repetitions, warm-up, seed, and now as its timestamp.
RunResult requested_row(const RunRequest& request);

// The variant id of rows timed on the host CPU (not in the registry: it is the reference).
constexpr const char* kCpuReferenceId = "cpu_reference";
// Times the CPU double reference for the request's problem and shape (its variant, config and
// precision are ignored): what runs where there is no usable GPU. Stops between repetitions
// once `stop` is set (the result then says "cancelled"). Never throws.
RunResult measure_cpu_reference(const RunRequest& request, bool first_in_process, const std::atomic<bool>& stop);
// The labels of such a row (variant, problem, shape, machine) without running anything.
RunResult cpu_reference_row(const RunRequest& request, bool first_in_process);
// How a sentence names the variant of a request or row: "the CPU reference", a registered
// variant's label, or the id itself (a variant this program does not have).
std::string variant_words(const std::string& id);

// Whether a row is the bar for "% of cuBLAS": a run of a baseline configuration (is_baseline in
// variant.h: the library, not an opt-in arithmetic such as TF32).
bool is_baseline_row(const RunResult& r);
// What makes two rows the same product of the same kernel: variant, configuration, problem, input
// type, C's type, shape and bench round. A split row and its kernel's row alone on one GPU share it.
inline auto product_key(const RunResult& r) {
  return std::make_tuple(r.variant_id, r.config_name, r.problem, r.precision, r.c_type, r.shape.M, r.shape.N, r.shape.K,
                         r.round);
}
inline bool same_product(const RunResult& a, const RunResult& b) {
  return product_key(a) == product_key(b);
}
// Fills speedup_over_one_gpu of every split row from the row of its kernel alone (no split) of the
// same product (product_key) in `rows`.
void fill_speedup_over_one_gpu(std::vector<RunResult>& rows);
// Fills pct_of_cublas of every row from the best baseline row of the same problem, precision,
// C type, shape and round in `rows`.
void fill_pct_of_cublas(std::vector<RunResult>& rows);

}  // namespace tilescope
