// The piece of <type_traits> the kernel texts use (std::conditional_t) under both compilers. nvcc
// has the host's header; NVRTC has none, so here it is declared in namespace std as libstdc++
// declares it.
#pragma once

#ifdef __CUDACC_RTC__
namespace std {

template <bool B, typename T, typename F>
struct conditional {
  using type = T;
};
template <typename T, typename F>
struct conditional<false, T, F> {
  using type = F;
};
template <bool B, typename T, typename F>
using conditional_t = typename conditional<B, T, F>::type;

}  // namespace std
#else
#include <type_traits>
#endif
