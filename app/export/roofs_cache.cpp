#include "app/export/roofs_cache.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "app/export/atomic_file.h"
#include "app/export/user_dirs.h"

namespace tilescope {

namespace {

using Json = nlohmann::ordered_json;

std::string file_safe(const std::string& s) {
  std::string out;
  for (char c : s) {
    const bool keep =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
    out += keep ? c : '_';
  }
  return out.empty() ? "unknown" : out;
}

std::string cache_prefix(const std::string& device_name) {
  return "roofs-" + file_safe(device_name) + "-driver-";
}

}  // namespace

std::string roofs_to_json(const RoofTable& t) {
  Json j;
  j["tilescope_roofs"] = kRoofsFormat;
  j["device"] = t.device_name;
  j["driver_version"] = t.driver_version;
  j["measured_at"] = t.measured_at;
  Json roofs = Json::array();
  for (const Roof& r : t.roofs) {
    Json o;
    o["id"] = r.id;
    o["name"] = r.name;
    o["kind"] = to_string(r.kind);
    o["precision"] = r.precision.empty() ? Json(nullptr) : Json(r.precision);
    o["measured"] = r.measured;
    o["datasheet"] = r.datasheet > 0 ? Json(r.datasheet) : Json(nullptr);
    o["unit"] = r.unit;
    o["method"] = r.method;
    o["clock_mhz"] = r.clock_mhz > 0 ? Json(r.clock_mhz) : Json(nullptr);
    roofs.push_back(o);
  }
  j["roofs"] = roofs;
  return j.dump(2) + "\n";
}

bool roofs_from_json(const std::string& text, RoofTable* table, std::string* error) {
  const Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    *error = "not a JSON object";
    return false;
  }
  // Files written before the roofs had one name carry the same format under its older key.
  const char* format_key = j.contains("tilescope_roofs") ? "tilescope_roofs" : "tilescope_ceilings";
  if (!j.contains(format_key) || !j[format_key].is_number_integer() || j[format_key].get<int>() != kRoofsFormat) {
    *error = "not a tilescope roofs file (\"tilescope_roofs\": " + std::to_string(kRoofsFormat) + " missing)";
    return false;
  }
  auto text_of = [](const Json& o, const char* key) {
    return o.contains(key) && o[key].is_string() ? o[key].get<std::string>() : std::string();
  };
  RoofTable t;
  t.device_name = text_of(j, "device");
  t.driver_version = text_of(j, "driver_version");
  t.measured_at = text_of(j, "measured_at");
  if (!j.contains("roofs") || !j["roofs"].is_array()) {
    *error = "\"roofs\" must be a list";
    return false;
  }
  for (const Json& o : j["roofs"]) {
    Roof r;
    r.id = o.is_object() ? text_of(o, "id") : "";
    if (r.id.empty()) {
      *error = "a roof without an \"id\"";
      return false;
    }
    r.name = text_of(o, "name");
    if (r.name.empty()) r.name = r.id;
    if (!parse_roof_kind(text_of(o, "kind"), &r.kind)) {
      *error = "roof '" + r.id + "': \"kind\" must be compute or bandwidth";
      return false;
    }
    r.precision = text_of(o, "precision");
    if (!o.contains("measured") || !o["measured"].is_number() || !(o["measured"].get<double>() >= 0)) {
      *error = "roof '" + r.id + "': \"measured\" must be a number >= 0";
      return false;
    }
    r.measured = o["measured"].get<double>();
    if (o.contains("datasheet") && o["datasheet"].is_number())
      r.datasheet = std::max(0.0, o["datasheet"].get<double>());
    r.unit = text_of(o, "unit");
    r.method = text_of(o, "method");
    if (o.contains("clock_mhz") && o["clock_mhz"].is_number())
      r.clock_mhz = std::max(0.0, o["clock_mhz"].get<double>());
    t.roofs.push_back(r);
  }
  *table = t;
  return true;
}

bool load_roofs_file(const std::string& path, RoofTable* table, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::string why;
  if (!roofs_from_json(text.str(), table, &why)) {
    *error = path + ": " + why;
    return false;
  }
  return true;
}

bool save_roofs_file(const std::string& path, const RoofTable& table, std::string* error) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  if (ec) {
    *error = "cannot create " + parent.string() + ": " + ec.message();
    return false;
  }
  return write_file_atomically(path, roofs_to_json(table), error);
}

std::string roofs_cache_dir() {
  return xdg_user_dir("XDG_CACHE_HOME", ".cache");
}

std::string roofs_cache_path(const std::string& dir, const std::string& device_name,
                             const std::string& driver_version) {
  return dir + "/" + cache_prefix(device_name) + file_safe(driver_version) + ".json";
}

bool find_cached_roofs(const std::string& dir, const std::string& device_name, const std::string& driver_version,
                       RoofTable* table, bool* exact) {
  if (dir.empty() || device_name.empty()) return false;
  std::string error;
  RoofTable t;
  if (load_roofs_file(roofs_cache_path(dir, device_name, driver_version), &t, &error) && t.device_name == device_name) {
    *table = t;
    *exact = true;
    return true;
  }
  // The same device under another driver: the newest measurement (timestamps sort as text).
  std::error_code ec;
  bool found = false;
  const std::string prefix = cache_prefix(device_name);
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || entry.path().extension() != ".json") continue;
    RoofTable other;
    if (!load_roofs_file(entry.path().string(), &other, &error) || other.device_name != device_name) continue;
    if (!found || other.measured_at > table->measured_at) *table = other;
    found = true;
  }
  *exact = false;
  return found;
}

bool cache_roofs(const std::string& dir, const RoofTable& table, std::string* path, std::string* error) {
  if (dir.empty()) {
    *error = "no cache folder: neither XDG_CACHE_HOME nor HOME is set";
    return false;
  }
  *path = roofs_cache_path(dir, table.device_name, table.driver_version);
  return save_roofs_file(*path, table, error);
}

}  // namespace tilescope
