// The device's measured roofs ("roofs" of the Roofline view): what small kernels reach on
// this GPU, next to what its datasheet numbers promise. Each roof is one row of a table, so a
// later roof (tensor cores) is one more row and one more microbenchmark, nothing else:
//
//   FP32 FMA, FP64 FMA      independent FMA chains in every thread        GFLOP/s (2 per FMA)
//   HBM copy                a copy of arrays far larger than the L2        GB/s (read + write)
//   HBM read                reads of an array far larger than the L2       GB/s
//   L2 read                 repeated reads of a buffer in half the L2      GB/s
//   shared-memory read      conflict-free loads in a loop on every SM      GB/s
//   mma.sync / wmma rows    chains of tensor-core instructions on register GFLOP/s (2*M*N*K each)
//                           fragments, one row per type (and FP64 shape)
//   mma.sync smem-fed rows  the same instruction fed through shared memory GFLOP/s
//                           as a GEMM's main loop feeds it
//   wgmma rows              Hopper's warpgroup MMA (sm_90a)                GFLOP/s
//
// Timing: CUDA events, one warm-up launch, the median of several launches of about 10 ms each, as
// short as a benchmark's timed runs; each compute roof records the SM clock it ran at (a board
// at its power limit lowers it during longer runs). Nothing here prints.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "kernels/core/gemm_types.h"
#include "kernels/cuda/device_info.h"

namespace tilescope {

enum class RoofKind { Compute, Bandwidth };
const char* to_string(RoofKind k);  // "compute" | "bandwidth"
bool parse_roof_kind(const std::string& text, RoofKind* out);

struct Roof {
  std::string id;    // stable key: "fp32_fma", "fp64_fma", "hbm_copy", "hbm_read", "l2_read", "shared_read"
  std::string name;  // shown: "FP32 FMA", "HBM copy"
  RoofKind kind = RoofKind::Compute;
  // The arithmetic a compute roof is for ("" for bandwidth roofs): "f32", "f64", "tf32", "f16",
  // "bf16" (to_string(Precision)). A precision can have several compute roofs (FP64: the FMA
  // pipe and the tensor cores' DMMA).
  std::string precision;
  double measured = 0;   // GFLOP/s (compute) or GB/s (bandwidth); 0 = not measured
  double datasheet = 0;  // derived from the device's attributes; 0 = none exists for this roof
  std::string unit;      // "GFLOP/s" | "GB/s"
  std::string method;    // one line: how it was measured, or why it has no datasheet value
  // Compute roofs: the SM clock (MHz) of the median timed launch, 0 = not recorded. A
  // roof holds at this clock: a board at its power limit runs slower.
  double clock_mhz = 0;
};

struct RoofTable {
  std::string device_name;
  std::string driver_version;  // "13.0", as RunResult::driver_version
  std::string measured_at;     // UTC, ISO 8601
  std::vector<Roof> roofs;

  bool empty() const { return roofs.empty(); }
  const Roof* find(const std::string& id) const;
  // The highest measured compute roof of a precision ("f32"), nullptr if none. For "f64" on an
  // sm_80+ part that is a tensor-core (DMMA) row, not the FMA pipe.
  const Roof* top_compute(const std::string& precision) const;
  // The highest measured bandwidth roof, nullptr if none.
  const Roof* top_bandwidth() const;
  // The DRAM roof: the better of the HBM rows that were measured (a copy on an H100 reaches
  // about 87% of the datasheet's 3.35 TB/s, plain reads about 91%), nullptr if none.
  const Roof* dram() const;
};

// The ids of the roofs measured today, in table order.
constexpr const char* kRoofFp32Fma = "fp32_fma";
constexpr const char* kRoofFp64Fma = "fp64_fma";
constexpr const char* kRoofHbmCopy = "hbm_copy";
constexpr const char* kRoofHbmRead = "hbm_read";
constexpr const char* kRoofL2Read = "l2_read";
constexpr const char* kRoofSharedRead = "shared_read";
// Tensor-core roofs: `mma.sync` in inline PTX, one shape per type, and the same through
// nvcuda::wmma (which compiles to mma instructions of the compiler's choosing).
constexpr const char* kRoofMmaF16 = "mma_f16";                   // m16n8k16, f16 in, f32 accumulate
constexpr const char* kRoofMmaBf16 = "mma_bf16";                 // m16n8k16, bf16 in, f32 accumulate
constexpr const char* kRoofMmaTf32 = "mma_tf32";                 // m16n8k8, tf32 in, f32 accumulate
constexpr const char* kRoofMmaF64M8n8k4 = "mma_f64_m8n8k4";      // the sm_80 DMMA shape
constexpr const char* kRoofMmaF64M16n8k16 = "mma_f64_m16n8k16";  // sm_90's larger DMMA shape
constexpr const char* kRoofWmmaF16 = "wmma_f16";                 // 16x16x16, f32 accumulate
constexpr const char* kRoofWmmaTf32 = "wmma_tf32";               // 16x16x8
constexpr const char* kRoofWmmaF64 = "wmma_f64";                 // 8x8x4
// Hopper's warpgroup MMA, operands in shared memory: sm_90a code, so only on compute capability
// 9.0 and only from a build whose architectures include 90 (roofs_wgmma.h).
constexpr const char* kRoofWgmmaF16 = "wgmma_f16";    // m64n128k16, f32 accumulate
constexpr const char* kRoofWgmmaBf16 = "wgmma_bf16";  // m64n128k16, f32 accumulate
constexpr const char* kRoofWgmmaTf32 = "wgmma_tf32";  // m64n128k8, f32 accumulate
// mma.sync with its operands fed the way a GEMM's are: cp.async into shared memory, ldmatrix
// into registers (roofs_fed.h). What bounds an mma.sync GEMM on a GPU whose shared memory
// cannot keep up with its tensor cores (an H100).
constexpr const char* kRoofMmaFedF16 = "mma_fed_f16";    // m16n8k16
constexpr const char* kRoofMmaFedBf16 = "mma_fed_bf16";  // m16n8k16
constexpr const char* kRoofMmaFedTf32 = "mma_fed_tf32";  // m16n8k8

// One tensor-core row: which devices get it (compute capability x 10, e.g. 80 for sm_80: the
// instruction does not exist below) and what it is.
struct TensorRoofSpec {
  const char* id;
  const char* name;       // "mma.sync f16"
  const char* precision;  // "f16", "bf16", "tf32", "f64"
  int min_cc;
  double flops_per_instruction;  // 2 x M x N x K of one warp-wide (wgmma: warpgroup-wide) instruction
  std::string method;
  // Architecture-specific code (sm_90a): the row exists on compute capability min_cc alone, and
  // only when the program holds that code.
  bool arch_specific = false;
};
// Every tensor-core row, in table order.
const std::vector<TensorRoofSpec>& tensor_roof_specs();
// Whether a device of compute capability `cc` (x 10) gets the row.
bool tensor_roof_on_device(const TensorRoofSpec& spec, int cc);

// The arithmetic intensity (FLOP per byte) at which a bandwidth roof (GB/s) meets a compute
// roof (GFLOP/s): the ridge point. Left of it the bandwidth bounds, right of it the compute.
// 0 when either is not positive.
double ridge_intensity(double compute_gflops, double bandwidth_gbps);
// The roofline's bound at an intensity: min(compute, bandwidth x intensity), GFLOP/s.
double roofline_bound(double compute_gflops, double bandwidth_gbps, double intensity);

// measured / datasheet, or 0 where either is missing.
double roof_ratio(const Roof& r);

// The table without measurements: every roof with its datasheet-derived value (or none) and
// method, for `device`. Pure: the tests check the datasheet arithmetic with it.
RoofTable datasheet_table(const DeviceInfo& device);

// Whether a table (from the cache) is what measure_roofs would produce for `device` today:
// every roof of datasheet_table(device) present and measured, and every compute roof with its
// clock. A table cached by an earlier version (without the clock, the random operands or a
// later roof) is not, and the window measures again.
bool roofs_current(const RoofTable& table, const DeviceInfo& device);

// Measures every roof on the current CUDA device (probe_device() must be ok). Stops between
// microbenchmarks once `stop` is set (the table then holds what was measured so far). Throws
// GpuError on a failed CUDA call. Takes about a second.
RoofTable measure_roofs(const DeviceInfo& device, const std::atomic<bool>* stop = nullptr);

}  // namespace tilescope
