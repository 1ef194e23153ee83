// The timing plot: one series per variant configuration of the selected problem and precision,
// against size on a log2 axis, in GFLOP/s or milliseconds, with the best cuBLAS baseline and the
// device's peak as reference lines; below it, the rolling trace of Live mode.
#include "ui/timing_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "export/plot_image.h"
#include "registry.h"
#include "ui/app.h"
#include "ui/widgets.h"

namespace tilescope {

namespace {

// The x of a result: N for square problems; the geometric mean of M, N, K otherwise, so a
// rectangular product sits where a square one of the same work would.
double size_of(const RunResult& r) {
  if (r.shape.M == r.shape.N && r.shape.N == r.shape.K) return static_cast<double>(r.shape.N);
  return std::cbrt(static_cast<double>(r.shape.M) * static_cast<double>(r.shape.N) * static_cast<double>(r.shape.K));
}

std::string series_label(const RunResult& r) {
  const VariantDescriptor* v = find_variant(r.variant_id);
  std::string label = v ? v->label : r.variant_label.empty() ? r.variant_id : r.variant_label;
  // Show the configuration where a variant has several (cuBLAS gemm vs syrk, TILE = 16 vs 32).
  if (!v || v->configs.size() > 1) label += " " + r.config_name;
  return label;
}

std::string tooltip_text(int series, int point, const void* user) {
  const auto* rows = static_cast<const std::vector<std::vector<RunResult>>*>(user);
  if (series < 0 || series >= static_cast<int>(rows->size())) return "";
  const auto& s = (*rows)[series];
  if (point < 0 || point >= static_cast<int>(s.size())) return "";
  const RunResult& r = s[point];
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%s %s, %s %s\nM = %lld, N = %lld, K = %lld\nmedian %s (min %s, max %s)\n%s GFLOP/s, %.1f%% of "
                "cuBLAS, %.1f%% of peak\nrel. error %.1e%s",
                r.variant_id.c_str(), r.config_name.c_str(), to_string(r.problem), to_string(r.precision),
                static_cast<long long>(r.shape.M), static_cast<long long>(r.shape.N), static_cast<long long>(r.shape.K),
                format_ms(r.median_ms).c_str(), format_ms(r.min_ms).c_str(), format_ms(r.max_ms).c_str(),
                format_thousands(r.gflops).c_str(), r.pct_of_cublas, r.pct_of_peak, r.rel_error,
                r.verified ? (r.passed ? " (pass)" : " (FAIL)") : "");
  return buf;
}

}  // namespace

const PlotData& TimingPanel::plot_data(TabContext& ctx) {
  const AppState& state = ctx.state;
  // Re-derive only when the history or the view changed: the history can hold thousands of rows.
  const std::string key = std::string(to_string(state.problem)) + to_string(state.precision) +
                          (state.y_quantity == YAxisQuantity::Gflops ? "g" : "m") + (state.y_log ? "l" : "") +
                          (state.presenter ? "p" : "");
  if (ctx.history.version() != plot_version_ || key != plot_key_) {
    plot_version_ = ctx.history.version();
    plot_key_ = key;
    rebuild_plot_data(ctx);
  }
  return plot_;
}

namespace {

// The rows of the plot, one series per label, each with its latest row per size.
struct GroupedRows {
  std::map<std::string, std::map<double, RunResult>> by_label;  // label -> size -> latest row
  std::vector<std::string> order;                               // labels, first seen first
  double best_cublas = 0;
};

// The valid rows of the selected problem and precision, grouped by series.
GroupedRows group_rows(const std::vector<RunResult>& rows, const AppState& state) {
  GroupedRows g;
  for (const RunResult& r : rows) {
    if (!r.ok() || r.median_ms <= 0) continue;
    if (r.problem != state.problem) continue;
    // CPU reference rows are double by definition; show them with either precision.
    if (r.precision != state.precision && r.variant_id != kCpuReferenceId) continue;
    const std::string label = series_label(r);
    if (!g.by_label.count(label)) g.order.push_back(label);
    g.by_label[label][size_of(r)] = r;
    if (is_baseline_row(r)) g.best_cublas = std::max(g.best_cublas, r.gflops);
  }
  return g;
}

// Teaching order: registry order, then anything else (CPU reference, loaded rows).
void sort_teaching_order(GroupedRows& g) {
  auto rank = [](const std::map<double, RunResult>& pts) {
    const RunResult& r = pts.begin()->second;
    int i = 0;
    for (const VariantDescriptor* v : variant_registry()) {
      if (r.variant_id == v->id) return i * 100 + std::max(0, find_config(*v, r.config_name));
      ++i;
    }
    return 100000;
  };
  std::stable_sort(g.order.begin(), g.order.end(), [&](const std::string& a, const std::string& b) {
    return rank(g.by_label[a]) < rank(g.by_label[b]);
  });
}

// Titles, axes and the footer naming the machine and day of the results shown (a loaded CSV
// may come from another machine), not the machine drawing them.
void style_plot(PlotData& plot, const AppState& state, bool gpu, const DeviceInfo& dev) {
  const bool gflops = state.y_quantity == YAxisQuantity::Gflops;
  PlotStyle& st = plot.style;
  st.title = std::string(state.problem == Problem::Gemm ? "C = A·B" : "C = AᵀA") + ", " +
             (state.precision == Precision::F32 ? "float" : "double");
  st.x_label = state.problem == Problem::Gemm ? "matrix size N (M = N = K)" : "matrix size N (K = N)";
  st.y_label = gflops ? "GFLOP/s (2·M·N·K / median time)" : "median time (ms)";
  st.x_scale = AxisScale::Log2;
  st.y_scale = state.y_log ? AxisScale::Log10 : AxisScale::Linear;
  st.y_from_zero = true;
  std::string device = gpu ? dev.name : std::string("host CPU (no usable GPU)");
  std::string date = utc_timestamp_now().substr(0, 10);
  for (const auto& points : plot.rows)
    for (const RunResult& r : points)
      if (!r.device_name.empty() && r.variant_id != kCpuReferenceId) {
        device = r.device_name;
        if (r.timestamp.size() >= 10) date = r.timestamp.substr(0, 10);
      }
  st.footer = device + "  -  " + date;
  // Line widths and markers scale with the font already (presenter mode included).
}

}  // namespace

void TimingPanel::rebuild_plot_data(TabContext& ctx) {
  const AppState& state = ctx.state;
  // Keep the user's hidden series hidden across rebuilds.
  std::map<std::string, bool> visible;
  for (const PlotSeriesData& s : plot_.series) visible[s.label] = s.visible;
  GroupedRows g = group_rows(ctx.history.snapshot(), state);
  sort_teaching_order(g);
  plot_.series.clear();
  plot_.rows.clear();
  plot_.refs.clear();
  fill_series(g.order, g.by_label, visible, state.y_quantity == YAxisQuantity::Gflops);
  add_reference_lines(state, g.best_cublas, ctx.runner.gpu(), ctx.device);
  style_plot(plot_, state, ctx.runner.gpu(), ctx.device);
}

// One series per label, in `order`, its points sorted by size.
void TimingPanel::fill_series(const std::vector<std::string>& order,
                              const std::map<std::string, std::map<double, RunResult>>& grouped,
                              std::map<std::string, bool>& visible, bool gflops) {
  for (std::size_t i = 0; i < order.size(); ++i) {
    PlotSeriesData s;
    s.label = order[i];
    s.color = series_color(static_cast<int>(i));
    s.visible = visible.count(s.label) ? visible[s.label] : true;
    std::vector<RunResult> points;
    for (const auto& [x, r] : grouped.at(order[i])) {
      const double y = gflops ? r.gflops : r.median_ms;
      s.points.push_back({x, y});
      points.push_back(r);
    }
    plot_.series.push_back(std::move(s));
    plot_.rows.push_back(std::move(points));
  }
}

// In GFLOP/s: the best cuBLAS run and, with a GPU, the device's peak.
void TimingPanel::add_reference_lines(const AppState& state, double best_cublas, bool gpu, const DeviceInfo& dev) {
  const bool gflops = state.y_quantity == YAxisQuantity::Gflops;
  if (gflops && best_cublas > 0) plot_.refs.push_back({"best cuBLAS", best_cublas, 0xFFB0B0B0});
  if (gflops && gpu) {
    const double peak = dev.peak_gflops(state.precision);
    // On AᵀA the upper-triangle kernels do half the multiply-adds they are credited with, so
    // their points can stand above the peak: the label says why.
    std::string label = state.precision == Precision::F32 ? "FP32 peak" : "FP64 peak";
    if (state.problem == Problem::Ata) label += " (syrk and regtile do half the work)";
    if (peak > 0) plot_.refs.push_back({label, peak, 0xFF4040E0});
  }
}

void TimingPanel::draw(TabContext& ctx) {
  const float avail = ImGui::GetContentRegionAvail().y;
  ImGui::BeginChild("timing", ImVec2(0, avail * (ctx.state.presenter ? 0.72f : 0.58f)), true);
  draw_plot_panel(ctx);
  ImGui::EndChild();
  ImGui::BeginChild("results", ImVec2(0, 0), true);
  draw_results_table(ctx);
  ImGui::EndChild();
}

bool TimingPanel::export_png(TabContext& ctx, const std::string& path, int width, int height, std::string* error) {
  const PlotData& data = plot_data(ctx);
  PlotImage image;
  image.style = data.style;
  image.series = data.series;
  image.refs = data.refs;
  // The axes the window shows now (auto-fitted, or the user's zoom).
  image.x = plot_view_.auto_fit ? fit_axis(data.style, data.series, data.refs, false) : plot_view_.x;
  image.y = plot_view_.auto_fit ? fit_axis(data.style, data.series, data.refs, true) : plot_view_.y;
  return write_plot_png(path, width, height, image, error);
}

void TimingPanel::draw_plot_panel(TabContext& ctx) {
  AppState& state = ctx.state;
  const Runner& runner = ctx.runner;
  // View options on one line above the plot.
  int quantity = state.y_quantity == YAxisQuantity::Gflops ? 0 : 1;
  ImGui::RadioButton("GFLOP/s", &quantity, 0);
  help_tooltip("Speed: how many billion floating-point operations per second (higher is better).");
  ImGui::SameLine();
  ImGui::RadioButton("time", &quantity, 1);
  help_tooltip("The median time of one product in milliseconds (lower is better).");
  state.y_quantity = quantity == 0 ? YAxisQuantity::Gflops : YAxisQuantity::Milliseconds;
  ImGui::SameLine();
  ImGui::Checkbox("log y", &state.y_log);
  help_tooltip("A logarithmic y axis: equal steps are equal ratios, so slow and fast kernels both stay readable.");
  ImGui::SameLine();
  if (ImGui::Button("Fit")) plot_view_.auto_fit = true;
  help_tooltip("Fit the axes to the data again (or double-click the plot). The mouse wheel zooms the x axis.");
  ImGui::SameLine();
  if (ImGui::Button("Export PNG...")) {
    ctx.app.open_export_dialog();
  }
  help_tooltip("Save this plot as a PNG image at a resolution you choose, with title, axes, legend, device and date.");

  const PlotData& data = plot_data(ctx);
  const bool live = runner.progress().kind == JobKind::Live && (runner.progress().busy || !runner.live_trace().empty());
  const float trace_height = live ? ImGui::GetContentRegionAvail().y * 0.28f : 0.0f;
  if (data.series.empty()) {
    ImGui::Dummy(ImVec2(0, ImGui::GetFontSize()));
    ImGui::TextDisabled("No results for %s %s yet: press Run (R) or Sweep (S), or File > Load CSV.",
                        to_string(state.problem), to_string(state.precision));
  }
  if (plot_widget("timing", data.style, plot_.series, data.refs, plot_view_,
                  ImVec2(0, ImGui::GetContentRegionAvail().y - trace_height), tooltip_text, &plot_.rows)) {
    // Visibility lives in plot_.series; nothing else to do.
  }
  if (live) draw_live_trace(ctx);
}

void TimingPanel::draw_live_trace(TabContext& ctx) {
  AppState& state = ctx.state;
  const Runner& runner = ctx.runner;
  const std::vector<LiveSample> trace = runner.live_trace();
  std::vector<PlotSeriesData> series(1);
  series[0].label = "live: " + (state.focused >= 0 ? state.lesson[state.focused].variant_id : std::string());
  series[0].color = series_color(state.focused >= 0 ? state.focused : 0);
  for (const LiveSample& s : trace) series[0].points.push_back({s.t_s, s.ms});
  PlotStyle style;
  style.x_label = "seconds since Live started";
  style.y_label = "median ms per run";
  style.x_scale = AxisScale::Linear;
  style.y_scale = AxisScale::Linear;
  style.show_legend = true;
  live_view_.auto_fit = true;  // the trace always follows the newest samples
  plot_widget("live", style, series, {}, live_view_, ImVec2(0, 0));
}

}  // namespace tilescope
