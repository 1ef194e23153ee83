#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <mutex>
#include <string>

#include "kernels/core/enum_names.h"
#include "kernels/cuda/cuda_libraries.h"
#include "kernels/cuda/device_info.h"

namespace tilescope {

int fp32_lanes_per_sm(int major, int minor) {
  switch (major) {
    case 7:
      return 64;  // Volta, Turing
    case 8:
      return minor == 0 ? 64 : 128;  // A100: 64; GA10x, Ada: 128
    case 9:
      return 128;  // Hopper
    case 10:
    case 11:
    case 12:
      return 128;  // Blackwell
    default:
      return 0;
  }
}

int fp64_lanes_per_sm(int major, int minor) {
  switch (major) {
    case 7:
      return minor == 0 ? 32 : 2;  // V100: 32; Turing: 2
    case 8:
      return minor == 0 ? 32 : 2;  // A100: 32; consumer Ampere, Ada: 2
    case 9:
      return 64;  // H100, H200
    case 10:
      return 64;  // B100/B200
    case 11:
    case 12:
      return 2;  // consumer Blackwell
    default:
      return 0;
  }
}

const char* to_string(GpuAvailability a) {
  static constexpr EnumName<GpuAvailability> kNames[] = {{GpuAvailability::Available, "available"},
                                                         {GpuAvailability::NoDriver, "no_driver"},
                                                         {GpuAvailability::StubDriverOnly, "stub_driver_only"},
                                                         {GpuAvailability::NoDevice, "no_device"},
                                                         {GpuAvailability::MissingLibrary, "missing_library"},
                                                         {GpuAvailability::OtherError, "other_error"}};
  return enum_name(a, kNames, "other_error");
}

double dram_bandwidth_gbps(int memory_clock_khz, int bus_bits) {
  if (memory_clock_khz <= 0 || bus_bits <= 0) return 0;
  return memory_clock_khz * 1.0e3 * 2.0 * (bus_bits / 8.0) / 1.0e9;
}

void derive_peaks(DeviceInfo& d) {
  const double ghz = d.sm_clock_khz / 1.0e6;
  d.peak_fp32_gflops = d.sm_count * fp32_lanes_per_sm(d.cc_major, d.cc_minor) * 2.0 * ghz;
  d.peak_fp64_gflops = d.sm_count * fp64_lanes_per_sm(d.cc_major, d.cc_minor) * 2.0 * ghz;
  d.peak_dram_gbps = dram_bandwidth_gbps(d.memory_clock_khz, d.memory_bus_bits);
}

std::string version_string(int v) {
  if (v <= 0) return "unknown";
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

GpuAvailability classify_device_count_error(int err, std::string* reason) {
  switch (err) {
    case cudaSuccess:
      *reason = "the NVIDIA driver found no CUDA device";
      return GpuAvailability::NoDevice;
    case cudaErrorInsufficientDriver:
      *reason = "no NVIDIA driver is installed, or it is older than CUDA " + version_string(CUDART_VERSION) +
                " needs (CUDA error 35)";
      return GpuAvailability::NoDriver;
    case cudaErrorStubLibrary:
      *reason = "only the CUDA stub driver (libcuda.so stub) is present, no real NVIDIA driver (CUDA error 34)";
      return GpuAvailability::StubDriverOnly;
    case cudaErrorNoDevice:
      *reason = "the NVIDIA driver is loaded but sees no CUDA device (CUDA error 100)";
      return GpuAvailability::NoDevice;
    default:
      *reason = std::string("the CUDA runtime cannot start: ") + cudaGetErrorName(static_cast<cudaError_t>(err)) +
                " (" + cudaGetErrorString(static_cast<cudaError_t>(err)) + ")";
      return GpuAvailability::OtherError;
  }
}

namespace {

DeviceInfo probe_gpu() {
  DeviceInfo info;
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    info.availability = classify_device_count_error(err, &info.unavailable_reason);
    return info;
  }
  // Any failure past this point is reported the same way, never thrown.
  auto fail = [&info](cudaError_t e, const char* what) {
    info.availability = GpuAvailability::OtherError;
    info.unavailable_reason = std::string(what) + " failed: " + cudaGetErrorString(e);
    return info;
  };
  cudaDeviceProp prop{};
  if (cudaError_t e = cudaGetDeviceProperties(&prop, 0); e != cudaSuccess) return fail(e, "cudaGetDeviceProperties");
  if (cudaError_t e = cudaSetDevice(0); e != cudaSuccess) return fail(e, "cudaSetDevice");
  info.device = 0;
  info.name = prop.name;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.sm_count = prop.multiProcessorCount;
  info.global_memory_bytes = prop.totalGlobalMem;
  info.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  info.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  info.memory_bus_bits = prop.memoryBusWidth;
  // CUDA 13 removed cudaDeviceProp::clockRate / memoryClockRate: ask the attributes.
  cudaDeviceGetAttribute(&info.sm_clock_khz, cudaDevAttrClockRate, 0);
  cudaDeviceGetAttribute(&info.memory_clock_khz, cudaDevAttrMemoryClockRate, 0);
  info.limits.max_threads_per_block = prop.maxThreadsPerBlock;
  info.limits.shared_per_block_default = prop.sharedMemPerBlock;
  info.limits.shared_per_block_optin = prop.sharedMemPerBlockOptin;
  info.limits.regs_per_block = prop.regsPerBlock;
  info.limits.compute_capability = prop.major * 10 + prop.minor;
  cudaDriverGetVersion(&info.driver_version);
  cudaRuntimeGetVersion(&info.runtime_version);
  int major = 0, minor = 0, patch = 0;
  if (cublasGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS &&
      cublasGetProperty(MINOR_VERSION, &minor) == CUBLAS_STATUS_SUCCESS &&
      cublasGetProperty(PATCH_LEVEL, &patch) == CUBLAS_STATUS_SUCCESS)
    info.cublas_version = major * 10000 + minor * 100 + patch;
  derive_peaks(info);
  info.availability = GpuAvailability::Available;
  return info;
}

// The GPU, then the libraries the GPU path needs: a missing library switches the GPU path off even
// with a device, and is named beside any other reason (a laptop may lack both driver and cuBLAS).
DeviceInfo probe_once() {
  DeviceInfo info = probe_gpu();
  info.missing_libraries = missing_libraries_sentence();
  if (info.missing_libraries.empty()) return info;
  if (info.ok()) {
    info.availability = GpuAvailability::MissingLibrary;
    info.unavailable_reason = info.missing_libraries;
  } else {
    info.unavailable_reason += "; " + info.missing_libraries;
  }
  return info;
}

}  // namespace

const DeviceInfo& probe_device() {
  static std::once_flag once;
  static DeviceInfo info;
  std::call_once(once, [] { info = probe_once(); });
  return info;
}

}  // namespace tilescope
