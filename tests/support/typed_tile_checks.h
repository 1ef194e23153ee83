// Checks that the typed-tile suites (tests/cpu/typed_*_test.cpp, kernel_text_test.cpp) share: the
// variants that take typed tiles, picked by what their descriptors say; a tile that a variant must
// refuse (its reason) or accept (its configuration, or its index once added); the parameters a
// variant takes and the fields of a compiled row that their values read. Each check fails the test
// that called it, naming the tile.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "tests/support/variant_picks.h"

namespace tilescope::testing {

// The warp-level tensor-core kernel that takes typed tiles and needs cp.async (sm_80).
inline const VariantDescriptor& typed_mma_sync_kernel() {
  return variant_where(
      [](const VariantDescriptor& v) {
        return v.model_caps.warp_level && takes_typed_tiles(v) && v.min_compute_capability >= 80;
      },
      "a warp-level tensor-core kernel with cp.async that takes typed tiles");
}
// The warp-level tensor-core kernel that runs before cp.async (f16 from sm_70) and takes typed tiles.
inline const VariantDescriptor& typed_wmma_kernel() {
  return variant_where(
      [](const VariantDescriptor& v) {
        return v.model_caps.warp_level && takes_typed_tiles(v) && v.min_compute_capability < 80;
      },
      "a warp-level tensor-core kernel from sm_70 that takes typed tiles");
}
// The warpgroup kernel: it takes typed tiles and its compiled set launches clusters of blocks.
inline const VariantDescriptor& typed_cluster_kernel() {
  return variant_where(
      [](const VariantDescriptor& v) {
        return takes_typed_tiles(v) &&
               std::any_of(v.configs.begin(), v.configs.end(), [](const TileConfig& c) { return c.cluster_m > 1; });
      },
      "a variant that takes typed tiles and launches clusters");
}
// The kernel whose K loop is one phase, when it takes typed block shapes.
inline const VariantDescriptor& typed_one_phase_kernel() {
  return variant_where(
      [](const VariantDescriptor& v) {
        return is_product_kernel(v) && v.model && !v.model_caps.staged_phases && takes_typed_tiles(v);
      },
      "a kernel whose K loop is one phase that takes typed tiles");
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The values a tile's text spells, which must parse.
inline TileValues parsed(const std::string& text) {
  TileValues values;
  std::string error;
  EXPECT_TRUE(parse_tile_values(text, &values, &error)) << text << ": " << error;
  return values;
}

// Why v refuses a typed tile, which it must refuse before anything compiles.
inline std::string refusal(const VariantDescriptor& v, const std::string& text) {
  TileConfig config;
  std::string why;
  EXPECT_FALSE(typed_tile_config(v, parsed(text), &config, &why)) << "'" << text << "' was accepted";
  return why;
}

// The configuration of typed values that v must accept; nothing is added to its configurations.
inline TileConfig accepted(const VariantDescriptor& v, const TileValues& values) {
  TileConfig config;
  std::string why;
  EXPECT_TRUE(typed_tile_config(v, values, &config, &why)) << tile_values_text(values) << ": " << why;
  return config;
}
inline TileConfig accepted(const VariantDescriptor& v, const std::string& text) {
  return accepted(v, parsed(text));
}

// The index of a typed tile that v must accept, added to its configurations (add_typed_tile).
inline int added(const VariantDescriptor& v, const std::string& text) {
  std::string why;
  const int index = add_typed_tile(v, text, &why);
  EXPECT_GE(index, 0) << text << ": " << why;
  return index;
}

// The index of a typed tile, written canonically, that v must accept: added after the compiled set
// and named by its text; -1 where it was refused (the test has failed).
inline int added_canonical(const VariantDescriptor& v, const std::string& text) {
  const int index = added(v, text);
  if (index < 0) return -1;
  EXPECT_GE(index, static_cast<int>(v.configs.size())) << text;
  EXPECT_EQ(config_at(v, index).name, text);
  return index;
}

// v refuses a typed tile before anything compiles, in words that contain `words`.
inline void expect_refusal(const VariantDescriptor& v, const std::string& text, const std::string& words) {
  const std::string why = refusal(v, text);
  EXPECT_TRUE(contains(why, words)) << text << ": " << why;
}

// What v says of a typed tile in one case: "" where it runs it, else words its refusal contains.
struct CaseVerdict {
  Problem problem;
  Precision precision;
  const char* words;
};
// A typed tile v accepts, added, whose cases each get their verdict: rules of one input type or
// problem refuse that case, not the tile.
inline void expect_verdicts(const VariantDescriptor& v, const std::string& text,
                            const std::vector<CaseVerdict>& verdicts) {
  const int index = added(v, text);
  if (index < 0) return;
  for (const CaseVerdict& c : verdicts) {
    const std::string why = variant_refusal(v, index, c.problem, c.precision);
    const std::string what = text + " " + to_string(c.precision) + " " + to_string(c.problem);
    if (std::string(c.words).empty()) {
      EXPECT_EQ(why, "") << what;
    } else {
      EXPECT_TRUE(contains(why, c.words)) << what << ": " << why;
    }
  }
}

// The keys of v's tile parameters, in their order.
inline std::vector<std::string> param_keys(const VariantDescriptor& v) {
  std::vector<std::string> keys;
  for (const TileParam& p : v.tile_params) keys.push_back(p.key);
  return keys;
}

// For every row of v's compiled set, the value of each key is the row's field named beside it.
using TileField = int TileConfig::*;
inline void expect_values_read(const VariantDescriptor& v,
                               const std::vector<std::pair<const char*, TileField>>& fields) {
  for (const TileConfig& c : v.configs) {
    const TileValues values = v.tile_values_of(c);
    for (const auto& [key, field] : fields) EXPECT_EQ(tile_value(values, key, -1), c.*field) << c.name << " " << key;
  }
}

}  // namespace tilescope::testing
