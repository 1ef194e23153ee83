#include "ui/settings.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "export/atomic_file.h"
#include "registry.h"

namespace tilescope {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

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

const char* theme_name(Theme t) {
  switch (t) {
    case Theme::Light:
      return "light";
    case Theme::HighContrast:
      return "high_contrast";
    default:
      return "dark";
  }
}

}  // namespace

std::string config_dir() {
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return std::string(x) + "/tilescope";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.config/tilescope";
  return "";
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
  o << "y_quantity = " << (s.y_quantity == YAxisQuantity::Gflops ? "gflops" : "ms") << "\n";
  o << "y_log = " << (s.y_log ? "on" : "off") << "\n";
  o << "only_current_problem = " << (s.only_current_problem ? "on" : "off") << "\n";
  o << "presenter = " << (s.presenter ? "on" : "off") << "\n";
  o << "theme = " << theme_name(s.theme) << "\n";
  o << "font_scale_percent = " << static_cast<int>(s.font_scale * 100 + 0.5f) << "\n";
  o << "export_dir = " << s.export_dir << "\n";
  o << "export_width = " << s.export_width << "\nexport_height = " << s.export_height << "\n";
  for (std::size_t i = 0; i < s.lesson.size(); ++i) {
    const LessonEntry& e = s.lesson[i];
    const VariantDescriptor* v = find_variant(e.variant_id);
    const std::string config =
        v && e.config_index < static_cast<int>(v->configs.size()) ? v->configs[e.config_index].name : "";
    o << "variant." << e.variant_id << " = " << (e.enabled ? "on" : "off") << " " << config << "\n";
  }
  if (s.focused >= 0 && s.focused < static_cast<int>(s.lesson.size()))
    o << "focused = " << s.lesson[s.focused].variant_id << "\n";
  return o.str();
}

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
    const std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    bool ok = true;
    int i = 0;
    if (key == "problem")
      ok = parse_problem(value, &s.problem);
    else if (key == "precision")
      ok = parse_precision(value, &s.precision);
    else if (key == "square")
      ok = parse_bool(value, &s.square);
    else if (key == "m")
      ok = parse_int(value, 1, 1 << 20, &s.m);
    else if (key == "n")
      ok = parse_int(value, 1, 1 << 20, &s.n);
    else if (key == "k")
      ok = parse_int(value, 1, 1 << 20, &s.k);
    else if (key == "repetitions")
      ok = parse_int(value, 1, 1000, &s.repetitions);
    else if (key == "verify")
      ok = parse_bool(value, &s.verify);
    else if (key == "sweep_from")
      ok = parse_int(value, 1, 1 << 20, &s.sweep_from);
    else if (key == "sweep_to")
      ok = parse_int(value, 1, 1 << 20, &s.sweep_to);
    else if (key == "y_quantity") {
      if (value == "gflops")
        s.y_quantity = YAxisQuantity::Gflops;
      else if (value == "ms")
        s.y_quantity = YAxisQuantity::Milliseconds;
      else
        ok = false;
    } else if (key == "y_log")
      ok = parse_bool(value, &s.y_log);
    else if (key == "only_current_problem")
      ok = parse_bool(value, &s.only_current_problem);
    else if (key == "presenter")
      ok = parse_bool(value, &s.presenter);
    else if (key == "theme") {
      if (value == "dark")
        s.theme = Theme::Dark;
      else if (value == "light")
        s.theme = Theme::Light;
      else if (value == "high_contrast")
        s.theme = Theme::HighContrast;
      else
        ok = false;
    } else if (key == "font_scale_percent") {
      ok = parse_int(value, 50, 400, &i);
      if (ok) s.font_scale = i / 100.0f;
    } else if (key == "export_dir")
      s.export_dir = value;
    else if (key == "export_width")
      ok = parse_int(value, 64, 16384, &s.export_width);
    else if (key == "export_height")
      ok = parse_int(value, 64, 16384, &s.export_height);
    else if (key == "focused") {
      ok = false;
      for (std::size_t e = 0; e < s.lesson.size(); ++e)
        if (s.lesson[e].variant_id == value) {
          s.focused = static_cast<int>(e);
          ok = true;
        }
    } else if (key.rfind("variant.", 0) == 0) {
      const std::string id = key.substr(8);
      std::istringstream v(value);
      std::string on, config;
      v >> on >> config;
      ok = false;
      for (LessonEntry& e : s.lesson) {
        if (e.variant_id != id) continue;
        const VariantDescriptor* d = find_variant(id);
        const int ci = d ? find_config(*d, config) : -1;
        bool enabled = true;
        if (!parse_bool(on, &enabled)) break;
        e.enabled = enabled;
        if (ci >= 0) e.config_index = ci;
        ok = true;
      }
    } else {
      warn("unknown key '" + key + "' (ignored)");
      continue;
    }
    if (!ok) warn("bad value '" + value + "' for " + key + " (default kept)");
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
