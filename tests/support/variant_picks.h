// Tests pick variants and configurations by what their descriptors say (role, backend, model
// capabilities, configuration fields), never by id or name: a renamed or added variant changes no
// test. Facts that no descriptor states (a seed configuration that must exist, expected counts of
// a particular kernel) live in tests/data/variant_facts.json, built into the test programs
// (tests/CMakeLists.txt) and parsed by variant_facts().
// A pick that finds nothing throws, so the test that needed it fails with the reason.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/core/shader_modes.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "variant_facts_text.h"

namespace tilescope::testing {

// All registered variants for which pred holds, in registry order.
template <typename Pred>
std::vector<const VariantDescriptor*> variants_where(Pred pred) {
  std::vector<const VariantDescriptor*> out;
  for (const VariantDescriptor* v : variant_registry())
    if (pred(*v)) out.push_back(v);
  return out;
}

// The first registered variant for which pred holds; throws (the test fails) when none does.
template <typename Pred>
const VariantDescriptor& variant_where(Pred pred, const char* what) {
  for (const VariantDescriptor* v : variant_registry())
    if (pred(*v)) return *v;
  throw std::runtime_error(std::string("the registry has no variant that is ") + what);
}

// The index of the first configuration of v for which pred holds; throws when none does.
template <typename Pred>
int config_where(const VariantDescriptor& v, Pred pred, const char* what) {
  for (std::size_t i = 0; i < v.configs.size(); ++i)
    if (pred(v.configs[i])) return static_cast<int>(i);
  throw std::runtime_error(std::string(v.id) + " has no configuration that is " + what);
}

// The variant whose typed tiles take the value `key` ("swizzle", "tma_store"): a kernel picked by
// what a learner can change in it.
// Whether v's typed tiles take the value `key`.
inline bool has_tile_param(const VariantDescriptor& v, const char* key) {
  for (const TileParam& p : v.tile_params)
    if (std::string(p.key) == key) return true;
  return false;
}

inline const VariantDescriptor& variant_with_tile_param(const char* key) {
  return variant_where([key](const VariantDescriptor& d) { return has_tile_param(d, key); },
                       (std::string("a kernel with a '") + key + "' tile value").c_str());
}

inline bool is_product_kernel(const VariantDescriptor& v) {
  return v.role == Role::Kernel && v.backend == Backend::Cuda;
}

// The library baseline.
inline const VariantDescriptor& baseline() {
  return variant_where([](const VariantDescriptor& v) { return v.role == Role::Baseline; }, "the baseline");
}
// The first kernel of the staircase: one phase, straight from global memory.
inline const VariantDescriptor& one_phase_kernel() {
  return variant_where(
      [](const VariantDescriptor& v) { return is_product_kernel(v) && v.model && !v.model_caps.staged_phases; },
      "a kernel of ours whose K loop is one phase");
}
// A kernel that stages tiles in shared memory, without prefetch.
inline const VariantDescriptor& tiled_kernel() {
  return variant_where(
      [](const VariantDescriptor& v) {
        return is_product_kernel(v) && v.model && v.model_caps.staged_phases && !v.model_caps.prefetch;
      },
      "a shared-memory tiled kernel without prefetch");
}
// A kernel that prefetches the next phase and mirrors AᵀA.
inline const VariantDescriptor& prefetch_kernel() {
  return variant_where([](const VariantDescriptor& v) { return is_product_kernel(v) && v.model_caps.prefetch; },
                       "a kernel with prefetch");
}
// The kernel with prefetch when it takes typed tiles (kernels/core/typed_configs.h): several
// parameters, with rules of their own (thread tiles dividing the block tile, pieces dividing the slab).
inline const VariantDescriptor& typed_prefetch_kernel() {
  return variant_where(
      [](const VariantDescriptor& v) { return is_product_kernel(v) && v.model_caps.prefetch && takes_typed_tiles(v); },
      "a kernel with prefetch that takes typed tiles");
}
// The texture-shader history.
inline const VariantDescriptor& shader_variant_desc() {
  return variant_where([](const VariantDescriptor& v) { return v.backend == Backend::GlShader; },
                       "drawn by OpenGL shaders");
}
// The configuration of the texture-shader variant that the engine draws in `mode`
// (TileConfig::engine_mode); throws when no configuration names that mode.
inline int shader_config_of(ShaderMode mode) {
  return config_where(
      shader_variant_desc(), [mode](const TileConfig& c) { return c.engine_mode == static_cast<int>(mode); },
      "drawn in the requested engine mode");
}
inline const std::string& shader_config_name(ShaderMode mode) {
  return shader_variant_desc().configs[shader_config_of(mode)].name;
}
// An example variant (tests/example_variant/): an Extra kernel of ours.
inline const VariantDescriptor& example_variant() {
  return variant_where([](const VariantDescriptor& v) { return v.role == Role::Extra && v.backend == Backend::Cuda; },
                       "an Extra CUDA variant (the example)");
}

// Configurations of the baseline by what they compute.
inline int upper_triangle_config(const VariantDescriptor& v) {
  return config_where(
      v, [](const TileConfig& c) { return c.output == OutputPart::UpperTriangle; }, "upper-triangle");
}
inline int tf32_config(const VariantDescriptor& v) {
  return config_where(
      v, [](const TileConfig& c) { return c.tf32; }, "TF32");
}
inline int full_fp_config(const VariantDescriptor& v) {
  return config_where(
      v, [](const TileConfig& c) { return !c.tf32 && !c.opt_in && c.output == OutputPart::Full && !c.c_in_input_type; },
      "a full product in plain floating point, C in the accumulator's type");
}
// The baseline's configuration that stores C in the 16-bit input type.
inline int narrow_output_config(const VariantDescriptor& v) {
  return config_where(
      v, [](const TileConfig& c) { return c.c_in_input_type; }, "C stored in the input type");
}

// tests/data/variant_facts.json, parsed once.
inline const nlohmann::json& variant_facts() {
  static const nlohmann::json facts = nlohmann::json::parse(kVariantFactsText);
  return facts;
}
// The facts about one variant; throws when the data file has none (add them there).
inline const nlohmann::json& facts_of(const VariantDescriptor& v) {
  const nlohmann::json& all = variant_facts().at("variants");
  if (!all.contains(v.id))
    throw std::runtime_error(std::string("tests/data/variant_facts.json has no entry for ") + v.id);
  return all.at(v.id);
}
// A configuration named in the facts, which must exist.
inline int fact_config(const VariantDescriptor& v, const std::string& name) {
  const int i = find_config(v, name);
  if (i < 0) throw std::runtime_error(std::string(v.id) + " lacks the configuration " + name + " named in the facts");
  return i;
}

}  // namespace tilescope::testing
