// The registry is the only list of variants; these tests keep it consistent and check that
// impossible configurations are refused with a reason before anything is launched.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "kernels/core/registry.h"
#include "kernels/core/shader_modes.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
using namespace tilescope::testing;

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
  ASSERT_FALSE(reg.empty());
  // Teaching order: the baseline first, then the staircase, then history, then extras.
  for (std::size_t i = 1; i < reg.size(); ++i)
    EXPECT_LE(static_cast<int>(reg[i - 1]->role), static_cast<int>(reg[i]->role))
        << reg[i - 1]->id << " before " << reg[i]->id << " breaks the teaching order";
  EXPECT_EQ(baseline_variant(), reg.front());
  std::set<std::string> ids;
  for (const VariantDescriptor* v : reg) {
    EXPECT_TRUE(ids.insert(v->id).second) << v->id;
    EXPECT_FALSE(v->configs.empty()) << v->id;
    EXPECT_TRUE(config_index_error(*v, v->default_config).empty()) << v->id << ": default configuration";
    EXPECT_FALSE(config_index_error(*v, config_count(*v)).empty()) << v->id;
    EXPECT_GT(std::string(v->summary).size(), 40u) << v->id << " needs a tooltip a student understands";
    EXPECT_STRNE(v->label, "") << v->id;
    EXPECT_FALSE(v->problems.empty()) << v->id;
    EXPECT_FALSE(v->precisions.empty()) << v->id;
    if (v->precisions.size() < 2) {
      EXPECT_STRNE(v->precision_note, "") << v->id << " says why precisions are missing";
    }
    if (v->min_compute_capability > 0) {
      EXPECT_STRNE(v->architecture_note, "") << v->id;
    }
    if (v->model == nullptr) {
      EXPECT_STRNE(v->no_model_reason, "") << v->id << " says why it has no mapping model";
    }
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
      // Its name (_mb, _c2) explains nothing to a learner: a line says what it is or changes.
      EXPECT_GT(c.description.size(), 10u) << v->id << ":" << c.name << " has no description";
    }
    EXPECT_EQ(find_variant(v->id), v);
  }
  EXPECT_EQ(find_variant("nope"), nullptr);
  // A default is chosen by name: a name no configuration has stops the program at start.
  EXPECT_THROW(config_named(reg.front()->configs, "nope"), std::logic_error);
  // The lesson focuses the last kernel of ours with a model.
  const VariantDescriptor* focus = focus_variant();
  ASSERT_NE(focus, nullptr);
  EXPECT_EQ(focus->role, Role::Kernel);
  EXPECT_NE(focus->model, nullptr);
}

// Configurations the data file says must (or must not) be compiled, and the shape rules of
// every register-tiled configuration.
TEST(Registry, CompiledTileSets) {
  int named = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    const nlohmann::json& f = facts_of(*v);
    for (const std::string& name : f.value("required_configs", std::vector<std::string>{})) {
      EXPECT_GE(find_config(*v, name), 0) << v->id << " must compile " << name;
      ++named;
    }
    for (const std::string& name : f.value("absent_configs", std::vector<std::string>{}))
      EXPECT_EQ(find_config(*v, name), -1) << v->id << " must not compile " << name;
    if (f.contains("seed_config")) {
      const nlohmann::json& seed = f.at("seed_config");
      const int i = find_config(*v, seed.at("name").get<std::string>());
      ASSERT_GE(i, 0) << "the seed configuration must be compiled";
      EXPECT_EQ(v->configs[i].threads_x, seed.at("threads_x").get<int>());
      EXPECT_EQ(v->configs[i].threads_y, seed.at("threads_y").get<int>());
    }
    for (const TileConfig& c : v->configs) {
      if (c.tm * c.tn <= 1 || c.threads() == 0) continue;  // register tiles of CUDA threads only
      EXPECT_EQ(c.bm % c.tm, 0) << v->id << ":" << c.name;
      EXPECT_EQ(c.bn % c.tn, 0) << v->id << ":" << c.name;
      EXPECT_EQ(c.threads_x * c.tn, c.bn) << v->id << ":" << c.name;
      EXPECT_EQ(c.threads_y * c.tm, c.bm) << v->id << ":" << c.name;
    }
  }
  EXPECT_GT(named, 0) << "tests/data/variant_facts.json names no configuration";

  const VariantDescriptor& base = baseline();
  const int tf32 = tf32_config(base);
  EXPECT_TRUE(base.configs[tf32].opt_in) << "TF32 is a labelled extra, never a default baseline";
  EXPECT_FALSE(is_baseline(base, tf32));
  EXPECT_NE(std::string(base.configs[tf32].math).find("TF32"), std::string::npos);
  EXPECT_TRUE(is_baseline(base, base.default_config));
  EXPECT_EQ(base.configs[upper_triangle_config(base)].output, OutputPart::UpperTriangle);
}

// Every configuration runs on a Hopper-class device in each problem and input type its variant
// allows it (the device adds no refusal of its own), and in one of them at least.
TEST(ConfigValidation, EveryConfigurationRunsOnAHopperClassDevice) {
  for (const VariantDescriptor* v : variant_registry())
    for (std::size_t i = 0; i < v->configs.size(); ++i) {
      const int ci = static_cast<int>(i);
      int runs = 0;
      for (Problem problem : {Problem::Gemm, Problem::Ata})
        for (Precision p : all_precisions()) {
          const std::string why = unsupported_reason(*v, ci, problem, p, hopper_limits());
          EXPECT_EQ(why, variant_refusal(*v, ci, problem, p)) << v->id << ":" << v->configs[i].name;
          runs += why.empty();
          const bool float_only = p == Precision::F64 && (v->configs[i].tf32 || !supports(*v, Precision::F64));
          if (float_only && supports(*v, problem)) {
            EXPECT_NE(why.find("float"), std::string::npos) << why;
          }
        }
      EXPECT_GT(runs, 0) << v->id << ":" << v->configs[i].name << " runs in no problem and input type";
    }
}

// The texture-shader configurations are the engine's modes, in history order: each names its
// engine mode (TileConfig::engine_mode), all of them once, in the order of the data file.
TEST(ConfigValidation, TextureShaderConfigurationsFollowTheHistory) {
  const VariantDescriptor& v = shader_variant_desc();
  EXPECT_EQ(v.role, Role::History);
  const nlohmann::json& f = facts_of(v);
  const auto expected = f.at("history_order").get<std::vector<std::string>>();
  const auto outputs = f.at("outputs_per_fragment").get<std::vector<int>>();
  ASSERT_EQ(v.configs.size(), expected.size());
  ASSERT_EQ(outputs.size(), expected.size());
  ASSERT_EQ(static_cast<int>(v.configs.size()), kShaderModeCount);
  std::set<int> modes;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(v.configs[i].name, expected[i]);
    EXPECT_EQ(v.configs[i].bm * v.configs[i].bn, outputs[i]) << expected[i];
    EXPECT_EQ(v.configs[i].output, OutputPart::Full) << "AᵀA is drawn as the full product";
    EXPECT_EQ(v.configs[i].engine_mode, static_cast<int>(i)) << expected[i] << ": modes in history order";
    modes.insert(v.configs[i].engine_mode);
  }
  EXPECT_EQ(modes.size(), v.configs.size());
  EXPECT_EQ(v.model, nullptr);
}

TEST(ConfigValidation, ProblemAndPrecisionRulesHaveReasons) {
  const VariantDescriptor& base = baseline();
  const std::string syrk_on_gemm =
      unsupported_reason(base, upper_triangle_config(base), Problem::Gemm, Precision::F32, hopper_limits());
  EXPECT_NE(syrk_on_gemm.find(to_string(Problem::Ata)), std::string::npos) << syrk_on_gemm;
  const std::string tf32_double =
      unsupported_reason(base, tf32_config(base), Problem::Gemm, Precision::F64, hopper_limits());
  EXPECT_NE(tf32_double.find("float"), std::string::npos) << tf32_double;
  EXPECT_FALSE(unsupported_reason(base, 99, Problem::Gemm, Precision::F32, hopper_limits()).empty());
}

TEST(ConfigValidation, InputTypesAVariantLacksAreRefusedWithWhereToGo) {
  for (const VariantDescriptor* v : variant_registry())
    for (Precision p : all_precisions()) {
      // Some configuration computes each type the variant lists (tensor-core tiles differ by type).
      bool some = false;
      for (std::size_t i = 0; i < v->configs.size(); ++i)
        some = some || variant_refusal(*v, static_cast<int>(i), Problem::Gemm, p).empty();
      const std::string why = variant_refusal(*v, v->default_config, Problem::Gemm, p);
      SCOPED_TRACE(std::string(v->id) + " " + to_string(p) + ": " + why);
      EXPECT_EQ(some, supports(*v, p));
      if (!supports(*v, p)) {
        EXPECT_NE(why.find(std::string("not ") + to_string(p)), std::string::npos) << "names the type asked for";
      }
    }
  // The baseline computes every input type, on any GPU it runs on.
  const VariantDescriptor& base = baseline();
  // syrk exists in float and double only; the gemm configuration runs the others on AᵀA.
  const std::string syrk_bf16 =
      unsupported_reason(base, upper_triangle_config(base), Problem::Ata, Precision::BF16, hopper_limits());
  EXPECT_NE(syrk_bf16.find("float and double"), std::string::npos) << syrk_bf16;
  EXPECT_EQ(unsupported_reason(base, base.default_config, Problem::Ata, Precision::BF16, hopper_limits()), "");
  DeviceLimits turing = hopper_limits();
  turing.compute_capability = 75;
  for (Precision p : all_precisions())
    EXPECT_EQ(unsupported_reason(base, base.default_config, Problem::Gemm, p, turing), "") << to_string(p);
}

TEST(ConfigValidation, TensorCoreInputTypesNeedTheirArchitecture) {
  // A variant whose tf32, f16 and bf16 run on tensor cores only (as the tensor-core kernels will).
  VariantDescriptor v = baseline();
  v.precisions = all_precisions();
  v.precisions_need_tensor_cores = true;
  DeviceLimits limits = hopper_limits();
  limits.compute_capability = 75;  // Turing: FP16 tensor cores, no TF32 or BF16
  EXPECT_EQ(unsupported_reason(v, v.default_config, Problem::Gemm, Precision::F16, limits), "");
  EXPECT_EQ(unsupported_reason(v, v.default_config, Problem::Gemm, Precision::F32, limits), "");
  for (Precision p : {Precision::BF16, Precision::TF32}) {
    const std::string why = unsupported_reason(v, v.default_config, Problem::Gemm, p, limits);
    EXPECT_NE(why.find("8.0"), std::string::npos) << why;
    EXPECT_NE(why.find("7.5"), std::string::npos) << why;
    EXPECT_NE(why.find(to_string(p)), std::string::npos) << why;
  }
  limits.compute_capability = 80;
  EXPECT_EQ(unsupported_reason(v, v.default_config, Problem::Gemm, Precision::BF16, limits), "");
  limits.compute_capability = 0;  // unknown: not checked
  EXPECT_EQ(unsupported_reason(v, v.default_config, Problem::Gemm, Precision::BF16, limits), "");
}

TEST(ConfigValidation, DeviceLimitsRefuseWithTheNumbers) {
  const VariantDescriptor& tiled = tiled_kernel();
  DeviceLimits small = hopper_limits();
  small.max_threads_per_block = 512;  // an old or restricted device
  const int big = config_where(
      tiled, [](const TileConfig& c) { return c.threads() == 1024; }, "1024 threads");
  const int fits = config_where(
      tiled, [](const TileConfig& c) { return c.threads() <= 512; }, "<= 512 threads");
  const std::string why = unsupported_reason(tiled, big, Problem::Gemm, Precision::F32, small);
  EXPECT_NE(why.find("1024 threads"), std::string::npos) << why;
  EXPECT_NE(why.find("512"), std::string::npos) << why;
  EXPECT_TRUE(unsupported_reason(tiled, fits, Problem::Gemm, Precision::F32, small).empty());

  // The data file states the shared memory of a deep configuration; e.g. 128 x 128 x 32 slabs in
  // double, double-buffered, rows padded by 16 bytes: 2 * 32 * (130 + 130) * 8 = 133120 bytes;
  // in float 2 * 32 * (132 + 132) * 4 = 67584.
  int checked = 0;
  for (const VariantDescriptor* v : variant_registry())
    for (const nlohmann::json& e : facts_of(*v).value("shared_bytes", nlohmann::json::array())) {
      const int deep = fact_config(*v, e.at("config").get<std::string>());
      const std::size_t f64 = e.at("f64").get<std::size_t>(), f32 = e.at("f32").get<std::size_t>();
      ASSERT_NE(v->shared_bytes, nullptr) << v->id;
      EXPECT_EQ(v->shared_bytes(v->configs[deep], Precision::F64), f64);
      EXPECT_EQ(v->shared_bytes(v->configs[deep], Precision::F32), f32);
      DeviceLimits ampere_consumer = hopper_limits();
      ampere_consumer.shared_per_block_optin = 99 * 1024;  // sm_86 / sm_89
      ASSERT_GT(f64, ampere_consumer.shared_per_block_optin);
      ASSERT_LE(f32, ampere_consumer.shared_per_block_optin);
      const std::string smem = unsupported_reason(*v, deep, Problem::Gemm, Precision::F64, ampere_consumer);
      EXPECT_NE(smem.find(std::to_string(f64) + " bytes of shared memory"), std::string::npos) << smem;
      EXPECT_NE(smem.find(std::to_string(99 * 1024)), std::string::npos) << smem;
      EXPECT_TRUE(unsupported_reason(*v, deep, Problem::Gemm, Precision::F32, ampere_consumer).empty());
      ++checked;
    }
  EXPECT_GT(checked, 0) << "tests/data/variant_facts.json states no shared-memory size";
}
