#include "ui/script.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "registry.h"
#include "ui/history_model.h"

namespace tilescope {

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool to_int(const std::string& s, int* out) {
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0' || v < 1 || v > (1 << 20)) return false;
  *out = static_cast<int>(v);
  return true;
}

bool to_bool(const std::string& s, bool* out) {
  if (s == "on" || s == "true" || s == "1") { *out = true; return true; }
  if (s == "off" || s == "false" || s == "0") { *out = false; return true; }
  return false;
}

// The number of words each action takes (min, max), for checking a script before it runs.
bool arity_ok(const std::vector<std::string>& w) {
  const std::string& a = w[0];
  const std::size_t n = w.size() - 1;
  if (a == "run" || a == "sweep" || a == "live" || a == "cancel" || a == "quit" || a == "show-mapping" ||
      a == "show-history" || a == "reload-shaders")
    return n == 0;
  if (a == "history-mode" || a == "history-pass") return n == 1;
  if (a == "wait") return n <= 1;
  if (a == "frames" || a == "load-csv" || a == "export-csv" || a == "screenshot" || a == "focus") return n == 1;
  if (a == "use" || a == "use-all") return n == 2 || (a == "use-all" && n == 1);
  if (a == "export-plot") return n == 1 || n == 3;
  if (a == "mapping-block") return n == 2;
  if (a == "mapping-phase" || a == "mapping-play") return n == 1;
  if (a == "set") return n >= 2;
  return false;
}

}  // namespace

bool ScriptPlayer::load_file(const std::string& path, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read script " + path;
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return load_text(text.str(), path, error);
}

bool ScriptPlayer::load_text(const std::string& text, const std::string& name, std::string* error) {
  name_ = name;
  lines_.clear();
  std::istringstream in(text);
  std::string raw;
  int number = 0;
  while (std::getline(in, raw)) {
    ++number;
    const auto hash = raw.find('#');
    if (hash != std::string::npos) raw.erase(hash);
    std::istringstream words(raw);
    Line line;
    line.number = number;
    for (std::string w; words >> w;) line.words.push_back(w);
    if (line.words.empty()) continue;
    if (!arity_ok(line.words)) {
      *error = name + ":" + std::to_string(number) + ": unknown action or wrong number of words: '" + raw + "'";
      return false;
    }
    lines_.push_back(line);
  }
  next_ = 0;
  return true;
}

bool ScriptPlayer::step(App& app, bool* failed, std::string* message) {
  if (quit_) return false;
  if (frames_left_ > 0) {
    --frames_left_;
    return true;
  }
  if (waiting_) {
    if (app.busy() && now_s() < wait_deadline_) return true;
    waiting_ = false;
    if (app.busy()) {
      *failed = true;
      *message = name_ + ": wait timed out";
      app.cancel();
    }
  }
  while (next_ < lines_.size()) {
    const Line& line = lines_[next_++];
    std::string why;
    if (!perform(app, line, &why)) {
      *failed = true;
      *message = name_ + ":" + std::to_string(line.number) + ": " + why;
    }
    if (quit_) return false;
    // Actions that need frames to pass hand control back to the frame loop.
    const std::string& a = line.words[0];
    if (a == "wait" || a == "frames" || a == "export-plot" || a == "screenshot" || a == "run" || a == "sweep" ||
        a == "live")
      return true;
  }
  return frames_left_ > 0 || waiting_;
}

bool ScriptPlayer::perform(App& app, const Line& line, std::string* why) {
  const auto& w = line.words;
  const std::string& a = w[0];
  AppState& s = app.state();
  if (a == "run") return app.run() || (*why = app.status(), false);
  if (a == "sweep") return app.sweep() || (*why = app.status(), false);
  if (a == "live") return app.live() || (*why = app.status(), false);
  if (a == "cancel") { app.cancel(); return true; }
  if (a == "quit") { quit_ = true; app.quit(); return true; }
  if (a == "show-mapping") { app.show_mapping(); return true; }
  if (a == "show-history") { app.show_history(); return true; }
  if (a == "reload-shaders") {
    const std::string log = app.history_panel().reload_shaders();
    if (!log.empty()) return *why = "shaders: " + log.substr(0, log.find('\n')), false;
    return true;
  }
  if (a == "history-mode") {
    const VariantDescriptor* v = shader_variant();
    const int c = v ? find_config(*v, w[1]) : -1;
    if (c < 0) {
      std::string names;
      for (std::size_t i = 0; v && i < v->configs.size(); ++i) names += (i ? ", " : "") + v->configs[i].name;
      return *why = "history-mode takes a configuration of the texture shaders (" + names + ")", false;
    }
    app.history_panel().select_mode(c);
    return true;
  }
  if (a == "history-pass") {
    int p = 0;
    if (w[1] == "all" || w[1] == "-1")
      p = -1;
    else if (w[1] != "0" && !to_int(w[1], &p))
      return *why = "history-pass P (passes shown as done; 'all' for every pass)", false;
    app.history_panel().set_pass(p);
    return true;
  }
  if (a == "mapping-block") {
    int x = 0, y = 0;
    if (!to_int(w[1], &x) && w[1] != "0") return *why = "mapping-block X Y", false;
    if (!to_int(w[2], &y) && w[2] != "0") return *why = "mapping-block X Y", false;
    app.mapping().select_block(w[1] == "0" ? 0 : x, w[2] == "0" ? 0 : y);
    return true;
  }
  if (a == "mapping-play") {
    bool on = false;
    if (!to_bool(w[1], &on)) return *why = "mapping-play on|off", false;
    app.mapping().set_playing(on);
    return true;
  }
  if (a == "mapping-phase") {
    int p = 0;
    if (!to_int(w[1], &p) && w[1] != "0") return *why = "mapping-phase N", false;
    app.mapping().set_phase(w[1] == "0" ? 0 : p);
    return true;
  }
  if (a == "wait") {
    int seconds = 600;
    if (w.size() == 2 && !to_int(w[1], &seconds)) return *why = "wait takes seconds", false;
    waiting_ = true;
    wait_deadline_ = now_s() + seconds;
    return true;
  }
  if (a == "frames") {
    if (!to_int(w[1], &frames_left_)) return *why = "frames takes a count", false;
    return true;
  }
  if (a == "load-csv") return app.load_csv(w[1]) || (*why = app.status(), false);
  if (a == "export-csv") return app.export_csv(w[1]) || (*why = app.status(), false);
  if (a == "screenshot") { app.request_screenshot(w[1]); return true; }
  if (a == "export-plot") {
    int width = 1920, height = 1080;
    if (w.size() == 4 && (!to_int(w[2], &width) || !to_int(w[3], &height))) return *why = "export-plot PATH W H", false;
    app.request_plot_export(w[1], width, height);
    return true;
  }
  if (a == "focus" || a == "use" || a == "use-all") {
    if (a == "use-all") {
      bool on = true;
      if (!to_bool(w[1], &on)) return *why = "use-all on|off", false;
      for (LessonEntry& e : s.lesson) e.enabled = on;
      return true;
    }
    const std::string spec = w[1];
    const std::string id = spec.substr(0, spec.find(':'));
    for (std::size_t i = 0; i < s.lesson.size(); ++i) {
      LessonEntry& e = s.lesson[i];
      if (e.variant_id != id) continue;
      if (a == "focus") { s.focused = static_cast<int>(i); return true; }
      if (!to_bool(w[2], &e.enabled)) return *why = "use VARIANT[:CONFIG] on|off", false;
      if (spec.find(':') != std::string::npos) {
        const int ci = find_config(*find_variant(id), spec.substr(spec.find(':') + 1));
        if (ci < 0) return *why = "no configuration " + spec, false;
        e.config_index = ci;
      }
      return true;
    }
    return *why = "no variant " + id, false;
  }
  // set KEY VALUE...
  const std::string& key = w[1];
  const std::string value = w.size() > 2 ? w[2] : "";
  bool ok = true;
  if (key == "problem") ok = parse_problem(value, &s.problem);
  else if (key == "precision") ok = parse_precision(value, &s.precision);
  else if (key == "n") ok = to_int(value, &s.n);
  else if (key == "m") ok = to_int(value, &s.m);
  else if (key == "k") ok = to_int(value, &s.k);
  else if (key == "square") ok = to_bool(value, &s.square);
  else if (key == "reps") ok = to_int(value, &s.repetitions);
  else if (key == "verify") ok = to_bool(value, &s.verify);
  else if (key == "sweep") ok = w.size() == 4 && to_int(w[2], &s.sweep_from) && to_int(w[3], &s.sweep_to);
  else if (key == "y") {
    if (value == "gflops") s.y_quantity = YAxisQuantity::Gflops;
    else if (value == "ms") s.y_quantity = YAxisQuantity::Milliseconds;
    else ok = false;
  } else if (key == "ylog") ok = to_bool(value, &s.y_log);
  else if (key == "only-current") ok = to_bool(value, &s.only_current_problem);
  else if (key == "presenter") {
    bool on = false;
    ok = to_bool(value, &on);
    if (ok) app.set_presenter(on);
  } else if (key == "theme") {
    if (value == "dark") s.theme = Theme::Dark;
    else if (value == "light") s.theme = Theme::Light;
    else if (value == "high_contrast") s.theme = Theme::HighContrast;
    else ok = false;
  } else {
    return *why = "unknown setting '" + key + "'", false;
  }
  if (!ok) *why = "bad value for " + key;
  return ok;
}

}  // namespace tilescope
