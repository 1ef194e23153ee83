#include "app/ui/shell/typed_tile_names.h"

#include "kernels/core/typed_configs.h"

namespace tilescope {

std::string config_short_name(const VariantDescriptor& v, int index) {
  const TileConfig& cfg = config_at(v, index);
  if (!is_typed_config(v, index)) return cfg.name;
  const TileValues defaults = v.tile_values_of(config_at(v, v.default_config));
  TileValues differing;
  for (const auto& [key, value] : cfg.typed)
    if (tile_value(defaults, key, value + 1) != value) differing.emplace_back(key, value);
  // The default's own values typed: the first parameter alone says it is a typed tile.
  if (differing.empty() && !cfg.typed.empty()) differing.push_back(cfg.typed.front());
  return tile_values_text(differing);
}

}  // namespace tilescope
