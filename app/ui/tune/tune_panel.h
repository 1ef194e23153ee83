// The Tune tab: the tuning landscape of a variant's tile parameters in the window, the same sweep
// as `tilescope tune` (app/cli/tune_args.h, tune_points.h). The learner picks a variant whose
// kernel text takes typed tiles, writes each parameter's values (LO:HI:STEP or a list, parsed as
// the command parses them), two axes and a size; every point is checked at once, so the grid
// shows what the variant's rules (and the GPU's limits) refuse, with the reasons, before anything
// runs. Start compiles the accepted points on several threads of their own, then hands their
// runs, after cuBLAS's, to the App's Runner; the heatmap fills in as the results join the history.
// Hovering a cell tells its numbers or why nothing ran there; clicking it selects that typed
// configuration in the controls (Mapping and Source follow). The table goes to CSV and back.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/tune_points.h"
#include "app/platform/background_result.h"
#include "app/platform/child_process.h"
#include "app/platform/temp_folder.h"
#include "app/plot/landscape_model.h"
#include "app/plot/landscape_render.h"
#include "app/ui/shell/file_chooser.h"
#include "app/ui/shell/tab.h"

namespace tilescope {

class TunePanel : public Tab {
 public:
  TunePanel();
  ~TunePanel() override;
  const char* title() const override { return "Tune"; }
  void draw(TabContext& ctx) override;

  // What the learner does, also for tests and scripts; each acts as the control would.
  bool choose_variant(const std::string& id);  // false unless it takes typed tiles
  // A parameter's values as typed ("64:256:64", "32,64"); the grid is checked again next frame.
  bool set_values(const std::string& key, const std::string& text);
  // False (nothing changed) unless both are parameters of the variant, and not the same one.
  bool set_axes(const std::string& x_key, const std::string& y_key);
  void set_size(int n);
  // Why Start cannot start now ("" when it can): no GPU, busy, nothing accepted, a bad field.
  std::string start_blocker(const TabContext& ctx) const;
  bool start(TabContext& ctx);
  // Stops handing out points to compile (the App's Cancel; the runs are the Runner's to cancel).
  void stop_compiling();
  bool running() const { return phase_ != Phase::Idle; }
  // Called each frame by the App, whichever tab is shown: the compiled points go to the Runner,
  // results join the table, and the sweep ends when its runs have.
  void poll(TabContext& ctx);
  // Click on cell `cell` (an index into model().cells): its best point's configuration selected.
  bool select_cell(TabContext& ctx, int cell);
  // The hover text of a cell: parameters, GFLOP/s, % of cuBLAS, registers, occupancy, or why not.
  std::string cell_text(int cell) const;
  bool write_csv(const std::string& path, std::string* error) const;
  bool load_csv(const std::string& path, std::string* error);
  // Starts drawing the landscape into the PNG `path` (the outcome goes to the status line); false,
  // with the status saying why, when there are no points or the worker cannot start.
  bool export_png(App& app, const std::string& path);
  bool exporting_png() const { return !png_path_.empty(); }
  // Called each frame, whichever tab is shown: a finished export says so in the status line.
  void poll_png_export(App& app);

  const TuneTable& table() const { return table_; }
  const LandscapeModel& model() const { return model_; }
  const std::string& field_error() const { return field_error_; }
  int selected_cell() const { return selected_; }
  // Where the cells were drawn in the last frame (for hit tests).
  const LandscapeLayout& layout() const { return layout_; }

 private:
  enum class Phase { Idle, Compiling, Timing };
  struct Compiled {
    TuneTable table;
  };
  struct Field {
    std::string key, meaning;
    char text[96] = {};
    std::string error;
  };

  const VariantDescriptor* variant() const;
  void reset_fields();
  // Checks the grid again when what it depends on changed (not while a sweep runs).
  void replan(const TabContext& ctx);
  std::string plan_key(const TabContext& ctx) const;
  void take_compiled(TabContext& ctx);
  void fold_history(const TabContext& ctx);
  void rebuild_model();
  void draw_inputs();
  void draw_actions(TabContext& ctx);
  void draw_grid(TabContext& ctx);
  void draw_chooser(TabContext& ctx);
  void open_chooser(TabContext& ctx, bool save, const char* extension);

  int variant_ = 0;  // index into the typed-tile variants
  bool variant_chosen_ = false;
  std::vector<Field> fields_;
  std::string x_key_, y_key_;
  int size_ = 4096;
  std::string field_error_;  // the first field's error, or the grid's
  std::string planned_;      // plan_key() of the table shown
  std::string loaded_from_;  // the table came from this CSV ("" when planned here)
  Problem problem_ = Problem::Gemm;
  Precision precision_ = Precision::F32;

  TuneTable table_;
  std::size_t folded_ = 0;  // history rows looked at for this table
  LandscapeModel model_;    // drawn without its title: title_ and subtitle_ wrap above it
  std::string title_, subtitle_;
  LandscapeLayout layout_;
  int selected_ = -1, hovered_ = -1;

  Phase phase_ = Phase::Idle;
  std::atomic<bool> stop_{false};
  std::atomic<std::size_t> compiled_{0}, to_compile_{0};
  std::chrono::steady_clock::time_point compile_start_;
  std::unique_ptr<BackgroundResult<Compiled>> compile_;

  FileChooser chooser_;
  enum class Chosen { kNone, kLoadCsv, kExportCsv, kExportPng } chosen_ = Chosen::kNone;
  // Export PNG: the landscape drawn at 1920 x 1080 by this program as a worker (`tilescope tune
  // --from-csv ... --png`, an OpenGL context of its own), so the window never waits for it.
  ChildProcess png_worker_;
  std::string png_path_;
  TempFolder png_folder_{"tilescope-tune"};  // the table as CSV, the worker's output
};

}  // namespace tilescope
