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
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "kernels/instrument/timeline.h"
#include "tests/support/nvrtc_program.h"
#include "tests/support/typed_tile_checks.h"

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

// Typed tiles (tests/cpu/typed_*_test.cpp have their rules): the kernels a launch compiles at run
// time, timed and traced, compile from the kernel text alone, for tiles that no row of the compiled
// set has: mma.sync's each pipeline, plain and swizzled; the warpgroup kernel's deeper slabs,
// several instructions per slice, clusters of 3 and 4, four consumers, for sm_90a; wmma's for every
// input type (f16 also below sm_80, where the others have no fragments); the naive kernel's block
// shapes; each in both problems. The timeline build of a typed tile compiles too.
namespace tilescope::testing {
namespace {

struct TypedTileCase {
  const char* tile;  // its canonical spelling
  Precision precision;
  Problem problem;
  // nullptr for a kernel of one architecture (max_compute_capability), which compiles for that one.
  const char* architecture = nullptr;
};

// A probe as a launch spells it for a run-time compile (variant_launch.cuh: probe_spelling).
struct ProbeSpelling {
  const char* name;
  const char* header;  // "": the kernel text includes it
};
const ProbeSpelling kTraceProbe{"tilescope::TraceProbe", "kernels/instrument/probe.cuh"};
const ProbeSpelling kTimelineProbe{kTimelineProbeName, kTimelineProbeHeader};

// Compiles v's kernel text for `architecture` with every kernel in `names` (timed: NoProbe), each
// with `probe` in place of the last template argument where given, and its header after the text.
void expect_kernels_compile(const VariantDescriptor& v, const std::string& architecture,
                            const std::vector<std::string>& names, const ProbeSpelling* probe = nullptr) {
  std::string text = read_kernel_text(v);
  ASSERT_FALSE(text.empty()) << v.id;
  std::vector<std::string> spelled = names;
  if (probe) {
    for (std::string& n : spelled) n = n.substr(0, n.rfind(", ")) + ", " + probe->name + ">";
    text += std::string("\n#include \"") + probe->header + "\"\n";
  }
  const NvrtcResult r = nvrtc_compile(text, v.kernel_text, architecture, spelled);
  ASSERT_TRUE(r.compiled) << v.id << " for " << architecture << ": " << r.error;
  for (std::size_t i = 0; i < spelled.size(); ++i) EXPECT_FALSE(r.lowered[i].empty()) << spelled[i];
  std::cout << architecture << ": " << spelled[0] << "\n";
}

// Adds each case's typed tile to v and compiles the kernel its launches would, timed and traced.
void expect_typed_tiles_compile(const VariantDescriptor& v, const std::vector<TypedTileCase>& cases) {
  ASSERT_TRUE(nvrtc_library().loaded) << nvrtc_library().soname << ": " << nvrtc_library().error;
  const std::vector<std::string> architectures = kernel_text_architectures(v);
  if (v.max_compute_capability > 0) {
    ASSERT_EQ(architectures.size(), 1u) << v.id;
  }
  for (const TypedTileCase& c : cases) {
    SCOPED_TRACE(std::string(c.tile) + " " + to_string(c.precision) + " " + to_string(c.problem));
    ASSERT_EQ(c.architecture == nullptr, v.max_compute_capability > 0) << "the case names its architecture";
    const std::string architecture = c.architecture ? c.architecture : architectures[0];
    std::string why;
    const int index = add_typed_tile(v, c.tile, &why);
    ASSERT_GE(index, 0) << why;
    const TileConfig& config = config_at(v, index);
    ASSERT_EQ(config.name, c.tile) << "the canonical spelling";
    // A kernel of one architecture is refused by its descriptor when the build has no code for
    // that architecture (its name in the words): no refusal of the tile.
    const bool unbuilt = v.max_compute_capability > 0 && v.refuses &&
                         v.refuses(c.problem, c.precision, config).find(architecture) != std::string::npos;
    if (!unbuilt) {
      ASSERT_EQ(variant_refusal(v, index, c.problem, c.precision), "");
    }
    const std::vector<std::string> names = v.kernel_names(config, c.precision, c.problem);
    ASSERT_EQ(names.size(), 1u);
    expect_kernels_compile(v, architecture, names);
    expect_kernels_compile(v, architecture, names, &kTraceProbe);
  }
}

TEST(KernelTexts, TypedMmaSyncTilesCompileWithNvrtc) {
  expect_typed_tiles_compile(
      typed_mma_sync_kernel(),
      {
          {"bm=64,bn=128,bk=32,wm=32,wn=64,stages=4,swizzle=0,pipeline=2", Precision::BF16, Problem::Gemm, "sm_80"},
          {"bm=192,bn=192,bk=64,wm=48,wn=64,stages=3,swizzle=1,pipeline=0", Precision::F16, Problem::Gemm, "sm_80"},
          {"bm=64,bn=64,bk=32,wm=32,wn=32,stages=2,swizzle=1,pipeline=1", Precision::TF32, Problem::Ata, "sm_80"},
          {"bm=64,bn=64,bk=16,wm=32,wn=32,stages=3,swizzle=1,pipeline=2", Precision::F64, Problem::Ata, "sm_90"},
      });
}

TEST(KernelTexts, TypedWgmmaTilesCompileWithNvrtc) {
  expect_typed_tiles_compile(
      typed_cluster_kernel(),
      {
          {"bm=128,bn=256,bk=128,wgmma_n=128,stages=2,consumers=2,cluster_m=4,persistent=0,tma_store=1,"
           "register_sourced=0,band=8,c16=1,split_k=1,stream_k=0",
           Precision::BF16, Problem::Gemm},
          {"bm=128,bn=128,bk=64,wgmma_n=128,stages=4,consumers=1,cluster_m=1,persistent=1,tma_store=1,"
           "register_sourced=0,band=8,c16=0,split_k=1,stream_k=0",
           Precision::F16, Problem::Ata},
          {"bm=256,bn=128,bk=64,wgmma_n=128,stages=2,consumers=4,cluster_m=2,persistent=1,tma_store=0,"
           "register_sourced=0,band=8,c16=1,split_k=1,stream_k=0",
           Precision::F16, Problem::Gemm},
          {"bm=192,bn=192,bk=128,wgmma_n=192,stages=2,consumers=3,cluster_m=3,persistent=1,tma_store=1,"
           "register_sourced=0,band=8,c16=0,split_k=1,stream_k=0",
           Precision::BF16, Problem::Gemm},
          {"bm=256,bn=128,bk=32,wgmma_n=128,stages=3,consumers=2,cluster_m=1,persistent=0,tma_store=0,"
           "register_sourced=1,band=2,c16=0,split_k=1,stream_k=0",
           Precision::TF32, Problem::Gemm},
          // Split K, and the m64n64 instruction.
          {"bm=192,bn=192,bk=64,wgmma_n=192,stages=3,consumers=3,cluster_m=1,persistent=1,tma_store=1,"
           "register_sourced=0,band=8,c16=0,split_k=2,stream_k=0",
           Precision::BF16, Problem::Ata},
          {"bm=128,bn=256,bk=64,wgmma_n=64,stages=4,consumers=2,cluster_m=1,persistent=1,tma_store=0,"
           "register_sourced=0,band=8,c16=1,split_k=3,stream_k=0",
           Precision::F16, Problem::Gemm},
          // Stream-K, gemm and AᵀA.
          {"bm=128,bn=256,bk=64,wgmma_n=256,stages=4,consumers=2,cluster_m=1,persistent=1,tma_store=1,"
           "register_sourced=0,band=8,c16=1,split_k=1,stream_k=1",
           Precision::BF16, Problem::Gemm},
          {"bm=128,bn=128,bk=64,wgmma_n=128,stages=5,consumers=2,cluster_m=1,persistent=1,tma_store=0,"
           "register_sourced=0,band=8,c16=0,split_k=1,stream_k=1",
           Precision::F16, Problem::Ata},
      });
}

TEST(KernelTexts, TypedWmmaTilesCompileWithNvrtc) {
  expect_typed_tiles_compile(typed_wmma_kernel(),
                             {
                                 {"bm=96,bn=64,bk=16,wm=48,wn=32", Precision::F16, Problem::Gemm, "sm_75"},
                                 {"bm=128,bn=128,bk=8,wm=32,wn=64", Precision::TF32, Problem::Ata, "sm_80"},
                                 {"bm=256,bn=128,bk=64,wm=64,wn=64", Precision::BF16, Problem::Gemm, "sm_80"},
                                 {"bm=32,bn=32,bk=4,wm=8,wn=8", Precision::F64, Problem::Ata, "sm_90"},
                             });
}

TEST(KernelTexts, TypedNaiveBlocksCompileWithNvrtc) {
  expect_typed_tiles_compile(typed_one_phase_kernel(),
                             {
                                 {"block_x=7,block_y=5,order=0", Precision::F32, Problem::Gemm, "sm_80"},
                                 {"block_x=1024,block_y=1,order=0", Precision::F64, Problem::Ata, "sm_90"},
                                 {"block_x=32,block_y=3,order=1", Precision::F32, Problem::Ata, "sm_90"},
                             });
}

// The timeline build (timeline.h) of a typed tile: for every variant with a timeline launch that
// takes typed tiles, its default configuration spelled as a typed tile, with the timeline's probe
// and its header after the text, as probe_spelling (variant_launch.cuh) has a launch compile it.
// The probe's header is device-safe (timeline_buffers.h).
TEST(KernelTexts, TypedTilesTimelineBuildsCompileWithNvrtc) {
  ASSERT_TRUE(nvrtc_library().loaded) << nvrtc_library().soname << ": " << nvrtc_library().error;
  int compiled = 0;
  for (const VariantDescriptor* v :
       variants_where([](const VariantDescriptor& d) { return d.launch_timeline && takes_typed_tiles(d); })) {
    TileConfig typed;
    std::string why;
    ASSERT_TRUE(typed_tile_config(*v, v->tile_values_of(v->configs[v->default_config]), &typed, &why)) << why;
    const int index = add_typed_config(*v, typed);
    std::vector<std::string> names;
    for (Problem problem : {Problem::Gemm, Problem::Ata})
      for (const std::string& n : v->kernel_names(config_at(*v, index), v->precisions.front(), problem))
        names.push_back(n);
    ASSERT_FALSE(names.empty()) << typed.name;
    for (const std::string& architecture : kernel_text_architectures(*v)) {
      expect_kernels_compile(*v, architecture, names, &kTimelineProbe);
      ++compiled;
    }
  }
  EXPECT_GT(compiled, 0) << "no variant with a timeline launch takes typed tiles";
}

}  // namespace
}  // namespace tilescope::testing
