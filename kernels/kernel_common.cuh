// Small helpers shared by the CUDA variants.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cuda_check.h"
#include "gemm_types.h"

namespace tilescope {

// A launch grid, refused (not launched) when the matrix needs more blocks than CUDA allows.
inline dim3 checked_grid(std::int64_t x, std::int64_t y) {
  if (x > 2147483647 || y > 65535)
    throw GpuError("the matrix needs a grid of " + std::to_string(x) + " x " + std::to_string(y) +
                   " blocks; CUDA allows 2147483647 x 65535");
  return dim3(static_cast<unsigned>(x), static_cast<unsigned>(y));
}

// ---- vector accesses -----------------------------------------------------------------------
// W consecutive elements moved as one 8- or 16-byte access (W = 1: a scalar). The address must
// be aligned to the vector; callers guarantee it.
template <typename T, int W>
struct VecOf;
template <>
struct VecOf<float, 4> {
  using type = float4;
};
template <>
struct VecOf<float, 2> {
  using type = float2;
};
template <>
struct VecOf<double, 2> {
  using type = double2;
};

template <typename T, int W>
__device__ __forceinline__ void load_vec(const T* p, T (&r)[W]) {
  if constexpr (W == 1) {
    r[0] = *p;
  } else {
    using V = typename VecOf<T, W>::type;
    const V v = *reinterpret_cast<const V*>(p);
    const T* e = reinterpret_cast<const T*>(&v);
#pragma unroll
    for (int w = 0; w < W; ++w) r[w] = e[w];
  }
}

template <typename T, int W>
__device__ __forceinline__ void store_vec(T* p, const T (&r)[W]) {
  if constexpr (W == 1) {
    *p = r[0];
  } else {
    using V = typename VecOf<T, W>::type;
    V v;
    T* e = reinterpret_cast<T*>(&v);
#pragma unroll
    for (int w = 0; w < W; ++w) e[w] = r[w];
    *reinterpret_cast<V*>(p) = v;
  }
}

}  // namespace tilescope
