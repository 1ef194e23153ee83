// The window's UI: one App draws every panel between Host::begin_frame() and end_frame(), in
// the window and headless alike: the controls column (a Panel) and the view's tabs (Tabs,
// drawn in a loop: app/ui/shell/tab.h). Panels edit AppState; actions (run, sweep, live, export) go
// through the App, which hands GPU work to the Runner and GL work (plot PNG export, screenshots,
// font rebuilds) to after_frame(), outside the ImGui frame.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/export/png_write_queue.h"
#include "app/platform/child_process.h"
#include "app/platform/host.h"
#include "app/plot/plot_widget.h"
#include "app/runner/runner.h"
#include "app/runner/timing_history.h"
#include "app/ui/history/history_panel.h"
#include "app/ui/mapping/mapping_panel.h"
#include "app/ui/multi/gpus_panel.h"
#include "app/ui/shell/app_state.h"
#include "app/ui/shell/controls_panel.h"
#include "app/ui/shell/file_chooser.h"
#include "app/ui/shell/file_paths.h"
#include "app/ui/shell/help_menu.h"
#include "app/ui/shell/tab.h"
#include "app/ui/source/source_panel.h"
#include "app/ui/timing/csv_loader.h"
#include "app/ui/timing/timing_panel.h"
#include "app/ui/tune/tune_panel.h"
#include "kernels/cuda/device_info.h"

namespace tilescope {

class ScriptPlayer;

struct AppOptions {
  std::string settings_path;  // "" = do not load or save settings
  bool use_gpu = true;        // false: behave as if there were no GPU (tests)
  // On a GPU, measure the Roofline view's roofs at start-up (on the runner's worker) unless
  // the cache has them for this device and driver. `tilescope plot` turns it off.
  bool measure_roofs = true;
  // The program the Source view's editor starts as its worker (`tilescope compile|bench
  // --kernel-text`): this program. Tests, which are other programs, name the real one.
  std::string worker_program = this_program_path();
};

// The largest text (pixels) a window of `display` size shows whole: Ctrl+= grows it no further.
float largest_font_px(ImVec2 display);

class App {
 public:
  App(Host& host, const AppOptions& options);
  ~App();

  void frame();  // the whole UI, once
  // Pending exports and screenshot (read back here, written by png_writes_ beside the frames),
  // font rebuild: GL, outside the ImGui frame.
  void after_frame();

  // Actions, from buttons, shortcuts and scripts. Each returns false with status set when it
  // cannot start (busy, bad sizes, nothing selected). Run, Sweep and Live first cap the sizes
  // (apply_size_cap), so a size set just before runs as the status says, frames or not between.
  bool run();
  bool sweep();
  bool live();
  void cancel();
  bool busy() const;
  // A list of runs made elsewhere (the Tune tab's points) handed to the Runner as one job, with
  // the status line and ticket of Run and Sweep. False with status set when it cannot start.
  bool start_runs(JobKind kind, std::vector<RunRequest> requests);

  // Work that ends after the call asking for it (a plot export or screenshot: once its file is
  // written, a frame or more after the one asking;
  // a run, sweep or Live: when the runner is done) gets a ticket, and how it ended is kept for
  // the last kKeptOutcomes tickets: a script learns whether what it asked for worked.
  using WorkTicket = std::uint64_t;  // 0: none
  struct WorkOutcome {
    bool ok = true;
    std::string message;  // what the status line said when it ended
  };
  static constexpr std::size_t kKeptOutcomes = 64;
  // False while the work is under way (or for a ticket never given or forgotten).
  bool work_outcome(WorkTicket ticket, WorkOutcome* out);
  // The ticket of the last run, sweep or Live started (0 before the first), and what it runs in
  // words ("the CPU reference at 512": app/ui/shell/job_summary.h).
  WorkTicket job_ticket() const { return job_.ticket; }
  const std::string& job_subject() const { return job_.subject; }

  // Queued for after_frame(); the result lands in status() and in the ticket's outcome.
  WorkTicket request_plot_export(const std::string& path, int width, int height);
  WorkTicket request_screenshot(const std::string& path);
  // A screenshot of a part of the window (ImGui's coordinates: a view's rectangle), written beside
  // the quick screenshots under a dated name made of `stem` ("tilescope-gpus-2026-11-28-103005.png").
  WorkTicket export_region_png(const char* stem, ImVec2 min, ImVec2 max);
  // Waits until every PNG asked for so far is written, and reports them as a frame would (the
  // status line and the tickets' outcomes): for the end of a command or a script, and tests.
  void finish_file_writes();

  // Sizes: the largest Run and Sweep take here (kMaxMatrixSize with a GPU; without one the CPU
  // reference's Runner::kCpuMaxSize) and why, in words ("" when no lower cap applies).
  int size_cap() const;
  std::string size_cap_reason() const;
  // Lowers the state's sizes to size_cap(). What it lowered ("N 2048 lowered to 512") stays in
  // sizes_lowered() until the sizes change again; size_note() adds why, for the size controls.
  void apply_size_cap();
  std::string sizes_lowered() const;
  std::string size_note() const;

  // Help > Lessons: plays a lesson through the player of `tilescope --script`, a line at a time
  // between frames, while the window stays usable; the status line tells how it went. False
  // with status set when it cannot be read or a line is bad (nothing plays then).
  bool play_lesson(const std::string& path);
  void stop_lesson();
  // The lesson playing (its path), "" when none.
  const std::string& lesson_playing() const { return lesson_path_; }
  // Help's lessons and shortcuts windows.
  HelpMenu& help_menu() { return help_; }
  // The tab drawn in the last frame: timing(), mapping() or history_panel() (nullptr before the
  // first frame).
  const Tab* shown_tab() const { return shown_tab_; }
  bool export_csv(const std::string& path);
  // Reads the file now, on this thread (scripts, `tilescope plot`); its rows join the history.
  bool load_csv(const std::string& path);
  // The window's File > Load CSV: reads on a thread of its own while the UI keeps drawing a
  // progress bar with Cancel (status bar); that thread appends the rows to the history when the
  // read ends, and the next frame reports it. False with status set if a load is under way.
  bool start_load_csv(const std::string& path);
  bool loading_csv() const { return csv_loader_.busy(); }
  void cancel_load_csv() { csv_loader_.cancel(); }
  void set_presenter(bool on);
  void show_timing() { timing_.request_select(); }
  void show_mapping() { mapping_.request_select(); }
  MappingPanel& mapping() { return mapping_; }
  void show_history() { history_panel_.request_select(); }
  HistoryPanel& history_panel() { return history_panel_; }
  TimingPanel& timing() { return timing_; }
  ControlsPanel& controls() { return controls_; }
  void show_source() { source_.request_select(); }
  SourcePanel& source() { return source_; }
  void show_tune() { tune_.request_select(); }
  void show_gpus() { gpus_.request_select(); }
  // The machine's CUDA GPUs (asked once; 0 without a usable GPU): Run adds a split only where its
  // GPUs exist.
  int gpu_count() const;
  TunePanel& tune() { return tune_; }
  GpusPanel& gpus() { return gpus_; }
  // The Tune tab's Start: false, with the status saying why, when it cannot start.
  bool start_tune();
  // The Export PNG dialog (File menu, the Timing tab's button).
  void open_export_dialog();
  // Files: what a chooser is asked for. The desktop's own dialog where there is one (zenity,
  // kdialog: platform/desktop_file_dialog.h; never headless or in presenter mode), else
  // tilescope's (app/ui/shell/file_chooser.h). The choice then loads, exports, fills the Export PNG
  // dialog's file field, or takes the screenshot.
  enum class FileTarget { kNone, kLoadCsv, kExportCsv, kExportPlot, kScreenshot, kLoadKernelText, kSaveKernelText };
  void choose_file(FileTarget target);
  // A chooser is open (either kind): the File menu's items wait.
  bool choosing_file() const { return file_target_ != FileTarget::kNone; }
  FileChooser& file_chooser() { return file_chooser_; }
  // Where choosers open and F12 saves: the folder of the last file chosen (absolute), else the
  // folder the program was started in.
  std::string files_folder() const;
  // F12: the window as a PNG in files_folder(), named by the date and time.
  void quick_screenshot();
  void quit() { host_.request_close(); }

  AppState& state() { return state_; }
  // This program, as the workers beside the window start it (AppOptions::worker_program).
  const std::string& worker_program() const { return options_.worker_program; }
  TimingHistory& history() { return history_; }
  const Runner& runner() const { return *runner_; }
  // The last message for the status bar ("wrote /home/t/plot.png", "cannot write ..."), with
  // every unprintable byte as \xNN (export/printable_text.h). An error stays until the user
  // dismisses it (its x) or the next message replaces it.
  const std::string& status() const { return status_; }
  bool status_is_error() const { return status_error_; }
  void set_status(const std::string& text, bool error);
  void dismiss_status();
  // How long a frame of the window should last (the frame loop paces to it): 60 frames a
  // second, but 10 while the runner times work on this computer's own cores (no GPU: the CPU
  // reference, the texture shaders under a software renderer), where drawing 60 frames a second
  // takes the cores from what is measured (it made the CPU reference twice as slow as bench's).
  double frame_period_ms() const;
  // Frame times (ms) of the last frames, for the status bar and the frame-time benchmark.
  const std::vector<double>& frame_times() const { return frame_times_; }
  void record_frame_time(double ms);

  // The plot as it is drawn now (also what the PNG export renders): the Timing tab's.
  using PlotData = tilescope::PlotData;
  const PlotData& plot_data();

 private:
  void apply_theme();
  TabContext context();
  void draw_menu_bar();
  void draw_tabs();
  void draw_status_bar();
  void draw_dialogs();
  // Files (app/ui/shell/file_dialogs.cpp): the request for each target, the desktop dialog's answer
  // (taken once a frame), what a choice does, the Export PNG dialog, the recent files.
  FileDialogRequest file_request(FileTarget target) const;
  void finish_desktop_file_dialog();
  void use_chosen_file(FileTarget target, const std::string& path);
  void draw_file_chooser(FileTarget level);  // the in-app chooser, if it was opened at this level
  void draw_export_plot_dialog();
  void draw_file_menu_items();
  void remember_file(const std::string& path);
  void handle_shortcuts();
  void finish_csv_load();         // takes the loader's rows once it is done
  void draw_csv_load_progress();  // the status bar's progress bar and Cancel
  std::size_t csv_row_budget() const;
  std::vector<RunRequest> requests_for(const std::vector<Shape>& shapes) const;
  // skipped: why ticked variants are not among the requests (skipped_variants_note); what: the
  // verb ("run"), doing: its -ing form for the status line ("running").
  bool start_job(JobKind kind, std::vector<RunRequest> requests, const std::string& skipped, const char* what,
                 const char* doing);
  // Why ticked variants do not run here ("no GPU: the CUDA variants are unavailable"), "" if all can.
  std::string skipped_variants_note() const;
  // Once the runner is done with the job start_job gave it: the status line and its outcome.
  void notice_job_end();
  void record_outcome(WorkTicket ticket, bool ok, const std::string& message);
  // Queues a PNG read back this frame; `done` is the status line once it is written.
  void write_png_beside_frames(WorkTicket ticket, const std::string& path, Image image, std::string done);
  // The files png_writes_ finished: the status line, recent files and their tickets' outcomes.
  void collect_png_writes();
  WorkTicket next_ticket() { return ++last_ticket_; }
  void step_lesson();

  Host& host_;
  AppOptions options_;
  const DeviceInfo& device_;
  AppState state_;
  TimingHistory history_;
  std::unique_ptr<Runner> runner_;
  std::string status_;
  bool status_error_ = false;
  std::vector<double> frame_times_;

  ControlsPanel controls_;
  TimingPanel timing_;
  MappingPanel mapping_;
  HistoryPanel history_panel_;
  SourcePanel source_;
  TunePanel tune_;
  GpusPanel gpus_;
  CsvLoader csv_loader_;
  HelpMenu help_;
  std::vector<Tab*> tabs_;  // the view's tabs, in tab-bar order
  const Tab* shown_tab_ = nullptr;

  // The job handed to the runner last: what it runs, in words, for the status line when it ends.
  struct Job {
    WorkTicket ticket = 0;
    bool active = false;  // the runner has it and its end is not reported yet
    JobKind kind = JobKind::Run;
    std::string subject;  // "the CPU reference at 512"
    std::string notes;    // "; no GPU: ..." (sizes capped, variants unavailable), or ""
  };
  Job job_;
  WorkTicket last_ticket_ = 0;
  std::vector<std::pair<WorkTicket, WorkOutcome>> outcomes_;  // the last kKeptOutcomes, oldest first
  // What apply_size_cap lowered, and the sizes it left (the note holds while they are unchanged).
  std::string sizes_lowered_;
  AppState capped_sizes_;
  // Help > Lessons.
  std::unique_ptr<ScriptPlayer> lesson_;
  std::string lesson_path_;

  // Work for after_frame().
  struct PendingExport {
    std::string path;
    int width = 0, height = 0;
    WorkTicket ticket = 0;
  };
  std::vector<PendingExport> pending_exports_;
  std::string pending_screenshot_;
  // The part of the frame the pending screenshot keeps, in framebuffer pixels (empty: all of it).
  int crop_x_ = 0, crop_y_ = 0, crop_w_ = 0, crop_h_ = 0;
  WorkTicket screenshot_ticket_ = 0;
  bool capture_in_flight_ = false;
  bool font_dirty_ = true;
  float applied_font_px_ = 0;
  float wanted_font_px_ = 0;  // what presenter mode and the font scale ask for, before the window's limit
  Theme applied_theme_ = Theme::Dark;
  bool applied_presenter_ = false;

  // Dialog state.
  bool show_export_dialog_ = false, show_about_ = false;
  char export_path_[1024] = {};  // the Export PNG dialog's file, absolute
  std::string export_error_;     // why the Export PNG dialog's file cannot be written
  int export_preset_ = 1;
  // Files: the chooser open (kNone: none), tilescope's own and the desktop's.
  FileTarget file_target_ = FileTarget::kNone;
  FileChooser file_chooser_;
  DesktopFileDialog desktop_dialog_;
  const std::string started_in_ = current_folder();
  // Exports and screenshots read back, being encoded and written (each id is its ticket), and
  // the status line each gets when written. The App's end waits for the files queued.
  std::vector<std::pair<WorkTicket, std::string>> png_done_;
  PngWriteQueue png_writes_;
};

}  // namespace tilescope
