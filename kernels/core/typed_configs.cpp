#include "kernels/core/typed_configs.h"

#include <deque>
#include <map>
#include <mutex>
#include <stdexcept>

#include "kernels/core/registry.h"

namespace tilescope {

namespace {

struct TypedStore {
  std::mutex mutex;
  // A deque keeps every element where it is as it grows: config_at hands out references.
  std::map<const VariantDescriptor*, std::deque<TileConfig>> configs;
};

TypedStore& store() {
  static TypedStore s;
  return s;
}

bool parse_int(const std::string& text, int* out) {
  if (text.empty() || text.size() > 9) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  *out = std::stoi(text);
  return true;
}

std::string param_keys(const VariantDescriptor& v) {
  std::string out;
  for (const TileParam& p : v.tile_params) out += (out.empty() ? "" : ", ") + std::string(p.key);
  return out;
}

}  // namespace

bool parse_tile_values(const std::string& text, TileValues* out, std::string* error) {
  out->clear();
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    const std::size_t eq = item.find('=');
    int value = 0;
    if (item.empty()) {
      *error = "empty item in '" + text + "'";
      return false;
    }
    if (eq == std::string::npos || eq == 0) {
      *error = "'" + item + "' is not key=value";
      return false;
    }
    if (!parse_int(item.substr(eq + 1), &value)) {
      *error = "'" + item + "': the value must be a whole number >= 0";
      return false;
    }
    const std::string key = item.substr(0, eq);
    for (const auto& [k, _] : *out)
      if (k == key) {
        *error = "'" + key + "' is given twice";
        return false;
      }
    out->emplace_back(key, value);
    start = end + 1;
  }
  return true;
}

std::string tile_values_text(const TileValues& values) {
  std::string out;
  for (const auto& [key, value] : values) out += (out.empty() ? "" : ",") + key + "=" + std::to_string(value);
  return out;
}

int tile_value(const TileValues& values, const std::string& key, int fallback) {
  for (const auto& [k, v] : values)
    if (k == key) return v;
  return fallback;
}

bool takes_typed_tiles(const VariantDescriptor& v) {
  return !v.tile_params.empty() && v.typed_config != nullptr && v.tile_values_of != nullptr;
}

bool typed_tile_config(const VariantDescriptor& v, const TileValues& values, TileConfig* out, std::string* why) {
  if (!takes_typed_tiles(v)) {
    *why = std::string(v.id) + " takes no typed tiles (it has no kernel template of ours)";
    return false;
  }
  for (const auto& [key, _] : values) {
    bool known = false;
    for (const TileParam& p : v.tile_params) known = known || key == p.key;
    if (!known) {
      *why = std::string(v.id) + " has no parameter '" + key + "'; its kernel text takes " + param_keys(v);
      return false;
    }
  }
  // Every parameter, in the variant's order: typed, else the default configuration's.
  TileValues full;
  const TileValues defaults = v.tile_values_of(v.configs[v.default_config]);
  for (const TileParam& p : v.tile_params)
    full.emplace_back(p.key, tile_value(values, p.key, tile_value(defaults, p.key, 0)));
  if (!v.typed_config(full, out, why)) return false;
  out->typed = full;
  out->name = tile_values_text(full);
  return true;
}

bool spells_typed_tile(const std::string& name) {
  return name.find('=') != std::string::npos;
}

bool typed_tile_named(const VariantDescriptor& v, const std::string& name, TileConfig* out, std::string* why) {
  if (!spells_typed_tile(name)) {
    *why = std::string(v.id) + " has no configuration '" + name + "'";
    return false;
  }
  TileValues values;
  if (!parse_tile_values(name, &values, why)) {
    *why = std::string(v.id) + ": " + *why;
    return false;
  }
  return typed_tile_config(v, values, out, why);
}

int config_named_or_typed(const VariantDescriptor& v, const std::string& name, std::string* why) {
  if (const int index = find_config(v, name); index >= 0) return index;
  TileConfig typed;
  return typed_tile_named(v, name, &typed, why) ? add_typed_config(v, typed) : -1;
}

int add_typed_config(const VariantDescriptor& v, const TileConfig& config) {
  for (std::size_t i = 0; i < v.configs.size(); ++i)
    if (v.configs[i].name == config.name) return static_cast<int>(i);
  TypedStore& s = store();
  // The search and the append under one lock: two threads adding the same tile get one entry.
  std::lock_guard<std::mutex> lock(s.mutex);
  std::deque<TileConfig>& list = s.configs[&v];
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].name == config.name) return static_cast<int>(v.configs.size() + i);
  list.push_back(config);
  return static_cast<int>(v.configs.size() + list.size() - 1);
}

int add_typed_tile(const VariantDescriptor& v, const std::string& values_text, std::string* why) {
  TileConfig config;
  if (!spells_typed_tile(values_text)) {
    *why = std::string(v.id) + ": '" + values_text + "' is not key=value";
    return -1;
  }
  return typed_tile_named(v, values_text, &config, why) ? add_typed_config(v, config) : -1;
}

int config_count(const VariantDescriptor& v) {
  TypedStore& s = store();
  std::lock_guard<std::mutex> lock(s.mutex);
  const auto it = s.configs.find(&v);
  return static_cast<int>(v.configs.size() + (it == s.configs.end() ? 0 : it->second.size()));
}

const TileConfig& config_at(const VariantDescriptor& v, int index) {
  if (index >= 0 && index < static_cast<int>(v.configs.size())) return v.configs[index];
  TypedStore& s = store();
  std::lock_guard<std::mutex> lock(s.mutex);
  const auto it = s.configs.find(&v);
  const std::size_t typed = static_cast<std::size_t>(index) - v.configs.size();
  if (index < 0 || it == s.configs.end() || typed >= it->second.size())
    throw std::out_of_range(std::string(v.id) + " has no configuration #" + std::to_string(index));
  return it->second[typed];
}

bool is_typed_config(const VariantDescriptor& v, int index) {
  return index >= static_cast<int>(v.configs.size()) && index < config_count(v);
}

}  // namespace tilescope
