// What the program knows about the GPU (or its absence). Probed once at start-up: with no
// driver the CUDA runtime's error is sticky, so every later call would fail the same way.
#pragma once

#include <string>

#include "kernels/core/gemm_types.h"

namespace tilescope {

enum class GpuAvailability { Available, NoDriver, StubDriverOnly, NoDevice, MissingLibrary, OtherError };
// "available" | "no_driver" | "stub_driver_only" | "no_device" | "missing_library" | "other_error"
// (JSON, logs).
const char* to_string(GpuAvailability a);

struct DeviceInfo {
  GpuAvailability availability = GpuAvailability::OtherError;
  std::string unavailable_reason;  // one plain sentence when not Available
  // "" when every runtime-loaded CUDA library is there (cuda_libraries.h); else the sentence
  // naming the missing ones. Also part of unavailable_reason, whatever else is missing.
  std::string missing_libraries;

  int device = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int sm_clock_khz = 0;  // cudaDevAttrClockRate (the maximum SM clock)
  int memory_clock_khz = 0;
  int memory_bus_bits = 0;
  std::size_t global_memory_bytes = 0;
  std::size_t l2_bytes = 0;
  int max_threads_per_sm = 0;
  DeviceLimits limits;
  int driver_version = 0;   // cudaDriverGetVersion, e.g. 13000
  int runtime_version = 0;  // cudaRuntimeGetVersion
  int cublas_version = 0;   // cublasGetVersion, e.g. 130100
  // Peaks of the plain FMA pipes (not tensor cores): SMs x lanes x 2 x clock.
  double peak_fp32_gflops = 0;
  double peak_fp64_gflops = 0;
  // DRAM bandwidth from the attributes: memory clock x 2 (double data rate) x bus width, GB/s
  // (10^9 bytes per second); 0 when the driver reports no memory clock or bus width.
  double peak_dram_gbps = 0;

  bool ok() const { return availability == GpuAvailability::Available; }
  // 0 (unknown) for the tensor-core input types, whose plain FMA peak is not their bar.
  double peak_gflops(Precision p) const {
    const PrecisionFacts& f = precision_facts(p);
    return !f.has_fma_peak ? 0 : f.double_output ? peak_fp64_gflops : peak_fp32_gflops;
  }
};

// FP32 and FP64 FMA lanes per SM by compute capability (0 when unknown).
int fp32_lanes_per_sm(int cc_major, int cc_minor);
int fp64_lanes_per_sm(int cc_major, int cc_minor);
// GB/s of a DRAM interface: clock (kHz) x 2 transfers per clock x bus width (bits) / 8.
double dram_bandwidth_gbps(int memory_clock_khz, int bus_bits);
// The peaks of `d` (FP32, FP64, DRAM) from its compute capability, SMs, clocks and bus, as the
// probe fills them: one rule for a real device and for a described one (tests, examples).
void derive_peaks(DeviceInfo& d);
// "13.0" from 13000.
std::string version_string(int cuda_version);
// The sentence for a cudaGetDeviceCount result (see build-env.md: 35, 34, 100 mean "no GPU").
GpuAvailability classify_device_count_error(int cuda_error, std::string* reason);

// Probes device 0 once per process (later calls return the cached answer).
const DeviceInfo& probe_device();

}  // namespace tilescope
