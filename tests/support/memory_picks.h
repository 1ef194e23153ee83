// The configurations whose memory accesses the tests of the Memory view check, picked by what
// the descriptors and tests/data/variant_facts.json say (never by name): the one-phase kernel's
// 32 x 8 block along the rows of C and its twin down the columns, and the prefetching kernel's
// 32-deep slab with and without the padding of its shared rows. And the access site of a model by
// what it moves, so that a renamed site changes no test.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/core/typed_configs.h"
#include "kernels/models/mapping_model.h"
#include "tests/support/variant_picks.h"

namespace tilescope::testing {

// The one-phase kernel's configuration of 32 x 8 threads, down the columns of C or along its rows.
inline int warp_row_config(const VariantDescriptor& v, bool down_columns) {
  const nlohmann::json& facts = facts_of(v);
  auto down = [&](const TileConfig& c) {
    return facts.contains("thread_to_c_of_configs") && facts["thread_to_c_of_configs"].contains(c.name) &&
           facts["thread_to_c_of_configs"][c.name] == "x_down_column";
  };
  return config_where(
      v, [&](const TileConfig& c) { return c.threads_x == 32 && c.threads_y == 8 && down(c) == down_columns; },
      down_columns ? "32 x 8 threads down the columns" : "32 x 8 threads along the rows");
}

// The prefetching kernel's shipped configuration with a slab 32 deep, padded or not.
inline int slab32_config(const VariantDescriptor& v, bool padded) {
  return config_where(
      v,
      [&](const TileConfig& c) {
        const TileValues t = v.tile_values_of(c);
        return tile_value(t, "bk", 0) == 32 && tile_value(t, "pad", 1) == (padded ? 1 : 0);
      },
      padded ? "a 32-deep slab with padded rows" : "a 32-deep slab without padding");
}

// The index of the model's site that moves `matrix` through `space` as a `kind`.
inline int site_of(const MappingModel& m, char matrix, MemorySpace space, AccessKind kind) {
  const std::vector<AccessSite> sites = m.access_sites();
  for (std::size_t i = 0; i < sites.size(); ++i)
    if (sites[i].matrix == matrix && sites[i].space == space && sites[i].kind == kind) return static_cast<int>(i);
  throw std::runtime_error(std::string("the model lists no ") + to_string(space) + " " + to_string(kind) + " of " +
                           matrix);
}

}  // namespace tilescope::testing
