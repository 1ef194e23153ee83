// The registry is the only list of variants; these tests keep it consistent and check that
// impossible configurations are refused with a reason before anything is launched.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "registry.h"
#include "variant.h"

using namespace tilescope;

namespace {

DeviceLimits hopper_limits() {
  DeviceLimits l;
  l.max_threads_per_block = 1024;
  l.shared_per_block_default = 48 * 1024;
  l.shared_per_block_optin = 227 * 1024;
  return l;
}

}  // namespace

TEST(Registry, TeachingOrderAndUniqueIds) {
  const auto& reg = variant_registry();
  ASSERT_EQ(reg.size(), 5u);
  EXPECT_STREQ(reg[0]->id, "cublas");
  EXPECT_STREQ(reg[1]->id, "naive");
  EXPECT_STREQ(reg[2]->id, "smem_tiled");
  EXPECT_STREQ(reg[3]->id, "regtile_prefetch");
  EXPECT_STREQ(reg[4]->id, "gl_shader");
  std::set<std::string> ids;
  for (const VariantDescriptor* v : reg) {
    EXPECT_TRUE(ids.insert(v->id).second) << v->id;
    EXPECT_FALSE(v->configs.empty()) << v->id;
    EXPECT_GT(std::string(v->summary).size(), 40u) << v->id << " needs a tooltip a student understands";
    if (v->backend == Backend::GlShader) {
      // Drawn by OpenGL through the runner the app installs (external_runner.h): no CUDA entry points.
      EXPECT_EQ(v->launch, nullptr) << v->id;
      EXPECT_EQ(v->launch_traced, nullptr) << v->id;
    } else {
      EXPECT_NE(v->launch, nullptr) << v->id;
      EXPECT_NE(v->kernel_for, nullptr) << v->id;
    }
    std::set<std::string> names;
    for (const TileConfig& c : v->configs) {
      EXPECT_TRUE(names.insert(c.name).second) << v->id << ":" << c.name;
      EXPECT_STRNE(c.math, "") << "every configuration states its arithmetic";
    }
    EXPECT_EQ(find_variant(v->id), v);
  }
  EXPECT_EQ(find_variant("nope"), nullptr);
}

TEST(Registry, CompiledTileSets) {
  const VariantDescriptor* tiled = find_variant("smem_tiled");
  ASSERT_NE(tiled, nullptr);
  EXPECT_GE(find_config(*tiled, "8"), 0);
  EXPECT_GE(find_config(*tiled, "16"), 0);
  EXPECT_GE(find_config(*tiled, "32"), 0);
  EXPECT_EQ(find_config(*tiled, "64"), -1);

  const VariantDescriptor* reg = find_variant("regtile_prefetch");
  ASSERT_NE(reg, nullptr);
  const int seed = find_config(*reg, "48x48x16_3x3");
  ASSERT_GE(seed, 0) << "the seed configuration must be compiled";
  EXPECT_EQ(reg->configs[seed].threads_x, 16);
  EXPECT_EQ(reg->configs[seed].threads_y, 16);
  EXPECT_GE(find_config(*reg, "128x128x8_8x8"), 0);
  EXPECT_GE(find_config(*reg, "64x64x8_8x8"), 0);
  for (const TileConfig& c : reg->configs) {
    EXPECT_EQ(c.bm % c.tm, 0) << c.name;
    EXPECT_EQ(c.bn % c.tn, 0) << c.name;
    EXPECT_EQ(c.threads_x * c.tn, c.bn) << c.name;
    EXPECT_EQ(c.threads_y * c.tm, c.bm) << c.name;
  }

  const VariantDescriptor* cublas = find_variant("cublas");
  ASSERT_NE(cublas, nullptr);
  const int tf32 = find_config(*cublas, "gemm_tf32");
  ASSERT_GE(tf32, 0);
  EXPECT_TRUE(cublas->configs[tf32].opt_in) << "TF32 is a labelled extra, never a default baseline";
  EXPECT_NE(std::string(cublas->configs[tf32].math).find("TF32"), std::string::npos);
  EXPECT_EQ(cublas->configs[find_config(*cublas, "syrk")].output, OutputPart::UpperTriangle);
}

TEST(ConfigValidation, EveryDefaultConfigurationRunsOnAHopperClassDevice) {
  for (const VariantDescriptor* v : variant_registry())
    for (std::size_t i = 0; i < v->configs.size(); ++i)
      for (Precision p : {Precision::F32, Precision::F64}) {
        const std::string why = unsupported_reason(*v, static_cast<int>(i), Problem::Ata, p, hopper_limits());
        const bool float_only = p == Precision::F64 && ((std::string(v->id) == "cublas" && v->configs[i].name == "gemm_tf32") ||
                                                        v->backend == Backend::GlShader);
        EXPECT_EQ(why.empty(), !float_only) << v->id << ":" << v->configs[i].name << " " << why;
        if (float_only) EXPECT_NE(why.find("float"), std::string::npos) << why;
      }
}

// The texture-shader configurations are the engine's modes, in history order; the app finds a
// mode by its name (gl_shader_runner.cpp), so the names are part of the contract.
TEST(ConfigValidation, TextureShaderConfigurationsFollowTheHistory) {
  const VariantDescriptor* v = find_variant("gl_shader");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->backend, Backend::GlShader);
  EXPECT_STREQ(to_string(v->backend), "gl_shader");
  const std::vector<std::string> expected = {"multipass", "rgba_packed", "blocked", "mrt", "mrt8"};
  ASSERT_EQ(v->configs.size(), expected.size());
  const int outputs[] = {1, 4, 1, 16, 32};  // per fragment
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(v->configs[i].name, expected[i]);
    EXPECT_EQ(v->configs[i].bm * v->configs[i].bn, outputs[i]) << expected[i];
    EXPECT_EQ(v->configs[i].output, OutputPart::Full) << "AᵀA is drawn as the full product";
  }
  EXPECT_EQ(v->model, nullptr);
}

TEST(ConfigValidation, ProblemAndPrecisionRulesHaveReasons) {
  const VariantDescriptor& cublas = *find_variant("cublas");
  const std::string syrk_on_gemm =
      unsupported_reason(cublas, find_config(cublas, "syrk"), Problem::Gemm, Precision::F32, hopper_limits());
  EXPECT_NE(syrk_on_gemm.find("ata"), std::string::npos) << syrk_on_gemm;
  const std::string tf32_double =
      unsupported_reason(cublas, find_config(cublas, "gemm_tf32"), Problem::Gemm, Precision::F64, hopper_limits());
  EXPECT_NE(tf32_double.find("float"), std::string::npos) << tf32_double;
  EXPECT_FALSE(unsupported_reason(cublas, 99, Problem::Gemm, Precision::F32, hopper_limits()).empty());
}

TEST(ConfigValidation, DeviceLimitsRefuseWithTheNumbers) {
  const VariantDescriptor& tiled = *find_variant("smem_tiled");
  DeviceLimits small = hopper_limits();
  small.max_threads_per_block = 512;  // an old or restricted device
  const std::string why = unsupported_reason(tiled, find_config(tiled, "32"), Problem::Gemm, Precision::F32, small);
  EXPECT_NE(why.find("1024 threads"), std::string::npos) << why;
  EXPECT_NE(why.find("512"), std::string::npos) << why;
  EXPECT_TRUE(unsupported_reason(tiled, find_config(tiled, "16"), Problem::Gemm, Precision::F32, small).empty());

  // 128 x 128 x 32 slabs in double, double-buffered, rows padded by 16 bytes:
  // 2 * 32 * (130 + 130) * 8 = 133120 bytes; in float 2 * 32 * (132 + 132) * 4 = 67584.
  const VariantDescriptor& reg = *find_variant("regtile_prefetch");
  const int deep = find_config(reg, "128x128x32_8x8");
  ASSERT_GE(deep, 0);
  EXPECT_EQ(reg.shared_bytes(reg.configs[deep], Precision::F64), 133120u);
  EXPECT_EQ(reg.shared_bytes(reg.configs[deep], Precision::F32), 67584u);
  DeviceLimits ampere_consumer = hopper_limits();
  ampere_consumer.shared_per_block_optin = 99 * 1024;  // sm_86 / sm_89
  const std::string smem = unsupported_reason(reg, deep, Problem::Gemm, Precision::F64, ampere_consumer);
  EXPECT_NE(smem.find("133120 bytes of shared memory"), std::string::npos) << smem;
  EXPECT_NE(smem.find(std::to_string(99 * 1024)), std::string::npos) << smem;
  EXPECT_TRUE(unsupported_reason(reg, deep, Problem::Gemm, Precision::F32, ampere_consumer).empty());
}
