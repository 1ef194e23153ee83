#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/cuda/cuda_check.h"
#include "kernels/measure/gpu_buffers.h"
#include "kernels/measure/random_inputs.h"

namespace tilescope {

void throw_gpu_error(const char* expr, const char* file, int line, const std::string& what) {
  throw GpuError(what + " in " + expr + " (" + file + ":" + std::to_string(line) + ")");
}

const char* cublas_status_name(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS:
      return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return "CUBLAS_STATUS_NOT_INITIALIZED (no usable GPU or driver)";
    case CUBLAS_STATUS_ALLOC_FAILED:
      return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE:
      return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH:
      return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR:
      return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED:
      return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR:
      return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR:
      return "CUBLAS_STATUS_LICENSE_ERROR";
    default:
      return "unknown cuBLAS status";
  }
}

CudaStream::CudaStream() {
  CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking));
}
CudaStream::~CudaStream() {
  if (s_) cudaStreamDestroy(s_);
}

void DeviceBuffer::resize(std::size_t bytes) {
  if (bytes <= bytes_) return;
  release();
  CUDA_CHECK(cudaMalloc(&ptr_, bytes));
  bytes_ = bytes;
}

void DeviceBuffer::release() {
  if (ptr_) cudaFree(ptr_);  // nothing useful to do with an error while freeing
  ptr_ = nullptr;
  bytes_ = 0;
}

namespace {

constexpr int kThreads = 256;

unsigned blocks_for(std::int64_t count) {
  const std::int64_t b = (count + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 65535 * 16 ? (b > 0 ? b : 1) : 65535 * 16);  // grid-stride beyond
}

// Stored values of each element type from the float of input_value_narrow: exact conversions
// (the value has at most as many significant bits as the type).
__device__ __forceinline__ void store(float* dst, float v) {
  *dst = v;
}
__device__ __forceinline__ void store(__half* dst, float v) {
  *dst = __float2half_rn(v);
}
__device__ __forceinline__ void store(__nv_bfloat16* dst, float v) {
  *dst = __float2bfloat16_rn(v);
}
__device__ __forceinline__ double widened(float v) {
  return v;
}
__device__ __forceinline__ double widened(double v) {
  return v;
}
__device__ __forceinline__ double widened(__half v) {
  return __half2float(v);
}
__device__ __forceinline__ double widened(__nv_bfloat16 v) {
  return __bfloat162float(v);
}

template <typename T>
__global__ void fill_random_kernel(T* dst, std::int64_t count, std::uint64_t seed, int stream, int bits) {
  for (std::int64_t i = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; i < count;
       i += (std::int64_t)gridDim.x * blockDim.x)
    store(dst + i, input_value_narrow(seed, static_cast<std::uint64_t>(stream), static_cast<std::uint64_t>(i), bits));
}

__global__ void fill_random_double_kernel(double* dst, std::int64_t count, std::uint64_t seed, int stream) {
  for (std::int64_t i = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; i < count;
       i += (std::int64_t)gridDim.x * blockDim.x)
    dst[i] = input_value(seed, static_cast<std::uint64_t>(stream), static_cast<std::uint64_t>(i));
}

template <typename T>
__global__ void widen_kernel(double* dst, const T* src, std::int64_t count) {
  for (std::int64_t i = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; i < count;
       i += (std::int64_t)gridDim.x * blockDim.x)
    dst[i] = widened(src[i]);
}

// Per-block maxima of |c - ref| and |ref|, partial sums of ref^2 and the NaN count, reduced on
// the host (the measure of reference.h: the largest element error over the largest element).
template <typename T>
__global__ void compare_kernel(const T* c, const double* ref, std::int64_t m, std::int64_t n, bool upper_only,
                               double* partial_max_diff, double* partial_max_ref, double* partial_ref2,
                               unsigned long long* nan_count) {
  __shared__ double s_diff[kThreads];
  __shared__ double s_max_ref[kThreads];
  __shared__ double s_ref2[kThreads];
  double max_diff = 0, max_ref = 0, r2 = 0;
  unsigned long long nans = 0;
  const std::int64_t total = m * n;
  for (std::int64_t idx = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; idx < total;
       idx += (std::int64_t)gridDim.x * blockDim.x) {
    const std::int64_t i = idx / n, j = idx % n;
    if (upper_only && j < i) continue;
    const double v = widened(c[idx]);
    const double x = ref[idx];
    if (isnan(v)) {
      ++nans;
      continue;
    }
    max_diff = fmax(max_diff, fabs(v - x));  // fmax keeps an infinite difference
    max_ref = fmax(max_ref, fabs(x));
    r2 += x * x;
  }
  s_diff[threadIdx.x] = max_diff;
  s_max_ref[threadIdx.x] = max_ref;
  s_ref2[threadIdx.x] = r2;
  if (nans) atomicAdd(nan_count, nans);
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      s_diff[threadIdx.x] = fmax(s_diff[threadIdx.x], s_diff[threadIdx.x + stride]);
      s_max_ref[threadIdx.x] = fmax(s_max_ref[threadIdx.x], s_max_ref[threadIdx.x + stride]);
      s_ref2[threadIdx.x] += s_ref2[threadIdx.x + stride];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial_max_diff[blockIdx.x] = s_diff[0];
    partial_max_ref[blockIdx.x] = s_max_ref[0];
    partial_ref2[blockIdx.x] = s_ref2[0];
  }
}

// Runs f(T*) with the input buffer `p` holds: its storage type (float for f32 and tf32, double,
// __half, __nv_bfloat16).
template <typename F>
void with_input_type(Precision p, void* data, F f) {
  switch (precision_facts(p).input_bytes) {
    case 8:
      f(static_cast<double*>(data));
      return;
    case 4:
      f(static_cast<float*>(data));
      return;
    default:
      if (p == Precision::BF16)
        f(static_cast<__nv_bfloat16*>(data));
      else
        f(static_cast<__half*>(data));
  }
}

}  // namespace

void fill_random(void* dst, Precision p, std::int64_t count, std::uint64_t seed, int stream, cudaStream_t s) {
  if (count <= 0) return;
  const int bits = precision_facts(p).significand_bits;
  with_input_type(p, dst, [&](auto* out) {
    using T = std::remove_pointer_t<decltype(out)>;
    if constexpr (std::is_same_v<T, double>)
      fill_random_double_kernel<<<blocks_for(count), kThreads, 0, s>>>(out, count, seed, stream);
    else
      fill_random_kernel<<<blocks_for(count), kThreads, 0, s>>>(out, count, seed, stream, bits);
  });
  CUDA_CHECK_LAUNCH("fill_random");
}

void poison(void* dst, OutputType t, std::int64_t count, cudaStream_t s) {
  CUDA_CHECK(cudaMemsetAsync(dst, 0xFF, static_cast<std::size_t>(count) * output_bytes(t), s));
}

void widen_to_double(double* dst, const void* src, Precision p, std::int64_t count, cudaStream_t s) {
  if (count <= 0) return;
  with_input_type(p, const_cast<void*>(src),
                  [&](auto* in) { widen_kernel<<<blocks_for(count), kThreads, 0, s>>>(dst, in, count); });
  CUDA_CHECK_LAUNCH("widen_to_double");
}

ErrorReport device_compare(const void* c, OutputType t, const double* ref, std::int64_t m, std::int64_t n,
                           OutputPart part, cudaStream_t s) {
  constexpr int kBlocks = 1024;
  DeviceBuffer scratch(3 * kBlocks * sizeof(double) + sizeof(unsigned long long));
  double* d_diff = static_cast<double*>(scratch.get());
  double* d_max_ref = d_diff + kBlocks;
  double* d_ref2 = d_max_ref + kBlocks;
  auto* d_nan = reinterpret_cast<unsigned long long*>(d_ref2 + kBlocks);
  CUDA_CHECK(cudaMemsetAsync(d_nan, 0, sizeof(unsigned long long), s));
  const bool upper = part == OutputPart::UpperTriangle;
  auto compare = [&](auto* typed) {
    compare_kernel<<<kBlocks, kThreads, 0, s>>>(typed, ref, m, n, upper, d_diff, d_max_ref, d_ref2, d_nan);
  };
  switch (t) {
    case OutputType::F64:
      compare(static_cast<const double*>(c));
      break;
    case OutputType::F32:
      compare(static_cast<const float*>(c));
      break;
    case OutputType::F16:
      compare(static_cast<const __half*>(c));
      break;
    case OutputType::BF16:
      compare(static_cast<const __nv_bfloat16*>(c));
      break;
  }
  CUDA_CHECK_LAUNCH("compare");
  std::vector<double> h(3 * kBlocks);
  unsigned long long h_nan = 0;
  CUDA_CHECK(cudaMemcpyAsync(h.data(), d_diff, h.size() * sizeof(double), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaMemcpyAsync(&h_nan, d_nan, sizeof h_nan, cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  double max_diff = 0, max_ref = 0, ref2 = 0;
  for (int b = 0; b < kBlocks; ++b) {
    max_diff = std::fmax(max_diff, h[b]);
    max_ref = std::fmax(max_ref, h[kBlocks + b]);
    ref2 += h[2 * kBlocks + b];
  }
  ErrorReport r;
  r.unwritten = static_cast<std::int64_t>(h_nan);
  r.checked = upper ? m * (m + 1) / 2 : m * n;
  r.reference_norm = std::sqrt(ref2);
  r.rel_error = r.unwritten > 0 ? INFINITY : relative_max_error(max_diff, max_ref);
  return r;
}

}  // namespace tilescope
