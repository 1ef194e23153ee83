// The names a split variant gives NVRTC (variant.h: kernel_names) are the kernels its timed
// launches run: for every configuration x input type x problem the GPU runs, kernel_for's kernel,
// named by the runtime itself (cudaFuncGetName, demangled), is one of the case's name expressions.
// The CPU suite compiles the same names from the kernel text (kernel_text_test.cpp); this suite
// needs no source tree and no NVRTC. Skips itself where no CUDA device exists.
#include <cuda_runtime.h>
#include <cxxabi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/core/variant.h"
#include "kernels/cuda/device_info.h"
#include "tests/support/variant_cases.h"

namespace tilescope::testing {
namespace {

// "tilescope::k<float, true>" from the mangled name of `void tilescope::k<float, true>(float*)`:
// the demangled name without its return type and its parameter list.
std::string name_expression(const char* mangled) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  if (status != 0 || !demangled) return mangled;
  std::string s = demangled;
  std::free(demangled);
  if (s.rfind("void ", 0) == 0) s.erase(0, 5);
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    if (s[i] == '>') --depth;
    if (s[i] == '(' && depth == 0) return s.substr(0, i);
  }
  return s;
}

TEST(GpuKernelNames, NameExpressionsReadBackFromManglings) {
  // void tilescope::tile_kernel<double, 16, true, tilescope::NoProbe>(double const*, tilescope::NoProbe)
  EXPECT_EQ(name_expression("_ZN9tilescope11tile_kernelIdLi16ELb1ENS_7NoProbeEEEvPKT_T2_"),
            "tilescope::tile_kernel<double, 16, true, tilescope::NoProbe>");
  EXPECT_EQ(name_expression("not a mangled name"), "not a mangled name");
}

TEST(GpuKernelNames, KernelForsKernelIsOneOfItsNames) {
  SKIP_WITHOUT_GPU();
  const DeviceInfo& device = probe_device();
  int checked = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (!v->kernel_names || !v->kernel_for) continue;
    for (std::size_t c = 0; c < v->configs.size(); ++c)
      for (Precision q : v->precisions)
        for (Problem p : v->problems) {
          if (!unsupported_reason(*v, static_cast<int>(c), p, q, device.limits).empty()) continue;
          const std::vector<std::string> names = v->kernel_names(v->configs[c], q, p);
          // A square size and a ragged one: launches that pick their kernel by the shape pick both ways.
          for (const Shape& shape : {Shape{256, 256, 256}, Shape{255, 253, 251}}) {
            GemmArgs g;
            g.problem = p;
            g.precision = q;
            g.shape = normalised(p, shape);
            const char* launched = nullptr;
            ASSERT_EQ(cudaFuncGetName(&launched, v->kernel_for(g, static_cast<int>(c)).kernel), cudaSuccess);
            ASSERT_NE(launched, nullptr);
            const std::string expression = name_expression(launched);
            std::string listed;
            for (const std::string& n : names) listed += "\n  " + n;
            const bool named = std::find(names.begin(), names.end(), expression) != names.end();
            EXPECT_TRUE(named) << v->id << " " << v->configs[c].name << " " << to_string(q) << " " << to_string(p)
                               << ": the launch runs " << expression << ", which is not among kernel_names:" << listed;
            ++checked;
          }
        }
  }
  EXPECT_GT(checked, 0) << "no variant with kernel names runs on this GPU";
  std::cout << checked << " launches checked against their kernel names\n";
}

}  // namespace
}  // namespace tilescope::testing
