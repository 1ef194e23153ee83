#include "ui/script.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "registry.h"
#include "ui/history_model.h"
#include "ui/settings.h"

namespace tilescope {

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Sizes and counts in a script: 1 ... 2^20.
bool to_int(const std::string& s, int* out) {
  return parse_int(s, 1, 1 << 20, out);
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

namespace {

// What an action may touch: the app, its words, where a failure's reason goes, and the
// player's own state (quit, wait, frames).
struct Action {
  App& app;
  const std::vector<std::string>& w;  // w[0]: the action's name
  std::string* why;
  bool& quit;
  bool& waiting;
  double& wait_deadline;
  int& frames_left;
};
using Handler = bool (*)(Action&);

// An app call that reports failure in the status line.
bool status_on_failure(Action& x, bool ok) {
  return ok || (*x.why = x.app.status(), false);
}

bool do_reload_shaders(Action& x) {
  const std::string log = x.app.history_panel().reload_shaders();
  if (!log.empty()) return *x.why = "shaders: " + log.substr(0, log.find('\n')), false;
  return true;
}

bool do_history_mode(Action& x) {
  const VariantDescriptor* v = shader_variant();
  const int c = v ? find_config(*v, x.w[1]) : -1;
  if (c < 0) {
    std::string names;
    for (std::size_t i = 0; v && i < v->configs.size(); ++i) names += (i ? ", " : "") + v->configs[i].name;
    return *x.why = "history-mode takes a configuration of the texture shaders (" + names + ")", false;
  }
  x.app.history_panel().select_mode(c);
  return true;
}

bool do_history_pass(Action& x) {
  int p = 0;
  if (x.w[1] == "all" || x.w[1] == "-1")
    p = -1;
  else if (x.w[1] != "0" && !to_int(x.w[1], &p))
    return *x.why = "history-pass P (passes shown as done; 'all' for every pass)", false;
  x.app.history_panel().set_pass(p);
  return true;
}

bool do_mapping_block(Action& x) {
  const auto& w = x.w;
  int bx = 0, by = 0;
  if (!to_int(w[1], &bx) && w[1] != "0") return *x.why = "mapping-block X Y", false;
  if (!to_int(w[2], &by) && w[2] != "0") return *x.why = "mapping-block X Y", false;
  x.app.mapping().select_block(w[1] == "0" ? 0 : bx, w[2] == "0" ? 0 : by);
  return true;
}

bool do_mapping_play(Action& x) {
  bool on = false;
  if (!parse_bool(x.w[1], &on)) return *x.why = "mapping-play on|off", false;
  x.app.mapping().set_playing(on);
  return true;
}

bool do_mapping_phase(Action& x) {
  int p = 0;
  if (!to_int(x.w[1], &p) && x.w[1] != "0") return *x.why = "mapping-phase N", false;
  x.app.mapping().set_phase(x.w[1] == "0" ? 0 : p);
  return true;
}

bool do_wait(Action& x) {
  int seconds = 600;
  if (x.w.size() == 2 && !to_int(x.w[1], &seconds)) return *x.why = "wait takes seconds", false;
  x.waiting = true;
  x.wait_deadline = now_s() + seconds;
  return true;
}

bool do_frames(Action& x) {
  if (!to_int(x.w[1], &x.frames_left)) return *x.why = "frames takes a count", false;
  return true;
}

bool do_export_plot(Action& x) {
  const auto& w = x.w;
  int width = 1920, height = 1080;
  if (w.size() == 4 && (!to_int(w[2], &width) || !to_int(w[3], &height))) return *x.why = "export-plot PATH W H", false;
  x.app.request_plot_export(w[1], width, height);
  return true;
}

bool do_use_all(Action& x) {
  bool on = true;
  if (!parse_bool(x.w[1], &on)) return *x.why = "use-all on|off", false;
  for (LessonEntry& e : x.app.state().lesson) e.enabled = on;
  return true;
}

// focus VARIANT, use VARIANT[:CONFIG] on|off.
bool do_focus_or_use(Action& x) {
  const auto& w = x.w;
  AppState& s = x.app.state();
  const std::string spec = w[1];
  const std::string id = spec.substr(0, spec.find(':'));
  for (std::size_t i = 0; i < s.lesson.size(); ++i) {
    LessonEntry& e = s.lesson[i];
    if (e.variant_id != id) continue;
    if (w[0] == "focus") {
      s.focused = static_cast<int>(i);
      return true;
    }
    if (!parse_bool(w[2], &e.enabled)) return *x.why = "use VARIANT[:CONFIG] on|off", false;
    if (spec.find(':') != std::string::npos) {
      const int ci = find_config(*find_variant(id), spec.substr(spec.find(':') + 1));
      if (ci < 0) return *x.why = "no configuration " + spec, false;
      e.config_index = ci;
    }
    return true;
  }
  return *x.why = "no variant " + id, false;
}

// set KEY VALUE...
bool do_set(Action& x) {
  const auto& w = x.w;
  AppState& s = x.app.state();
  const std::string& key = w[1];
  const std::string value = w.size() > 2 ? w[2] : "";
  bool ok = true;
  if (key == "problem")
    ok = parse_problem(value, &s.problem);
  else if (key == "precision")
    ok = parse_precision(value, &s.precision);
  else if (key == "n")
    ok = to_int(value, &s.n);
  else if (key == "m")
    ok = to_int(value, &s.m);
  else if (key == "k")
    ok = to_int(value, &s.k);
  else if (key == "square")
    ok = parse_bool(value, &s.square);
  else if (key == "reps")
    ok = to_int(value, &s.repetitions);
  else if (key == "verify")
    ok = parse_bool(value, &s.verify);
  else if (key == "sweep")
    ok = w.size() == 4 && to_int(w[2], &s.sweep_from) && to_int(w[3], &s.sweep_to);
  else if (key == "y")
    ok = parse_y_quantity(value, &s.y_quantity);
  else if (key == "ylog")
    ok = parse_bool(value, &s.y_log);
  else if (key == "only-current")
    ok = parse_bool(value, &s.only_current_problem);
  else if (key == "presenter") {
    bool on = false;
    ok = parse_bool(value, &on);
    if (ok) x.app.set_presenter(on);
  } else if (key == "theme") {
    ok = parse_theme(value, &s.theme);
  } else {
    return *x.why = "unknown setting '" + key + "'", false;
  }
  if (!ok) *x.why = "bad value for " + key;
  return ok;
}

// Every action by name (arity_ok checks the words before a script runs).
struct ActionEntry {
  const char* name;
  Handler handler;
};
const ActionEntry kActions[] = {
    {"run", [](Action& x) { return status_on_failure(x, x.app.run()); }},
    {"sweep", [](Action& x) { return status_on_failure(x, x.app.sweep()); }},
    {"live", [](Action& x) { return status_on_failure(x, x.app.live()); }},
    {"cancel",
     [](Action& x) {
       x.app.cancel();
       return true;
     }},
    {"quit",
     [](Action& x) {
       x.quit = true;
       x.app.quit();
       return true;
     }},
    {"show-mapping",
     [](Action& x) {
       x.app.show_mapping();
       return true;
     }},
    {"show-history",
     [](Action& x) {
       x.app.show_history();
       return true;
     }},
    {"reload-shaders", do_reload_shaders},
    {"history-mode", do_history_mode},
    {"history-pass", do_history_pass},
    {"mapping-block", do_mapping_block},
    {"mapping-play", do_mapping_play},
    {"mapping-phase", do_mapping_phase},
    {"wait", do_wait},
    {"frames", do_frames},
    {"load-csv", [](Action& x) { return status_on_failure(x, x.app.load_csv(x.w[1])); }},
    {"export-csv", [](Action& x) { return status_on_failure(x, x.app.export_csv(x.w[1])); }},
    {"screenshot",
     [](Action& x) {
       x.app.request_screenshot(x.w[1]);
       return true;
     }},
    {"export-plot", do_export_plot},
    {"use-all", do_use_all},
    {"focus", do_focus_or_use},
    {"use", do_focus_or_use},
    {"set", do_set},
};

}  // namespace

bool ScriptPlayer::perform(App& app, const Line& line, std::string* why) {
  Action x{app, line.words, why, quit_, waiting_, wait_deadline_, frames_left_};
  for (const ActionEntry& e : kActions)
    if (line.words[0] == e.name) return e.handler(x);
  return do_set(x);  // as before the table: anything else is read as a setting
}

}  // namespace tilescope
