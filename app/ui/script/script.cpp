#include "app/ui/script/script.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "app/export/plot_image.h"
#include "app/ui/history/history_model.h"
#include "app/ui/shell/settings.h"
#include "app/ui/shell/typed_tile_names.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/multi/split_registry.h"

namespace tilescope {

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// ---- the words of a line: each checked before the script runs ----------------------------------

// What a word holds, and what a line says when it holds something else.
struct IntRange {
  int lo, hi;
};
constexpr IntRange kSizes{1, kMaxMatrixSize};  // M, N, K and the sweep: as the controls
constexpr IntRange kRepetitions{1, 1000};      // as the controls and the settings file
constexpr IntRange kGpuCounts{1, 64};          // a split's GPUs (the machine's count refuses more)
constexpr IntRange kFrames{1, 1 << 20};        // frames N
constexpr IntRange kWaitSeconds{1, 86400};     // wait SECONDS: at most a day
constexpr IntRange kExportPixels{kMinPlotImageSide, kMaxPlotImageSide};  // export-plot W H: what the writer takes
constexpr IntRange kIndex{0, 1 << 20};                                   // block coordinates, phases, passes
constexpr double kTimelineWaitSeconds = 600;  // record-timeline: one launch, but a cold GPU may take a while

// "" when `word` is a whole number within `r` (then *out holds it), else why not.
std::string int_word(const std::string& word, IntRange r, int* out) {
  if (parse_int(word, r.lo, r.hi, out)) return "";
  return "'" + word + "' is not a whole number from " + std::to_string(r.lo) + " to " + std::to_string(r.hi);
}

// int_word within one of the ranges above, as a parser of the shape the actions share.
template <const IntRange* R>
std::string int_in(const std::string& word, int* out) {
  return int_word(word, *R, out);
}

std::string bool_word(const std::string& word, bool* out) {
  if (parse_bool(word, out)) return "";
  return "'" + word + "' is not on or off";
}

// set KEY VALUE...: what each key takes and how it lands in the state. Applying to a scratch
// state is the check before the script runs; applying to the window's state is the action.
struct SettingSpec {
  const char* key;
  const char* values;  // what the key takes, for the message of a bad value
  int words;           // values after the key
  std::string (*apply)(const std::vector<std::string>& v, AppState& s);  // v[0]: the first value
};

// "f32|f64|tf32|f16|bf16": the input types a `set precision` takes.
const char* precision_words() {
  static const std::string words = precision_names("|");
  return words.c_str();
}

std::string named_word(bool ok, const std::string& word, const char* values) {
  return ok ? "" : "'" + word + "' is not one of " + values;
}

const SettingSpec kSettings[] = {
    {"problem", "gemm|ata", 1,
     [](const std::vector<std::string>& v, AppState& s) {
       return named_word(parse_problem(v[0], &s.problem), v[0], "gemm|ata");
     }},
    {"precision", precision_words(), 1,
     [](const std::vector<std::string>& v, AppState& s) {
       return named_word(parse_precision(v[0], &s.precision), v[0], precision_words());
     }},
    {"n", "N", 1, [](const std::vector<std::string>& v, AppState& s) { return int_word(v[0], kSizes, &s.n); }},
    {"m", "M", 1, [](const std::vector<std::string>& v, AppState& s) { return int_word(v[0], kSizes, &s.m); }},
    {"k", "K", 1, [](const std::vector<std::string>& v, AppState& s) { return int_word(v[0], kSizes, &s.k); }},
    {"square", "on|off", 1, [](const std::vector<std::string>& v, AppState& s) { return bool_word(v[0], &s.square); }},
    {"reps", "N", 1,
     [](const std::vector<std::string>& v, AppState& s) { return int_word(v[0], kRepetitions, &s.repetitions); }},
    {"verify", "on|off", 1, [](const std::vector<std::string>& v, AppState& s) { return bool_word(v[0], &s.verify); }},
    {"sweep", "FROM TO", 2,
     [](const std::vector<std::string>& v, AppState& s) {
       int from = 0, to = 0;
       std::string why = int_word(v[0], kSizes, &from);
       if (why.empty()) why = int_word(v[1], kSizes, &to);
       if (why.empty() && to < from) why = "the sweep goes from " + v[0] + " down to " + v[1] + ": FROM <= TO";
       if (why.empty()) s.sweep_from = from, s.sweep_to = to;
       return why;
     }},
    {"y", "gflops|ms", 1,
     [](const std::vector<std::string>& v, AppState& s) {
       return named_word(parse_y_quantity(v[0], &s.y_quantity), v[0], "gflops|ms");
     }},
    {"ylog", "on|off", 1, [](const std::vector<std::string>& v, AppState& s) { return bool_word(v[0], &s.y_log); }},
    {"only-current", "on|off", 1,
     [](const std::vector<std::string>& v, AppState& s) { return bool_word(v[0], &s.only_current_problem); }},
    {"presenter", "on|off", 1,
     [](const std::vector<std::string>& v, AppState& s) { return bool_word(v[0], &s.presenter); }},
    {"split", "none|SPLIT:CONFIG", 1,
     [](const std::vector<std::string>& v, AppState& s) -> std::string {
       if (v[0] == "none") {
         s.split.clear();
         return "";
       }
       const std::size_t colon = v[0].find(':');
       const SplitDescriptor* split = find_split(v[0].substr(0, colon));
       const int config =
           split ? (colon == std::string::npos ? 0 : find_split_config(*split, v[0].substr(colon + 1))) : -1;
       if (!split || config < 0) return "'" + v[0] + "' is no split:configuration (tilescope bench --help: --split)";
       s.split = split->id;
       s.split_config = config;
       return "";
     }},
    {"gpus", "N", 1,
     [](const std::vector<std::string>& v, AppState& s) { return int_word(v[0], kGpuCounts, &s.gpus); }},
    {"theme", "dark|light|high_contrast", 1,
     [](const std::vector<std::string>& v, AppState& s) {
       return named_word(parse_theme(v[0], &s.theme), v[0], "dark|light|high_contrast");
     }},
};

const SettingSpec* find_setting(const std::string& key) {
  for (const SettingSpec& s : kSettings)
    if (key == s.key) return &s;
  return nullptr;
}

// `set KEY VALUE...` applied to `state`: "" or why not.
std::string apply_setting(const std::vector<std::string>& w, AppState& state) {
  const SettingSpec* spec = w.size() >= 2 ? find_setting(w[1]) : nullptr;
  if (!spec) {
    std::string keys;
    for (const SettingSpec& s : kSettings) keys += std::string(keys.empty() ? "" : ", ") + s.key;
    return w.size() < 2 ? "set takes KEY VALUE (" + keys + ")"
                        : "unknown setting '" + w[1] + "' (settings: " + keys + ")";
  }
  if (static_cast<int>(w.size()) - 2 != spec->words) return "set " + std::string(spec->key) + " takes " + spec->values;
  const std::vector<std::string> values(w.begin() + 2, w.end());
  const std::string why = spec->apply(values, state);
  return why.empty() ? "" : "set " + std::string(spec->key) + ": " + why;
}

// VARIANT[:CONFIG] of the registry: "" or why not; *variant and *config (-1: none named) found.
// CONFIG may be a typed tile (VARIANT:bm=96,bn=80): checked always, added to the variant's
// configurations only with `add_typed` (a line played, not a script checked).
std::string variant_word(const std::string& spec, bool config_allowed, const VariantDescriptor** variant, int* config,
                         bool add_typed = false) {
  const std::size_t colon = spec.find(':');
  const std::string id = spec.substr(0, colon);
  *variant = find_variant(id);
  *config = -1;
  if (!*variant) {
    std::string ids;
    for (const VariantDescriptor* v : variant_registry()) ids += std::string(ids.empty() ? "" : ", ") + v->id;
    return "no variant '" + id + "' (variants: " + ids + ")";
  }
  if (colon == std::string::npos) return "";
  if (!config_allowed) return "'" + spec + "': a variant without a configuration";
  const std::string name = spec.substr(colon + 1);
  *config = find_config(**variant, name);
  if (*config >= 0) return "";
  TileConfig typed;
  std::string typed_why;
  if (typed_tile_named(**variant, name, &typed, &typed_why)) {
    if (add_typed) *config = add_typed_config(**variant, typed);
    return "";
  }
  if (spells_typed_tile(name)) return "'" + spec + "': " + typed_why;
  std::string names;
  for (const TileConfig& c : (*variant)->configs) names += (names.empty() ? "" : ", ") + c.name;
  return "no configuration '" + name + "' of " + id + " (" + names + ")";
}

// history-mode CONFIG: a configuration of the texture shaders.
std::string shader_mode_word(const std::string& word, int* config) {
  const VariantDescriptor* v = shader_variant();
  *config = v ? find_config(*v, word) : -1;
  if (*config >= 0) return "";
  std::string names;
  for (std::size_t i = 0; v && i < v->configs.size(); ++i) names += (i ? ", " : "") + v->configs[i].name;
  return "'" + word + "' is not a configuration of the texture shaders (" + names + ")";
}

// history-pass P: a pass count, or all (-1).
std::string pass_word(const std::string& word, int* pass) {
  if (word == "all" || word == "-1") {
    *pass = -1;
    return "";
  }
  const std::string why = int_word(word, kIndex, pass);
  return why.empty() ? "" : why + ", or all";
}

// ---- the actions --------------------------------------------------------------------------------

// What an action may touch: the app, its words, where a failure's reason goes, and the
// player's own state (quit, wait, frames).
struct Action {
  App& app;
  const std::vector<std::string>& w;  // w[0]: the action's name
  std::string* why;
  App::WorkTicket& ticket;  // set by an action whose work ends after the frame (its outcome is the line's)
  bool& quit;
  bool& waiting;
  bool& waiting_timeline;  // for record-timeline's recording
  double& wait_deadline;
  int& frames_left;
  bool failed = false;  // set by fail()
};
// Does what a line says; a line that fails says why through fail().
using Handler = void (*)(Action&);
// Checks a line's values without an app: "" or why not (the number of words is checked apart).
using Checker = std::string (*)(const std::vector<std::string>& w);

std::string no_values(const std::vector<std::string>&) {
  return "";
}

// A word parser: "" or why not, the value into *out.
template <typename T>
using WordParser = std::string (*)(const std::string& word, T* out);

// The check of an action whose one value word `Parse` reads (w[1]), and the value when the line
// plays: the word was checked before the script ran, so it is read without a second message.
template <typename T, WordParser<T> Parse>
std::string check_word(const std::vector<std::string>& w) {
  T value{};
  return Parse(w[1], &value);
}
template <typename T, WordParser<T> Parse>
T word_value(const Action& x, std::size_t i = 1) {
  T value{};
  Parse(x.w[i], &value);
  return value;
}

// The line fails, for this reason.
void fail(Action& x, const std::string& why) {
  *x.why = why;
  x.failed = true;
}

// An app call that reports failure in the status line.
void status_on_failure(Action& x, bool ok) {
  if (!ok) fail(x, x.app.status());
}

// Run, Sweep, Live: a failure to start is the line's at once; how the job ends, later.
void start_job(Action& x, bool started) {
  if (started) x.ticket = x.app.job_ticket();
  status_on_failure(x, started);
}

void do_reload_shaders(Action& x) {
  const std::string log = x.app.history_panel().reload_shaders();
  if (!log.empty()) fail(x, "shaders: " + log.substr(0, log.find('\n')));
}

constexpr WordParser<int> index_word = int_in<&kIndex>;

void do_history_mode(Action& x) {
  x.app.history_panel().select_mode(word_value<int, shader_mode_word>(x));
}

void do_history_pass(Action& x) {
  x.app.history_panel().set_pass(word_value<int, pass_word>(x));
}

std::string check_mapping_block(const std::vector<std::string>& w) {
  int by = 0;
  const std::string why = check_word<int, index_word>(w);
  return why.empty() ? index_word(w[2], &by) : why;
}
void do_mapping_block(Action& x) {
  x.app.mapping().select_block(word_value<int, index_word>(x, 1), word_value<int, index_word>(x, 2));
}

void do_mapping_play(Action& x) {
  // A problem, size or variant set just before would rebuild the pictures at the next draw,
  // which stops the player: rebuild them now.
  x.app.mapping().sync_to(x.app.state());
  x.app.mapping().set_playing(word_value<bool, bool_word>(x));
}

// The tensor-core pictures of the Mapping tab: which tab, how the selected block is coloured,
// the lane whose fragments light up, and the banks with or without the swizzle.
struct NamedView {
  const char* word;
  MappingPanel::View view;
};
const NamedView kMappingViews[] = {{"matrices", MappingPanel::View::Matrices},
                                   {"fragments", MappingPanel::View::Fragments},
                                   {"banks", MappingPanel::View::Banks},
                                   {"timeline", MappingPanel::View::Timeline},
                                   {"memory", MappingPanel::View::Memory}};
const char* const kMappingViewWords = "matrices|fragments|banks|timeline|memory";
struct NamedColouring {
  const char* word;
  ThreadColouring colouring;
};
const NamedColouring kColourings[] = {
    {"warp", ThreadColouring::Warp}, {"lane", ThreadColouring::Lane}, {"register", ThreadColouring::Register}};
constexpr IntRange kLanes{0, 31};

template <typename Table>
const auto* find_named(const Table& table, const std::string& word) {
  for (const auto& e : table)
    if (word == e.word) return &e;
  return static_cast<decltype(&table[0])>(nullptr);
}

std::string check_mapping_view(const std::vector<std::string>& w) {
  return named_word(find_named(kMappingViews, w[1]) != nullptr, w[1], kMappingViewWords);
}
void do_mapping_view(Action& x) {
  x.app.mapping().show_view(find_named(kMappingViews, x.w[1])->view);
}
std::string check_mapping_colour(const std::vector<std::string>& w) {
  return named_word(find_named(kColourings, w[1]) != nullptr, w[1], "warp|lane|register");
}
void do_mapping_colour(Action& x) {
  x.app.mapping().set_colouring(find_named(kColourings, x.w[1])->colouring);
}
constexpr WordParser<int> lane_word = int_in<&kLanes>;
void do_mapping_lane(Action& x) {
  x.app.mapping().fragment_view().set_lane(word_value<int, lane_word>(x));
}
// A warpgroup's instruction (wgmma): the warp of the group whose lane lights up, or all four.
constexpr IntRange kGroupWarps{0, 3};
std::string check_mapping_warp(const std::vector<std::string>& w) {
  int warp = 0;
  const std::string why = w[1] == "all" ? "" : int_word(w[1], kGroupWarps, &warp);
  return why.empty() ? why : why + ", nor all";
}
void do_mapping_warp(Action& x) {
  int warp = -1;
  if (x.w[1] != "all") int_word(x.w[1], kGroupWarps, &warp);
  x.app.mapping().fragment_view().set_warp(warp);
}
std::string check_mapping_banks(const std::vector<std::string>& w) {
  return named_word(w[1] == "swizzled" || w[1] == "plain", w[1], "swizzled|plain");
}
void do_mapping_banks(Action& x) {
  x.app.mapping().fragment_view().set_swizzled(x.w[1] == "swizzled");
}
std::string check_gpus_scroll(const std::vector<std::string>& w) {
  return named_word(w[1] == "top" || w[1] == "model", w[1], "top|model");
}
void do_gpus_scroll(Action& x) {
  x.app.gpus().scroll_to(x.w[1] == "model" ? GpusPanel::Section::Model : GpusPanel::Section::Top);
}
std::string check_gpus_model(const std::vector<std::string>& w) {
  return named_word(w[1] == "speedup" || w[1] == "efficiency", w[1], "speedup|efficiency");
}
void do_gpus_model(Action& x) {
  x.app.gpus().model().show(x.w[1] == "speedup" ? ModelAxis::Speedup : ModelAxis::Efficiency);
}

// The Memory view (one warp's access): the site by its name as the view's list spells it (the
// words of the rest of the line: "A into shared memory"), which the focused variant's model must
// list; the step and the warp (clamped to what the site and block have when drawn).
void do_memory_site(Action& x) {
  MappingPanel& panel = x.app.mapping();
  panel.sync_to(x.app.state());
  std::string name;
  for (std::size_t i = 1; i < x.w.size(); ++i) name += (i > 1 ? " " : "") + x.w[i];
  std::string names;
  if (panel.model())
    for (const AccessSite& site : panel.model()->access_sites()) {
      if (site.name == name) {
        panel.warp_access_view().set_site(name);
        return;
      }
      names += (names.empty() ? "" : ", ") + site.name;
    }
  fail(x, "memory-site: the focused variant's model lists no access '" + name + "'" +
              (names.empty() ? std::string(" (it lists none)") : " (it lists: " + names + ")"));
}
void do_memory_step(Action& x) {
  x.app.mapping().warp_access_view().set_step(word_value<int, index_word>(x));
}
void do_memory_warp(Action& x) {
  x.app.mapping().warp_access_view().set_warp(word_value<int, index_word>(x));
}

// The Memory view's recordings: the warp it shows recorded by a worker on the GPU (the shipped
// kernel, or the Source tab editor's edit of it), which the script waits for as for a run; or a
// recording file that `tilescope memory --recording` wrote, shown as if recorded now.
constexpr double kMemoryRecordWaitSeconds = 90;  // the worker's own limit (60 s), and its start
void do_memory_record(Action& x) {
  std::string why;
  if (!x.app.mapping().record_memory(x.app.state(), x.w[0] == "memory-record-edited", &why))
    return fail(x, x.w[0] + ": " + why);
  x.waiting = true;
  x.wait_deadline = now_s() + kMemoryRecordWaitSeconds;
}
void do_memory_load_recording(Action& x) {
  std::string why;
  if (!x.app.mapping().load_memory_recording(x.app.state(), x.w[1], &why)) fail(x, "memory-load-recording: " + why);
}

// The pipeline timeline: the Mapping tab's Timeline view, and a recording of the focused variant
// at the window's configuration and sizes, which the script waits for (step()).
void do_show_timeline(Action& x) {
  x.app.show_mapping();
  x.app.mapping().show_view(MappingPanel::View::Timeline);
}
void do_record_timeline(Action& x) {
  x.app.mapping().record_timeline(x.app.state(), x.app.runner().gpu());
  x.waiting_timeline = true;
  x.wait_deadline = now_s() + kTimelineWaitSeconds;
}
std::string check_timeline_zoom(const std::vector<std::string>& w) {
  return named_word(w[1] == "all" || w[1] == "start", w[1], "all|start");
}
void do_timeline_zoom(Action& x) {
  if (x.w[1] == "all")
    x.app.mapping().timeline_view().fit();
  else
    x.app.mapping().timeline_view().zoom_to_start();
}
constexpr IntRange kTimelineRows{1, TimelineView::kMaxRows};
constexpr WordParser<int> timeline_rows_word = int_in<&kTimelineRows>;
std::string check_timeline_blocks(const std::vector<std::string>& w) {
  int count = 0;
  const std::string why = check_word<int, index_word>(w);
  return why.empty() ? timeline_rows_word(w[2], &count) : why;
}
void do_timeline_blocks(Action& x) {
  x.app.mapping().timeline_view().show_blocks(word_value<int, index_word>(x, 1),
                                              word_value<int, timeline_rows_word>(x, 2));
}

// The Timing tab's plot: speed against size, or the Roofline view.
std::string check_plot_kind(const std::vector<std::string>& w) {
  return w[1] == "timing" || w[1] == "roofline" ? "" : "'" + w[1] + "' is not a plot: timing|roofline";
}
void do_plot_kind(Action& x) {
  x.app.timing().set_plot_kind(x.w[1] == "roofline" ? TimingPlotKind::Roofline : TimingPlotKind::Timing);
}

void do_mapping_phase(Action& x) {
  x.app.mapping().set_phase(word_value<int, index_word>(x));
}

std::string check_wait(const std::vector<std::string>& w) {
  int seconds = 0;
  return w.size() == 2 ? int_word(w[1], kWaitSeconds, &seconds) : "";
}
void do_wait(Action& x) {
  int seconds = 600;
  if (x.w.size() == 2) int_word(x.w[1], kWaitSeconds, &seconds);
  x.waiting = true;
  x.wait_deadline = now_s() + seconds;
}

constexpr WordParser<int> frames_word = int_in<&kFrames>;
constexpr IntRange kTuneSizes{16, kMaxMatrixSize};  // as the Tune tab's size field
constexpr WordParser<int> tune_size_word = int_in<&kTuneSizes>;
void do_frames(Action& x) {
  x.frames_left = word_value<int, frames_word>(x);
}

// ---- the Source view's editor --------------------------------------------------------------------
// Each edit action opens the focused variant's text in the editor first (a variant without one
// fails the line with why).
bool open_edit(Action& x) {
  std::string why;
  if (x.app.source().open_editor(x.app.state(), &why)) return true;
  fail(x, why);
  return false;
}

constexpr IntRange kOccurrence{1, 1 << 20};
constexpr IntRange kEditLimit{2, 600};  // as the editor's own field
constexpr WordParser<int> edit_limit_word = int_in<&kEditLimit>;
std::string check_edit_replace(const std::vector<std::string>& w) {
  int n = 0;
  return int_word(w[2], kOccurrence, &n);
}
void do_edit_replace(Action& x) {
  if (!open_edit(x)) return;
  int n = 1;
  int_word(x.w[2], kOccurrence, &n);
  std::string why;
  if (!x.app.source().editor().replace(x.w[1], n, x.w[3] == "-" ? "" : x.w[3], &why)) fail(x, why);
}
void do_edit_file(Action& x) {
  if (!open_edit(x)) return;
  std::string why;
  KernelEditor& e = x.app.source().editor();
  if (!(x.w[0] == "edit-load" ? e.load_file(x.w[1], &why) : e.save_file(x.w[1], &why))) fail(x, why);
}
// edit-check, edit-run: the worker starts, and the script waits for it as for a run.
void do_edit_work(Action& x) {
  if (!open_edit(x)) return;
  std::string why;
  KernelEditor& e = x.app.source().editor();
  EditRunSettings settings = x.app.source().edit_settings(x.app.state());
  settings.gpu = x.app.runner().gpu();
  if (!(x.w[0] == "edit-run" ? e.run(settings, &why) : e.check(settings, &why))) return fail(x, why);
  x.waiting = true;
  x.wait_deadline = now_s() + e.time_limit_s() + 10;
}

// The last edit's outcome in a word: compiled (a Check that compiled), passed (a Run whose check
// passed), failed (a Run whose results were wrong), error (anything else), none (nothing yet).
std::string edit_outcome_word(const EditOutcome& o) {
  if (o.summary.empty()) return "none";
  const bool wrong = !o.rows.empty() && o.rows.front().ok() && o.rows.front().verified && !o.rows.front().passed;
  if (wrong && !o.timed_out) return "failed";
  if (!o.ok || o.timed_out || o.cancelled) return "error";
  return o.action == EditAction::Check ? "compiled" : "passed";
}

std::string check_export_plot(const std::vector<std::string>& w) {
  int width = 0, height = 0;
  if (w.size() != 4) return "";
  std::string why = int_word(w[2], kExportPixels, &width);
  return why.empty() ? int_word(w[3], kExportPixels, &height) : why;
}
void do_export_plot(Action& x) {
  int width = 1920, height = 1080;
  if (x.w.size() == 4) int_word(x.w[2], kExportPixels, &width), int_word(x.w[3], kExportPixels, &height);
  x.ticket = x.app.request_plot_export(x.w[1], width, height);
}

void do_use_all(Action& x) {
  const bool on = word_value<bool, bool_word>(x);
  for (LessonEntry& e : x.app.state().lesson) e.enabled = on;
}

std::string check_use(const std::vector<std::string>& w) {
  const VariantDescriptor* v = nullptr;
  int config = -1;
  std::string why = variant_word(w[1], true, &v, &config);
  bool on = false;
  return why.empty() ? bool_word(w[2], &on) : why;
}
std::string check_focus(const std::vector<std::string>& w) {
  const VariantDescriptor* v = nullptr;
  int config = -1;
  return variant_word(w[1], false, &v, &config);
}

// focus VARIANT, use VARIANT[:CONFIG] on|off: the lesson has one entry per registry variant.
void do_focus_or_use(Action& x) {
  const auto& w = x.w;
  AppState& s = x.app.state();
  const VariantDescriptor* v = nullptr;
  int config = -1;
  variant_word(w[1], w[0] == "use", &v, &config, true);
  for (std::size_t i = 0; v && i < s.lesson.size(); ++i) {
    LessonEntry& e = s.lesson[i];
    if (e.variant_id != v->id) continue;
    if (w[0] == "focus") {
      s.focused = static_cast<int>(i);
      return;
    }
    bool_word(w[2], &e.enabled);
    if (config >= 0) e.config_index = config;
    return;
  }
  fail(x, "no variant " + w[1] + " in the lesson");
}

std::string check_set(const std::vector<std::string>& w) {
  AppState scratch = default_app_state();
  return apply_setting(w, scratch);
}
void do_set(Action& x) {
  AppState& s = x.app.state();
  const std::string why = apply_setting(x.w, s);
  if (!why.empty()) return fail(x, why);
  if (x.w[1] == "presenter") x.app.set_presenter(s.presenter);  // the fonts follow
}

// Every action: its name, its words after the name (min, max), the usage a wrong line is told,
// the check of its values before the script runs, and what it does.
struct ActionEntry {
  const char* name;
  int min_words, max_words;
  const char* usage;
  Checker check;
  Handler handler;
};
const ActionEntry kActions[] = {
    {"run", 0, 0, "run", no_values, [](Action& x) { start_job(x, x.app.run()); }},
    {"sweep", 0, 0, "sweep", no_values, [](Action& x) { start_job(x, x.app.sweep()); }},
    {"live", 0, 0, "live", no_values, [](Action& x) { start_job(x, x.app.live()); }},
    {"cancel", 0, 0, "cancel", no_values, [](Action& x) { x.app.cancel(); }},
    {"quit", 0, 0, "quit", no_values,
     [](Action& x) {
       x.quit = true;
       x.app.quit();
     }},
    {"show-timing", 0, 0, "show-timing", no_values, [](Action& x) { x.app.show_timing(); }},
    {"show-mapping", 0, 0, "show-mapping", no_values, [](Action& x) { x.app.show_mapping(); }},
    {"show-history", 0, 0, "show-history", no_values, [](Action& x) { x.app.show_history(); }},
    {"show-source", 0, 0, "show-source", no_values, [](Action& x) { x.app.show_source(); }},
    {"source-compiled", 1, 1, "source-compiled on|off", check_word<bool, bool_word>,
     [](Action& x) { x.app.source().set_compiled_code(word_value<bool, bool_word>(x)); }},
    {"source-sass", 1, 1, "source-sass on|off", check_word<bool, bool_word>,
     [](Action& x) { x.app.source().set_sass(word_value<bool, bool_word>(x)); }},
    {"show-tune", 0, 0, "show-tune", no_values, [](Action& x) { x.app.show_tune(); }},
    {"show-gpus", 0, 0, "show-gpus", no_values, [](Action& x) { x.app.show_gpus(); }},
    {"gpus-scroll", 1, 1, "gpus-scroll top|model", check_gpus_scroll, do_gpus_scroll},
    {"gpus-model", 1, 1, "gpus-model speedup|efficiency", check_gpus_model, do_gpus_model},
    {"tune-load-csv", 1, 1, "tune-load-csv PATH", no_values,
     [](Action& x) {
       std::string why;
       if (!x.app.tune().load_csv(x.w[1], &why)) fail(x, why);
     }},
    {"tune-variant", 1, 1, "tune-variant VARIANT", no_values,
     [](Action& x) {
       if (!x.app.tune().choose_variant(x.w[1])) fail(x, x.w[1] + " takes no typed tiles: there is nothing to tune");
     }},
    {"tune-values", 2, 2, "tune-values KEY LO:HI:STEP|LIST", no_values,
     [](Action& x) {
       if (!x.app.tune().set_values(x.w[1], x.w[2])) fail(x, x.w[1] + " is not a parameter of the variant tuned");
     }},
    {"tune-axes", 2, 2, "tune-axes X-KEY Y-KEY", no_values,
     [](Action& x) {
       if (!x.app.tune().set_axes(x.w[1], x.w[2]))
         fail(x, "the axes must be two different parameters of the variant tuned");
     }},
    {"tune-size", 1, 1, "tune-size N", check_word<int, tune_size_word>,
     [](Action& x) { x.app.tune().set_size(word_value<int, tune_size_word>(x)); }},
    {"tune-start", 0, 0, "tune-start", no_values, [](Action& x) { status_on_failure(x, x.app.start_tune()); }},
    {"tune-export-png", 1, 1, "tune-export-png PATH", no_values,
     [](Action& x) {
       if (!x.app.tune().export_png(x.app, x.w[1])) return fail(x, x.app.status());
       x.waiting = true;
       x.wait_deadline = now_s() + 120;
     }},
    {"edit", 1, 1, "edit on|off", check_word<bool, bool_word>,
     [](Action& x) {
       x.app.source().set_editing(word_value<bool, bool_word>(x));
       x.app.show_source();
     }},
    {"edit-replace", 3, 3, "edit-replace TEXT N WITH|-", check_edit_replace, do_edit_replace},
    {"edit-load", 1, 1, "edit-load PATH", no_values, do_edit_file},
    {"edit-save", 1, 1, "edit-save PATH", no_values, do_edit_file},
    {"edit-revert", 0, 0, "edit-revert", no_values,
     [](Action& x) {
       if (open_edit(x)) x.app.source().editor().revert();
     }},
    {"edit-limit", 1, 1, "edit-limit SECONDS", check_word<int, edit_limit_word>,
     [](Action& x) { x.app.source().editor().set_time_limit_s(word_value<int, edit_limit_word>(x)); }},
    {"edit-check", 0, 0, "edit-check", no_values, do_edit_work},
    {"edit-run", 0, 0, "edit-run", no_values, do_edit_work},
    {"reload-shaders", 0, 0, "reload-shaders", no_values, do_reload_shaders},
    {"history-mode", 1, 1, "history-mode CONFIG", check_word<int, shader_mode_word>, do_history_mode},
    {"history-pass", 1, 1, "history-pass P|all", check_word<int, pass_word>, do_history_pass},
    {"mapping-block", 2, 2, "mapping-block X Y", check_mapping_block, do_mapping_block},
    {"mapping-play", 1, 1, "mapping-play on|off", check_word<bool, bool_word>, do_mapping_play},
    {"plot", 1, 1, "plot timing|roofline", check_plot_kind, do_plot_kind},
    {"mapping-phase", 1, 1, "mapping-phase N", check_word<int, index_word>, do_mapping_phase},
    {"mapping-view", 1, 1, "mapping-view matrices|fragments|banks|timeline|memory", check_mapping_view,
     do_mapping_view},
    {"show-timeline", 0, 0, "show-timeline", no_values, do_show_timeline},
    {"memory-site", 1, 8, "memory-site NAME", no_values, do_memory_site},
    {"memory-step", 1, 1, "memory-step N", check_word<int, index_word>, do_memory_step},
    {"memory-warp", 1, 1, "memory-warp N", check_word<int, index_word>, do_memory_warp},
    {"memory-record", 0, 0, "memory-record", no_values, do_memory_record},
    {"memory-record-edited", 0, 0, "memory-record-edited", no_values, do_memory_record},
    {"memory-load-recording", 1, 1, "memory-load-recording PATH", no_values, do_memory_load_recording},
    {"record-timeline", 0, 0, "record-timeline", no_values, do_record_timeline},
    {"timeline-zoom", 1, 1, "timeline-zoom all|start", check_timeline_zoom, do_timeline_zoom},
    {"timeline-blocks", 2, 2, "timeline-blocks FIRST COUNT", check_timeline_blocks, do_timeline_blocks},
    {"mapping-colour", 1, 1, "mapping-colour warp|lane|register", check_mapping_colour, do_mapping_colour},
    {"mapping-lane", 1, 1, "mapping-lane N", check_word<int, lane_word>, do_mapping_lane},
    {"mapping-warp", 1, 1, "mapping-warp N|all", check_mapping_warp, do_mapping_warp},
    {"mapping-banks", 1, 1, "mapping-banks swizzled|plain", check_mapping_banks, do_mapping_banks},
    {"wait", 0, 1, "wait [SECONDS]", check_wait, do_wait},
    {"frames", 1, 1, "frames N", check_word<int, frames_word>, do_frames},
    {"load-csv", 1, 1, "load-csv PATH", no_values, [](Action& x) { status_on_failure(x, x.app.load_csv(x.w[1])); }},
    {"export-csv", 1, 1, "export-csv PATH", no_values,
     [](Action& x) { status_on_failure(x, x.app.export_csv(x.w[1])); }},
    {"screenshot", 1, 1, "screenshot PATH", no_values, [](Action& x) { x.ticket = x.app.request_screenshot(x.w[1]); }},
    {"export-plot", 1, 3, "export-plot PATH [W H]", check_export_plot, do_export_plot},
    {"use-all", 1, 1, "use-all on|off", check_word<bool, bool_word>, do_use_all},
    {"controls", 1, 1, "controls on|off", check_word<bool, bool_word>,
     [](Action& x) { x.app.controls().set_open(word_value<bool, bool_word>(x)); }},
    {"focus", 1, 1, "focus VARIANT", check_focus, do_focus_or_use},
    {"use", 2, 2, "use VARIANT[:CONFIG] on|off", check_use, do_focus_or_use},
    {"set", 1, 3, "set KEY VALUE", check_set, do_set},
};

const ActionEntry* find_action(const std::string& name) {
  for (const ActionEntry& e : kActions)
    if (name == e.name) return &e;
  return nullptr;
}

// ---- a lesson's promises: `# expect: NAME VALUES` lines ---------------------------------------

// "N" or ">= N" after a promise's name: the number and whether it is a least value.
struct Count {
  int value = 0;
  bool at_least = false;
};
std::string count_words(const std::vector<std::string>& w, Count* out) {
  const bool at_least = w.size() == 3;
  if (at_least && w[1] != ">=") return "'" + w[1] + "' is not >= (" + w[0] + " N, or " + w[0] + " >= N)";
  out->at_least = at_least;
  return int_word(w.back(), kIndex, &out->value);
}
std::string check_count(const std::vector<std::string>& w) {
  Count c;
  return count_words(w, &c);
}
// "" when `have` keeps the promise `w` makes, else what was found.
std::string compare_count(const std::vector<std::string>& w, int have, const char* what) {
  Count c;
  count_words(w, &c);
  const bool kept = c.at_least ? have >= c.value : have == c.value;
  return kept ? "" : std::string(what) + " " + std::to_string(have);
}

// The tabs a promise may name, and the App's tab each word means.
const char* const kTabWords = "timing|mapping|history|source|tune|gpus";
bool named_tab_word(const std::string& word) {
  return word == "timing" || word == "mapping" || word == "history" || word == "source" || word == "tune" ||
         word == "gpus";
}
const Tab* named_tab(App& app, const std::string& word) {
  if (word == "source") return &app.source();
  if (word == "tune") return &app.tune();
  if (word == "timing") return &app.timing();
  if (word == "mapping") return &app.mapping();
  if (word == "history") return &app.history_panel();
  if (word == "gpus") return &app.gpus();
  return nullptr;
}

const char* view_word(MappingPanel::View view) {
  for (const NamedView& v : kMappingViews)
    if (v.view == view) return v.word;
  return "?";
}

// What a promise may state: its name, its values after the name (min, max), its usage, the check
// of its values before the script runs, and "" when it holds now, else what was found instead.
struct ExpectationEntry {
  const char* name;
  int min_words, max_words;
  const char* usage;
  Checker check;
  std::string (*found)(App& app, const std::vector<std::string>& w);
};
const ExpectationEntry kExpectations[] = {
    {"focus", 1, 1, "focus VARIANT", check_focus,
     [](App& app, const std::vector<std::string>& w) {
       const AppState& s = app.state();
       const std::string& id = s.lesson[static_cast<std::size_t>(s.focused)].variant_id;
       return id == w[1] ? std::string() : "the focus is on " + id;
     }},
    {"tab", 1, 1, "tab timing|mapping|history|source|tune|gpus",
     [](const std::vector<std::string>& w) { return named_word(named_tab_word(w[1]), w[1], kTabWords); },
     [](App& app, const std::vector<std::string>& w) {
       const Tab* shown = app.shown_tab();
       if (shown == named_tab(app, w[1])) return std::string();
       return "the tab shown is " + std::string(shown ? shown->title() : "none yet");
     }},
    {"view", 1, 1, "view matrices|fragments|banks|timeline|memory", check_mapping_view,
     [](App& app, const std::vector<std::string>& w) {
       const char* shown = view_word(app.mapping().view());
       return w[1] == shown ? std::string() : "the Mapping tab's view is " + std::string(shown);
     }},
    {"phase", 1, 2, "phase [>=] N", check_count,
     [](App& app, const std::vector<std::string>& w) { return compare_count(w, app.mapping().phase(), "phase"); }},
    {"results", 1, 2, "results [>=] N", check_count,
     [](App& app, const std::vector<std::string>& w) {
       return compare_count(w, static_cast<int>(app.history().size()), "results in the history:");
     }},
    {"plot", 1, 1, "plot timing|roofline", check_plot_kind,
     [](App& app, const std::vector<std::string>& w) {
       const bool roofline = app.timing().plot_kind() == TimingPlotKind::Roofline;
       return (w[1] == "roofline") == roofline ? std::string()
                                               : std::string("the plot is ") + (roofline ? "roofline" : "timing");
     }},
    {"edit", 1, 1, "edit compiled|passed|failed|error",
     [](const std::vector<std::string>& w) {
       return named_word(w[1] == "compiled" || w[1] == "passed" || w[1] == "failed" || w[1] == "error", w[1],
                         "compiled|passed|failed|error");
     },
     [](App& app, const std::vector<std::string>& w) {
       const std::string said = edit_outcome_word(app.source().editor().last());
       return said == w[1] ? std::string() : "the last edit's outcome is " + said;
     }},
    {"memory-source", 1, 1, "memory-source model|recorded|edited",
     [](const std::vector<std::string>& w) {
       return named_word(w[1] == "model" || w[1] == "recorded" || w[1] == "edited", w[1], "model|recorded|edited");
     },
     [](App& app, const std::vector<std::string>& w) {
       const WarpAccessView& view = app.mapping().warp_access_view();
       const WarpAccessView::Source source = view.source();
       const char* shown = source == WarpAccessView::Source::Recorded     ? "recorded"
                           : source == WarpAccessView::Source::EditBeside ? "edited"
                                                                          : "model";
       if (w[1] == shown) return std::string();
       const std::string& note = view.recorder().note();
       const char* words = source == WarpAccessView::Source::Recorded ? "a recording"
                           : source == WarpAccessView::Source::EditBeside
                               ? "an edit's recording beside the shipped kernel"
                               : "the model's addresses";
       return "the Memory view shows " + std::string(words) + (note.empty() ? std::string() : " (" + note + ")");
     }},
    {"idle", 0, 0, "idle", no_values,
     [](App& app, const std::vector<std::string>&) { return app.busy() ? std::string("still busy") : std::string(); }},
    // Said of the action line below it: checked when that line plays (ScriptPlayer::report).
    {"fails-without-gpu", 0, 0, "fails-without-gpu", no_values,
     [](App&, const std::vector<std::string>&) { return std::string(); }},
};

const ExpectationEntry* find_expectation(const std::string& name) {
  for (const ExpectationEntry& e : kExpectations)
    if (name == e.name) return &e;
  return nullptr;
}

// The words of a `# expect:` line ("# expect: phase >= 2" gives phase, >=, 2), or nothing.
bool expectation_words(const std::string& raw, std::vector<std::string>* words) {
  std::istringstream in(raw);
  std::string hash, expect;
  if (!(in >> hash) || hash != "#" || !(in >> expect) || expect != "expect:") return false;
  words->clear();
  for (std::string w; in >> w;) words->push_back(w);
  return true;
}

}  // namespace

std::string check_expectation(const std::vector<std::string>& w) {
  const ExpectationEntry* e = w.empty() ? nullptr : find_expectation(w[0]);
  if (!e) {
    std::string names;
    for (const ExpectationEntry& x : kExpectations) names += std::string(names.empty() ? "" : ", ") + x.name;
    return w.empty() ? "expect: what? (" + names + ")" : "expect: unknown promise '" + w[0] + "' (" + names + ")";
  }
  const int n = static_cast<int>(w.size()) - 1;
  if (n < e->min_words || n > e->max_words) return "expect: wrong number of words: " + std::string(e->usage);
  const std::string why = e->check(w);
  return why.empty() ? "" : "expect " + w[0] + ": " + why;
}

std::string check_script_line(const std::vector<std::string>& w) {
  const ActionEntry* e = find_action(w[0]);
  if (!e) return "unknown action '" + w[0] + "'";
  const int n = static_cast<int>(w.size()) - 1;
  // export-plot takes PATH or PATH W H, not PATH W.
  const bool count_ok = n >= e->min_words && n <= e->max_words && !(w[0] == "export-plot" && n == 2);
  if (!count_ok) return "wrong number of words: " + std::string(e->usage);
  return e->check(w);
}

bool ScriptPlayer::load_file(const std::string& path, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = path + ": cannot read the script: " + std::strerror(errno);
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return load_text(text.str(), path, error);
}

bool ScriptPlayer::load_text(const std::string& text, const std::string& name, std::string* error) {
  name_ = name;
  lines_.clear();
  pending_.clear();
  std::istringstream in(text);
  std::string raw;
  int number = 0;
  int fails_without_gpu_line = 0;  // a `# expect: fails-without-gpu` waiting for its action line
  auto refuse = [&](int at, const std::string& why) {
    *error = name + ":" + std::to_string(at) + ": " + why;
    lines_.clear();
    return false;
  };
  while (std::getline(in, raw)) {
    ++number;
    Line line;
    line.number = number;
    if (expectation_words(raw, &line.words)) {
      const std::string why = check_expectation(line.words);
      if (!why.empty()) return refuse(number, why);
      if (line.words[0] == "fails-without-gpu")
        fails_without_gpu_line = number;
      else
        line.expectation = true, lines_.push_back(line);
      continue;
    }
    const auto hash = raw.find('#');
    if (hash != std::string::npos) raw.erase(hash);
    std::istringstream words(raw);
    for (std::string w; words >> w;) line.words.push_back(w);
    if (line.words.empty()) continue;
    const std::string why = check_script_line(line.words);
    if (!why.empty()) return refuse(number, why);
    line.fails_without_gpu = fails_without_gpu_line > 0;
    fails_without_gpu_line = 0;
    lines_.push_back(line);
  }
  if (fails_without_gpu_line > 0)
    return refuse(fails_without_gpu_line, "expect fails-without-gpu: no action follows it");
  next_ = 0;
  return true;
}

void ScriptPlayer::report(App& app, int line, bool failure_expected, const std::string& why,
                          std::vector<std::string>* failures) {
  // A line said to fail without a GPU: there, its failure is the lesson's promise (the window
  // shows why); with a GPU it must work.
  if (failure_expected && !app.runner().gpu()) return;
  failures->push_back(name_ + ":" + std::to_string(line) + ": " + why);
}

void ScriptPlayer::collect_outcomes(App& app, std::vector<std::string>* failures) {
  for (auto p = pending_.begin(); p != pending_.end();) {
    App::WorkOutcome outcome;
    if (!app.work_outcome(p->ticket, &outcome)) {
      ++p;
      continue;
    }
    if (!outcome.ok) report(app, p->line, p->failure_expected, outcome.message, failures);
    p = pending_.erase(p);
  }
}

bool ScriptPlayer::pending_files() const {
  return std::any_of(pending_.begin(), pending_.end(), [](const Pending& p) { return p.file; });
}

bool ScriptPlayer::step(App& app, std::vector<std::string>* failures) {
  collect_outcomes(app, failures);
  if (quit_) return false;
  if (frames_left_ > 0) {
    --frames_left_;
    return true;
  }
  if (waiting_) {
    if (app.busy() && now_s() < wait_deadline_) return true;
    waiting_ = false;
    if (app.busy()) {
      failures->push_back(name_ + ":" + std::to_string(wait_line_) + ": wait timed out; cancelled the work");
      app.cancel();
    }
    collect_outcomes(app, failures);  // the job the wait was for
  }
  if (waiting_timeline_) {
    const bool recording = app.mapping().timeline_recording();
    if (recording && now_s() < wait_deadline_) return true;
    waiting_timeline_ = false;
    const std::string why = recording ? "timed out" : app.mapping().timeline_error();
    if (!why.empty()) report(app, timeline_line_, timeline_failure_expected_, "record-timeline: " + why, failures);
  }
  while (next_ < lines_.size()) {
    const Line& line = lines_[next_++];
    if (line.expectation) {
      ++promises_checked_;
      const std::string found = find_expectation(line.words[0])->found(app, line.words);
      if (!found.empty()) {
        std::string promise;
        for (const std::string& w : line.words) promise += (promise.empty() ? "" : " ") + w;
        report(app, line.number, false, "expected " + promise + ", but " + found, failures);
      }
      continue;
    }
    std::string why;
    App::WorkTicket ticket = 0;
    if (!perform(app, line, &why, &ticket)) report(app, line.number, line.fails_without_gpu, why, failures);
    const std::string& a = line.words[0];
    if (ticket != 0)
      pending_.push_back({ticket, line.number, a == "export-plot" || a == "screenshot", line.fails_without_gpu});
    if (quit_) return false;
    const bool waits = a == "wait" || a == "edit-check" || a == "edit-run" || a == "tune-export-png" ||
                       a == "memory-record" || a == "memory-record-edited";
    if (waits) wait_line_ = line.number;
    if (a == "record-timeline") timeline_line_ = line.number, timeline_failure_expected_ = line.fails_without_gpu;
    // Actions that need frames to pass hand control back to the frame loop.
    if (waits || a == "frames" || a == "export-plot" || a == "screenshot" || a == "run" || a == "sweep" ||
        a == "live" || a == "record-timeline" || a == "tune-start")
      return true;
  }
  // The end: files asked for are written after the frame, so the script waits for them; a run
  // still under way is not waited for (the program ends, which cancels it): end with `wait`.
  collect_outcomes(app, failures);
  return frames_left_ > 0 || waiting_ || waiting_timeline_ || pending_files();
}

bool ScriptPlayer::perform(App& app, const Line& line, std::string* why, App::WorkTicket* ticket) {
  Action x{app, line.words, why, *ticket, quit_, waiting_, waiting_timeline_, wait_deadline_, frames_left_};
  // load_text admitted only lines that check_script_line accepts: the action exists.
  const ActionEntry* e = find_action(line.words[0]);
  if (!e) return *why = "unknown action '" + line.words[0] + "'", false;
  e->handler(x);
  return !x.failed;
}

}  // namespace tilescope
