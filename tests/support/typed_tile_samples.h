// Typed tiles nobody listed, for the suites that prove every configuration (verified on ragged
// sizes, trace == model): for each variant that takes typed tiles, tiles drawn from a fixed seed
// around its default configuration (one parameter scaled by 1/2 ... 2 at a time, then all of them),
// kept when the variant accepts them and the device (when there is one) has room for them; plus the default
// configuration spelled as a typed tile, so the run-time compiled copy of a shipped kernel is
// proved like the original. Added to the registry's configurations (add_typed_config) before the
// tests run.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"

namespace tilescope::testing {

// Up to `count` typed tiles of v (canonical names), the default's own first.
inline std::vector<std::string> typed_tile_samples(const VariantDescriptor& v, int count, std::uint64_t seed,
                                                   const DeviceLimits& limits) {
  std::vector<std::string> out;
  if (!takes_typed_tiles(v)) return out;
  const TileValues defaults = v.tile_values_of(v.configs[v.default_config]);
  std::mt19937_64 rng(seed);
  const double scales[] = {0.5, 0.75, 1.0, 1.25, 1.5, 2.0};
  constexpr std::size_t kScales = sizeof scales / sizeof scales[0];
  auto accept = [&](const TileValues& values) {
    TileConfig cfg;
    std::string why;
    if (!typed_tile_config(v, values, &cfg, &why)) return;
    for (const std::string& name : out)
      if (name == cfg.name) return;
    const int index = add_typed_config(v, cfg);
    // The variant's first input type: the tensor-core kernels take no f32.
    if (!unsupported_reason(v, index, Problem::Gemm, v.precisions.front(), limits).empty()) return;
    out.push_back(cfg.name);
  };
  accept(defaults);
  // One parameter moved at a time first: a variant with strict rules (wgmma's multiples of 64, its
  // cluster dividing the tile) refuses most tiles whose every parameter moved at once.
  for (std::size_t p = 0; p < defaults.size() && static_cast<int>(out.size()) < count; ++p) {
    const double scale = scales[rng() % kScales];
    for (double moved : {scale, 0.5, 2.0, 0.75, 1.25, 1.5}) {
      if (static_cast<int>(out.size()) >= count) break;
      TileValues values = defaults;
      values[p].second = std::max(1, static_cast<int>(defaults[p].second * moved + 0.5));
      accept(values);
    }
  }
  for (int tries = 0; tries < 2000 && static_cast<int>(out.size()) < count; ++tries) {
    TileValues values;
    for (const auto& [key, value] : defaults) {
      const double s = scales[rng() % kScales];
      values.emplace_back(key, std::max(1, static_cast<int>(value * s + 0.5)));
    }
    accept(values);
  }
  return out;
}

// `values` with `key` set to `value` (split_k: K's parts; stream_k: 1, on) and the other of the two
// off, each block alone and persistent, as both need.
inline TileValues cut_in_pieces(TileValues values, const std::string& key, int value) {
  for (auto& [k, v] : values) {
    if (k == "split_k" || k == "stream_k") v = k == key ? value : (k == "split_k" ? 1 : 0);
    if (k == "cluster_m") v = 1;
    if (k == "persistent") v = 1;
  }
  return values;
}

}  // namespace tilescope::testing
