// The microbenchmarks behind the Roofline view's roofs (roofs.h). Each one is built so that
// the one resource it measures is the only limit: enough warps on every SM, enough independent
// work per thread to hide latency, and no other instruction in the inner loop worth counting.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/core/enum_names.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/measure/gpu_buffers.h"
#include "kernels/measure/measure.h"
#include "kernels/ptx/mma_ptx.cuh"
#include "kernels/roofs/roofs.h"
#include "kernels/roofs/roofs_device.cuh"
#include "kernels/roofs/roofs_fed.h"
#include "kernels/roofs/roofs_wgmma.h"

namespace tilescope {

namespace {
const EnumName<RoofKind> kRoofKindNames[] = {{RoofKind::Compute, "compute"}, {RoofKind::Bandwidth, "bandwidth"}};
}  // namespace

const char* to_string(RoofKind k) {
  return enum_name(k, kRoofKindNames, "bandwidth");
}

bool parse_roof_kind(const std::string& text, RoofKind* out) {
  return enum_from_name(text, kRoofKindNames, out);
}

const Roof* RoofTable::find(const std::string& id) const {
  for (const Roof& r : roofs)
    if (r.id == id) return &r;
  return nullptr;
}

const Roof* RoofTable::top_compute(const std::string& precision) const {
  const Roof* best = nullptr;
  for (const Roof& r : roofs)
    if (r.kind == RoofKind::Compute && r.precision == precision && r.measured > 0 &&
        (!best || r.measured > best->measured))
      best = &r;
  return best;
}

const Roof* RoofTable::top_bandwidth() const {
  const Roof* best = nullptr;
  for (const Roof& r : roofs)
    if (r.kind == RoofKind::Bandwidth && r.measured > 0 && (!best || r.measured > best->measured)) best = &r;
  return best;
}

const Roof* RoofTable::dram() const {
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

double roof_ratio(const Roof& r) {
  return r.measured > 0 && r.datasheet > 0 ? r.measured / r.datasheet : 0;
}

constexpr const char* kFedMethod =
    "mma.sync with the shared-memory traffic of a GEMM's main loop and nothing else: per 48 KB slab copied in by "
    "cp.async from a buffer in L2, 8 warps of 64 x 64 (a 128 x 256 block tile) read 128 KB by ldmatrix and issue "
    "1024 instructions; no barrier, up to two slabs of copies in flight, one block per SM, random operands; no "
    "datasheet value derived";

namespace {

// How the tensor-core microbenchmarks run, after the instruction they time: one warp's
// instruction with 8 accumulators of its own, or a warpgroup's with both operands in shared memory.
std::string warp_method(const char* instruction) {
  return std::string(instruction) +
         ", 8 independent accumulators per warp, random operands, one full wave; no datasheet value derived";
}
std::string warpgroup_method(const char* instruction) {
  return std::string(instruction) +
         ", both operands in shared memory, two warpgroups per block, two accumulator sets alternating, random "
         "operands, one full wave (sm_90a); no datasheet value derived";
}

}  // namespace

const std::vector<TensorRoofSpec>& tensor_roof_specs() {
  static const std::vector<TensorRoofSpec> specs = {
      {kRoofMmaF16, "mma.sync f16", "f16", 80, 2.0 * 16 * 8 * 16, warp_method("mma.sync m16n8k16 f16 x f16 + f32")},
      {kRoofMmaBf16, "mma.sync bf16", "bf16", 80, 2.0 * 16 * 8 * 16,
       warp_method("mma.sync m16n8k16 bf16 x bf16 + f32")},
      {kRoofMmaTf32, "mma.sync tf32", "tf32", 80, 2.0 * 16 * 8 * 8, warp_method("mma.sync m16n8k8 tf32 x tf32 + f32")},
      {kRoofMmaF64M8n8k4, "mma.sync f64 m8n8k4", "f64", 80, 2.0 * 8 * 8 * 4,
       warp_method("mma.sync m8n8k4 f64 (the shape of sm_80 and of wmma double)")},
      {kRoofMmaF64M16n8k16, "mma.sync f64 m16n8k16", "f64", 90, 2.0 * 16 * 8 * 16,
       warp_method("mma.sync m16n8k16 f64 (sm_90 and later)")},
      {kRoofMmaFedF16, "mma.sync smem-fed f16", "f16", 80, 2.0 * 16 * 8 * 16, kFedMethod},
      {kRoofMmaFedBf16, "mma.sync smem-fed bf16", "bf16", 80, 2.0 * 16 * 8 * 16, kFedMethod},
      {kRoofMmaFedTf32, "mma.sync smem-fed tf32", "tf32", 80, 2.0 * 16 * 8 * 8, kFedMethod},
      {kRoofWmmaF16, "wmma f16", "f16", 70, 2.0 * 16 * 16 * 16,
       warp_method("nvcuda::wmma 16x16x16 f16 x f16 + f32 mma_sync")},
      {kRoofWmmaTf32, "wmma tf32", "tf32", 80, 2.0 * 16 * 16 * 8,
       warp_method("nvcuda::wmma 16x16x8 tf32 x tf32 + f32 mma_sync")},
      {kRoofWgmmaF16, "wgmma f16", "f16", 90, 2.0 * 64 * 128 * 16,
       warpgroup_method("wgmma.mma_async m64n128k16 f16 x f16 + f32"), true},
      {kRoofWgmmaBf16, "wgmma bf16", "bf16", 90, 2.0 * 64 * 128 * 16,
       warpgroup_method("wgmma.mma_async m64n128k16 bf16 x bf16 + f32"), true},
      {kRoofWgmmaTf32, "wgmma tf32", "tf32", 90, 2.0 * 64 * 128 * 8,
       warpgroup_method("wgmma.mma_async m64n128k8 tf32 x tf32 + f32"), true},
      {kRoofWmmaF64, "wmma f64", "f64", 80, 2.0 * 8 * 8 * 4, warp_method("nvcuda::wmma 8x8x4 double mma_sync")},
  };
  return specs;
}

bool tensor_roof_on_device(const TensorRoofSpec& spec, int cc) {
  if (spec.arch_specific) return cc == spec.min_cc && wgmma_roofs_built();
  return cc >= spec.min_cc;
}

RoofTable datasheet_table(const DeviceInfo& device) {
  RoofTable t;
  t.device_name = device.name;
  t.driver_version = version_string(device.driver_version);
  auto add = [&t](const char* id, const char* name, RoofKind kind, const char* precision, double datasheet,
                  const std::string& method) {
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
  // Tensor-core rows, only where the device has the instruction (compute capability x 10 >=
  // the row's minimum); the per-SM tensor rates are not among the device's attributes, so
  // none of them has a datasheet-derived value.
  const int cc = device.cc_major * 10 + device.cc_minor;
  for (const TensorRoofSpec& s : tensor_roof_specs())
    if (tensor_roof_on_device(s, cc)) add(s.id, s.name, RoofKind::Compute, s.precision, 0, s.method);
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
__global__ void __launch_bounds__(kThreads) fma_kernel(T* out, CycleSample* cycles, int iterations, T mul, T add) {
  const long long started = clock64();
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
  record_cycles(started, cycles);
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

// ---- tensor cores -------------------------------------------------------------------------------
//
// Every warp issues kMmaChains independent accumulations per step, kMmaSteps steps per loop
// iteration, on operands that stay in registers: nothing but the tensor pipe limits it. The
// operands are random, as a GEMM's are: values in [0.5, 1) with random signs and every mantissa
// bit of the type random, in two sets that alternate from one instruction to the next, so the
// multipliers switch as much as on real data (constant operands draw less power). A chain
// always adds the same product, so its sum grows linearly and stays finite however long a launch
// runs. Each thread writes the sum of its accumulators at the end, so no result is dead. An Op's
// issue() is compiled only for the architectures that have its instruction; the host never
// launches it on the others (datasheet_table gives those devices no row).

constexpr int kMmaChains = 8;
constexpr int kMmaSteps = 4;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define TILESCOPE_HAS_SM80_MMA 1
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TILESCOPE_HAS_SM90_DMMA 1
#endif

// The registers of one mma.sync per thread: kMmaChains accumulators of kAcc values and two sets
// of A and B fragments (kA and kB registers); chain k multiplies set k % 2, so consecutive
// instructions alternate. Each instruction below adds its init() and issue().
template <typename Acc, int kAcc, typename Reg, int kA, int kB>
struct MmaFragments {
  Acc c[kMmaChains][kAcc];
  Reg a[2][kA], b[2][kB];
  template <typename Random>
  __device__ void fill(const Random& random) {
#pragma unroll
    for (int set = 0; set < 2; ++set) {
#pragma unroll
      for (int i = 0; i < kA; ++i) a[set][i] = random(set, i);
#pragma unroll
      for (int i = 0; i < kB; ++i) b[set][i] = random(set, kA + i);
    }
#pragma unroll
    for (int k = 0; k < kMmaChains; ++k)
#pragma unroll
      for (int i = 0; i < kAcc; ++i) c[k][i] = 0;
  }
  __device__ double result() const {
    double s = 0;
#pragma unroll
    for (int k = 0; k < kMmaChains; ++k)
#pragma unroll
      for (int i = 0; i < kAcc; ++i) s += c[k][i];
    return s;
  }
};

// m16n8k16 with f32 accumulation: A in 4 registers, B in 2, C/D 4 floats per thread.
template <bool kBf16>
struct MmaHalf : MmaFragments<float, 4, std::uint32_t, 4, 2> {
  __device__ void init() {
    fill([](int set, int i) {
      const std::uint32_t h = random_bits(set, i);
      return kBf16 ? random_bf16_pair(h) : random_f16_pair(h);
    });
  }
  __device__ __forceinline__ void issue(int k) {
#ifdef TILESCOPE_HAS_SM80_MMA
    if (kBf16)
      mma_m16n8k16_bf16(c[k], a[k % 2], b[k % 2]);
    else
      mma_m16n8k16_f16(c[k], a[k % 2], b[k % 2]);
#endif
  }
};

// m16n8k8 tf32 with f32 accumulation: A in 4 registers, B in 2, C/D 4 floats per thread.
struct MmaTf32 : MmaFragments<float, 4, std::uint32_t, 4, 2> {
  __device__ void init() {
    fill([](int set, int i) { return random_tf32(random_bits(set, i)); });
  }
  __device__ __forceinline__ void issue(int k) {
#ifdef TILESCOPE_HAS_SM80_MMA
    mma_m16n8k8_tf32(c[k], a[k % 2], b[k % 2]);
#endif
  }
};

// m8n8k4 f64: A and B one double each, C/D two doubles per thread.
struct MmaF64M8n8k4 : MmaFragments<double, 2, double, 1, 1> {
  __device__ void init() { fill(random_double); }
  __device__ __forceinline__ void issue(int k) {
#ifdef TILESCOPE_HAS_SM80_MMA
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n"
                 : "+d"(c[k][0]), "+d"(c[k][1])
                 : "d"(a[k % 2][0]), "d"(b[k % 2][0]));
#endif
  }
};

// m16n8k16 f64 (sm_90): A in 8 doubles, B in 4, C/D 4 doubles per thread.
struct MmaF64M16n8k16 : MmaFragments<double, 4, double, 8, 4> {
  __device__ void init() { fill(random_double); }
  __device__ __forceinline__ void issue(int k) {
#ifdef TILESCOPE_HAS_SM90_DMMA
    const double(&x)[8] = a[k % 2];
    const double(&y)[4] = b[k % 2];
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, "
        "{%12,%13,%14,%15}, {%0,%1,%2,%3};\n"
        : "+d"(c[k][0]), "+d"(c[k][1]), "+d"(c[k][2]), "+d"(c[k][3])
        : "d"(x[0]), "d"(x[1]), "d"(x[2]), "d"(x[3]), "d"(x[4]), "d"(x[5]), "d"(x[6]), "d"(x[7]), "d"(y[0]), "d"(y[1]),
          "d"(y[2]), "d"(y[3]));
#endif
  }
};

// A random element of a wmma fragment of `In` (the fragments' elements are floats for tf32).
template <typename In>
struct RandomElement;
template <>
struct RandomElement<__half> {
  __device__ static __half of(int set, int i) {
    return __ushort_as_half(static_cast<unsigned short>(random_f16_pair(random_bits(set, i))));
  }
};
template <>
struct RandomElement<float> {
  __device__ static float of(int set, int i) { return __uint_as_float(random_tf32(random_bits(set, i))); }
};
template <>
struct RandomElement<double> {
  __device__ static double of(int set, int i) { return random_double(set, i); }
};

// nvcuda::wmma: two sets of random fragments, kMmaChains accumulators, mma_sync on each.
template <typename In, typename Acc, int M, int N, int K>
struct Wmma {
  using AFrag = nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, M, N, K, In, nvcuda::wmma::row_major>;
  using BFrag = nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, M, N, K, In, nvcuda::wmma::col_major>;
  using CFrag = nvcuda::wmma::fragment<nvcuda::wmma::accumulator, M, N, K, Acc>;
  AFrag a[2];
  BFrag b[2];
  CFrag c[kMmaChains];
  __device__ void init() {
    using Element = typename std::remove_reference<decltype(a[0].x[0])>::type;
#pragma unroll
    for (int set = 0; set < 2; ++set) {
#pragma unroll
      for (int i = 0; i < a[set].num_elements; ++i) a[set].x[i] = RandomElement<Element>::of(set, i);
#pragma unroll
      for (int i = 0; i < b[set].num_elements; ++i) b[set].x[i] = RandomElement<Element>::of(set, 16 + i);
    }
#pragma unroll
    for (int k = 0; k < kMmaChains; ++k) nvcuda::wmma::fill_fragment(c[k], static_cast<Acc>(0));
  }
  __device__ __forceinline__ void issue(int k) {
    nvcuda::wmma::mma_sync(c[k], a[k % 2], b[k % 2], c[k]);
  }
  __device__ double result() const {
    double s = 0;
#pragma unroll
    for (int k = 0; k < kMmaChains; ++k)
#pragma unroll
      for (int i = 0; i < c[k].num_elements; ++i) s += static_cast<double>(c[k].x[i]);
    return s;
  }
};

// What a device compilation below an Op's architecture gets in its place: the fragment types
// of tf32 and double do not exist there. The kernel keeps its name (the host launches it by
// that name only on devices that have the instruction), its body does nothing.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
struct NoTensorOp {
  __device__ void init() {}
  __device__ void issue(int) {}
  __device__ double result() const { return 0; }
};
#endif

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
struct WmmaF16 : Wmma<__half, float, 16, 16, 16> {};
#else
struct WmmaF16 : NoTensorOp {};
#endif
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
struct WmmaTf32 : Wmma<nvcuda::wmma::precision::tf32, float, 16, 16, 8> {};
struct WmmaF64 : Wmma<double, double, 8, 8, 4> {};
#else
struct WmmaTf32 : NoTensorOp {};
struct WmmaF64 : NoTensorOp {};
#endif

template <class Op>
__global__ void __launch_bounds__(kThreads) tensor_kernel(double* out, CycleSample* cycles, int iterations) {
  const long long started = clock64();
  Op op;
  op.init();
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int s = 0; s < kMmaSteps; ++s)
#pragma unroll
      for (int k = 0; k < kMmaChains; ++k) op.issue(k);
  }
  out[static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x] = op.result();
  record_cycles(started, cycles);
}

// ---- timing -------------------------------------------------------------------------------------

// The cycles each block of a launch recorded (record_cycles).
class BlockCycles {
 public:
  explicit BlockCycles(int blocks) : blocks_(blocks), buffer_(sizeof(CycleSample) * static_cast<std::size_t>(blocks)) {}
  CycleSample* get() { return static_cast<CycleSample*>(buffer_.get()); }
  // For Events::median_run: the MHz of the launch just done on `stream`, given its milliseconds.
  auto clock_of(cudaStream_t stream) const {
    return [this, stream](double ms) { return clock_mhz(stream, ms); };
  }
  // MHz of the last launch on `stream`, which took `ms`: the median over SMs of the cycles from
  // an SM's first block's start to its last block's end, per microsecond of the launch.
  double clock_mhz(cudaStream_t stream, double ms) const {
    std::vector<CycleSample> host(static_cast<std::size_t>(blocks_));
    CUDA_CHECK(
        cudaMemcpyAsync(host.data(), buffer_.get(), sizeof(CycleSample) * host.size(), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    std::map<unsigned int, std::pair<unsigned long long, unsigned long long>> span;  // SM: first start, last end
    for (const CycleSample& c : host) {
      auto it = span.find(c.sm);
      if (it == span.end())
        span[c.sm] = {c.start, c.end};
      else
        it->second = {std::min(it->second.first, c.start), std::max(it->second.second, c.end)};
    }
    std::vector<double> cycles;
    for (const auto& [sm, s] : span) cycles.push_back(static_cast<double>(s.second - s.first));
    if (cycles.empty() || ms <= 0) return 0;
    std::nth_element(cycles.begin(), cycles.begin() + cycles.size() / 2, cycles.end());
    return cycles[cycles.size() / 2] / (ms * 1e3);
  }

 private:
  int blocks_;
  DeviceBuffer buffer_;
};

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

  // One untimed launch, then kTimedRuns: the median run's milliseconds, and what `after(ms)`
  // said right after that run (a compute roof's clock: it wanders from run to run at a power
  // limit, so it must be the one of the run whose time is reported).
  template <typename Launch, typename After>
  std::pair<double, double> median_run(const Launch& launch, const After& after) {
    time(launch);
    std::vector<std::pair<double, double>> runs;
    for (int i = 0; i < kTimedRuns; ++i) {
      const double ms = time(launch);
      runs.push_back({ms, after(ms)});
    }
    std::sort(runs.begin(), runs.end());
    return runs[runs.size() / 2];
  }
  template <typename Launch>
  double median_ms(const Launch& launch) {
    return median_run(launch, [](double) { return 0.0; }).first;
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

// A compute roof: GFLOP/s, and the SM clock (MHz) of its median timed launch.
struct ComputeRate {
  double gflops = 0, clock_mhz = 0;
};

// The rate of `launch(n)`, whose launches do `flops_per_count` FLOPs per unit of n (a loop
// iteration, a slab): n calibrated to about kTargetMs, the median run timed, with the clock its
// blocks recorded in `cycles`.
template <typename Launch>
ComputeRate timed_compute_rate(Events& ev, const BlockCycles& cycles, const Launch& launch, double flops_per_count) {
  const int n = calibrate(ev, 16, launch);
  const auto [ms, mhz] = ev.median_run([&] { launch(n); }, cycles.clock_of(ev.stream()));
  return {flops_per_count * n / (ms * 1e-3) / 1e9, mhz};
}

// Half the L2 (a guess where the device does not say): a buffer that stays in L2.
std::size_t half_l2_bytes(const DeviceInfo& device) {
  return (device.l2_bytes > 0 ? device.l2_bytes : (std::size_t{4} << 20)) / 2;
}

template <typename T>
ComputeRate measure_fma_gflops(const DeviceInfo& device, Events& ev) {
  const int blocks = full_wave_blocks(device, fma_kernel<T>);
  DeviceBuffer out(sizeof(T) * static_cast<std::size_t>(blocks));
  BlockCycles cycles(blocks);
  T* o = static_cast<T*>(out.get());
  auto launch = [&](int iterations) {
    fma_kernel<T><<<blocks, kThreads, 0, ev.stream()>>>(o, cycles.get(), iterations, static_cast<T>(0.9999),
                                                        static_cast<T>(1.0e-4));
    CUDA_CHECK_LAUNCH("fma_kernel");
  };
  return timed_compute_rate(ev, cycles, launch, 2.0 * kChains * kSteps * kThreads * blocks);
}

// GFLOP/s of tensor_kernel<Op>: every warp issues kMmaChains x kMmaSteps instructions per loop
// iteration, each worth `flops_per_instruction`.
template <class Op>
ComputeRate measure_tensor_gflops(const DeviceInfo& device, Events& ev, double flops_per_instruction) {
  const int blocks = full_wave_blocks(device, tensor_kernel<Op>);
  DeviceBuffer out(sizeof(double) * static_cast<std::size_t>(blocks) * kThreads);
  BlockCycles cycles(blocks);
  double* o = static_cast<double*>(out.get());
  auto launch = [&](int iterations) {
    tensor_kernel<Op><<<blocks, kThreads, 0, ev.stream()>>>(o, cycles.get(), iterations);
    CUDA_CHECK_LAUNCH("tensor_kernel");
  };
  const double warps = static_cast<double>(blocks) * (kThreads / 32);
  return timed_compute_rate(ev, cycles, launch, flops_per_instruction * kMmaChains * kMmaSteps * warps);
}

// GFLOP/s of a wgmma roof (roofs_wgmma.cu): one full wave of its blocks, each issuing
// kWgmmaRoofInstructionsPerIteration instructions per loop iteration, worth `flops_per_instruction`.
ComputeRate measure_wgmma_gflops(const DeviceInfo& device, Events& ev, WgmmaRoof roof, double flops_per_instruction) {
  const int blocks = std::max(1, wgmma_roof_blocks_per_sm(roof)) * std::max(1, device.sm_count);
  DeviceBuffer out(sizeof(double) * static_cast<std::size_t>(blocks) * kWgmmaRoofThreads);
  BlockCycles cycles(blocks);
  auto launch = [&](int iterations) {
    launch_wgmma_roof(roof, blocks, iterations, static_cast<double*>(out.get()), cycles.get(), ev.stream());
  };
  return timed_compute_rate(ev, cycles, launch, flops_per_instruction * kWgmmaRoofInstructionsPerIteration * blocks);
}

// GFLOP/s of a shared-memory-fed mma.sync roof (roofs_fed.cu): one block per SM, each
// multiplying kFedRoofInstructionsPerSlab instructions per slab, worth `flops_per_instruction`,
// while copying slabs from a buffer of random operands about half the L2's size.
ComputeRate measure_fed_gflops(const DeviceInfo& device, Events& ev, FedMmaRoof roof, double flops_per_instruction) {
  const int landings = fed_roof_landings(device.limits.shared_per_block_optin);
  if (landings == 0) return {};
  const int windows = static_cast<int>(std::max<std::size_t>(half_l2_bytes(device) / kFedRoofSlabBytes, 1));
  DeviceBuffer source(windows * kFedRoofSlabBytes);
  prepare_fed_mma_roof(roof, landings, static_cast<std::uint32_t*>(source.get()), windows * kFedRoofSlabBytes / 4,
                       ev.stream());
  const int blocks = std::max(1, device.sm_count);
  DeviceBuffer out(sizeof(double) * static_cast<std::size_t>(blocks) * kFedRoofThreads);
  BlockCycles cycles(blocks);
  auto launch = [&](int slabs) {
    launch_fed_mma_roof(roof, landings, blocks, slabs, source.get(), windows, static_cast<double*>(out.get()),
                        cycles.get(), ev.stream());
  };
  return timed_compute_rate(ev, cycles, launch, flops_per_instruction * kFedRoofInstructionsPerSlab * blocks);
}

// The tensor-core row `id`, measured (the caller has checked that the device has it).
ComputeRate measure_tensor_roof(const DeviceInfo& device, Events& ev, const std::string& id) {
  double flops = 0;
  for (const TensorRoofSpec& s : tensor_roof_specs())
    if (id == s.id) flops = s.flops_per_instruction;
  if (id == kRoofMmaF16) return measure_tensor_gflops<MmaHalf<false>>(device, ev, flops);
  if (id == kRoofMmaBf16) return measure_tensor_gflops<MmaHalf<true>>(device, ev, flops);
  if (id == kRoofMmaTf32) return measure_tensor_gflops<MmaTf32>(device, ev, flops);
  if (id == kRoofMmaF64M8n8k4) return measure_tensor_gflops<MmaF64M8n8k4>(device, ev, flops);
  if (id == kRoofMmaF64M16n8k16) return measure_tensor_gflops<MmaF64M16n8k16>(device, ev, flops);
  if (id == kRoofWmmaF16) return measure_tensor_gflops<WmmaF16>(device, ev, flops);
  if (id == kRoofWmmaTf32) return measure_tensor_gflops<WmmaTf32>(device, ev, flops);
  if (id == kRoofWmmaF64) return measure_tensor_gflops<WmmaF64>(device, ev, flops);
  if (id == kRoofMmaFedF16) return measure_fed_gflops(device, ev, FedMmaRoof::F16, flops);
  if (id == kRoofMmaFedBf16) return measure_fed_gflops(device, ev, FedMmaRoof::Bf16, flops);
  if (id == kRoofMmaFedTf32) return measure_fed_gflops(device, ev, FedMmaRoof::Tf32, flops);
  if (id == kRoofWgmmaF16) return measure_wgmma_gflops(device, ev, WgmmaRoof::F16, flops);
  if (id == kRoofWgmmaBf16) return measure_wgmma_gflops(device, ev, WgmmaRoof::Bf16, flops);
  if (id == kRoofWgmmaTf32) return measure_wgmma_gflops(device, ev, WgmmaRoof::Tf32, flops);
  return {};
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
  const std::size_t bytes = std::max<std::size_t>(half_l2_bytes(device) / sizeof(float4) * sizeof(float4), 4096);
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

bool roofs_current(const RoofTable& table, const DeviceInfo& device) {
  for (const Roof& expected : datasheet_table(device).roofs) {
    const Roof* r = table.find(expected.id);
    if (!r || r->measured <= 0) return false;
    if (r->kind == RoofKind::Compute && r->clock_mhz <= 0) return false;
  }
  return true;
}

RoofTable measure_roofs(const DeviceInfo& device, const std::atomic<bool>* stop) {
  if (!device.ok()) throw GpuError("no usable GPU: " + device.unavailable_reason);
  CUDA_CHECK(cudaSetDevice(device.device));
  RoofTable table = datasheet_table(device);
  table.measured_at = utc_timestamp_now();
  Events ev;
  auto set = [](Roof& r, const ComputeRate& rate) {
    r.measured = rate.gflops;
    r.clock_mhz = rate.clock_mhz;
  };
  for (Roof& r : table.roofs) {
    if (stop && stop->load()) break;
    if (r.id == kRoofFp32Fma)
      set(r, measure_fma_gflops<float>(device, ev));
    else if (r.id == kRoofFp64Fma)
      set(r, measure_fma_gflops<double>(device, ev));
    else if (r.id == kRoofHbmCopy)
      r.measured = measure_copy_gbps(device, ev);
    else if (r.id == kRoofHbmRead)
      r.measured = measure_read_gbps(device, ev);
    else if (r.id == kRoofL2Read)
      r.measured = measure_l2_gbps(device, ev);
    else if (r.id == kRoofSharedRead)
      r.measured = measure_shared_gbps(device, ev);
    else
      set(r, measure_tensor_roof(device, ev, r.id));  // only rows this device has are in the table
  }
  CUDA_CHECK(cudaStreamSynchronize(ev.stream()));
  return table;
}

}  // namespace tilescope
