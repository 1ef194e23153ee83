// The microbenchmarks behind the Roofline view's roofs (ceilings.h). Each one is built so that
// the one resource it measures is the only limit: enough warps on every SM, enough independent
// work per thread to hide latency, and no other instruction in the inner loop worth counting.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ceilings.h"
#include "cuda_check.h"
#include "gpu_buffers.h"
#include "measure.h"

namespace tilescope {

const char* to_string(RoofKind k) {
  return k == RoofKind::Compute ? "compute" : "bandwidth";
}

bool parse_roof_kind(const std::string& text, RoofKind* out) {
  if (text == "compute")
    *out = RoofKind::Compute;
  else if (text == "bandwidth")
    *out = RoofKind::Bandwidth;
  else
    return false;
  return true;
}

const Roof* CeilingTable::find(const std::string& id) const {
  for (const Roof& r : roofs)
    if (r.id == id) return &r;
  return nullptr;
}

const Roof* CeilingTable::top_compute(const std::string& precision) const {
  const Roof* best = nullptr;
  for (const Roof& r : roofs)
    if (r.kind == RoofKind::Compute && r.precision == precision && r.measured > 0 &&
        (!best || r.measured > best->measured))
      best = &r;
  return best;
}

const Roof* CeilingTable::top_bandwidth() const {
  const Roof* best = nullptr;
  for (const Roof& r : roofs)
    if (r.kind == RoofKind::Bandwidth && r.measured > 0 && (!best || r.measured > best->measured)) best = &r;
  return best;
}

const Roof* CeilingTable::dram() const {
  const Roof* copy = find(kRoofHbmCopy);
  const Roof* read = find(kRoofHbmRead);
  if (copy && copy->measured <= 0) copy = nullptr;
  if (read && read->measured <= 0) read = nullptr;
  if (!copy) return read;
  if (!read) return copy;
  return read->measured > copy->measured ? read : copy;
}

double ridge_intensity(double compute_gflops, double bandwidth_gbps) {
  return compute_gflops > 0 && bandwidth_gbps > 0 ? compute_gflops / bandwidth_gbps : 0;
}

double roofline_bound(double compute_gflops, double bandwidth_gbps, double intensity) {
  return std::min(compute_gflops, bandwidth_gbps * intensity);
}

double ceiling_ratio(const Roof& r) {
  return r.measured > 0 && r.datasheet > 0 ? r.measured / r.datasheet : 0;
}

CeilingTable datasheet_table(const DeviceInfo& device) {
  CeilingTable t;
  t.device_name = device.name;
  t.driver_version = version_string(device.driver_version);
  auto add = [&t](const char* id, const char* name, RoofKind kind, const char* precision, double datasheet,
                  const char* method) {
    Roof r;
    r.id = id;
    r.name = name;
    r.kind = kind;
    r.precision = precision;
    r.datasheet = datasheet > 0 ? datasheet : 0;
    r.unit = kind == RoofKind::Compute ? "GFLOP/s" : "GB/s";
    r.method = method;
    t.roofs.push_back(r);
  };
  add(kRoofFp32Fma, "FP32 FMA", RoofKind::Compute, "f32", device.peak_fp32_gflops,
      "16 independent FMA chains per thread, one full wave of blocks; datasheet: SMs x FP32 lanes x 2 x max clock");
  add(kRoofFp64Fma, "FP64 FMA", RoofKind::Compute, "f64", device.peak_fp64_gflops,
      "16 independent FMA chains per thread, one full wave of blocks; datasheet: SMs x FP64 lanes x 2 x max clock");
  add(kRoofHbmRead, "HBM read", RoofKind::Bandwidth, "", device.peak_dram_gbps,
      "16-byte reads of an array >= 8x the L2 (a GEMM mostly reads); datasheet: memory clock x 2 x bus width");
  add(kRoofHbmCopy, "HBM copy", RoofKind::Bandwidth, "", device.peak_dram_gbps,
      "16-byte streaming copy of arrays >= 8x the L2, bytes read + written; datasheet: memory clock x 2 x bus width");
  add(kRoofL2Read, "L2 read", RoofKind::Bandwidth, "", 0,
      "repeated 16-byte reads (L1 bypassed) of a buffer half the L2's size; no datasheet value is published");
  add(kRoofSharedRead, "shared-memory read", RoofKind::Bandwidth, "", 0,
      "conflict-free 4-byte loads in a loop on every SM, summed over SMs; no datasheet value is published");
  return t;
}

namespace {

constexpr int kThreads = 256;
constexpr int kChains = 16;  // independent FMA chains per thread: more than the pipe's latency
constexpr int kSteps = 8;    // chain steps per loop iteration: the loop's own instructions vanish
constexpr int kTimedRuns = 7;
constexpr double kTargetMs = 10;  // each timed launch runs about this long once calibrated
constexpr int kSharedWordsPerThread = 16;

// ---- kernels ------------------------------------------------------------------------------------

__device__ __forceinline__ float fused(float a, float b, float c) {
  return __fmaf_rn(a, b, c);
}
__device__ __forceinline__ double fused(double a, double b, double c) {
  return __fma_rn(a, b, c);
}

// acc = acc * mul + add converges to add / (1 - mul) (1 for the values used), so nothing
// overflows or becomes subnormal however long it runs. The store that never happens (the sum
// is never that value) keeps the compiler from dropping the work.
template <typename T>
__global__ void __launch_bounds__(kThreads) fma_kernel(T* out, int iterations, T mul, T add) {
  T acc[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) acc[c] = static_cast<T>(threadIdx.x % 7 + c) * static_cast<T>(0.125);
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int s = 0; s < kSteps; ++s)
#pragma unroll
      for (int c = 0; c < kChains; ++c) acc[c] = fused(acc[c], mul, add);
  }
  T sum = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) sum += acc[c];
  if (sum == static_cast<T>(-1.0e-30)) out[blockIdx.x] = sum;
}

// Each block copies tiles of kCopyUnroll x blockDim 16-byte elements: all of a tile's loads are
// in flight before its stores. Streaming hints (__ldcs/__stcs): the data is touched once, so it
// should not push anything else out of the L2. (Measured on an H100 this beat grid-stride loops
// with 1, 4 or 8 elements in flight.)
constexpr int kCopyUnroll = 16;
__global__ void __launch_bounds__(kThreads)
    copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n) {
  const std::size_t tile = static_cast<std::size_t>(kCopyUnroll) * blockDim.x;
  for (std::size_t t0 = static_cast<std::size_t>(blockIdx.x) * tile; t0 < n; t0 += gridDim.x * tile) {
    float4 v[kCopyUnroll];
#pragma unroll
    for (int k = 0; k < kCopyUnroll; ++k) {
      const std::size_t i = t0 + static_cast<std::size_t>(k) * blockDim.x + threadIdx.x;
      if (i < n) v[k] = __ldcs(&in[i]);
    }
#pragma unroll
    for (int k = 0; k < kCopyUnroll; ++k) {
      const std::size_t i = t0 + static_cast<std::size_t>(k) * blockDim.x + threadIdx.x;
      if (i < n) __stcs(&out[i], v[k]);
    }
  }
}

// Reads only, in tiles of kReadUnroll x blockDim 16-byte elements per block, all in flight at
// once, with the streaming hint. (On an H100 this measured 3.10 TB/s against 3.05 for a
// grid-stride loop with 4 loads in flight.)
constexpr int kReadUnroll = 8;
__global__ void __launch_bounds__(kThreads) read_kernel(const float4* __restrict__ in, std::size_t n, float* out) {
  const std::size_t tile = static_cast<std::size_t>(kReadUnroll) * blockDim.x;
  float sum = 0;
  for (std::size_t t0 = static_cast<std::size_t>(blockIdx.x) * tile; t0 < n; t0 += gridDim.x * tile) {
    float4 v[kReadUnroll];
#pragma unroll
    for (int k = 0; k < kReadUnroll; ++k) {
      const std::size_t i = t0 + static_cast<std::size_t>(k) * blockDim.x + threadIdx.x;
      v[k] = i < n ? __ldcs(&in[i]) : make_float4(0, 0, 0, 0);
    }
#pragma unroll
    for (int k = 0; k < kReadUnroll; ++k) sum += v[k].x + v[k].y + v[k].z + v[k].w;
  }
  if (sum == -1.0e-30f) out[blockIdx.x] = sum;
}

// Every block reads the whole buffer `passes` times, from a different starting point so the
// blocks spread over the L2's slices; __ldcg caches in L2 only, so L1 serves nothing.
__global__ void __launch_bounds__(kThreads)
    l2_read_kernel(const float4* __restrict__ in, std::size_t n, int passes, float* out) {
  float sum = 0;
  const std::size_t start = (static_cast<std::size_t>(blockIdx.x) * 4099 * blockDim.x) % n;
  for (int p = 0; p < passes; ++p) {
    for (std::size_t i = threadIdx.x; i < n; i += 4 * static_cast<std::size_t>(blockDim.x)) {
      float4 v[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        std::size_t j = i + static_cast<std::size_t>(k) * blockDim.x;
        std::size_t at = start + j;  // wraps around the buffer without a division
        if (at >= n) at -= n;
        v[k] = j < n ? __ldcg(&in[at]) : make_float4(0, 0, 0, 0);
      }
#pragma unroll
      for (int k = 0; k < 4; ++k) sum += v[k].x + v[k].y + v[k].z + v[k].w;
    }
  }
  if (sum == -1.0e-30f) out[blockIdx.x] = sum;
}

// Consecutive threads read consecutive 4-byte words: the 32 lanes of a warp hit the 32 banks,
// one wavefront (128 bytes) per load. volatile: every load in the loop is issued.
__global__ void __launch_bounds__(kThreads) shared_read_kernel(int iterations, int* out) {
  __shared__ int words[kSharedWordsPerThread * kThreads];
#pragma unroll
  for (int k = 0; k < kSharedWordsPerThread; ++k) words[k * kThreads + threadIdx.x] = threadIdx.x + k;
  __syncthreads();
  volatile int* v = words;
  int acc = 0;
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < kSharedWordsPerThread; ++k) acc ^= v[k * kThreads + threadIdx.x];
  }
  if (acc == 0x7fffffff) out[blockIdx.x] = acc;
}

// ---- timing -------------------------------------------------------------------------------------

class Events {
 public:
  Events() {
    CUDA_CHECK(cudaEventCreate(&start_));
    CUDA_CHECK(cudaEventCreate(&stop_));
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  ~Events() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
    cudaStreamDestroy(stream_);
  }
  Events(const Events&) = delete;
  Events& operator=(const Events&) = delete;
  cudaStream_t stream() const { return stream_; }

  // Milliseconds of one call of `launch` on the stream.
  template <typename Launch>
  double time(const Launch& launch) {
    CUDA_CHECK(cudaEventRecord(start_, stream_));
    launch();
    CUDA_CHECK(cudaEventRecord(stop_, stream_));
    CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

  // One untimed launch, then the median of kTimedRuns.
  template <typename Launch>
  double median_ms(const Launch& launch) {
    time(launch);
    std::vector<double> ms;
    for (int i = 0; i < kTimedRuns; ++i) ms.push_back(time(launch));
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  cudaStream_t stream_ = nullptr;
};

// The loop count that makes one launch take about kTargetMs: doubled from `start` until a
// launch takes a millisecond, then scaled.
template <typename Launch>
int calibrate(Events& ev, int start, const Launch& launch_with) {
  int n = start;
  constexpr int kMax = 1 << 26;
  for (;;) {
    const double ms = ev.time([&] { launch_with(n); });
    if (ms >= 1.0 || n >= kMax / 2) {
      const double scaled = n * (kTargetMs / std::max(ms, 1e-3));
      return static_cast<int>(std::clamp(scaled, 1.0, static_cast<double>(kMax)));
    }
    n *= 2;
  }
}

// Blocks of kThreads for one full wave: every SM as full as the kernel allows.
template <typename Kernel>
int full_wave_blocks(const DeviceInfo& device, Kernel kernel) {
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0));
  return std::max(1, per_sm) * std::max(1, device.sm_count);
}

template <typename T>
double measure_fma_gflops(const DeviceInfo& device, Events& ev) {
  const int blocks = full_wave_blocks(device, fma_kernel<T>);
  DeviceBuffer out(sizeof(T) * static_cast<std::size_t>(blocks));
  T* o = static_cast<T*>(out.get());
  auto launch = [&](int iterations) {
    fma_kernel<T><<<blocks, kThreads, 0, ev.stream()>>>(o, iterations, static_cast<T>(0.9999), static_cast<T>(1.0e-4));
    CUDA_CHECK_LAUNCH("fma_kernel");
  };
  const int iterations = calibrate(ev, 16, launch);
  const double ms = ev.median_ms([&] { launch(iterations); });
  const double flops = 2.0 * kChains * kSteps * static_cast<double>(iterations) * kThreads * blocks;
  return flops / (ms * 1e-3) / 1e9;
}

// Bytes per array for the DRAM benchmarks: 8x the L2 and at least 4 GiB (on an H100, 1 GiB
// arrays gave reads that varied by 8% from run to run, 4 GiB ones 1%), at most a quarter of the
// free memory each.
std::size_t dram_array_bytes(const DeviceInfo& device) {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t l2 = device.l2_bytes > 0 ? device.l2_bytes : (std::size_t{64} << 20);
  std::size_t bytes = std::max<std::size_t>(8 * l2, std::size_t{4} << 30);
  bytes = std::min(bytes, free_bytes / 4);
  bytes = bytes / sizeof(float4) * sizeof(float4);
  if (bytes < 8 * l2 && bytes < (std::size_t{256} << 20))
    throw GpuError("HBM bandwidth: not enough free device memory for arrays larger than the L2");
  return bytes;
}

// Blocks for the DRAM kernels: `per_sm` per SM, the grid-stride loops do the rest.
int dram_blocks(const DeviceInfo& device, int per_sm) {
  return per_sm * std::max(1, device.sm_count);
}

double measure_copy_gbps(const DeviceInfo& device, Events& ev) {
  const std::size_t bytes = dram_array_bytes(device);
  DeviceBuffer in(bytes), out(bytes);
  CUDA_CHECK(cudaMemsetAsync(in.get(), 0, bytes, ev.stream()));
  CUDA_CHECK(cudaMemsetAsync(out.get(), 0, bytes, ev.stream()));
  const std::size_t n = bytes / sizeof(float4);
  const int blocks = dram_blocks(device, 8);
  const double ms = ev.median_ms([&] {
    copy_kernel<<<blocks, kThreads, 0, ev.stream()>>>(static_cast<const float4*>(in.get()),
                                                      static_cast<float4*>(out.get()), n);
    CUDA_CHECK_LAUNCH("copy_kernel");
  });
  return 2.0 * static_cast<double>(bytes) / (ms * 1e-3) / 1e9;
}

double measure_read_gbps(const DeviceInfo& device, Events& ev) {
  const std::size_t bytes = dram_array_bytes(device);
  DeviceBuffer in(bytes);
  CUDA_CHECK(cudaMemsetAsync(in.get(), 0, bytes, ev.stream()));
  const int blocks = dram_blocks(device, 4);
  DeviceBuffer out(sizeof(float) * static_cast<std::size_t>(blocks));
  const std::size_t n = bytes / sizeof(float4);
  const double ms = ev.median_ms([&] {
    read_kernel<<<blocks, kThreads, 0, ev.stream()>>>(static_cast<const float4*>(in.get()), n,
                                                      static_cast<float*>(out.get()));
    CUDA_CHECK_LAUNCH("read_kernel");
  });
  return static_cast<double>(bytes) / (ms * 1e-3) / 1e9;
}

double measure_l2_gbps(const DeviceInfo& device, Events& ev) {
  const std::size_t l2 = device.l2_bytes > 0 ? device.l2_bytes : (std::size_t{4} << 20);
  const std::size_t bytes = std::max<std::size_t>(l2 / 2 / sizeof(float4) * sizeof(float4), 4096);
  DeviceBuffer in(bytes);
  CUDA_CHECK(cudaMemsetAsync(in.get(), 0, bytes, ev.stream()));
  const int blocks = full_wave_blocks(device, l2_read_kernel);
  DeviceBuffer out(sizeof(float) * static_cast<std::size_t>(blocks));
  const std::size_t n = bytes / sizeof(float4);
  // Each block reads the whole buffer per pass: the grid reads blocks x bytes per pass.
  auto launch = [&](int passes) {
    l2_read_kernel<<<blocks, kThreads, 0, ev.stream()>>>(static_cast<const float4*>(in.get()), n, passes,
                                                         static_cast<float*>(out.get()));
    CUDA_CHECK_LAUNCH("l2_read_kernel");
  };
  const int passes = calibrate(ev, 1, launch);
  const double ms = ev.median_ms([&] { launch(passes); });
  return static_cast<double>(bytes) * blocks * passes / (ms * 1e-3) / 1e9;
}

double measure_shared_gbps(const DeviceInfo& device, Events& ev) {
  const int blocks = full_wave_blocks(device, shared_read_kernel);
  DeviceBuffer out(sizeof(int) * static_cast<std::size_t>(blocks));
  auto launch = [&](int iterations) {
    shared_read_kernel<<<blocks, kThreads, 0, ev.stream()>>>(iterations, static_cast<int*>(out.get()));
    CUDA_CHECK_LAUNCH("shared_read_kernel");
  };
  const int iterations = calibrate(ev, 64, launch);
  const double ms = ev.median_ms([&] { launch(iterations); });
  const double bytes = 4.0 * kSharedWordsPerThread * static_cast<double>(iterations) * kThreads * blocks;
  return bytes / (ms * 1e-3) / 1e9;
}

}  // namespace

CeilingTable measure_ceilings(const DeviceInfo& device, const std::atomic<bool>* stop) {
  if (!device.ok()) throw GpuError("no usable GPU: " + device.unavailable_reason);
  CUDA_CHECK(cudaSetDevice(device.device));
  CeilingTable table = datasheet_table(device);
  table.measured_at = utc_timestamp_now();
  Events ev;
  for (Roof& r : table.roofs) {
    if (stop && stop->load()) break;
    if (r.id == kRoofFp32Fma)
      r.measured = measure_fma_gflops<float>(device, ev);
    else if (r.id == kRoofFp64Fma)
      r.measured = measure_fma_gflops<double>(device, ev);
    else if (r.id == kRoofHbmCopy)
      r.measured = measure_copy_gbps(device, ev);
    else if (r.id == kRoofHbmRead)
      r.measured = measure_read_gbps(device, ev);
    else if (r.id == kRoofL2Read)
      r.measured = measure_l2_gbps(device, ev);
    else if (r.id == kRoofSharedRead)
      r.measured = measure_shared_gbps(device, ev);
  }
  CUDA_CHECK(cudaStreamSynchronize(ev.stream()));
  return table;
}

}  // namespace tilescope
