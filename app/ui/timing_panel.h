// The Timing tab: the timing plot (one series per variant configuration of the selected problem
// and precision, against size, with the best cuBLAS and the device's peak as reference lines),
// the rolling trace of Live mode below it, and the results table (timing_panel.cpp,
// results_panel.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "measure.h"
#include "plot/plot_widget.h"
#include "ui/tab.h"

namespace tilescope {

// The plot as it is drawn now (also what the PNG export renders).
struct PlotData {
  std::vector<PlotSeriesData> series;
  std::vector<ReferenceLine> refs;
  std::vector<std::vector<RunResult>> rows;  // rows[s][p]: the result behind series s, point p
  PlotStyle style;
};

class TimingPanel : public Tab {
 public:
  const char* title() const override { return "Timing"; }
  void draw(TabContext& ctx) override;
  // Re-derived only when the history or the view changed: the history can hold thousands of rows.
  const PlotData& plot_data(TabContext& ctx);
  // The plot as a PNG, with the axes the window shows now (export/plot_image.h). GL, between frames.
  bool export_png(TabContext& ctx, const std::string& path, int width, int height, std::string* error);

 private:
  void draw_plot_panel(TabContext& ctx);
  void draw_live_trace(TabContext& ctx);
  void draw_results_table(TabContext& ctx);  // results_panel.cpp
  void rebuild_plot_data(TabContext& ctx);
  void fill_series(const std::vector<std::string>& order,
                   const std::map<std::string, std::map<double, RunResult>>& grouped,
                   std::map<std::string, bool>& visible, bool gflops);
  void add_reference_lines(const AppState& state, double best_cublas, bool gpu, const DeviceInfo& dev);

  PlotData plot_;
  std::uint64_t plot_version_ = ~0ull;
  std::string plot_key_;
  PlotView plot_view_;
  PlotView live_view_;
};

}  // namespace tilescope
