#include "ui/app.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "export/png_writer.h"
#include "export/results_csv.h"
#include "registry.h"
#include "ui/key_presses.h"
#include "ui/settings.h"

namespace tilescope {

App::App(Host& host, const AppOptions& options)
    : host_(host), options_(options), device_(probe_device()), state_(default_app_state()) {
  tabs_ = {&timing_, &mapping_, &history_panel_};
  if (!options_.settings_path.empty()) {
    std::string warnings;
    state_ = load_settings(options_.settings_path, state_, &warnings);
    if (!warnings.empty()) set_status("settings: " + warnings.substr(0, warnings.find('\n')), true);
  }
  const bool gpu = options_.use_gpu && device_.ok();
  runner_ = std::make_unique<Runner>(history_, gpu);
  if (gpu && options_.measure_ceilings) timing_.start_ceilings(*runner_, device_);
  if (!gpu) {
    // Without a GPU only the CPU reference runs, and only small sizes: start where it can.
    state_.n = std::min(state_.n, static_cast<int>(Runner::kCpuMaxSize));
    state_.m = std::min(state_.m, static_cast<int>(Runner::kCpuMaxSize));
    state_.k = std::min(state_.k, static_cast<int>(Runner::kCpuMaxSize));
    state_.sweep_from = std::min(state_.sweep_from, 64);
    state_.sweep_to = std::min(state_.sweep_to, static_cast<int>(Runner::kCpuMaxSize));
  }
}

App::~App() {
  runner_->cancel();
  if (!options_.settings_path.empty()) {
    std::string error;
    save_settings(options_.settings_path, state_, &error);  // nothing to show it on any more
  }
}

void App::set_status(const std::string& text, bool error) {
  status_ = text;
  status_error_ = error;
}

void App::record_frame_time(double ms) {
  frame_times_.push_back(ms);
  constexpr std::size_t kKeep = 600;
  if (frame_times_.size() > kKeep) frame_times_.erase(frame_times_.begin(), frame_times_.end() - kKeep);
}

bool App::busy() const {
  return runner_->progress().busy;
}

std::vector<RunRequest> App::requests_for(const std::vector<Shape>& shapes) const {
  std::vector<RunRequest> out;
  for (const Shape& shape : shapes) {
    if (!runner_->gpu()) {
      // One CPU-reference run per size: the CUDA variants are not available (the texture
      // shaders, which need only OpenGL, still run below).
      RunRequest r;
      r.variant_id = kCpuReferenceId;
      r.problem = state_.problem;
      r.precision = Precision::F64;
      r.shape = shape;
      r.repetitions = state_.repetitions;
      r.verify = false;
      out.push_back(r);
    }
    for (const LessonEntry& e : state_.lesson) {
      if (!e.enabled) continue;
      const VariantDescriptor* v = find_variant(e.variant_id);
      if (!v || (!runner_->gpu() && needs_cuda(*v))) continue;
      if (!unsupported_reason(*v, e.config_index, state_.problem, state_.precision, device_.limits).empty()) continue;
      RunRequest r;
      r.variant_id = e.variant_id;
      r.config_index = e.config_index;
      r.problem = state_.problem;
      r.precision = state_.precision;
      r.shape = shape;
      r.repetitions = state_.repetitions;
      r.verify = state_.verify;
      out.push_back(r);
    }
  }
  return out;
}

bool App::start_job(JobKind kind, std::vector<RunRequest> requests, const char* what, const char* doing) {
  if (requests.empty()) {
    set_status(
        std::string("nothing to ") + what + ": tick at least one variant that supports this problem and precision",
        true);
    return false;
  }
  if (!runner_->start(kind, std::move(requests))) {
    set_status("busy: cancel the current work first (Esc)", true);
    return false;
  }
  set_status(std::string(doing) + " ...", false);
  return true;
}

bool App::run() {
  return start_job(JobKind::Run, requests_for({run_shape(state_)}), "run", "running");
}

bool App::sweep() {
  std::vector<Shape> shapes;
  for (int n : sweep_sizes(state_)) shapes.push_back(normalised(state_.problem, Shape{n, n, n}));
  return start_job(JobKind::Sweep, requests_for(shapes), "sweep", "sweeping");
}

bool App::live() {
  if (state_.focused < 0 || state_.focused >= static_cast<int>(state_.lesson.size())) return false;
  AppState one = state_;
  for (std::size_t i = 0; i < one.lesson.size(); ++i) one.lesson[i].enabled = static_cast<int>(i) == state_.focused;
  std::swap(one, state_);
  auto requests = requests_for({run_shape(state_)});
  std::swap(one, state_);
  if (requests.empty()) {
    set_status("the focused variant cannot run this problem and precision", true);
    return false;
  }
  requests.resize(1);
  requests[0].repetitions = std::max(1, std::min(state_.repetitions, 5));  // a quick median per point
  if (!runner_->start(JobKind::Live, std::move(requests))) {
    set_status("busy: cancel the current work first (Esc)", true);
    return false;
  }
  set_status("live: re-running " + state_.lesson[state_.focused].variant_id + " until you press Stop (Esc)", false);
  return true;
}

void App::cancel() {
  if (!busy()) return;
  runner_->cancel();
  set_status("cancelling ...", false);
}

bool App::export_csv(const std::string& path) {
  std::string error;
  if (!write_results_csv_file(path, history_.snapshot(), &error)) {
    set_status(error, true);
    return false;
  }
  set_status("wrote " + path + " (" + std::to_string(history_.size()) + " rows)", false);
  return true;
}

// Rows a load may still add: a history holds at most TimingHistory::kMaxLoadedRows from files.
std::size_t App::csv_row_budget() const {
  const std::size_t have = history_.size();
  return have >= TimingHistory::kMaxLoadedRows ? 0 : TimingHistory::kMaxLoadedRows - have;
}

namespace {

std::string loaded_message(const std::string& path, std::size_t added, std::size_t total) {
  return "loaded " + path + " (" + std::to_string(added) + " rows; " + std::to_string(total) + " rows in the history)";
}

std::string history_full_message(const std::string& path) {
  return "cannot load " + path + ": the history holds " + std::to_string(TimingHistory::kMaxLoadedRows) +
         " rows already (the limit); Clear it first";
}

}  // namespace

bool App::load_csv(const std::string& path) {
  const std::size_t budget = csv_row_budget();
  if (budget == 0) {
    set_status(history_full_message(path), true);
    return false;
  }
  std::string error;
  std::vector<RunResult> rows;
  ResultsCsvReadOptions read_options;
  read_options.max_rows = budget;
  if (read_results_csv_file(path, &rows, &error, read_options) != ResultsCsvRead::kLoaded) {
    set_status(error, true);
    return false;
  }
  const std::size_t added = rows.size();
  history_.append_all(std::move(rows));
  set_status(loaded_message(path, added, history_.size()), false);
  return true;
}

bool App::start_load_csv(const std::string& path) {
  if (csv_loader_.busy()) {
    set_status("a CSV is loading already: wait for it or cancel it", true);
    return false;
  }
  const std::size_t budget = csv_row_budget();
  if (budget == 0) {
    set_status(history_full_message(path), true);
    return false;
  }
  csv_loader_.start(path, budget, &history_);  // the rows join the history on the loader's thread
  set_status("loading " + path + " ...", false);
  return true;
}

void App::finish_csv_load() {
  CsvLoader::Result r;
  if (!csv_loader_.take_result(&r)) return;
  if (r.outcome == ResultsCsvRead::kCancelled) {
    set_status("cancelled loading " + r.path + "; the history is unchanged", false);
  } else if (r.outcome != ResultsCsvRead::kLoaded) {
    set_status(r.error, true);
  } else {
    set_status(loaded_message(r.path, r.rows_read, history_.size()), false);
  }
}

void App::draw_csv_load_progress() {
  const double total = static_cast<double>(csv_loader_.total_bytes());
  const double done = static_cast<double>(csv_loader_.bytes_read());
  const float fraction = total > 0 ? static_cast<float>(std::min(1.0, done / total)) : 0.0f;
  char overlay[96];
  if (total > 0)
    std::snprintf(overlay, sizeof overlay, "%.1f of %.1f MB", done / 1e6, total / 1e6);
  else  // a pipe or device: no size to compare with
    std::snprintf(overlay, sizeof overlay, "%.1f MB read", done / 1e6);
  ImGui::TextUnformatted("Loading CSV");
  ImGui::SameLine();
  ImGui::ProgressBar(fraction, ImVec2(ImGui::GetFontSize() * 16, 0), overlay);
  ImGui::SameLine();
  if (ImGui::SmallButton("Cancel##csv")) csv_loader_.cancel();
  ImGui::SameLine();
}

void App::request_plot_export(const std::string& path, int width, int height) {
  pending_exports_.push_back({path, width, height});
}

void App::request_screenshot(const std::string& path) {
  pending_screenshot_ = path;
}

void App::set_presenter(bool on) {
  state_.presenter = on;
  font_dirty_ = true;
}

void App::frame() {
  // When the runner finishes, say so (and how) in the status bar.
  const RunnerProgress progress = runner_->progress();
  if (was_busy_ && !progress.busy) {
    const std::string error = runner_->last_error();
    if (!error.empty())
      set_status("finished; the last failure: " + error, true);
    else
      set_status("done: " + std::to_string(progress.done) + (progress.done == 1 ? " run; " : " runs; ") +
                     std::to_string(history_.size()) + " results in the history",
                 false);
  }
  was_busy_ = progress.busy;
  begin_key_frame(host_.key_presses());
  finish_csv_load();
  handle_shortcuts();
  // A screenshot is read back by end_frame(), between drawing and the swap.
  capture_in_flight_ = !pending_screenshot_.empty();
  if (capture_in_flight_) host_.request_capture();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_MenuBar |
                                 ImGuiWindowFlags_NoSavedSettings;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  ImGui::Begin("tilescope", nullptr, flags);
  ImGui::PopStyleVar();
  draw_menu_bar();

  const float status_height = ImGui::GetFrameHeightWithSpacing();
  const float em = ImGui::GetFontSize();
  // Presenter mode gives the plot the room: the class reads the plot, the teacher the controls.
  const float controls_width =
      std::min((state_.presenter ? 22.0f : 30.0f) * em, ImGui::GetContentRegionAvail().x * 0.42f);
  ImGui::BeginChild("controls", ImVec2(controls_width, -status_height), true);
  TabContext ctx = context();
  controls_.draw(ctx);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("right", ImVec2(0, -status_height), false);
  draw_tabs();
  ImGui::EndChild();
  draw_status_bar();
  draw_dialogs();
  ImGui::End();
}

TabContext App::context() {
  return TabContext{*this, state_, device_, *runner_, history_};
}

const App::PlotData& App::plot_data() {
  TabContext ctx = context();
  return timing_.plot_data(ctx);
}

void App::draw_tabs() {
  if (!ImGui::BeginTabBar("views")) return;
  TabContext ctx = context();
  for (Tab* tab : tabs_) {
    const ImGuiTabItemFlags flags = tab->take_select() ? ImGuiTabItemFlags_SetSelected : 0;
    if (ImGui::BeginTabItem(tab->title(), nullptr, flags)) {
      tab->draw(ctx);
      ImGui::EndTabItem();
    }
  }
  ImGui::EndTabBar();
}

void App::after_frame() {
  // Fonts: presenter mode and the font scale change the atlas, which must be rebuilt between
  // frames (the GL texture is recreated).
  const float px = std::round((state_.presenter ? 30.0f : 17.0f) * host_.content_scale() * state_.font_scale);
  if (font_dirty_ || px != applied_font_px_) {
    std::string error;
    if (!load_ui_font(px, &error)) set_status(error, true);
    applied_font_px_ = px;
    font_dirty_ = false;
  }
  if (state_.theme != applied_theme_ || state_.presenter != applied_presenter_) apply_theme();

  for (const PendingExport& e : pending_exports_) {
    std::string error;
    TabContext ctx = context();
    if (timing_.export_png(ctx, e.path, e.width, e.height, &error))
      set_status("wrote " + e.path + " (" + std::to_string(e.width) + " x " + std::to_string(e.height) + ")", false);
    else
      set_status(error, true);
  }
  pending_exports_.clear();

  // A screenshot asked for during this frame (a menu click) is taken with the next one.
  if (capture_in_flight_) {
    capture_in_flight_ = false;
    std::string error;
    Image image;
    if (host_.take_capture(&image, &error) && write_png(pending_screenshot_, image, &error))
      set_status("wrote screenshot " + pending_screenshot_, false);
    else
      set_status(error, true);
    pending_screenshot_.clear();
  }
}

}  // namespace tilescope
