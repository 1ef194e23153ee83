#include "app/ui/shell/settings.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "app/export/atomic_file.h"
#include "app/export/plot_image.h"
#include "app/export/printable_text.h"
#include "app/export/user_dirs.h"
#include "app/ui/shell/recent_files.h"
#include "app/ui/shell/typed_tile_names.h"
#include "kernels/core/enum_names.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"

namespace tilescope {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// The words of the file and of scripts, for writing and reading alike.
const EnumName<Theme> kThemeNames[] = {
    {Theme::Dark, "dark"}, {Theme::Light, "light"}, {Theme::HighContrast, "high_contrast"}};
const EnumName<YAxisQuantity> kYQuantityNames[] = {{YAxisQuantity::Gflops, "gflops"},
                                                   {YAxisQuantity::Milliseconds, "ms"}};

}  // namespace

bool parse_int(const std::string& v, int lo, int hi, int* out) {
  char* end = nullptr;
  errno = 0;
  const long x = std::strtol(v.c_str(), &end, 10);
  if (errno || end == v.c_str() || *end != '\0' || x < lo || x > hi) return false;
  *out = static_cast<int>(x);
  return true;
}

bool parse_bool(const std::string& v, bool* out) {
  if (v == "1" || v == "true" || v == "on") {
    *out = true;
    return true;
  }
  if (v == "0" || v == "false" || v == "off") {
    *out = false;
    return true;
  }
  return false;
}

bool parse_y_quantity(const std::string& value, YAxisQuantity* out) {
  return enum_from_name(value, kYQuantityNames, out);
}

bool parse_theme(const std::string& value, Theme* out) {
  return enum_from_name(value, kThemeNames, out);
}

std::string config_dir() {
  return xdg_user_dir("XDG_CONFIG_HOME", ".config");
}

std::string settings_to_text(const AppState& s) {
  std::ostringstream o;
  o << "# tilescope settings (written by the program; edit while it is closed)\n";
  o << "problem = " << to_string(s.problem) << "\n";
  o << "precision = " << to_string(s.precision) << "\n";
  o << "square = " << (s.square ? "on" : "off") << "\n";
  o << "m = " << s.m << "\nn = " << s.n << "\nk = " << s.k << "\n";
  o << "repetitions = " << s.repetitions << "\n";
  o << "verify = " << (s.verify ? "on" : "off") << "\n";
  o << "sweep_from = " << s.sweep_from << "\nsweep_to = " << s.sweep_to << "\n";
  o << "y_quantity = " << enum_name(s.y_quantity, kYQuantityNames, "ms") << "\n";
  o << "y_log = " << (s.y_log ? "on" : "off") << "\n";
  o << "only_current_problem = " << (s.only_current_problem ? "on" : "off") << "\n";
  o << "presenter = " << (s.presenter ? "on" : "off") << "\n";
  o << "theme = " << enum_name(s.theme, kThemeNames, "dark") << "\n";
  o << "font_scale_percent = " << static_cast<int>(s.font_scale * 100 + 0.5f) << "\n";
  o << "export_dir = " << s.export_dir << "\n";
  o << "export_width = " << s.export_width << "\nexport_height = " << s.export_height << "\n";
  for (const std::string& path : s.recent_files) o << "recent_file = " << path << "\n";
  for (std::size_t i = 0; i < s.lesson.size(); ++i) {
    const LessonEntry& e = s.lesson[i];
    const VariantDescriptor* v = find_variant(e.variant_id);
    // A typed tile's name is its values (typed_configs.h): read back, it is typed again.
    const std::string config = v && e.config_index < config_count(*v) ? config_at(*v, e.config_index).name : "";
    o << "variant." << e.variant_id << " = " << (e.enabled ? "on" : "off") << " " << config << "\n";
  }
  if (s.focused >= 0 && s.focused < static_cast<int>(s.lesson.size()))
    o << "focused = " << s.lesson[s.focused].variant_id << "\n";
  return o.str();
}

namespace {

// One settings key: how its value is parsed into the state. Returns false on a bad value.
struct SettingRule {
  const char* key;
  bool (*apply)(const std::string& value, AppState* s);
};

bool apply_font_scale(const std::string& value, AppState* s) {
  int percent = 0;
  if (!parse_int(value, 50, 400, &percent)) return false;
  s->font_scale = percent / 100.0f;
  return true;
}

// One `recent_file = PATH` line (newest first in the file): appended, up to kRecentFilesKept.
bool apply_recent_file(const std::string& value, AppState* s) {
  if (value.empty() || value[0] != '/') return false;
  if (s->recent_files.size() >= kRecentFilesKept) return true;
  if (std::find(s->recent_files.begin(), s->recent_files.end(), value) == s->recent_files.end())
    s->recent_files.push_back(value);
  return true;
}

bool apply_focused(const std::string& value, AppState* s) {
  bool ok = false;
  for (std::size_t e = 0; e < s->lesson.size(); ++e)
    if (s->lesson[e].variant_id == value) {
      s->focused = static_cast<int>(e);
      ok = true;
    }
  return ok;
}

// `variant.<id> = on|off [config]`: switches a lesson entry and picks its config.
bool apply_variant_line(const std::string& id, const std::string& value, AppState* s) {
  std::istringstream v(value);
  std::string on, config;
  v >> on >> config;
  bool ok = false;
  for (LessonEntry& e : s->lesson) {
    if (e.variant_id != id) continue;
    const VariantDescriptor* d = find_variant(id);
    std::string unknown;  // an unknown configuration keeps the default, as before
    const int ci = d ? config_named_or_typed(*d, config, &unknown) : -1;
    bool enabled = true;
    if (!parse_bool(on, &enabled)) break;
    e.enabled = enabled;
    if (ci >= 0) e.config_index = ci;
    ok = true;
  }
  return ok;
}

const SettingRule kSettingRules[] = {
    {"problem", [](const std::string& v, AppState* s) { return parse_problem(v, &s->problem); }},
    {"precision", [](const std::string& v, AppState* s) { return parse_precision(v, &s->precision); }},
    {"square", [](const std::string& v, AppState* s) { return parse_bool(v, &s->square); }},
    {"m", [](const std::string& v, AppState* s) { return parse_int(v, 1, kMaxMatrixSize, &s->m); }},
    {"n", [](const std::string& v, AppState* s) { return parse_int(v, 1, kMaxMatrixSize, &s->n); }},
    {"k", [](const std::string& v, AppState* s) { return parse_int(v, 1, kMaxMatrixSize, &s->k); }},
    {"repetitions", [](const std::string& v, AppState* s) { return parse_int(v, 1, 1000, &s->repetitions); }},
    {"verify", [](const std::string& v, AppState* s) { return parse_bool(v, &s->verify); }},
    {"sweep_from", [](const std::string& v, AppState* s) { return parse_int(v, 1, kMaxMatrixSize, &s->sweep_from); }},
    {"sweep_to", [](const std::string& v, AppState* s) { return parse_int(v, 1, kMaxMatrixSize, &s->sweep_to); }},
    {"y_quantity", [](const std::string& v, AppState* s) { return parse_y_quantity(v, &s->y_quantity); }},
    {"y_log", [](const std::string& v, AppState* s) { return parse_bool(v, &s->y_log); }},
    {"only_current_problem", [](const std::string& v, AppState* s) { return parse_bool(v, &s->only_current_problem); }},
    {"presenter", [](const std::string& v, AppState* s) { return parse_bool(v, &s->presenter); }},
    {"theme", [](const std::string& v, AppState* s) { return parse_theme(v, &s->theme); }},
    {"font_scale_percent", apply_font_scale},
    {"export_dir",
     [](const std::string& v, AppState* s) {
       s->export_dir = v;
       return true;
     }},
    {"export_width", [](const std::string& v,
                        AppState* s) { return parse_int(v, kMinPlotImageSide, kMaxPlotImageSide, &s->export_width); }},
    {"export_height",
     [](const std::string& v, AppState* s) {
       return parse_int(v, kMinPlotImageSide, kMaxPlotImageSide, &s->export_height);
     }},
    {"focused", apply_focused},
    {"recent_file", apply_recent_file},
};

const SettingRule* find_setting_rule(const std::string& key) {
  for (const SettingRule& rule : kSettingRules)
    if (key == rule.key) return &rule;
  return nullptr;
}

// Applies one `key = value` pair; `warn` receives the reason when it is ignored or rejected.
template <typename Warn>
void apply_setting(const std::string& key, const std::string& value, AppState* s, Warn&& warn) {
  bool ok = true;
  if (const SettingRule* rule = find_setting_rule(key)) {
    ok = rule->apply(value, s);
  } else if (key.rfind("variant.", 0) == 0) {
    ok = apply_variant_line(key.substr(8), value, s);
  } else {
    warn("unknown key '" + printable_excerpt(key) + "' (ignored)");
    return;
  }
  if (!ok) warn("bad value '" + printable_excerpt(value) + "' for " + key + " (default kept)");
}

}  // namespace

AppState settings_from_text(const std::string& text, const AppState& base, std::string* warnings) {
  AppState s = base;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  auto warn = [&](const std::string& why) {
    if (warnings) *warnings += "settings line " + std::to_string(number) + ": " + why + "\n";
  };
  while (std::getline(in, line)) {
    ++number;
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) {
      warn("no '=' (ignored)");
      continue;
    }
    apply_setting(trim(line.substr(0, eq)), trim(line.substr(eq + 1)), &s, warn);
  }
  if (s.sweep_to < s.sweep_from) std::swap(s.sweep_to, s.sweep_from);
  return s;
}

bool save_settings(const std::string& path, const AppState& s, std::string* error) {
  // Make the folder (one level is enough: ~/.config exists on any desktop; create it if not).
  const auto slash = path.rfind('/');
  if (slash != std::string::npos) {
    const std::string dir = path.substr(0, slash);
    const auto parent = dir.rfind('/');
    if (parent != std::string::npos && parent > 0) mkdir(dir.substr(0, parent).c_str(), 0755);
    if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
      *error = "cannot create " + dir + ": " + std::strerror(errno);
      return false;
    }
  }
  return write_file_atomically(path, settings_to_text(s), error);
}

AppState load_settings(const std::string& path, const AppState& base, std::string* warnings) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return base;
  std::ostringstream text;
  text << in.rdbuf();
  return settings_from_text(text.str(), base, warnings);
}

}  // namespace tilescope
