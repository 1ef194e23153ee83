// The fixed-width integers of device code (std::int64_t, std::uint32_t, ..., std::size_t) under both
// compilers. nvcc has the host's <cstdint>; NVRTC has no host headers, so here they are named
// as glibc names them on 64-bit Linux (int64_t is long, not long long as libcu++'s
// cuda::std::int64_t is), which keeps a kernel's mangled name the same under both.
#pragma once

#ifdef __CUDACC_RTC__
namespace std {
using int8_t = signed char;
using int16_t = short;
using int32_t = int;
using int64_t = long;
using uint8_t = unsigned char;
using uint16_t = unsigned short;
using uint32_t = unsigned int;
using uint64_t = unsigned long;
using uintptr_t = unsigned long;
using size_t = ::size_t;  // NVRTC's own, unsigned long as glibc's
}  // namespace std
static_assert(sizeof(long) == 8, "the kernels' 64-bit integers are long, as on 64-bit Linux");
#else
#include <cstddef>
#include <cstdint>
#endif

// A function both host and device code call (block_order.h, gemm_basics.h), in a header that
// plain C++ includes too.
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define TILESCOPE_HOST_DEVICE __host__ __device__
#else
#define TILESCOPE_HOST_DEVICE
#endif
