#include "ui/app.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "platform/png_writer.h"
#include "registry.h"
#include "ui/settings.h"

namespace tilescope {

App::App(Host& host, const AppOptions& options)
    : host_(host), options_(options), device_(probe_device()), state_(default_app_state()) {
  if (!options_.settings_path.empty()) {
    std::string warnings;
    state_ = load_settings(options_.settings_path, state_, &warnings);
    if (!warnings.empty()) set_status("settings: " + warnings.substr(0, warnings.find('\n')), true);
  }
  const bool gpu = options_.use_gpu && device_.ok();
  runner_ = std::make_unique<Runner>(history_, gpu);
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

bool App::busy() const { return runner_->progress().busy; }

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
      if (!v || (!runner_->gpu() && v->backend != Backend::GlShader)) continue;
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

bool App::start_job(JobKind kind, std::vector<RunRequest> requests, const char* what) {
  if (requests.empty()) {
    set_status(std::string("nothing to ") + what + ": tick at least one variant that supports this problem and precision", true);
    return false;
  }
  if (!runner_->start(kind, std::move(requests))) {
    set_status("busy: cancel the current work first (Esc)", true);
    return false;
  }
  set_status(std::string(what) + "ing ...", false);
  return true;
}

bool App::run() { return start_job(JobKind::Run, requests_for({run_shape(state_)}), "run"); }

bool App::sweep() {
  std::vector<Shape> shapes;
  for (int n : sweep_sizes(state_)) shapes.push_back(normalised(state_.problem, Shape{n, n, n}));
  return start_job(JobKind::Sweep, requests_for(shapes), "sweep");
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
  if (!history_.save_csv(path, &error)) {
    set_status(error, true);
    return false;
  }
  set_status("wrote " + path + " (" + std::to_string(history_.size()) + " rows)", false);
  return true;
}

bool App::load_csv(const std::string& path) {
  std::string error;
  if (!history_.load_csv(path, &error)) {
    set_status(error, true);
    return false;
  }
  set_status("loaded " + path + " (" + std::to_string(history_.size()) + " rows in the history)", false);
  return true;
}

void App::request_plot_export(const std::string& path, int width, int height) {
  pending_exports_.push_back({path, width, height});
}

void App::request_screenshot(const std::string& path) { pending_screenshot_ = path; }

void App::set_presenter(bool on) {
  state_.presenter = on;
  font_dirty_ = true;
}

void App::frame() {
  // When the runner finishes, say so (and how) in the status bar.
  const RunnerProgress progress = runner_->progress();
  if (was_busy_ && !progress.busy) {
    const std::string error = runner_->last_error();
    if (!error.empty()) set_status("finished; the last failure: " + error, true);
    else set_status("done: " + std::to_string(progress.done) + (progress.done == 1 ? " run; " : " runs; ") +
                    std::to_string(history_.size()) + " results in the history", false);
  }
  was_busy_ = progress.busy;
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
  const float controls_width = std::min((state_.presenter ? 22.0f : 30.0f) * em, ImGui::GetContentRegionAvail().x * 0.42f);
  ImGui::BeginChild("controls", ImVec2(controls_width, -status_height), true);
  draw_controls_panel();
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("right", ImVec2(0, -status_height), false);
  if (ImGui::BeginTabBar("views")) {
    if (ImGui::BeginTabItem("Timing")) {
      const float avail = ImGui::GetContentRegionAvail().y;
      ImGui::BeginChild("timing", ImVec2(0, avail * (state_.presenter ? 0.72f : 0.58f)), true);
      draw_timing_panel();
      ImGui::EndChild();
      ImGui::BeginChild("results", ImVec2(0, 0), true);
      draw_results_table();
      ImGui::EndChild();
      ImGui::EndTabItem();
    }
    ImGuiTabItemFlags mapping_flags = 0;
    if (select_mapping_tab_) mapping_flags |= ImGuiTabItemFlags_SetSelected, select_mapping_tab_ = false;
    if (ImGui::BeginTabItem("Mapping: who computes what", nullptr, mapping_flags)) {
      mapping_.draw(state_, runner_->gpu());
      ImGui::EndTabItem();
    }
    ImGuiTabItemFlags history_flags = 0;
    if (select_history_tab_) history_flags |= ImGuiTabItemFlags_SetSelected, select_history_tab_ = false;
    if (ImGui::BeginTabItem("History: GEMM by drawing", nullptr, history_flags)) {
      history_panel_.draw(state_, history_.snapshot(), device_);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
  draw_status_bar();
  draw_dialogs();
  ImGui::End();
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
    if (export_plot_now(e.path, e.width, e.height, &error))
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
