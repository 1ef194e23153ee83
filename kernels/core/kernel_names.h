// How a launch file spells the kernels it launches for NVRTC: a name expression
// (nvrtcAddNameExpression) is the kernel's qualified name with its template arguments written
// in C++, "tilescope::naive_gemm_kernel<float, false, tilescope::NoProbe>". Plain C++, so the
// descriptors and the CPU tests use it without CUDA.
#pragma once

#include <initializer_list>
#include <string>

#include "kernels/core/gemm_types.h"

namespace tilescope {

// The probe of the timed build (no_probe.cuh), as a template argument.
inline constexpr const char* kNoProbeName = "tilescope::NoProbe";

// "tilescope::<kernel><a, b, c>": a kernel of the kernel texts, all of which are in namespace
// tilescope, with its template arguments.
inline std::string kernel_name(const char* kernel, std::initializer_list<std::string> args) {
  std::string s = std::string("tilescope::") + kernel + "<";
  const char* separator = "";
  for (const std::string& a : args) {
    s += separator + a;
    separator = ", ";
  }
  return s + ">";
}

inline std::string cpp_bool(bool b) {
  return b ? "true" : "false";
}

// The element type of A, B and C of the FMA kernels, which take f32 and f64 only: float for f32,
// double otherwise, as their launches choose it.
inline std::string fma_element_type(Precision p) {
  return p == Precision::F32 ? "float" : "double";
}

// An input type as a template argument of the tensor-core kernels: "(tilescope::Precision)2" for
// tf32, the enumerator's value written as the demangler writes it, so that the GPU suite finds the
// launched kernel's name (read back from its mangling) among these; NVRTC takes it as it is.
inline std::string precision_argument(Precision p) {
  return "(tilescope::Precision)" + std::to_string(static_cast<int>(p));
}

}  // namespace tilescope
