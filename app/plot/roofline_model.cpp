#include "app/plot/roofline_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <set>

#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"

namespace tilescope {

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// Three significant figures without exponent: 0.25, 3.05, 21.4, 512.
std::string three_figures(double v) {
  const double a = std::fabs(v);
  return fixed(v, a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
}

// The CPU reference's rows carry their label (cpu_reference_row; the CSV's variant_label column
// has been there from the first file), so its name is written once, where the rows are made.
std::string series_label(const RunResult& r) {
  const VariantDescriptor* v = find_variant(r.variant_id);
  std::string label = v ? v->label : r.variant_label.empty() ? r.variant_id : r.variant_label;
  // One series for the host, whatever configuration name its rows carry.
  if (r.variant_id != kCpuReferenceId && (!v || config_count(*v) > 1)) label += " " + r.config_name;
  return label;
}

// The element type a title names: "float", "double", else the precision's own name ("tf32").
std::string precision_title(Precision p) {
  if (p == Precision::F32) return "float";
  if (p == Precision::F64) return "double";
  return to_string(p);
}

int teaching_rank(const RunResult& r) {
  int i = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (r.variant_id == v->id) return i * 100 + std::max(0, find_config(*v, r.config_name));
    ++i;
  }
  return 100000;
}

// Roof colours: warm for compute, cool for bandwidth, none of them a series colour's twin.
constexpr unsigned kComputeColor = 0xFF3030D0;  // red (ABGR): the top compute roof
// The compute roofs below the top, in order: light red, brown, dark rose, then the last again
// (warm like the top roof, none of them the Okabe-Ito orange or vermillion of a series).
constexpr unsigned kLowerComputeColors[] = {0xFF8080F0, 0xFF3060A0, 0xFF6040B0};
constexpr unsigned kDramColor = 0xFFC07820;     // blue
constexpr unsigned kL2Color = 0xFF40A060;       // green
constexpr unsigned kSharedColor = 0xFFA040A0;   // purple
constexpr unsigned kOtherBwColor = 0xFF909090;  // grey

}  // namespace

std::string bandwidth_text(double gbps) {
  return gbps >= 1000 ? three_figures(gbps / 1000) + " TB/s" : three_figures(gbps) + " GB/s";
}

std::string compute_text(double gflops) {
  return gflops >= 1000 ? three_figures(gflops / 1000) + " TFLOP/s" : three_figures(gflops) + " GFLOP/s";
}

std::vector<ComputeRoofLine> compute_roof_lines(const RoofTable& table, const std::string& precision) {
  std::vector<const Roof*> compute;
  for (const Roof& r : table.roofs)
    if (r.kind == RoofKind::Compute && r.precision == precision && r.measured > 0) compute.push_back(&r);
  std::stable_sort(compute.begin(), compute.end(),
                   [](const Roof* a, const Roof* b) { return a->measured > b->measured; });
  std::vector<ComputeRoofLine> lines;
  for (const Roof* r : compute) {
    if (lines.empty() || r->measured < lines.back().gflops * (1 - kSameRoofShare))
      lines.push_back({r->measured, {}, {}});
    lines.back().names.push_back(r->name);
    lines.back().values.push_back(r->measured);
  }
  return lines;
}

std::string compute_roof_label(const ComputeRoofLine& line) {
  if (line.names.size() == 1) return line.names.front() + " " + compute_text(line.values.front());
  const bool tera = line.gflops >= 1000;
  std::string text;
  for (std::size_t i = 0; i < line.names.size(); ++i)
    text += (i ? ", " : "") + line.names[i] + " " + three_figures(tera ? line.values[i] / 1000 : line.values[i]);
  return text + (tera ? " TFLOP/s" : " GFLOP/s");
}

void add_roofs(const RoofTable& roofs, Precision precision, RooflineData* data) {
  const std::string prec = to_string(precision);
  const Roof* top = roofs.top_compute(prec);
  const std::vector<ComputeRoofLine> lines = compute_roof_lines(roofs, prec);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const unsigned color =
        i == 0 ? kComputeColor : kLowerComputeColors[std::min<std::size_t>(i - 1, std::size(kLowerComputeColors) - 1)];
    data->compute.push_back({compute_roof_label(lines[i]), lines[i].gflops, color});
  }
  data->top_compute = top ? top->measured : 0;
  data->top_compute_name = top ? top->name : "";
  data->top_compute_mhz = top ? top->clock_mhz : 0;
  const Roof* dram = roofs.dram();
  auto add_bandwidth = [&](const Roof& r, unsigned color, bool primary) {
    data->bandwidth.push_back({r.name, r.name + " " + bandwidth_text(r.measured), r.measured, color, primary});
  };
  if (dram) add_bandwidth(*dram, kDramColor, true);
  for (const Roof& r : roofs.roofs) {
    if (r.kind != RoofKind::Bandwidth || r.measured <= 0) continue;
    if (r.id == kRoofHbmCopy || r.id == kRoofHbmRead) continue;  // the DRAM roof stands for both
    add_bandwidth(r, r.id == kRoofL2Read ? kL2Color : r.id == kRoofSharedRead ? kSharedColor : kOtherBwColor, false);
  }
  if (data->top_compute > 0) {
    for (const BandwidthRoof& b : data->bandwidth) {
      RidgePoint p;
      p.intensity = ridge_intensity(data->top_compute, b.gbps);
      p.gflops = data->top_compute;
      p.color = b.color;
      p.label = "ridge " + three_figures(p.intensity) + " FLOP/B";
      data->ridges.push_back(p);
    }
  }
  data->has_roofs = !data->compute.empty() || !data->bandwidth.empty();
}

void fit_roofline_axes(RooflineData* data) {
  double xlo = HUGE_VAL, xhi = 0, ylo = HUGE_VAL, yhi = 0;
  auto take = [&](double x, double y) {
    if (x > 0 && std::isfinite(x)) xlo = std::min(xlo, x), xhi = std::max(xhi, x);
    if (y > 0 && std::isfinite(y)) ylo = std::min(ylo, y), yhi = std::max(yhi, y);
  };
  for (const PlotSeriesData& s : data->series)
    if (s.visible)
      for (const PlotPoint& p : s.points) take(p.x, p.y);
  for (const RidgePoint& r : data->ridges) take(r.intensity, r.gflops);
  for (const ReferenceLine& c : data->compute) take(0, c.y);
  if (!(xhi > 0)) xlo = 0.1, xhi = 100;
  if (!(yhi > 0)) ylo = 10, yhi = 1e5;
  // The bandwidth roofs at the left edge stay in view (down to a decade below the points).
  const double x0 = std::pow(10.0, std::floor(std::log10(xlo / 2)));
  for (const BandwidthRoof& b : data->bandwidth) ylo = std::min(ylo, std::max(b.gbps * x0, ylo / 10));
  data->x = Axis{x0, std::pow(10.0, std::ceil(std::log10(xhi * 2))), AxisScale::Log10};
  data->y = Axis{std::pow(10.0, std::floor(std::log10(ylo / 1.5))), std::pow(10.0, std::ceil(std::log10(yhi * 1.5))),
                 AxisScale::Log10};
}

double roofline_attainable(const RooflineData& data, double intensity) {
  double bw = 0;
  for (const BandwidthRoof& b : data.bandwidth) bw = std::max(bw, b.gbps);
  if (data.top_compute <= 0 && bw <= 0) return 0;
  if (data.top_compute <= 0) return bw * intensity;
  if (bw <= 0) return data.top_compute;
  return roofline_bound(data.top_compute, bw, intensity);
}

RooflineData build_roofline(const std::vector<RunResult>& rows, Problem problem, Precision precision,
                            const RoofTable* roofs, const std::string& roofs_note, const RooflineHost& host) {
  RooflineData data;
  // The latest valid row per series and size, series in teaching order.
  std::map<std::string, std::map<std::int64_t, std::pair<RunResult, GlobalTraffic>>> grouped;
  std::vector<std::string> order;
  std::set<std::string> no_model;  // labels
  std::string device, date;
  bool cpu_device = false;  // `device` is the host's
  for (const RunResult& r : rows) {
    if (!r.ok() || r.median_ms <= 0 || r.gflops <= 0) continue;
    const bool cpu = r.variant_id == kCpuReferenceId;
    // The CPU reference is double whatever precision is shown, as on the timing plot: without a
    // GPU its rows are all there is, and a view left empty would look broken.
    if (r.problem != problem || (r.precision != precision && !cpu)) continue;
    const std::string label = series_label(r);
    const int config = [&] {
      const VariantDescriptor* v = find_variant(r.variant_id);
      return v ? std::max(0, find_config(*v, r.config_name)) : 0;
    }();
    GlobalTraffic t = global_traffic(r.variant_id, config, r.problem, r.precision, r.shape);
    if (!t.from_model && !cpu) no_model.insert(label);
    if (!grouped.count(label)) order.push_back(label);
    const Shape s = normalised(r.problem, r.shape);
    grouped[label][s.M * 1000003 + s.N * 1009 + s.K] = {r, t};
    // The footer names the GPU of the results when there is one, the host only without.
    if (!r.device_name.empty() && (!cpu || device.empty() || cpu_device)) {
      cpu_device = cpu;
      device = r.device_name;
      date = r.timestamp.substr(0, 10);
    }
  }
  std::stable_sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
    return teaching_rank(grouped[a].begin()->second.first) < teaching_rank(grouped[b].begin()->second.first);
  });
  for (std::size_t i = 0; i < order.size(); ++i) {
    PlotSeriesData s;
    s.label = order[i];
    s.color = series_color(static_cast<int>(i));
    std::vector<RunResult> rs;
    std::vector<GlobalTraffic> ts;
    std::vector<std::pair<double, std::size_t>> by_x;
    for (const auto& [key, rt] : grouped[order[i]]) {
      by_x.push_back({rt.second.intensity(), rs.size()});
      rs.push_back(rt.first);
      ts.push_back(rt.second);
    }
    // Points in order of intensity, so the line joining a configuration's sizes does not zigzag.
    std::sort(by_x.begin(), by_x.end());
    std::vector<RunResult> rs_sorted;
    std::vector<GlobalTraffic> ts_sorted;
    for (const auto& [x, k] : by_x) {
      s.points.push_back({x, rs[k].gflops});
      rs_sorted.push_back(rs[k]);
      ts_sorted.push_back(ts[k]);
    }
    if (rs_sorted.front().variant_id == kCpuReferenceId) data.cpu_points += static_cast<int>(s.points.size());
    data.series.push_back(std::move(s));
    data.rows.push_back(std::move(rs_sorted));
    data.traffic.push_back(std::move(ts_sorted));
  }

  if (roofs) add_roofs(*roofs, precision, &data);
  if (!no_model.empty()) {
    std::string names;
    for (const std::string& label : no_model) names += (names.empty() ? "" : ", ") + label;
    data.notes.push_back("placed by minimum traffic (no mapping model): " + names);
  }
  // Points above the DRAM roof: caches served loads. Worth saying, or the picture looks broken:
  // the model counts every load a thread issues, wherever it is served from.
  bool above_dram = false, above_compute = false;
  for (std::size_t i = 0; i < data.series.size(); ++i)
    for (std::size_t p = 0; p < data.series[i].points.size(); ++p) {
      const PlotPoint& pt = data.series[i].points[p];
      if (!data.bandwidth.empty() && pt.y > data.bandwidth.front().gbps * pt.x * 1.02) above_dram = true;
      if (data.top_compute > 0 && pt.y > data.top_compute * 1.02 && problem == Problem::Gemm) above_compute = true;
    }
  if (above_dram)
    data.notes.push_back("points above the " + data.bandwidth.front().name +
                         " roof: the caches served some of the loads (the model counts every load a thread issues)");
  if (above_compute)
    data.notes.push_back("above the " + data.top_compute_name + " roof: arithmetic this device's roofs do not measure");
  // A roof holds at its clock; a board at its power limit runs a long GEMM slower than its maximum.
  if (data.top_compute_mhz > 0)
    data.notes.push_back("the " + data.top_compute_name + " roof was measured at an SM clock of " +
                         three_figures(data.top_compute_mhz) + " MHz");
  if (problem == Problem::Ata && !data.series.empty())
    data.notes.push_back(
        "AᵀA is credited with 2·N²·K; kernels that skip the lower triangle do half and can pass the roofs");
  if (data.cpu_points > 0)
    data.notes.push_back("CPU reference (double, on the host): " + std::to_string(data.cpu_points) +
                         (data.cpu_points == 1 ? " point" : " points") + ", placed by minimum traffic" +
                         (data.has_roofs ? "; the roofs are the GPU's, none is the host CPU's" : ""));
  // Only advice that can be followed here: measuring needs a GPU, a file of roofs does not.
  if (!data.has_roofs && host.has_gpu) {
    data.no_roofs = "no roofs measured for this device yet";
    data.notes.push_back("no roofs for this device: run `tilescope bench --roofs` on it, or give `plot --roofs FILE`");
  } else if (!data.has_roofs) {
    data.no_roofs = "no roofs: this machine has no usable GPU to measure them";
    data.notes.push_back(
        "no roofs: this machine has no usable GPU to measure them on; `tilescope plot --roofline --roofs FILE` "
        "draws the roofs another machine measured");
  } else if (!roofs_note.empty()) {
    data.notes.push_back(roofs_note);
  }

  PlotStyle& st = data.style;
  st.title = std::string("Roofline: ") + (problem == Problem::Gemm ? "C = A·B" : "C = AᵀA") + ", " +
             precision_title(precision);
  st.x_label = "arithmetic intensity (FLOP per byte of global memory traffic)";
  data.short_x_label = "FLOP per byte";
  st.y_label = "GFLOP/s";
  st.x_scale = AxisScale::Log10;
  st.y_scale = AxisScale::Log10;
  st.y_from_zero = false;
  if (device.empty() && roofs) device = roofs->device_name;
  st.footer = (device.empty() ? std::string("no results") : device) + (date.empty() ? "" : "  -  " + date);
  fit_roofline_axes(&data);
  return data;
}

std::string roofline_tooltip(const RooflineData& data, int series, int point) {
  if (series < 0 || series >= static_cast<int>(data.rows.size())) return "";
  if (point < 0 || point >= static_cast<int>(data.rows[series].size())) return "";
  const RunResult& r = data.rows[series][point];
  const GlobalTraffic& t = data.traffic[series][point];
  const double mb = 1e6;
  std::string text = r.variant_id + " " + r.config_name + ", " + to_string(r.problem) + " " + to_string(r.precision) +
                     "\nM = " + std::to_string(r.shape.M) + ", N = " + std::to_string(r.shape.N) +
                     ", K = " + std::to_string(r.shape.K) + "\n" + compute_text(r.gflops) + " at " +
                     three_figures(t.intensity()) + " FLOP/byte\n";
  text += "global traffic " + three_figures(t.bytes() / mb) + " MB: A " + three_figures(t.a_bytes / mb) + ", B " +
          three_figures(t.b_bytes / mb) + ", C " + three_figures(t.c_bytes / mb) + " MB\n";
  text += t.from_model ? "bytes from the mapping model's closed-form read counts, plus C"
                       : "placed by minimum traffic (" + t.note + "): A and B read once, C written once";
  const double bound = roofline_attainable(data, t.intensity());
  if (bound > 0)
    text += "\nroof at this intensity: " + compute_text(bound) + " (" + fixed(100.0 * r.gflops / bound, 1) + "% of it)";
  // The compute roofs under that one, each with the share reached: the one a kernel is bound by
  // need not be the highest (mma.sync fed through shared memory, under wgmma's, on an H100).
  for (const ReferenceLine& lower : data.compute)
    if (lower.y > 0 && lower.y < bound)
      text += "\nlower roof " + lower.label + ": " + fixed(100.0 * r.gflops / lower.y, 1) + "% of it";
  return text;
}

}  // namespace tilescope
