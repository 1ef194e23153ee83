// The Roofline view's arithmetic, apart from drawing so it can be tested: every result placed
// at its arithmetic intensity (FLOPs / global bytes, kernels/models/traffic.h) against its GFLOP/s,
// on log-log axes, under the device's measured roofs (kernels/roofs/roofs.h): a horizontal line
// per compute roof of the shown precision (FMA pipe and tensor cores), a slanted line
// (bandwidth x intensity) per bandwidth roof, and a ridge point where each bandwidth roof
// meets the top compute roof.
#pragma once

#include <string>
#include <vector>

#include "app/plot/plot_model.h"
#include "app/plot/plot_widget.h"
#include "kernels/measure/measure.h"
#include "kernels/models/traffic.h"
#include "kernels/roofs/roofs.h"

namespace tilescope {

struct BandwidthRoof {
  std::string name;   // "HBM read"
  std::string label;  // "HBM read 3.05 TB/s"
  double gbps = 0;
  unsigned color = 0xFFFFFFFF;
  bool primary = false;  // the DRAM roof: drawn heavier, the classic roof's slope
};

struct RidgePoint {
  std::string label;  // "ridge 21.4 FLOP/B"
  double intensity = 0, gflops = 0;
  unsigned color = 0xFFFFFFFF;
};

struct RooflineData {
  PlotStyle style;
  // One series per variant configuration: x = FLOP/byte, y = GFLOP/s, one point per size.
  std::vector<PlotSeriesData> series;
  std::vector<std::vector<RunResult>> rows;         // rows[s][p]: the result behind a point
  std::vector<std::vector<GlobalTraffic>> traffic;  // traffic[s][p]: its bytes and intensity
  std::vector<ReferenceLine> compute;               // horizontal compute roofs, highest first
  std::vector<BandwidthRoof> bandwidth;             // slanted roofs, up to the top compute roof
  std::vector<RidgePoint> ridges;
  double top_compute = 0;  // GFLOP/s of the highest compute roof shown (0: none)
  std::string top_compute_name;
  double top_compute_mhz = 0;  // the SM clock that roof ran at (0: not recorded)
  // Sentences shown with the plot: variants placed by minimum traffic, missing roofs.
  std::vector<std::string> notes;
  // Without roofs, one line said in the plot itself: why there are none ("" with roofs).
  std::string no_roofs;
  int cpu_points = 0;  // the CPU reference's points among the series
  bool has_roofs = false;
  Axis x, y;                  // fitted: every point, every ridge point, the compute roofs
  std::string short_x_label;  // the x-axis title where style.x_label is too wide for the plot
};

// "3.05 TB/s", "812 GB/s"; "61.2 TFLOP/s", "950 GFLOP/s".
std::string bandwidth_text(double gbps);
std::string compute_text(double gflops);

// One horizontal compute roof as drawn: the roofs of a precision that measured within
// kSameRoofShare of each other share a line, at the highest of them, one label naming each
// with its value (on an H100: "mma.sync f64 m8n8k4 35.2, wmma f64 35.1, FP64 FMA 33.0
// TFLOP/s"; lines that close would put their labels on top of each other).
struct ComputeRoofLine {
  double gflops = 0;               // the highest of `values`: where the line is drawn
  std::vector<std::string> names;  // highest first
  std::vector<double> values;      // GFLOP/s, one per name
};
constexpr double kSameRoofShare = 0.10;

// "FP32 FMA 65.2 TFLOP/s"; "a 35.2, b 33.0 TFLOP/s" (every value in the unit of the highest).
std::string compute_roof_label(const ComputeRoofLine& line);

// The compute roofs of one precision ("f64"), highest first, near-equal ones merged.
std::vector<ComputeRoofLine> compute_roof_lines(const RoofTable& roofs, const std::string& precision);

// The roofs of `roofs` for one precision: every compute roof of it (the FMA pipe, and the
// tensor-core rows: mma.sync, wmma) as a labelled horizontal line, highest first (the top is
// the classic roof, drawn heavier); the DRAM roof (the better HBM row), L2 and shared memory,
// with the ridge points on the top compute roof.
void add_roofs(const RoofTable& roofs, Precision precision, RooflineData* data);

// Log-log axes showing every visible point, the ridge points and the compute roofs, with a
// margin, on whole decades.
void fit_roofline_axes(RooflineData* data);

// What the machine drawing the view can do about missing roofs: measure them (it has a usable
// GPU) or not, so the view only suggests what can be done here.
struct RooflineHost {
  bool has_gpu = true;
};

// The view for the valid rows of one problem and precision (the latest row per variant
// configuration and size), with the roofs of `roofs` when given (nullptr: points only and a
// note saying why, and how to get roofs where that can be done on `host`). `roofs_note`:
// where the roofs came from. The CPU reference's rows (double, whatever the precision shown)
// are a series of their own, placed by minimum traffic; no roof is the host CPU's.
RooflineData build_roofline(const std::vector<RunResult>& rows, Problem problem, Precision precision,
                            const RoofTable* roofs, const std::string& roofs_note,
                            const RooflineHost& host = RooflineHost{});

// The tooltip of a point: variant, sizes, GFLOP/s, intensity, the bytes and where they came
// from, the bound the roofs put at that intensity, and the share of every lower compute roof.
std::string roofline_tooltip(const RooflineData& data, int series, int point);

// The attainable GFLOP/s at an intensity under every roof shown: min(top compute, the highest
// bandwidth x intensity); 0 without roofs.
double roofline_attainable(const RooflineData& data, double intensity);

}  // namespace tilescope
