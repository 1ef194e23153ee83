// The window's UI: one App draws every panel between Host::begin_frame() and end_frame(), in
// the window and headless alike: the controls column (a Panel) and the view's tabs (Tabs,
// drawn in a loop: ui/tab.h). Panels edit AppState; actions (run, sweep, live, export) go
// through the App, which hands GPU work to the Runner and GL work (plot PNG export, screenshots,
// font rebuilds) to after_frame(), outside the ImGui frame.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "device_info.h"
#include "platform/host.h"
#include "plot/plot_widget.h"
#include "runner/runner.h"
#include "runner/timing_history.h"
#include "ui/app_state.h"
#include "ui/controls_panel.h"
#include "ui/csv_loader.h"
#include "ui/history_panel.h"
#include "ui/mapping_panel.h"
#include "ui/tab.h"
#include "ui/timing_panel.h"

namespace tilescope {

struct AppOptions {
  std::string settings_path;  // "" = do not load or save settings
  bool use_gpu = true;        // false: behave as if there were no GPU (tests)
  // On a GPU, measure the Roofline view's ceilings at start-up (on the runner's worker) unless
  // the cache has them for this device and driver. `tilescope plot` turns it off.
  bool measure_ceilings = true;
};

class App {
 public:
  App(Host& host, const AppOptions& options);
  ~App();

  void frame();        // the whole UI, once
  void after_frame();  // pending exports, screenshot, font rebuild (GL, outside the ImGui frame)

  // Actions, from buttons, shortcuts and scripts. Each returns false with status set when it
  // cannot start (busy, bad sizes, nothing selected).
  bool run();
  bool sweep();
  bool live();
  void cancel();
  bool busy() const;
  // Queued for after_frame(); the result lands in status().
  void request_plot_export(const std::string& path, int width, int height);
  void request_screenshot(const std::string& path);
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
  // The Export PNG dialog (File menu, the Timing tab's button).
  void open_export_dialog();
  void quit() { host_.request_close(); }

  AppState& state() { return state_; }
  TimingHistory& history() { return history_; }
  const Runner& runner() const { return *runner_; }
  // The last message for the status bar ("wrote plot.png", "cannot write ...").
  const std::string& status() const { return status_; }
  bool status_is_error() const { return status_error_; }
  void set_status(const std::string& text, bool error);
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
  // A modal asking for a path in path_buffer_; true on the frame the user confirmed it.
  bool path_dialog(const char* title, const char* help, const char* action);
  void handle_shortcuts();
  void finish_csv_load();         // takes the loader's rows once it is done
  void draw_csv_load_progress();  // the status bar's progress bar and Cancel
  std::size_t csv_row_budget() const;
  std::vector<RunRequest> requests_for(const std::vector<Shape>& shapes) const;
  // what: the verb ("run"), doing: its -ing form for the status line ("running").
  bool start_job(JobKind kind, std::vector<RunRequest> requests, const char* what, const char* doing);

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
  CsvLoader csv_loader_;
  std::vector<Tab*> tabs_;  // the view's tabs, in tab-bar order

  // Work for after_frame().
  struct PendingExport {
    std::string path;
    int width = 0, height = 0;
  };
  std::vector<PendingExport> pending_exports_;
  std::string pending_screenshot_;
  bool capture_in_flight_ = false;
  bool was_busy_ = false;
  bool font_dirty_ = true;
  float applied_font_px_ = 0;
  Theme applied_theme_ = Theme::Dark;
  bool applied_presenter_ = false;

  // Dialog state.
  bool show_export_dialog_ = false, show_csv_dialog_ = false, show_load_dialog_ = false, show_about_ = false;
  char path_buffer_[1024] = {};
  int export_preset_ = 1;
};

}  // namespace tilescope
