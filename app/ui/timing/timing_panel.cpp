// The timing plot: one series per variant configuration of the selected problem and precision,
// against size on a log2 axis, in GFLOP/s or milliseconds, with the best cuBLAS baseline and the
// device's peak as reference lines; below it, the rolling trace of Live mode.
#include "app/ui/timing/timing_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "app/export/plot_image.h"
#include "app/export/roofs_cache.h"
#include "app/plot/roofline_render.h"
#include "app/runner/runner.h"
#include "app/ui/shell/app.h"
#include "app/ui/shell/widgets.h"
#include "kernels/core/registry.h"
#include "kernels/core/text_format.h"
#include "kernels/core/typed_configs.h"
#include "kernels/multi/split_words.h"

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
  if (!v || config_count(*v) > 1) label += " " + r.config_name;
  // A split run is a series of its own, never a point of the kernel's one-GPU line.
  if (!r.split.empty()) label += ", " + split_words(r);
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
                format_gflops(r.gflops).c_str(), r.pct_of_cublas, r.pct_of_peak, r.rel_error,
                r.verified ? (r.passed ? " (pass)" : " (FAIL)") : "");
  std::string text = buf;
  if (!r.split.empty()) {
    text = split_words(r) +
           (r.speedup_over_one_gpu > 0 ? format(": %.2fx the kernel alone on one GPU", r.speedup_over_one_gpu) : "") +
           "\n" + text;
  }
  if (r.run_clock_mhz > 0) text += "\nSM clock " + std::to_string(static_cast<int>(r.run_clock_mhz + 0.5)) + " MHz";
  return text;
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
  st.title = transpose_spelling(state.problem == Problem::Gemm ? "C = A·B" : "C = AᵀA") + ", " +
             precision_facts(state.precision).label;
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
  GroupedRows g = group_rows(*ctx.history.rows(), state);  // shared, not copied
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
    // Drawn for f32 and f64 only (peak_gflops is 0 for the tensor-core types).
    std::string label = precision_facts(state.precision).double_output ? "FP64 peak" : "FP32 peak";
    if (state.problem == Problem::Ata) label += " (syrk and regtile do half the work)";
    if (peak > 0) plot_.refs.push_back({label, peak, 0xFF4040E0});
  }
}

namespace {

// The least the plot and the table are drawn at, in lines of text: below that a plot's axes and
// legend, or the table's header and a few rows, no longer fit. A tab shorter than both scrolls.
constexpr float kPlotLines = 14.0f;
constexpr float kTableLines = 8.0f;
constexpr float kRooflineLines = 12.0f;  // the Roofline view's least height, in font sizes

}  // namespace

void TimingPanel::draw(TabContext& ctx) {
  const float avail = ImGui::GetContentRegionAvail().y;
  const float line = ImGui::GetFrameHeightWithSpacing();
  const float plot = std::max(avail * (ctx.state.presenter ? 0.72f : 0.58f), kPlotLines * line);
  const float table = std::max(avail - plot - ImGui::GetStyle().ItemSpacing.y, kTableLines * line);
  ImGui::BeginChild("timing_tab");
  ImGui::BeginChild("timing", ImVec2(0, plot), true);
  draw_plot_panel(ctx);
  ImGui::EndChild();
  ImGui::BeginChild("results", ImVec2(0, table), true);
  draw_results_table(ctx);
  ImGui::EndChild();
  ImGui::EndChild();
}

bool TimingPanel::export_image(TabContext& ctx, int width, int height, Image* out, std::string* error) {
  if (kind_ == TimingPlotKind::Roofline) return render_roofline_image(width, height, roofline_data(ctx), out, error);
  const PlotData& data = plot_data(ctx);
  PlotImage image;
  image.style = data.style;
  image.series = data.series;
  image.refs = data.refs;
  // The axes the window shows now (auto-fitted, or the user's zoom).
  image.x = plot_view_.auto_fit ? fit_axis(data.style, data.series, data.refs, false) : plot_view_.x;
  image.y = plot_view_.auto_fit ? fit_axis(data.style, data.series, data.refs, true) : plot_view_.y;
  return render_plot_image(width, height, image, out, error);
}

void TimingPanel::draw_plot_panel(TabContext& ctx) {
  AppState& state = ctx.state;
  const Runner& runner = ctx.runner;
  poll_roofs(ctx);
  // View options above the plot, on a line that wraps where the tab is narrow.
  int kind = kind_ == TimingPlotKind::Timing ? 0 : 1;
  ImGui::RadioButton("Timing", &kind, 0);
  help_tooltip("Speed against matrix size: one line per variant configuration.");
  same_line_if_fits(check_width("Roofline"));
  ImGui::RadioButton("Roofline", &kind, 1);
  help_tooltip(
      "Speed against arithmetic intensity (FLOPs per byte of global memory traffic, from each variant's mapping "
      "model), under the roofs this GPU reached in small benchmarks: where a point sits tells whether memory or "
      "arithmetic bounds it.");
  kind_ = kind == 0 ? TimingPlotKind::Timing : TimingPlotKind::Roofline;
  // A bar between the plot's choice and the view's options, where both share a line.
  const char* first_option = kind_ == TimingPlotKind::Roofline ? "Export PNG..." : "GFLOP/s";
  const float option_w = kind_ == TimingPlotKind::Roofline ? button_width(first_option) : check_width(first_option);
  same_line_if_fits(text_width("|") + ImGui::GetStyle().ItemSpacing.x + option_w);
  if (ImGui::GetCursorPosX() > ImGui::GetStyle().WindowPadding.x + 1) {
    ImGui::TextDisabled("|");
    ImGui::SameLine();
  }
  if (kind_ == TimingPlotKind::Roofline) {
    draw_roofline_panel(ctx);
    return;
  }
  int quantity = state.y_quantity == YAxisQuantity::Gflops ? 0 : 1;
  ImGui::RadioButton("GFLOP/s", &quantity, 0);
  help_tooltip("Speed: how many billion floating-point operations per second (higher is better).");
  same_line_if_fits(check_width("time"));
  ImGui::RadioButton("time", &quantity, 1);
  help_tooltip("The median time of one product in milliseconds (lower is better).");
  state.y_quantity = quantity == 0 ? YAxisQuantity::Gflops : YAxisQuantity::Milliseconds;
  same_line_if_fits(check_width("log y"));
  ImGui::Checkbox("log y", &state.y_log);
  help_tooltip("A logarithmic y axis: equal steps are equal ratios, so slow and fast kernels both stay readable.");
  same_line_if_fits(button_width("Fit"));
  if (ImGui::Button("Fit")) plot_view_.auto_fit = true;
  help_tooltip("Fit the axes to the data again (or double-click the plot). The mouse wheel zooms the x axis.");
  same_line_if_fits(button_width("Export PNG..."));
  if (ImGui::Button("Export PNG...")) {
    ctx.app.open_export_dialog();
  }
  help_tooltip("Save this plot as a PNG image at a resolution you choose, with title, axes, legend, device and date.");

  const PlotData& data = plot_data(ctx);
  const bool live = runner.progress().kind == JobKind::Live && (runner.progress().busy || !runner.live_trace().empty());
  const float trace_height = live ? ImGui::GetContentRegionAvail().y * 0.28f : 0.0f;
  if (data.series.empty()) {
    ImGui::Dummy(ImVec2(0, ImGui::GetFontSize()));
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("No results for %s %s yet: press Run (R) or Sweep (S), or File > Load CSV.",
                        to_string(state.problem), to_string(state.precision));
    ImGui::PopTextWrapPos();
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
  series[0].label = "live: " + ctx.app.job_subject();  // what Live re-runs (without a GPU, the CPU reference)
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

// ---- the Roofline view -------------------------------------------------------------------------

void TimingPanel::set_roofs(const RoofTable& table, const std::string& source) {
  given_ = table;
  given_source_ = source;
  have_given_ = true;
  ++roofs_generation_;
}

void TimingPanel::start_roofs(Runner& runner, const DeviceInfo& device) {
  if (!device.ok()) return;
  RoofTable cached;
  bool exact = false;
  // A cached table of this device and driver, unless an earlier version wrote it (no clocks, or
  // a roof missing): then it is measured again, and the cache replaced.
  if (find_cached_roofs(roofs_cache_dir(), device.name, version_string(device.driver_version), &cached, &exact) &&
      exact && roofs_current(cached, device)) {
    measured_ = cached;
    measured_source_ = "roofs measured on this GPU " + cached.measured_at.substr(0, 10) + " (cached)";
    have_measured_ = true;
    ++roofs_generation_;
    return;
  }
  seen_roofs_version_ = runner.roofs_version();
  if (runner.start_roofs()) roofs_status_ = "measuring this GPU's roofs...";
}

// A measurement the runner finished since the last frame: use it and cache it (a small file,
// written on this thread).
void TimingPanel::poll_roofs(TabContext& ctx) {
  const std::uint64_t version = ctx.runner.roofs_version();
  if (version == seen_roofs_version_) return;
  seen_roofs_version_ = version;
  const RoofTable table = ctx.runner.roofs();
  if (table.empty()) {
    roofs_status_ = "measuring the roofs failed: " + ctx.runner.roofs_error();
    return;
  }
  measured_ = table;
  measured_source_ = "roofs measured on this GPU now";
  have_measured_ = true;
  ++roofs_generation_;
  std::string path, error;
  roofs_status_ =
      cache_roofs(roofs_cache_dir(), table, &path, &error) ? "roofs cached in " + path : "roofs not cached: " + error;
}

const RoofTable* TimingPanel::roofs_for(const std::string& device, const std::string& driver, std::string* note) {
  if (have_given_) {
    *note = "roofs from " + given_source_ + " (" + given_.device_name + ")";
    if (!device.empty() && device != given_.device_name) *note += "; the results are from " + device;
    return &given_;
  }
  if (have_measured_ && (device.empty() || device == measured_.device_name)) {
    *note = measured_source_;
    return &measured_;
  }
  if (device.empty()) return nullptr;
  const std::string key = device + "|" + driver;
  if (!cache_lookups_.count(key)) {
    RoofTable t;
    bool exact = false;
    const bool found = find_cached_roofs(roofs_cache_dir(), device, driver, &t, &exact);
    cache_lookups_[key] = {found, t};
    cache_notes_[key] = !found  ? ""
                        : exact ? "roofs measured " + t.measured_at.substr(0, 10) + " (cached)"
                                : "roofs measured under driver " + t.driver_version + ", the results under " + driver;
  }
  const auto& [found, table] = cache_lookups_[key];
  *note = cache_notes_[key];
  return found ? &table : nullptr;
}

const RooflineData& TimingPanel::roofline_data(TabContext& ctx) {
  const AppState& state = ctx.state;
  const std::string key =
      std::string(to_string(state.problem)) + to_string(state.precision) + "#" + std::to_string(roofs_generation_);
  if (ctx.history.version() == roofline_version_ && key == roofline_key_) return roofline_;
  roofline_version_ = ctx.history.version();
  roofline_key_ = key;
  std::map<std::string, bool> visible;
  for (const PlotSeriesData& s : roofline_.series) visible[s.label] = s.visible;
  const std::shared_ptr<const std::vector<RunResult>> rows = ctx.history.rows();
  // The device of the results shown: the last CUDA row's (a loaded CSV may come from elsewhere).
  // Rows of variants that need no CUDA name another device: the CPU, or the GL renderer.
  std::string device, driver;
  for (const RunResult& r : *rows) {
    const VariantDescriptor* v = find_variant(r.variant_id);
    if (r.ok() && v && needs_cuda(*v) && !r.device_name.empty()) {
      device = r.device_name;
      driver = r.driver_version;
    }
  }
  std::string note;
  const RoofTable* roofs = roofs_for(device, driver, &note);
  RooflineHost host;
  host.has_gpu = ctx.runner.gpu();
  roofline_ = build_roofline(*rows, state.problem, state.precision, roofs, note, host);
  for (PlotSeriesData& s : roofline_.series)
    if (visible.count(s.label)) s.visible = visible[s.label];
  return roofline_;
}

void TimingPanel::draw_roofline_panel(TabContext& ctx) {
  if (ImGui::Button("Export PNG...")) ctx.app.open_export_dialog();
  help_tooltip("Save this Roofline view as a PNG image at a resolution you choose.");
  const std::string status = ctx.runner.roofs_pending() ? "measuring this GPU's roofs..." : roofs_status_;
  ImGui::PushTextWrapPos(0.0f);
  if (!status.empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", status.c_str());
  }
  roofline_data(ctx);
  RooflineData& data = roofline_;  // the legend's clicks toggle visibility in place
  if (data.series.empty()) {
    ImGui::TextDisabled("No results for %s %s yet: press Run (R) or Sweep (S), or File > Load CSV.",
                        to_string(ctx.state.problem), to_string(ctx.state.precision));
  }
  ImGui::PopTextWrapPos();
  // The notes above the plot: what has no model, what stands above a roof, where the roofs came
  // from. A short panel folds them into one line to hover, so the plot keeps its height (what
  // matters most, why there are no roofs, the plot says itself).
  const bool fold_notes = ImGui::GetContentRegionAvail().y < 24.0f * ImGui::GetFontSize();
  if (fold_notes && !data.notes.empty()) {
    std::string all;
    for (const std::string& note : data.notes) all += (all.empty() ? "" : "\n\n") + note;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%zu note%s on this view (hover to read)", data.notes.size(),
                        data.notes.size() == 1 ? "" : "s");
    ImGui::PopTextWrapPos();
    help_tooltip(all.c_str());
  } else {
    for (const std::string& note : data.notes) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled("%s", note.c_str());
      ImGui::PopTextWrapPos();
    }
  }
  // Never flatter than its axes and roofs need: the panel scrolls instead.
  roofline_widget("roofline", data,
                  ImVec2(0, std::max(ImGui::GetContentRegionAvail().y, kRooflineLines * ImGui::GetFontSize())));
}

}  // namespace tilescope
