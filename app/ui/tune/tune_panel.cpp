#include "app/ui/tune/tune_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "app/cli/tune_args.h"
#include "app/cli/tune_command.h"
#include "app/export/atomic_file.h"
#include "app/export/count_text.h"
#include "app/export/printable_text.h"
#include "app/platform/compile_threads.h"
#include "app/runner/runner.h"
#include "app/runner/timing_history.h"
#include "app/ui/shell/app.h"
#include "app/ui/shell/file_paths.h"
#include "app/ui/shell/widgets.h"
#include "app/ui/tune/tune_landscape.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/device_info.h"

namespace tilescope {
namespace {

const ImVec4 kErrorColour(1, 0.45f, 0.35f, 1);

std::vector<const VariantDescriptor*> typed_variants() {
  std::vector<const VariantDescriptor*> out;
  for (const VariantDescriptor* v : variant_registry())
    if (takes_typed_tiles(*v)) out.push_back(v);
  return out;
}

// Sorted values as the field shows them: LO:HI:STEP when evenly spaced (three or more), else a list.
std::string values_text(const std::vector<int>& values) {
  const std::size_t n = values.size();
  bool even = n >= 3 && values[1] > values[0];
  for (std::size_t i = 2; even && i < n; ++i) even = values[i] - values[i - 1] == values[1] - values[0];
  if (even)
    return std::to_string(values[0]) + ":" + std::to_string(values[n - 1]) + ":" +
           std::to_string(values[1] - values[0]);
  std::string out;
  for (int v : values) out += (out.empty() ? "" : ",") + std::to_string(v);
  return out;
}

// Text of several lines made printable line by line (printable_text would show the breaks as \x0A).
std::string printable_lines(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = text.find('\n', start);
    out += printable_text(text.substr(start, end - start));
    if (end == std::string::npos) return out;
    out += '\n';
    start = end + 1;
  }
}

// "about 12 s left", as the controls' progress bar says it.
std::string time_left(double s) {
  char text[48];
  std::snprintf(text, sizeof text, ", about %.0f s left", s + 0.5);
  return text;
}

bool same_input(const RunResult& r, const TuneTable& t) {
  return r.problem == t.problem && r.precision == t.precision && r.shape.M == t.shape.M && r.shape.N == t.shape.N &&
         r.shape.K == t.shape.K;
}

}  // namespace

TunePanel::TunePanel() {
  reset_fields();
}

TunePanel::~TunePanel() {
  // The compiling threads stop handing out points; the one compile under way ends on its own.
  stop_ = true;
}

const VariantDescriptor* TunePanel::variant() const {
  const std::vector<const VariantDescriptor*> all = typed_variants();
  return all.empty() ? nullptr : all[std::clamp<int>(variant_, 0, static_cast<int>(all.size()) - 1)];
}

void TunePanel::reset_fields() {
  fields_.clear();
  x_key_.clear(), y_key_.clear();
  const VariantDescriptor* v = variant();
  if (!v) return;
  // The first two parameters swept from a quarter to twice the default configuration's value, the
  // rest held there: a first landscape that shows both good and refused tiles.
  const std::vector<TuneParam> params = default_tune_params(*v);
  for (std::size_t i = 0; i < params.size(); ++i) {
    Field f;
    f.key = params[i].key;
    f.meaning = v->tile_params[i].meaning;
    const int d = params[i].values.empty() ? 1 : params[i].values[0];
    const std::string text = i < 2 && d >= 4
                                 ? std::to_string(d / 4) + ":" + std::to_string(d * 2) + ":" + std::to_string(d / 4)
                                 : std::to_string(d);
    std::snprintf(f.text, sizeof f.text, "%s", text.c_str());
    fields_.push_back(f);
  }
}

bool TunePanel::choose_variant(const std::string& id) {
  variant_chosen_ = true;
  const std::vector<const VariantDescriptor*> all = typed_variants();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (id == all[i]->id) {
      if (static_cast<int>(i) != variant_ || fields_.empty()) variant_ = static_cast<int>(i), reset_fields();
      return true;
    }
  return false;
}

bool TunePanel::set_values(const std::string& key, const std::string& text) {
  for (Field& f : fields_)
    if (f.key == key) {
      std::snprintf(f.text, sizeof f.text, "%s", text.c_str());
      loaded_from_.clear();
      return true;
    }
  return false;
}

bool TunePanel::set_axes(const std::string& x_key, const std::string& y_key) {
  auto known = [&](const std::string& key) {
    return std::any_of(fields_.begin(), fields_.end(), [&](const Field& f) { return f.key == key; });
  };
  if (x_key == y_key || !known(x_key) || !known(y_key)) return false;
  x_key_ = x_key;
  y_key_ = y_key;
  loaded_from_.clear();
  return true;
}

void TunePanel::set_size(int n) {
  size_ = std::clamp(n, 16, kMaxMatrixSize);
  loaded_from_.clear();
}

std::string TunePanel::plan_key(const TabContext& ctx) const {
  std::string key = std::string(variant() ? variant()->id : "") + "|" + to_string(ctx.state.problem) + "|" +
                    to_string(ctx.state.precision) + "|" + std::to_string(size_) + "|" + x_key_ + "|" + y_key_;
  for (const Field& f : fields_) key += "|" + f.key + "=" + f.text;
  return key;
}

void TunePanel::replan(const TabContext& ctx) {
  if (phase_ != Phase::Idle || !loaded_from_.empty()) return;
  const std::string key = plan_key(ctx);
  if (key == planned_) return;
  planned_ = key;
  const VariantDescriptor* v = variant();
  table_ = TuneTable{};
  selected_ = hovered_ = -1;
  field_error_.clear();
  if (!v) return;
  std::vector<TuneParam> params;
  for (Field& f : fields_) {
    TuneParam p{f.key, {}};
    f.error.clear();
    if (!parse_tune_values(f.key, f.text, &p.values, &f.error) && field_error_.empty()) field_error_ = f.error;
    params.push_back(p);
  }
  if (field_error_.empty() && tune_grid_size(params) > kMaxTunePoints)
    field_error_ =
        "the grid has " + std::to_string(tune_grid_size(params)) + " points; at most " + std::to_string(kMaxTunePoints);
  if (field_error_.empty()) {
    // Axes: the chosen ones while they stay ranged, else the first two ranged parameters.
    if (!tune_axes_error(params, x_key_, y_key_).empty()) default_tune_axes(params, &x_key_, &y_key_);
    if (const std::string e = tune_axes_error(params, x_key_, y_key_); !e.empty()) field_error_ = e;
  }
  planned_ = plan_key(ctx);  // with the axes as settled
  if (!field_error_.empty()) {
    rebuild_model();
    return;
  }
  problem_ = supports(*v, ctx.state.problem) ? ctx.state.problem : v->problems.front();
  precision_ = supports(*v, ctx.state.precision) ? ctx.state.precision : v->precisions.front();
  table_.variant = v->id;
  for (const TuneParam& p : params) table_.keys.push_back(p.key);
  table_.problem = problem_;
  table_.precision = precision_;
  table_.shape = normalised(problem_, Shape{size_, size_, size_});
  const bool gpu = ctx.runner.gpu() && ctx.device.ok();
  table_.device = gpu ? ctx.device.name : "";
  table_.points = check_tune_points(*v, tune_grid(params), problem_, precision_, gpu ? &ctx.device.limits : nullptr);
  folded_ = ctx.history.size();  // results from here on may be this grid's
  rebuild_model();
}

void TunePanel::rebuild_model() {
  fill_tune_pct(&table_);
  model_ = table_.points.empty() ? LandscapeModel{} : build_landscape(landscape_input(table_, x_key_, y_key_));
  // The tab writes the title and subtitle as text that wraps (a long variant name at presenter
  // size is wider than the grid); the PNG keeps them drawn.
  title_ = model_.title;
  subtitle_ = model_.subtitle;
  model_.title.clear();
  model_.subtitle.clear();
  if (selected_ >= static_cast<int>(model_.cells.size())) selected_ = -1;
}

std::string TunePanel::start_blocker(const TabContext& ctx) const {
  if (!ctx.runner.gpu() || !ctx.device.ok())
    return "timing needs a GPU: " + (ctx.device.ok() ? std::string("this window runs without one")
                                     : ctx.device.unavailable_reason.empty() ? std::string("none was found")
                                                                             : ctx.device.unavailable_reason);
  if (phase_ != Phase::Idle) return "a sweep is under way";
  if (ctx.runner.progress().busy) return "the runner is busy: cancel the current work first";
  if (!field_error_.empty()) return field_error_;
  if (!loaded_from_.empty()) return "this landscape was loaded from a file: change a field to plan a new one";
  // A grid already timed is timed again (Start plans it afresh).
  const bool any = std::any_of(table_.points.begin(), table_.points.end(),
                               [](const TunePoint& p) { return p.status != TuneStatus::Refused; });
  return any ? "" : "every point is refused: nothing to time";
}

bool TunePanel::start(TabContext& ctx) {
  replan(ctx);
  // Nothing left to time in this grid (a sweep ended): the same grid again, every point afresh.
  if (loaded_from_.empty() && std::none_of(table_.points.begin(), table_.points.end(),
                                           [](const TunePoint& p) { return p.status == TuneStatus::Pending; })) {
    planned_.clear();
    replan(ctx);
  }
  if (const std::string why = start_blocker(ctx); !why.empty()) {
    ctx.app.set_status("cannot start the tune sweep: " + why, true);
    return false;
  }
  const VariantDescriptor* v = variant();
  stop_ = false;
  compiled_ = 0;
  to_compile_ = static_cast<std::size_t>(std::count_if(
      table_.points.begin(), table_.points.end(), [](const TunePoint& p) { return p.status == TuneStatus::Pending; }));
  compile_start_ = std::chrono::steady_clock::now();
  compile_ = std::make_unique<BackgroundResult<Compiled>>();
  const int jobs = window_compile_threads();
  compile_->start([this, v, table = table_, jobs]() mutable {
    precompile_tune_points(*v, &table, jobs, stop_, [this](std::size_t done, std::size_t) { compiled_ = done; });
    return Compiled{std::move(table)};
  });
  phase_ = Phase::Compiling;
  ctx.app.set_status("tune: compiling " + count_text(to_compile_.load(), "point", "points") + " ...", false);
  return true;
}

void TunePanel::stop_compiling() {
  if (phase_ == Phase::Compiling) stop_ = true;
}

void TunePanel::poll(TabContext& ctx) {
  take_compiled(ctx);
  if (phase_ == Phase::Timing && !ctx.runner.progress().busy) {
    fold_history(ctx);
    phase_ = Phase::Idle;
  }
}

void TunePanel::take_compiled(TabContext& ctx) {
  Compiled done;
  if (phase_ != Phase::Compiling || !compile_ || !compile_->take_result(&done)) return;
  compile_.reset();
  for (std::size_t i = 0; i < table_.points.size() && i < done.table.points.size(); ++i) {
    table_.points[i].compile_seconds = done.table.points[i].compile_seconds;
    if (done.table.points[i].status == TuneStatus::Error) table_.points[i] = done.table.points[i];
  }
  rebuild_model();
  if (stop_) {
    phase_ = Phase::Idle;
    ctx.app.set_status("tune: cancelled while compiling", false);
    return;
  }
  // cuBLAS first (the % column needs it), then every point that compiled, verified.
  std::vector<RunRequest> requests;
  auto request = [&](const std::string& id, int config) {
    RunRequest r;
    r.variant_id = id;
    r.config_index = config;
    r.problem = table_.problem;
    r.precision = table_.precision;
    r.shape = table_.shape;
    r.repetitions = ctx.state.repetitions;
    r.verify = true;  // a wrong tile is a failure, never a fast one
    requests.push_back(r);
  };
  const VariantDescriptor* base = nullptr;
  int base_config = 0;
  if (tune_baseline(table_.problem, table_.precision, tune_output_type(table_), ctx.device.limits, &base,
                    &base_config)) {
    table_.baseline_variant = base->id;
    table_.baseline_config = config_at(*base, base_config).name;
    request(base->id, base_config);
  }
  for (const TunePoint& p : table_.points)
    if (p.status == TuneStatus::Pending) request(table_.variant, p.config_index);
  folded_ = ctx.history.size();
  phase_ = ctx.app.start_runs(JobKind::Sweep, std::move(requests)) ? Phase::Timing : Phase::Idle;
}

void TunePanel::fold_history(const TabContext& ctx) {
  const std::shared_ptr<const std::vector<RunResult>> rows = ctx.history.rows();
  if (folded_ > rows->size()) folded_ = rows->size();  // the history was cleared
  const VariantDescriptor* v = find_variant(table_.variant);
  bool changed = false;
  for (; folded_ < rows->size(); ++folded_) {
    const RunResult& r = (*rows)[folded_];
    if (!same_input(r, table_)) continue;
    TunePoint* into = nullptr;
    if (!table_.baseline_variant.empty() && r.variant_id == table_.baseline_variant &&
        r.config_name == table_.baseline_config)
      into = &table_.baseline;
    for (TunePoint& p : table_.points)
      if (!into && v && r.variant_id == table_.variant && p.config_index >= 0 &&
          config_at(*v, p.config_index).name == r.config_name && p.status != TuneStatus::Refused)
        into = &p;
    if (!into) continue;
    record_tune_result(r, into);
    // A run cut short by Cancel is no result: the point waits again.
    if (into->status == TuneStatus::Error && into->reason == "cancelled") into->status = TuneStatus::Pending;
    changed = true;
  }
  if (changed) rebuild_model();
}

bool TunePanel::select_cell(TabContext& ctx, int cell) {
  if (cell < 0 || cell >= static_cast<int>(model_.cells.size())) return false;
  selected_ = cell;
  const LandscapeCell& c = model_.cells[cell];
  if (c.point < 0 || c.point >= static_cast<int>(table_.points.size())) return false;
  const TunePoint& p = table_.points[c.point];
  const VariantDescriptor* v = find_variant(table_.variant);
  if (!v || p.config_index < 0) {
    ctx.app.set_status("tune: " + tile_values_text(p.values) + " is refused, so there is no configuration to select",
                       false);
    return false;
  }
  for (std::size_t i = 0; i < ctx.state.lesson.size(); ++i) {
    LessonEntry& e = ctx.state.lesson[i];
    if (e.variant_id != v->id) continue;
    e.config_index = p.config_index;
    e.enabled = true;
    ctx.state.focused = static_cast<int>(i);
    ctx.app.set_status(std::string(v->label) + ": selected " + config_at(*v, p.config_index).name +
                           " (Mapping and Source show it; Run times it)",
                       false);
    return true;
  }
  return false;
}

std::string TunePanel::cell_text(int cell) const {
  if (cell < 0 || cell >= static_cast<int>(model_.cells.size())) return "";
  const LandscapeCell& c = model_.cells[cell];
  std::string text = landscape_cell_text(model_, c);
  if (c.status == LandscapeStatus::Ok && c.point >= 0 && c.point < static_cast<int>(table_.points.size())) {
    const TunePoint& p = table_.points[c.point];
    char line[128];
    if (p.registers > 0) std::snprintf(line, sizeof line, "\n%d registers per thread", p.registers), text += line;
    if (p.occupancy >= 0) std::snprintf(line, sizeof line, "\noccupancy %.0f%%", 100.0 * p.occupancy), text += line;
  }
  if (c.point >= 0) text += "\nclick: select this configuration";
  return text;
}

bool TunePanel::write_csv(const std::string& path, std::string* error) const {
  if (table_.points.empty()) {
    *error = "the landscape has no points to write";
    return false;
  }
  return write_file_atomically(path, tune_to_csv(table_), error);
}

bool TunePanel::load_csv(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  TuneTable t;
  if (!in || !tune_from_csv(s.str(), &t, error)) {
    if (error->empty()) *error = "cannot read it";
    return false;
  }
  // The fields show the loaded values, so that the table and the controls agree.
  if (!choose_variant(t.variant)) {
    *error = "its variant " + t.variant + " takes no typed tiles in this program";
    return false;
  }
  std::vector<TuneParam> params;
  for (const std::string& key : t.keys) {
    std::set<int> seen;  // sorted, each once
    for (const TunePoint& point : t.points) seen.insert(tile_value(point.values, key, 0));
    params.push_back({key, std::vector<int>(seen.begin(), seen.end())});
    set_values(key, values_text(params.back().values));
  }
  default_tune_axes(params, &x_key_, &y_key_);
  if (const std::string e = tune_axes_error(params, x_key_, y_key_); !e.empty()) {
    *error = e;
    return false;
  }
  size_ = static_cast<int>(t.shape.N);
  problem_ = t.problem;
  precision_ = t.precision;
  table_ = std::move(t);
  loaded_from_ = path;
  planned_.clear();
  selected_ = hovered_ = -1;
  field_error_.clear();
  rebuild_model();
  return true;
}

void TunePanel::draw(TabContext& ctx) {
  const std::vector<const VariantDescriptor*> all = typed_variants();
  if (all.empty()) {
    ImGui::TextWrapped("No variant of this program takes typed tiles, so there is nothing to tune.");
    return;
  }
  if (!variant_chosen_) {
    // First shown: the variant the controls focus, when it takes typed tiles, else the last one.
    variant_chosen_ = true;
    const int f = ctx.state.focused;
    const bool focused_typed = f >= 0 && f < static_cast<int>(ctx.state.lesson.size()) &&
                               choose_variant(ctx.state.lesson[static_cast<std::size_t>(f)].variant_id);
    if (!focused_typed) choose_variant(all.back()->id);
  }
  replan(ctx);
  fold_history(ctx);
  // On a projector the grid needs the height: the settings start folded there (a click unfolds them).
  ImGui::SetNextItemOpen(!ctx.state.presenter, ImGuiCond_Appearing);
  if (ImGui::CollapsingHeader("Sweep settings")) draw_inputs();
  draw_actions(ctx);
  draw_grid(ctx);
  draw_chooser(ctx);
}

bool TunePanel::export_png(App& app, const std::string& path) {
  std::string error;
  if (table_.points.empty() || exporting_png()) {
    app.set_status(exporting_png() ? "the landscape is still being drawn into " + png_path_
                                   : "the landscape has no points to draw",
                   true);
    return false;
  }
  const std::string& dir = png_folder_.path(&error);
  const std::string csv = dir + "/landscape.csv";
  if (dir.empty() || !write_csv(csv, &error)) {
    app.set_status("cannot export the landscape: " + error, true);
    return false;
  }
  const std::vector<std::string> args = {
      app.worker_program(), "tune",     "--from-csv", csv, "--x", x_key_, "--y", y_key_, "--png", path,
      "--png-size",         "1920x1080"};
  if (!png_worker_.start(args, dir + "/output.txt", &error)) {
    app.set_status("cannot export the landscape: " + error, true);
    return false;
  }
  png_path_ = path;
  app.set_status("drawing the landscape into " + path + " ...", false);
  return true;
}

void TunePanel::poll_png_export(App& app) {
  if (png_path_.empty() || png_worker_.running()) return;
  const ChildProcess::Ending& e = png_worker_.ending();
  if (e.exited && e.code == 0) {
    app.set_status("wrote " + png_path_, false);
  } else {
    std::string unused;
    std::ifstream in(png_folder_.path(&unused) + "/output.txt");
    std::string line, said;
    while (std::getline(in, line))
      if (!line.empty()) said = line;
    app.set_status("cannot export the landscape to " + png_path_ + ": " + (said.empty() ? ending_text(e) : said), true);
  }
  png_path_.clear();
}

void TunePanel::draw_inputs() {
  const std::vector<const VariantDescriptor*> all = typed_variants();
  const float em = ImGui::GetFontSize();
  ImGui::BeginDisabled(phase_ != Phase::Idle);
  float longest = 0;
  for (const VariantDescriptor* v : all) longest = std::max(longest, text_width(v->label));
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Variant");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(combo_width(longest));
  if (ImGui::BeginCombo("##tune_variant", variant()->label)) {
    for (std::size_t i = 0; i < all.size(); ++i)
      if (ImGui::Selectable(all[i]->label, static_cast<int>(i) == variant_)) {
        choose_variant(all[i]->id);
        loaded_from_.clear();
      }
    ImGui::EndCombo();
  }
  char input[96];
  std::snprintf(input, sizeof input, "%s %s", to_string(problem_), to_string(precision_));
  same_line_if_fits(text_width("size") + em * 7 + text_width(input) + em * 6);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("size");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 5);
  int n = size_;
  if (ImGui::InputInt("##tune_size", &n, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue)) set_size(n);
  help_tooltip("M = N = K of every run. The problem and the input type are the controls' (left).");
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%s", input);

  // The axes: two of the swept parameters.
  std::vector<std::string> ranged;
  for (const Field& f : fields_) {
    std::vector<int> values;
    std::string error;
    if (parse_tune_values(f.key, f.text, &values, &error) && values.size() > 1) ranged.push_back(f.key);
  }
  auto axis_combo = [&](const char* label, std::string* key, bool allow_none) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(em * 6);
    if (ImGui::BeginCombo((std::string("##tune_axis_") + label).c_str(), key->empty() ? "none" : key->c_str())) {
      if (allow_none && ImGui::Selectable("none", key->empty())) key->clear(), loaded_from_.clear();
      for (const std::string& k : ranged)
        if (ImGui::Selectable(k.c_str(), k == *key)) *key = k, loaded_from_.clear();
      ImGui::EndCombo();
    }
  };
  same_line_if_fits(text_width("across") + em * 7, em);
  axis_combo("across", &x_key_, false);
  same_line_if_fits(text_width("down") + em * 7, em);
  axis_combo("down", &y_key_, true);
  // One field per tile parameter, wrapping like a toolbar.
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    Field& f = fields_[i];
    const float w = text_width(f.key.c_str()) + em * 5.5f;
    if (i > 0) same_line_if_fits(w, em);
    ImGui::AlignTextToFramePadding();
    if (f.error.empty())
      ImGui::TextUnformatted(f.key.c_str());
    else
      ImGui::TextColored(kErrorColour, "%s", f.key.c_str());
    help_tooltip((f.meaning + ". Values: LO:HI:STEP, a list (32,64,96) or one value.").c_str());
    ImGui::SameLine();
    ImGui::SetNextItemWidth(em * 5);
    if (ImGui::InputText(("##tune_" + f.key).c_str(), f.text, sizeof f.text)) loaded_from_.clear();
  }
  ImGui::EndDisabled();
  if (!field_error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorColour);
    ImGui::TextWrapped("%s", printable_text(field_error_).c_str());
    ImGui::PopStyleColor();
  }
}

void TunePanel::draw_actions(TabContext& ctx) {
  const float em = ImGui::GetFontSize();
  const std::string blocker = start_blocker(ctx);
  if (phase_ == Phase::Idle) {
    ImGui::BeginDisabled(!blocker.empty());
    if (ImGui::Button("Start")) start(ctx);
    ImGui::EndDisabled();
    if (!blocker.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", printable_text(blocker).c_str());
  } else {
    if (ImGui::Button("Cancel##tune")) ctx.app.cancel();
    ImGui::SameLine();
    float fraction = 0;
    std::string overlay;
    if (phase_ == Phase::Compiling) {
      const std::size_t done = compiled_, total = std::max<std::size_t>(1, to_compile_);
      fraction = static_cast<float>(done) / static_cast<float>(total);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - compile_start_).count();
      overlay = "compiled " + std::to_string(done) + " of " + std::to_string(total) +
                (done > 0 ? time_left(s / done * (total - done)) : "");
    } else {
      const RunnerProgress p = ctx.runner.progress();
      fraction = static_cast<float>(p.fraction);
      overlay = "timed " + std::to_string(p.done) + " of " + std::to_string(p.total) +
                (p.eta_s >= 0 ? time_left(p.eta_s) : "");
    }
    ImGui::ProgressBar(fraction, ImVec2(em * 16, 0), overlay.c_str());
  }
  const bool free = phase_ == Phase::Idle && !chooser_.is_open();
  same_line_if_fits(button_width("Load CSV...") + button_width("Export CSV...") + em, em);
  ImGui::BeginDisabled(!free);
  if (ImGui::Button("Load CSV...")) open_chooser(ctx, false, "csv");
  help_tooltip("Draw the landscape of a CSV written by `tilescope tune --csv` or by Export CSV here.");
  ImGui::SameLine();
  ImGui::BeginDisabled(table_.points.empty());
  if (ImGui::Button("Export CSV...")) open_chooser(ctx, true, "csv");
  ImGui::SameLine();
  ImGui::BeginDisabled(!png_path_.empty());
  if (ImGui::Button("Export PNG...")) open_chooser(ctx, true, "png");
  ImGui::EndDisabled();
  help_tooltip("The landscape as a 1920 x 1080 PNG, drawn beside the window by this program (tilescope tune --png).");
  ImGui::EndDisabled();
  ImGui::EndDisabled();
  // What the grid is, in words, where it came from and why Start waits, on the buttons' line where
  // it fits (the grid needs the height); the tooltip has the whole path and reason.
  std::size_t refused = 0, ok = 0;
  for (const TunePoint& p : table_.points) refused += p.status == TuneStatus::Refused, ok += p.status == TuneStatus::Ok;
  std::string line = count_text(table_.points.size(), "point", "points") + ", " + std::to_string(refused) +
                     " refused, " + std::to_string(ok) + " timed";
  std::string details;
  if (!loaded_from_.empty()) {
    line += "; from " + file_name_of(loaded_from_);
    details = "loaded from " + loaded_from_;
  }
  if (phase_ == Phase::Idle && !blocker.empty() && field_error_.empty()) {
    const bool no_gpu = !ctx.runner.gpu() || !ctx.device.ok();
    line += no_gpu ? "; timing needs a GPU" : "; Start: " + blocker;
    details += (details.empty() ? "" : "\n") + ("Start: " + blocker);
  }
  line = printable_text(line);
  same_line_if_fits(text_width(line.c_str()), em);
  ImGui::TextWrapped("%s", line.c_str());
  if (!details.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", printable_lines(details).c_str());
}

void TunePanel::draw_grid(TabContext& ctx) {
  if (!title_.empty()) ImGui::TextWrapped("%s", printable_text(title_ + ", " + subtitle_).c_str());
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (model_.empty() || avail.x < 40 || avail.y < 40) return;
  const ImVec2 min = ImGui::GetCursorScreenPos();
  const ImVec2 max(min.x + avail.x, min.y + avail.y);
  ImGui::InvisibleButton("##tune_grid", avail);
  const bool hovered = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  // The landscape's key is one line of five labels, each with its box and gaps (about 2.6 text
  // heights): where the tab is narrower (presenter mode), the picture's text shrinks to keep it whole.
  const float em = ImGui::GetFontSize();
  const float key_w = text_width("best (starred)refusedfailed its checkerrorshipped configuration") + 14 * em;
  const float scale = std::min(1.0f, avail.x / key_w);
  layout_ = draw_landscape(ImGui::GetWindowDrawList(), min, max, model_, scale, hovered_, selected_, false);
  hovered_ = hovered ? landscape_cell_at(layout_, ImGui::GetIO().MousePos) : -1;
  if (hovered_ >= 0) ImGui::SetTooltip("%s", printable_lines(cell_text(hovered_)).c_str());
  if (clicked && hovered_ >= 0) select_cell(ctx, hovered_);
}

void TunePanel::open_chooser(TabContext& ctx, bool save, const char* extension) {
  FileDialogRequest r;
  r.save = save;
  r.folder = ctx.app.files_folder();
  const bool png = std::string(extension) == "png";
  r.title = png ? "Export the landscape as PNG" : save ? "Export tune CSV" : "Load tune CSV";
  r.filter_label = png ? "PNG images" : "CSV files";
  r.extension = extension;
  if (save) r.file_name = table_.variant + (png ? "-tune.png" : "-tune.csv");
  chosen_ = png ? Chosen::kExportPng : save ? Chosen::kExportCsv : Chosen::kLoadCsv;
  chooser_.open(r, {}, ctx.app.files_folder());
}

void TunePanel::draw_chooser(TabContext& ctx) {
  if (!chooser_.is_open()) return;
  chooser_.take_keys();
  if (!chooser_.draw()) return;
  const std::string path = chooser_.chosen_path();
  std::string error;
  if (chosen_ == Chosen::kExportCsv) {
    if (write_csv(path, &error))
      ctx.app.set_status("wrote " + path + " (" + count_text(table_.points.size(), "point", "points") + ")", false);
    else
      ctx.app.set_status("cannot write " + path + ": " + error, true);
  } else if (chosen_ == Chosen::kExportPng) {
    export_png(ctx.app, path);
  } else if (chosen_ == Chosen::kLoadCsv) {
    if (load_csv(path, &error))
      ctx.app.set_status("loaded the tune landscape " + path, false);
    else
      ctx.app.set_status("cannot load " + path + ": " + error, true);
  }
  chosen_ = Chosen::kNone;
}

}  // namespace tilescope
