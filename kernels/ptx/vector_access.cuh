// Vector accesses shared by the CUDA variants' kernels. Device-only (no host header), so that
// NVRTC compiles it as an include of a kernel text.
#pragma once

namespace tilescope {

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
// Two 16-bit values (f16 or bf16 bits) in one 4-byte access.
template <>
struct VecOf<unsigned short, 2> {
  using type = unsigned int;
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
