// The Timing tab: the timing plot (one series per variant configuration of the selected problem
// and precision, against size, with the best cuBLAS and the device's peak as reference lines),
// the rolling trace of Live mode below it, and the results table (timing_panel.cpp,
// results_panel.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "app/platform/image.h"
#include "app/plot/plot_widget.h"
#include "app/plot/roofline_model.h"
#include "app/ui/shell/tab.h"
#include "kernels/measure/measure.h"
#include "kernels/roofs/roofs.h"

namespace tilescope {

// The plot as it is drawn now (also what the PNG export renders).
struct PlotData {
  std::vector<PlotSeriesData> series;
  std::vector<ReferenceLine> refs;
  std::vector<std::vector<RunResult>> rows;  // rows[s][p]: the result behind series s, point p
  PlotStyle style;
};

// The plot the tab shows: speed against size, or the Roofline view (speed against arithmetic
// intensity under the device's measured roofs).
enum class TimingPlotKind { Timing, Roofline };

class TimingPanel : public Tab {
 public:
  const char* title() const override { return "Timing"; }
  void draw(TabContext& ctx) override;
  // Re-derived only when the history or the view changed: the history can hold thousands of rows.
  const PlotData& plot_data(TabContext& ctx);
  // The plot shown now as an image of the given size, with the axes the window shows, for a PNG
  // export (export/plot_image.h). GL, between frames.
  bool export_image(TabContext& ctx, int width, int height, Image* out, std::string* error);

  TimingPlotKind plot_kind() const { return kind_; }
  void set_plot_kind(TimingPlotKind kind) { kind_ = kind; }
  // The Roofline view of the selected problem and precision, re-derived like plot_data().
  const RooflineData& roofline_data(TabContext& ctx);
  // Roofs given explicitly (`tilescope plot --roofs FILE`): used whatever the rows' device.
  void set_roofs(const RoofTable& table, const std::string& source);
  // At start-up on a GPU: the cached roofs of this device and driver, else a measurement on
  // the runner's worker (the result is cached when it arrives).
  void start_roofs(Runner& runner, const DeviceInfo& device);

 private:
  void draw_plot_panel(TabContext& ctx);
  void draw_live_trace(TabContext& ctx);
  void draw_results_table(TabContext& ctx);  // results_panel.cpp
  void rebuild_plot_data(TabContext& ctx);
  void fill_series(const std::vector<std::string>& order,
                   const std::map<std::string, std::map<double, RunResult>>& grouped,
                   std::map<std::string, bool>& visible, bool gflops);
  void add_reference_lines(const AppState& state, double best_cublas, bool gpu, const DeviceInfo& dev);

  void draw_roofline_panel(TabContext& ctx);
  void poll_roofs(TabContext& ctx);
  // The roofs for results of this device and driver, and a sentence on where they came from.
  const RoofTable* roofs_for(const std::string& device, const std::string& driver, std::string* note);

  TimingPlotKind kind_ = TimingPlotKind::Timing;
  RooflineData roofline_;
  std::uint64_t roofline_version_ = ~0ull;
  std::string roofline_key_;
  bool have_given_ = false, have_measured_ = false;
  RoofTable given_, measured_;  // --roofs FILE; this GPU's (measured now or cached)
  std::string given_source_, measured_source_;
  std::uint64_t seen_roofs_version_ = 0;
  std::uint64_t roofs_generation_ = 0;                               // bumped when any roofs arrive: rebuild the view
  std::map<std::string, std::pair<bool, RoofTable>> cache_lookups_;  // "device|driver" -> found, table
  std::map<std::string, std::string> cache_notes_;
  std::string roofs_status_;  // "cached in ...", "measuring failed: ..."
  PlotData plot_;
  std::uint64_t plot_version_ = ~0ull;
  std::string plot_key_;
  PlotView plot_view_;
  PlotView live_view_;
};

}  // namespace tilescope
