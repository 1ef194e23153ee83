#include "app/ui/shell/app.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "app/export/count_text.h"
#include "app/export/printable_text.h"
#include "app/export/results_csv.h"
#include "app/platform/compile_threads.h"
#include "app/ui/script/script.h"
#include "app/ui/shell/job_summary.h"
#include "app/ui/shell/key_presses.h"
#include "app/ui/shell/settings.h"
#include "kernels/core/registry.h"
#include "kernels/jit/nvrtc_compiler.h"
#include "kernels/multi/gpu_group.h"

namespace tilescope {

App::App(Host& host, const AppOptions& options)
    : host_(host), options_(options), device_(probe_device()), state_(default_app_state()) {
  tabs_ = {&timing_, &mapping_, &history_panel_, &source_, &tune_, &gpus_};
  limit_concurrent_compiles(window_compile_threads());
  source_.editor().set_program(options_.worker_program);
  if (!options_.settings_path.empty()) {
    std::string warnings;
    state_ = load_settings(options_.settings_path, state_, &warnings);
    if (!warnings.empty()) set_status("settings: " + warnings.substr(0, warnings.find('\n')), true);
  }
  const bool gpu = options_.use_gpu && device_.ok();
  runner_ = std::make_unique<Runner>(history_, gpu);
  // The Memory view records a warp through a worker of this program, on the GPU the runner uses.
  mapping_.set_memory_recording(options_.worker_program,
                                gpu            ? ""
                                : device_.ok() ? "This window does not use the GPU, so it records nothing."
                                               : "No usable GPU: " + device_.unavailable_reason,
                                &source_.editor());
  if (gpu && options_.measure_roofs) timing_.start_roofs(*runner_, device_);
  if (!gpu) {
    // Without a GPU only the CPU reference runs, and only small sizes: start where it can (the
    // sweep from 64, so that it still has several sizes). The size controls say the cap.
    state_.sweep_from = std::min(state_.sweep_from, 64);
    cap_sizes(state_, size_cap());
  }
  capped_sizes_ = state_;
}

App::~App() {
  lesson_.reset();
  runner_->cancel();
  if (!options_.settings_path.empty()) {
    std::string error;
    save_settings(options_.settings_path, state_, &error);  // nothing to show it on any more
  }
}

void App::set_status(const std::string& text, bool error) {
  status_ = printable_text(text);
  status_error_ = error;
}

void App::dismiss_status() {
  status_.clear();
  status_error_ = false;
}

double App::frame_period_ms() const {
  constexpr double kFramesPerSecond = 60, kFramesPerSecondWhileTimingTheCpu = 10;
  const bool timing_the_cpu = !runner_->gpu() && busy();
  return 1000.0 / (timing_the_cpu ? kFramesPerSecondWhileTimingTheCpu : kFramesPerSecond);
}

void App::record_frame_time(double ms) {
  frame_times_.push_back(ms);
  constexpr std::size_t kKeep = 600;
  if (frame_times_.size() > kKeep) frame_times_.erase(frame_times_.begin(), frame_times_.end() - kKeep);
}

bool App::busy() const {
  return runner_->progress().busy || source_.editor_working() || tune_.exporting_png() || tune_.running() ||
         mapping_.memory_recording();
}

int App::size_cap() const {
  return runner_->gpu() ? kMaxMatrixSize : static_cast<int>(Runner::kCpuMaxSize);
}

std::string App::size_cap_reason() const {
  if (runner_->gpu()) return "";
  return "without a GPU, Run and Sweep time the CPU reference, which takes sizes up to " +
         std::to_string(Runner::kCpuMaxSize);
}

namespace {

// The sizes apply_size_cap looks at, to tell whether they changed since.
bool same_sizes(const AppState& a, const AppState& b) {
  return a.m == b.m && a.n == b.n && a.k == b.k && a.sweep_from == b.sweep_from && a.sweep_to == b.sweep_to;
}

}  // namespace

void App::apply_size_cap() {
  const std::string lowered = cap_sizes(state_, size_cap());
  if (!lowered.empty())
    sizes_lowered_ = lowered + " lowered to " + std::to_string(size_cap());
  else if (!same_sizes(state_, capped_sizes_))
    sizes_lowered_.clear();
  capped_sizes_ = state_;
}

std::string App::sizes_lowered() const {
  return same_sizes(state_, capped_sizes_) ? sizes_lowered_ : std::string();
}

std::string App::size_note() const {
  const std::string lowered = sizes_lowered();
  return lowered.empty() ? "" : lowered + ": " + size_cap_reason();
}

std::string App::skipped_variants_note() const {
  if (runner_->gpu()) return "";
  std::vector<const VariantDescriptor*> skipped;
  for (const LessonEntry& e : state_.lesson) {
    const VariantDescriptor* v = find_variant(e.variant_id);
    if (e.enabled && v && needs_cuda(*v)) skipped.push_back(v);
  }
  if (skipped.empty()) return "";
  if (skipped.size() == 1) return std::string("no GPU: ") + skipped[0]->label + " is unavailable";
  return "no GPU: the CUDA variants are unavailable";
}

int App::gpu_count() const {
  static const int count = runner_->gpu() ? cuda_gpu_count() : 0;
  return count;
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
    for (const LessonEntry& e : entries_to_run(state_.lesson, state_.precision)) {
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
      // Then the same product split across GPUs, where a split is chosen and takes this kernel.
      if (runner_->gpu() && state_.gpus <= gpu_count() && split_takes(state_, *v, e.config_index)) {
        r.split = state_.split;
        r.split_config = state_.split_config;
        r.gpus = state_.gpus;
        out.push_back(r);
      }
    }
  }
  return out;
}

bool App::start_job(JobKind kind, std::vector<RunRequest> requests, const std::string& skipped, const char* what,
                    const char* doing) {
  if (requests.empty()) {
    set_status(
        std::string("nothing to ") + what + ": tick at least one variant that supports this problem and precision",
        true);
    return false;
  }
  const std::string subject = tilescope::job_subject(requests);
  if (!runner_->start(kind, std::move(requests))) {
    set_status("busy: cancel the current work first (Esc)", true);
    return false;
  }
  // What the status line says when the job ends: what ran, and why it is not what was ticked.
  job_ = Job{};
  job_.ticket = next_ticket();
  job_.active = true;
  job_.kind = kind;
  job_.subject = subject;
  for (const std::string& note : {skipped, sizes_lowered()})
    if (!note.empty()) job_.notes += (job_.notes.empty() ? " (" : "; ") + note;
  if (!job_.notes.empty()) job_.notes += ")";
  if (kind == JobKind::Live)
    set_status("live: re-running " + subject + job_.notes + " until you press Stop (Esc)", false);
  else
    set_status(std::string(doing) + " " + subject + job_.notes + " ...", false);
  return true;
}

void App::notice_job_end() {
  if (!job_.active || busy()) return;
  job_.active = false;
  const RunnerProgress p = runner_->progress();
  const std::string runs = count_text(static_cast<std::size_t>(p.done), "run", "runs");
  const std::string results = count_text(history_.size(), "result", "results") + " in the history";
  std::string message;
  if (p.failed > 0)
    message = "finished: " + std::to_string(p.failed) + " of " + runs + " of " + job_.subject +
              " failed; the last: " + runner_->last_error();
  else if (job_.kind == JobKind::Live)
    message = "stopped Live after " + runs + " of " + job_.subject + "; " + results;
  else if (p.cancelled)
    message = "cancelled after " + runs + " of " + job_.subject + "; " + results;
  else
    message = "done: " + runs + " of " + job_.subject + job_.notes + "; " + results;
  set_status(message, p.failed > 0);
  record_outcome(job_.ticket, p.failed == 0, message);
}

void App::record_outcome(WorkTicket ticket, bool ok, const std::string& message) {
  outcomes_.push_back({ticket, WorkOutcome{ok, message}});
  if (outcomes_.size() > kKeptOutcomes) outcomes_.erase(outcomes_.begin());
}

bool App::work_outcome(WorkTicket ticket, WorkOutcome* out) {
  notice_job_end();  // a job that ended since the last frame
  for (const auto& [t, outcome] : outcomes_) {
    if (t != ticket) continue;
    *out = outcome;
    return true;
  }
  return false;
}

bool App::run() {
  apply_size_cap();
  return start_job(JobKind::Run, requests_for({run_shape(state_)}), skipped_variants_note(), "run", "running");
}

bool App::sweep() {
  apply_size_cap();
  std::vector<Shape> shapes;
  for (int n : sweep_sizes(state_)) shapes.push_back(normalised(state_.problem, Shape{n, n, n}));
  return start_job(JobKind::Sweep, requests_for(shapes), skipped_variants_note(), "sweep", "sweeping");
}

bool App::live() {
  if (state_.focused < 0 || state_.focused >= static_cast<int>(state_.lesson.size())) return false;
  apply_size_cap();
  const std::string focused = state_.lesson[state_.focused].variant_id;
  AppState one = state_;
  for (std::size_t i = 0; i < one.lesson.size(); ++i) one.lesson[i].enabled = static_cast<int>(i) == state_.focused;
  std::swap(one, state_);
  auto requests = requests_for({run_shape(state_)});
  const std::string skipped = skipped_variants_note();  // the focused variant's, if it needs a GPU
  std::swap(one, state_);
  // The focused variant's run; without a GPU a CUDA variant's place is taken by the CPU
  // reference, which the status line then names.
  const auto mine =
      std::find_if(requests.begin(), requests.end(), [&](const RunRequest& r) { return r.variant_id == focused; });
  if (mine != requests.end()) std::rotate(requests.begin(), mine, mine + 1);
  if (requests.empty()) {
    set_status("the focused variant cannot run this problem and precision", true);
    return false;
  }
  requests.resize(1);
  requests[0].repetitions = std::max(1, std::min(state_.repetitions, 5));  // a quick median per point
  return start_job(JobKind::Live, std::move(requests), skipped, "re-run", "re-running");
}

bool App::start_runs(JobKind kind, std::vector<RunRequest> requests) {
  return start_job(kind, std::move(requests), "", "time", "timing");
}

void App::cancel() {
  if (!busy()) return;
  runner_->cancel();
  source_.editor().cancel();
  mapping_.cancel_memory_recording();
  tune_.stop_compiling();
  set_status("cancelling ...", false);
}

bool App::export_csv(const std::string& path) {
  std::string error;
  const std::shared_ptr<const std::vector<RunResult>> rows = history_.rows();
  if (!write_results_csv_file(path, *rows, &error)) {
    set_status(error, true);
    return false;
  }
  const std::string written = absolute_path(path);
  set_status("wrote " + written + " (" + count_text(rows->size(), "row", "rows") + ")", false);
  remember_file(written);
  return true;
}

// Rows a load may still add: a history holds at most TimingHistory::kMaxLoadedRows from files.
std::size_t App::csv_row_budget() const {
  const std::size_t have = history_.size();
  return have >= TimingHistory::kMaxLoadedRows ? 0 : TimingHistory::kMaxLoadedRows - have;
}

namespace {

std::string loaded_message(const std::string& path, std::size_t added, std::size_t total) {
  return "loaded " + path + " (" + count_text(added, "row", "rows") + "; " + count_text(total, "row", "rows") +
         " in the history)";
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
  set_status(loaded_message(absolute_path(path), added, history_.size()), false);
  remember_file(absolute_path(path));
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
    set_status(loaded_message(absolute_path(r.path), r.rows_read, history_.size()), false);
    remember_file(absolute_path(r.path));
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

App::WorkTicket App::request_plot_export(const std::string& path, int width, int height) {
  const WorkTicket ticket = next_ticket();
  pending_exports_.push_back({path, width, height, ticket});
  return ticket;
}

App::WorkTicket App::request_screenshot(const std::string& path) {
  // One screenshot per frame: an earlier request of this frame gives way to this one.
  if (!pending_screenshot_.empty())
    record_outcome(screenshot_ticket_, false, "screenshot " + pending_screenshot_ + " replaced by " + path);
  pending_screenshot_ = path;
  crop_w_ = crop_h_ = 0;
  screenshot_ticket_ = next_ticket();
  return screenshot_ticket_;
}

void App::set_presenter(bool on) {
  state_.presenter = on;
  font_dirty_ = true;
}

void App::frame() {
  // When the runner finishes, say so (and how) in the status bar.
  notice_job_end();
  begin_key_frame(host_.key_presses());
  step_lesson();
  finish_csv_load();
  // An edited kernel's worker is watched every frame, whichever tab is shown.
  source_.editor().poll(history_);
  mapping_.poll_memory_recording();  // the Memory view's recording worker, likewise
  tune_.poll_png_export(*this);
  {
    TabContext ctx = context();
    tune_.poll(ctx);
  }
  handle_shortcuts();
  // A screenshot is read back by end_frame(), between drawing and the swap.
  capture_in_flight_ = !pending_screenshot_.empty();
  if (capture_in_flight_) host_.request_capture();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  // The window covers the whole frame, so its background is the frame's clear colour rather than a
  // quad drawn over it: a renderer on the CPU (llvmpipe) spends its frame filling pixels, and this
  // spares it one full-screen blended layer.
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  host_.set_clear_color(bg.x, bg.y, bg.z);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_MenuBar |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBackground;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  ImGui::Begin("tilescope", nullptr, flags);
  ImGui::PopStyleVar();
  draw_menu_bar();

  const float status_height = ImGui::GetFrameHeightWithSpacing();
  // The column's own settings scroll below its buttons, which stay in view.
  const float controls_width = controls_.column_width(state_, ImGui::GetContentRegionAvail().x);
  ImGui::BeginChild("controls", ImVec2(controls_width, -status_height), true,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  TabContext ctx = context();
  controls_.draw(ctx);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("right", ImVec2(0, -status_height), false);
  draw_tabs();
  ImGui::EndChild();
  draw_status_bar();
  draw_dialogs();
  help_.draw_windows(*this);
  ImGui::End();
}

bool App::start_tune() {
  TabContext ctx = context();
  return tune_.start(ctx);  // it plans the grid of the fields as they are now, then says what blocks it
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
    if (!tab->in_tab_bar(ctx)) continue;
    const ImGuiTabItemFlags flags = tab->take_select() ? ImGuiTabItemFlags_SetSelected : 0;
    if (ImGui::BeginTabItem(tab->title(), nullptr, flags)) {
      shown_tab_ = tab;
      tab->draw(ctx);
      ImGui::EndTabItem();
    }
  }
  ImGui::EndTabBar();
}

float largest_font_px(ImVec2 display) {
  // The layout needs about this many characters' widths across (the controls' rail and, beside
  // it, tabs whose labels, toolbars and tables stay whole) and this many lines down.
  constexpr float kEmsAcross = 40.0f;
  constexpr float kLinesDown = 22.0f;
  return std::min(display.x / kEmsAcross, display.y / kLinesDown);
}

void App::after_frame() {
  // Fonts: presenter mode and the font scale change the atlas, which must be rebuilt between
  // frames (the GL texture is recreated). The text stops growing where the window's layout could
  // no longer hold it whole: Ctrl+= beyond that changes nothing, and says so. The scale is kept
  // as set (a larger window, or the next session's, shows it).
  const float wanted = std::round((state_.presenter ? 30.0f : 17.0f) * host_.content_scale() * state_.font_scale);
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  float px = wanted;
  if (display.x > 0 && display.y > 0 && wanted > std::floor(largest_font_px(display))) {
    px = std::floor(largest_font_px(display));
    if (wanted > wanted_font_px_ && wanted_font_px_ > 0)
      set_status("the text is as large as this window can show whole; a larger window takes larger text", false);
  }
  wanted_font_px_ = wanted;
  if (font_dirty_ || px != applied_font_px_) {
    std::string error;
    if (!load_ui_font(px, &error)) set_status(error, true);
    applied_font_px_ = px;
    font_dirty_ = false;
  }
  if (state_.theme != applied_theme_ || state_.presenter != applied_presenter_) apply_theme();

  collect_png_writes();
  // Each file is named by its absolute path from here on: the folder the request meant, whatever
  // the working folder is when the file is written.
  for (const PendingExport& e : pending_exports_) {
    std::string error;
    TabContext ctx = context();
    Image image;
    if (timing_.export_image(ctx, e.width, e.height, &image, &error)) {
      const std::string path = absolute_path(e.path);
      write_png_beside_frames(
          e.ticket, path, std::move(image),
          "wrote " + path + " (" + std::to_string(e.width) + " x " + std::to_string(e.height) + ")");
    } else {
      set_status(error, true);
      record_outcome(e.ticket, false, status_);
    }
  }
  pending_exports_.clear();

  // A screenshot asked for during this frame (a menu click) is taken with the next one.
  if (capture_in_flight_) {
    capture_in_flight_ = false;
    std::string error;
    Image image;
    if (host_.take_capture(&image, &error)) {
      if (crop_w_ > 0 && crop_h_ > 0) image = cropped(image, crop_x_, crop_y_, crop_w_, crop_h_);
      const std::string path = absolute_path(pending_screenshot_);
      write_png_beside_frames(screenshot_ticket_, path, std::move(image), "wrote screenshot " + path);
    } else {
      set_status(error, true);
      record_outcome(screenshot_ticket_, false, status_);
    }
    pending_screenshot_.clear();
  }
}

void App::write_png_beside_frames(WorkTicket ticket, const std::string& path, Image image, std::string done) {
  set_status("writing " + path + " ...", false);
  png_done_.push_back({ticket, std::move(done)});
  png_writes_.write(ticket, path, std::move(image));
}

void App::finish_file_writes() {
  png_writes_.wait_idle();
  collect_png_writes();
}

void App::collect_png_writes() {
  for (const PngWriteQueue::Written& w : png_writes_.take_written()) {
    const auto done = std::find_if(png_done_.begin(), png_done_.end(), [&](const auto& d) { return d.first == w.id; });
    if (done == png_done_.end()) continue;  // not ours: every id written is queued with its words
    if (w.ok) {
      set_status(done->second, false);
      remember_file(w.path);
    } else {
      set_status(w.error, true);
    }
    record_outcome(w.id, w.ok, status_);
    png_done_.erase(done);
  }
}

bool App::play_lesson(const std::string& path) {
  auto player = std::make_unique<ScriptPlayer>();
  std::string error;
  if (!player->load_file(path, &error)) {
    set_status(error, true);
    return false;
  }
  lesson_ = std::move(player);
  lesson_path_ = path;
  set_status("playing the lesson " + path, false);
  return true;
}

void App::stop_lesson() {
  if (!lesson_) return;
  lesson_.reset();
  set_status("stopped the lesson " + lesson_path_, false);
  lesson_path_.clear();
}

// A line or more of the lesson, before this frame is drawn (as gui_main steps a --script).
void App::step_lesson() {
  if (!lesson_) return;
  std::vector<std::string> failures;
  const bool more = lesson_->step(*this, &failures);
  // The status line has room for one message: the last failure (each is FILE:LINE: why).
  if (!failures.empty()) set_status(failures.back(), true);
  if (more) return;
  if (failures.empty() && !status_error_) set_status("the lesson " + lesson_path_ + " has ended", false);
  lesson_.reset();
  lesson_path_.clear();
}

}  // namespace tilescope
