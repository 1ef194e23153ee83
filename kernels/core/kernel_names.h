// How a launch file spells the kernels it launches for NVRTC: a name expression
// (nvrtcAddNameExpression) is the kernel's qualified name with its template arguments written
// in C++, "tilescope::naive_gemm_kernel<float, false, tilescope::NoProbe>". Plain C++, so the
// descriptors and the CPU tests use it without CUDA.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

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

// The template arguments of a name expression ("ns::k<float, 64, true>" -> {"float", "64", "true"}).
inline std::vector<std::string> template_arguments(const std::string& name) {
  std::vector<std::string> out;
  const std::size_t open = name.find('<'), close = name.rfind('>');
  if (open == std::string::npos || close == std::string::npos || close < open) return out;
  std::string arg;
  for (char c : name.substr(open + 1, close - open - 1)) {
    if (c == ',') {
      out.push_back(arg);
      arg.clear();
    } else if (c != ' ' || !arg.empty()) {
      arg += c;
    }
  }
  out.push_back(arg);
  return out;
}

// What sets names[i] apart from the other kernels of one configuration, for a label where the
// whole name expression is too long: ": template argument 10 = true"; "" for a lone kernel.
inline std::string kernel_difference(const std::vector<std::string>& names, std::size_t i) {
  if (names.size() < 2) return "";
  const std::vector<std::string> mine = template_arguments(names[i]);
  std::string out;
  for (std::size_t a = 0; a < mine.size(); ++a) {
    bool differs = false;
    for (const std::string& other : names) {
      const std::vector<std::string> theirs = template_arguments(other);
      differs = differs || a >= theirs.size() || theirs[a] != mine[a];
    }
    if (differs) out += (out.empty() ? ": template argument " : ", ") + std::to_string(a + 1) + " = " + mine[a];
  }
  return out;
}

}  // namespace tilescope
