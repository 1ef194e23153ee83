// The variants' kernel texts (variant.h: kernel_text) are device code that compiles alone: NVRTC,
// with no host header in reach, compiles each for the architectures the build compiles it for,
// with every kernel its launches use (kernel_names) for every configuration x input type x
// problem the variant runs; every variant with kernels of ours has a kernel text. NVRTC needs no
// GPU; the GPU suite checks that the names are the kernels the launches run
// (tests/gpu/gpu_kernel_names_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/core/variant.h"
#include "tests/support/nvrtc_program.h"

namespace tilescope::testing {
namespace {

namespace fs = std::filesystem;

// One kernel a launch may run: the case it runs for and its name expression.
struct NamedKernel {
  std::string config, precision, problem, name;
};

// Every kernel of every configuration x input type x problem that v does not refuse.
std::vector<NamedKernel> named_kernels(const VariantDescriptor& v) {
  std::vector<NamedKernel> out;
  for (std::size_t c = 0; c < v.configs.size(); ++c)
    for (Precision q : v.precisions)
      for (Problem p : v.problems) {
        if (!variant_refusal(v, static_cast<int>(c), p, q).empty()) continue;
        for (const std::string& n : v.kernel_names(v.configs[c], q, p))
          out.push_back({v.configs[c].name, to_string(q), to_string(p), n});
      }
  return out;
}

std::vector<const VariantDescriptor*> split_variants() {
  std::vector<const VariantDescriptor*> out;
  for (const VariantDescriptor* v : variant_registry())
    if (v->kernel_text) out.push_back(v);
  return out;
}

TEST(KernelTexts, NvrtcRefusesABrokenOrHostText) {
  ASSERT_TRUE(nvrtc_library().loaded) << nvrtc_library().soname << ": " << nvrtc_library().error;
  const std::string good = "namespace tilescope {\ntemplate <typename T> __global__ void k(T* c) { c[0] = T(1); }\n}\n";
  const NvrtcResult ok = nvrtc_compile(good, "good.cuh", "sm_80", {"tilescope::k<float>"});
  EXPECT_TRUE(ok.compiled) << ok.error;
  ASSERT_EQ(ok.lowered.size(), 1u);
  EXPECT_FALSE(ok.lowered[0].empty());
  const NvrtcResult broken = nvrtc_compile("__global__ void k( {}\n", "broken.cuh", "sm_80", {});
  EXPECT_FALSE(broken.compiled);
  EXPECT_NE(broken.error.find("broken.cuh"), std::string::npos) << broken.error;
  // A host header is out of NVRTC's reach: a kernel text that includes one does not compile.
  const NvrtcResult host = nvrtc_compile("#include <string>\n" + good, "host.cuh", "sm_80", {});
  EXPECT_FALSE(host.compiled);
}

TEST(KernelTexts, EverySplitVariantNamesTheKernelsOfEveryCase) {
  for (const VariantDescriptor* v : split_variants()) {
    ASSERT_NE(v->kernel_names, nullptr) << v->id << " has a kernel text but no kernel_names";
    EXPECT_NE(v->kernel_for, nullptr) << v->id;
    for (std::size_t c = 0; c < v->configs.size(); ++c)
      for (Precision q : v->precisions)
        for (Problem p : v->problems) {
          if (!variant_refusal(*v, static_cast<int>(c), p, q).empty()) continue;
          const auto names = v->kernel_names(v->configs[c], q, p);
          EXPECT_FALSE(names.empty()) << v->id << " " << v->configs[c].name << " " << to_string(q) << " "
                                      << to_string(p);
          for (const std::string& n : names) EXPECT_EQ(n.rfind("tilescope::", 0), 0u) << n;
        }
  }
}

// The build compiles the kernel text as part of the launch file, so that the text NVRTC compiles
// is the text that runs.
TEST(KernelTexts, TheLaunchFileIncludesItsKernelText) {
  for (const VariantDescriptor* v : split_variants()) {
    // The launch file sits beside its kernel text: 01_naive.cu beside 01_naive.cuh.
    const fs::path text = kernel_text_root() / v->kernel_text;
    fs::path launch = text;
    launch.replace_extension(".cu");
    if (!fs::exists(launch)) launch.replace_extension(".cpp");
    std::ifstream in(launch);
    bool included = false;
    for (std::string line; std::getline(in, line);)
      if (line == std::string("#include \"") + v->kernel_text + "\"") included = true;
    EXPECT_TRUE(included) << launch << " does not include " << v->kernel_text << " (" << v->id << ")";
  }
}

TEST(KernelTexts, EveryKernelOfOursHasItsKernelText) {
  for (const VariantDescriptor* v : variant_registry())
    if (v->backend == Backend::Cuda && v->kernel_for) {
      EXPECT_NE(v->kernel_text, nullptr) << v->id << " runs kernels of ours but names no kernel text";
    }
}

// One test per variant with a kernel text, so that ctest spreads the compiles over the cores.
class KernelTextOf : public ::testing::TestWithParam<const VariantDescriptor*> {};

TEST_P(KernelTextOf, CompilesAloneWithNvrtc) {
  ASSERT_TRUE(nvrtc_library().loaded) << nvrtc_library().soname << ": " << nvrtc_library().error;
  std::cout << "NVRTC: " << nvrtc_library().path << ", CUDA headers: " << find_cuda_include_dir() << "\n";
  const VariantDescriptor& v = *GetParam();
  ASSERT_NE(v.kernel_names, nullptr) << v.id;
  const std::string text = read_kernel_text(v);
  ASSERT_FALSE(text.empty()) << v.id << ": " << v.kernel_text << " not found or empty";
  const std::vector<NamedKernel> kernels = named_kernels(v);
  std::vector<std::string> names;
  for (const NamedKernel& k : kernels)
    if (std::find(names.begin(), names.end(), k.name) == names.end()) names.push_back(k.name);
  const std::vector<std::string> architectures = kernel_text_architectures(v);
  ASSERT_FALSE(architectures.empty()) << v.id;
  for (const std::string& arch : architectures) {
    const NvrtcResult r = nvrtc_compile(text, v.kernel_text, arch, names);
    ASSERT_TRUE(r.compiled) << v.id << ": " << v.kernel_text << " does not compile for " << arch << ": " << r.error;
    for (std::size_t i = 0; i < names.size(); ++i)
      EXPECT_FALSE(r.lowered[i].empty()) << v.id << " " << arch << ": no kernel " << names[i];
    std::cout << v.id << ": " << v.kernel_text << " compiled for " << arch << ", " << names.size() << " kernels for "
              << kernels.size() << " cases:\n";
    for (const NamedKernel& k : kernels)
      std::cout << "  " << k.config << " " << k.precision << " " << k.problem << ": " << k.name << "\n";
  }
}

INSTANTIATE_TEST_SUITE_P(KernelTexts, KernelTextOf, ::testing::ValuesIn(split_variants()),
                         [](const ::testing::TestParamInfo<const VariantDescriptor*>& info) {
                           return std::string(info.param->id);
                         });

}  // namespace
}  // namespace tilescope::testing
