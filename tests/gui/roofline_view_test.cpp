// The Roofline view: its model (points at their intensity, roofs, ridge points, notes, axes,
// hover), its PNG rendered headless under Mesa from a committed H100 CSV and the H100 roofs
// fixture (tests/data), and `tilescope plot --roofline` end to end.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "app/export/plot_image.h"
#include "app/export/png_writer.h"
#include "app/export/results_csv.h"
#include "app/export/roofs_cache.h"
#include "app/plot/roofline_model.h"
#include "app/runner/runner.h"
#include "kernels/core/registry.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/image_checks.h"
#include "tests/support/run_program.h"

using namespace tilescope;
using namespace tilescope::testing;

namespace {

const std::string kRoofs = std::string(TILESCOPE_SOURCE_DIR) + "/tests/data/roofs-h100-fixture.json";

std::vector<RunResult> h100_rows() {
  std::vector<RunResult> rows;
  std::string error;
  EXPECT_TRUE(results_from_csv(read_file(kH100Csv), &rows, &error)) << error;
  return rows;
}

RoofTable h100_roofs() {
  RoofTable t;
  std::string error;
  EXPECT_TRUE(load_roofs_file(kRoofs, &t, &error)) << error;
  return t;
}

// What the view is told of a machine without a usable GPU.
const RooflineHost kNoGpu{false};

TEST(RooflineModel, PointsSitAtTheirIntensityUnderRoofsWithRidgePoints) {
  const RoofTable roofs = h100_roofs();
  const RooflineData d = build_roofline(h100_rows(), Problem::Gemm, Precision::F32, &roofs, "fixture");
  ASSERT_FALSE(d.series.empty());
  ASSERT_TRUE(d.has_roofs);
  // One compute roof for float (FP32 FMA), three bandwidth roofs (DRAM, L2, shared memory).
  ASSERT_EQ(d.compute.size(), 1u);
  EXPECT_DOUBLE_EQ(d.top_compute, roofs.top_compute("f32")->measured);
  ASSERT_EQ(d.bandwidth.size(), 3u);
  EXPECT_TRUE(d.bandwidth.front().primary);
  EXPECT_DOUBLE_EQ(d.bandwidth.front().gbps, roofs.dram()->measured);
  ASSERT_EQ(d.ridges.size(), d.bandwidth.size());
  for (std::size_t i = 0; i < d.ridges.size(); ++i) {
    EXPECT_DOUBLE_EQ(d.ridges[i].intensity, d.top_compute / d.bandwidth[i].gbps);
    EXPECT_DOUBLE_EQ(d.ridges[i].gflops, d.top_compute);
    EXPECT_NE(d.ridges[i].label.find("FLOP/B"), std::string::npos);
  }
  for (std::size_t s = 0; s < d.series.size(); ++s)
    for (std::size_t p = 0; p < d.series[s].points.size(); ++p) {
      const RunResult& r = d.rows[s][p];
      const GlobalTraffic& t = d.traffic[s][p];
      EXPECT_EQ(r.problem, Problem::Gemm);
      EXPECT_DOUBLE_EQ(d.series[s].points[p].x, t.intensity());
      EXPECT_DOUBLE_EQ(d.series[s].points[p].y, r.gflops);
      // The axes show every point and every ridge point.
      EXPECT_GE(d.series[s].points[p].x, d.x.lo);
      EXPECT_LE(d.series[s].points[p].x, d.x.hi);
      EXPECT_GE(d.series[s].points[p].y, d.y.lo);
      EXPECT_LE(d.series[s].points[p].y, d.y.hi);
      // A CUDA kernel of ours has a model; the library is placed by minimum traffic.
      const VariantDescriptor* v = find_variant(r.variant_id);
      ASSERT_NE(v, nullptr);
      EXPECT_EQ(t.from_model, v->model != nullptr) << r.variant_id;
      const std::string tip = roofline_tooltip(d, static_cast<int>(s), static_cast<int>(p));
      EXPECT_NE(tip.find(t.from_model ? "mapping model" : "minimum traffic"), std::string::npos) << tip;
      EXPECT_NE(tip.find("roof at this intensity"), std::string::npos) << tip;
    }
  for (const RidgePoint& r : d.ridges) {
    EXPECT_GE(r.intensity, d.x.lo);
    EXPECT_LE(r.intensity, d.x.hi);
  }
  // The variants without a model are named in a note.
  bool noted = false;
  for (const std::string& n : d.notes) noted = noted || n.find("placed by minimum traffic") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(RooflineModel, WithoutRoofsThePointsStandAndANoteSaysHowToMeasure) {
  const RooflineData d = build_roofline(h100_rows(), Problem::Gemm, Precision::F32, nullptr, "");
  EXPECT_FALSE(d.series.empty());
  EXPECT_FALSE(d.has_roofs);
  EXPECT_TRUE(d.ridges.empty());
  bool how = false;
  for (const std::string& n : d.notes) how = how || n.find("bench --roofs") != std::string::npos;
  EXPECT_TRUE(how);
  EXPECT_EQ(roofline_attainable(d, 10.0), 0.0);
  EXPECT_FALSE(d.no_roofs.empty()) << "the plot says why it has no roofs";
}

// The CPU reference's rows as a machine without a GPU times them: double, three sizes.
std::vector<RunResult> cpu_rows() {
  std::vector<RunResult> rows;
  for (std::int64_t n : {128, 256, 512}) {
    RunRequest req;
    req.shape = Shape{n, n, n};
    req.repetitions = 3;
    RunResult r = cpu_reference_row(req, false);
    record_timings(r, {1e-6 * n * n * n, 1.1e-6 * n * n * n, 1.2e-6 * n * n * n}, 0);
    rows.push_back(r);
  }
  return rows;
}

// Without a GPU the table holds the CPU reference's rows: the view draws them (whatever precision
// is selected: they are double), says why there are no roofs, and suggests nothing that needs a
// GPU; with a GPU it still says how to measure them.
TEST(RooflineModel, CpuRowsWithoutAGpuAreDrawnAndTheViewSaysWhyThereAreNoRoofs) {
  for (Precision p : {Precision::F32, Precision::F64, Precision::BF16}) {
    const RooflineData d = build_roofline(cpu_rows(), Problem::Gemm, p, nullptr, "", kNoGpu);
    ASSERT_EQ(d.series.size(), 1u) << to_string(p);
    EXPECT_EQ(d.series[0].label, cpu_rows()[0].variant_label) << "named as its rows name it";
    EXPECT_EQ(d.series[0].points.size(), 3u);
    EXPECT_EQ(d.cpu_points, 3);
    EXPECT_FALSE(d.has_roofs);
    EXPECT_NE(d.no_roofs.find("no usable GPU"), std::string::npos) << d.no_roofs;
    bool said_cpu = false;
    for (const std::string& n : d.notes) {
      EXPECT_EQ(n.find("bench --roofs"), std::string::npos) << "advice this machine cannot follow: " << n;
      said_cpu = said_cpu || n.find("CPU reference (double, on the host): 3 points") != std::string::npos;
    }
    EXPECT_TRUE(said_cpu);
    for (const PlotPoint& pt : d.series[0].points) {
      EXPECT_GE(pt.x, d.x.lo);
      EXPECT_LE(pt.x, d.x.hi);
      EXPECT_GE(pt.y, d.y.lo);
      EXPECT_LE(pt.y, d.y.hi);
    }
  }
  const RooflineData with_gpu = build_roofline(cpu_rows(), Problem::Gemm, Precision::F32, nullptr, "");
  bool how = false;
  for (const std::string& n : with_gpu.notes) how = how || n.find("run `tilescope bench --roofs`") != std::string::npos;
  EXPECT_TRUE(how);
  // Under a GPU's roofs the CPU's points are drawn too, and the note says whose roofs they are.
  const RoofTable roofs = h100_roofs();
  const RooflineData under = build_roofline(cpu_rows(), Problem::Gemm, Precision::F32, &roofs, "", kNoGpu);
  ASSERT_EQ(under.series.size(), 1u);
  EXPECT_TRUE(under.no_roofs.empty());
  bool whose = false;
  for (const std::string& n : under.notes) whose = whose || n.find("the roofs are the GPU's") != std::string::npos;
  EXPECT_TRUE(whose);
}

TEST(RooflineModel, HoverFindsThePointUnderTheMouse) {
  const RoofTable roofs = h100_roofs();
  const RooflineData d = build_roofline(h100_rows(), Problem::Gemm, Precision::F32, &roofs, "");
  ASSERT_FALSE(d.series.empty());
  const double w = 800, h = 500;
  const int s = static_cast<int>(d.series.size()) - 1;
  const PlotPoint p = d.series[s].points.back();
  const double mx = d.x.to_unit(p.x) * w, my = (1 - d.y.to_unit(p.y)) * h;
  const Hit hit = hit_test(d.series, d.x, d.y, w, h, mx + 2, my - 2, 10);
  ASSERT_GE(hit.series, 0);
  EXPECT_DOUBLE_EQ(d.series[hit.series].points[hit.point].x, p.x);
  EXPECT_DOUBLE_EQ(d.series[hit.series].points[hit.point].y, p.y);
}

TEST(RooflineModel, AttainableIsTheEnvelopeOfTheRoofs) {
  const RoofTable roofs = h100_roofs();
  const RooflineData d = build_roofline({}, Problem::Gemm, Precision::F64, &roofs, "");
  ASSERT_TRUE(d.has_roofs);
  const double p = roofs.top_compute("f64")->measured;
  const double b = roofs.top_bandwidth()->measured;
  EXPECT_DOUBLE_EQ(roofline_attainable(d, 1e-3), b * 1e-3);
  EXPECT_DOUBLE_EQ(roofline_attainable(d, 1e4), p);
}

// The fixture's roofs plus tensor-core rows as an H100 measures them (mma.sync f64 m16n8k16 at
// twice the FP64 FMA pipe; m8n8k4 and wmma f64 a few percent above the pipe; f16 far above
// everything).
RoofTable h100_roofs_with_tensor_cores() {
  RoofTable t = h100_roofs();
  const double fp64 = t.find(kRoofFp64Fma)->measured;
  auto add = [&t](const char* id, const char* name, const char* precision, double gflops) {
    Roof r;
    r.id = id;
    r.name = name;
    r.kind = RoofKind::Compute;
    r.precision = precision;
    r.measured = gflops;
    r.unit = "GFLOP/s";
    t.roofs.push_back(r);
  };
  add(kRoofMmaF64M8n8k4, "mma.sync f64 m8n8k4", "f64", fp64 * 1.07);
  add(kRoofMmaF64M16n8k16, "mma.sync f64 m16n8k16", "f64", fp64 * 2);
  add(kRoofWmmaF64, "wmma f64", "f64", fp64 * 0.995);
  add(kRoofMmaF16, "mma.sync f16", "f16", 650000);
  t.roofs.back().clock_mhz = 1740;
  add(kRoofWmmaF16, "wmma f16", "f16", 600000);
  return t;
}

TEST(RooflineModel, EveryComputeRoofOfThePrecisionIsDrawnHighestFirst) {
  const RoofTable t = h100_roofs_with_tensor_cores();
  const double fp64 = t.find(kRoofFp64Fma)->measured;
  const RooflineData d = build_roofline({}, Problem::Gemm, Precision::F64, &t, "");
  // Two lines: the DMMA roof on top; the FMA pipe and the two tensor rows near it share one.
  ASSERT_EQ(d.compute.size(), 2u);
  EXPECT_DOUBLE_EQ(d.compute[0].y, fp64 * 2);
  EXPECT_NE(d.compute[0].label.find("mma.sync f64 m16n8k16"), std::string::npos) << d.compute[0].label;
  EXPECT_NE(d.compute[0].label.find("TFLOP/s"), std::string::npos) << d.compute[0].label;
  EXPECT_DOUBLE_EQ(d.compute[1].y, fp64 * 1.07);  // the highest of the merged ones
  for (const char* name : {"FP64 FMA", "mma.sync f64 m8n8k4", "wmma f64"})
    EXPECT_NE(d.compute[1].label.find(name), std::string::npos) << d.compute[1].label;
  EXPECT_NE(d.compute[0].color, d.compute[1].color);
  // The top is the highest roof: the ridges and the attainable bound sit on it.
  EXPECT_DOUBLE_EQ(d.top_compute, fp64 * 2);
  EXPECT_EQ(d.top_compute_name, "mma.sync f64 m16n8k16");
  ASSERT_FALSE(d.ridges.empty());
  for (const RidgePoint& r : d.ridges) EXPECT_DOUBLE_EQ(r.gflops, fp64 * 2);
  EXPECT_DOUBLE_EQ(roofline_attainable(d, 1e6), fp64 * 2);
  // The axes show every compute roof.
  for (const ReferenceLine& c : d.compute) {
    EXPECT_GE(c.y, d.y.lo);
    EXPECT_LE(c.y, d.y.hi);
  }
  // f16 has only tensor roofs, here 8% apart: one line, both named.
  const RooflineData h = build_roofline({}, Problem::Gemm, Precision::F16, &t, "");
  ASSERT_EQ(h.compute.size(), 1u);
  EXPECT_DOUBLE_EQ(h.top_compute, 650000);
  EXPECT_EQ(h.compute[0].label, "mma.sync f16 650, wmma f16 600 TFLOP/s");
  // The top roof's clock is said beside the plot, where one was recorded.
  EXPECT_NE(std::find(h.notes.begin(), h.notes.end(), "the mma.sync f16 roof was measured at an SM clock of 1740 MHz"),
            h.notes.end());
  for (const std::string& note : d.notes) EXPECT_EQ(note.find("MHz"), std::string::npos) << note;
}

// A point's tooltip gives its share of the roof at its intensity and of every compute roof
// under it: for a kernel bound by a lower roof (mma.sync fed through shared memory, under
// wgmma's) that share is the one that says how close it came.
TEST(RooflineModel, TooltipGivesTheShareOfEveryLowerComputeRoof) {
  const RoofTable t = h100_roofs_with_tensor_cores();
  const double fp64 = t.find(kRoofFp64Fma)->measured;
  const RooflineData d = build_roofline(h100_rows(), Problem::Gemm, Precision::F64, &t, "");
  ASSERT_EQ(d.compute.size(), 2u);
  int right_of_ridge = 0;
  for (std::size_t s = 0; s < d.series.size(); ++s)
    for (std::size_t p = 0; p < d.series[s].points.size(); ++p) {
      const std::string tip = roofline_tooltip(d, static_cast<int>(s), static_cast<int>(p));
      const double gflops = d.rows[s][p].gflops;
      const bool compute_bound = roofline_attainable(d, d.traffic[s][p].intensity()) > fp64 * 1.07;
      char share[32];
      std::snprintf(share, sizeof share, "%.1f", 100.0 * gflops / (fp64 * 1.07));
      const std::string lower = "lower roof " + d.compute[1].label + ": " + share + "% of it";
      EXPECT_EQ(tip.find(lower) != std::string::npos, compute_bound) << tip;
      EXPECT_EQ(tip.find("lower roof " + d.compute[0].label), std::string::npos) << tip;
      right_of_ridge += compute_bound;
    }
  EXPECT_GT(right_of_ridge, 0);
}

TEST(RooflineModel, APrecisionWithoutTensorRoofsIsUnchanged) {
  const RoofTable plain = h100_roofs(), with = h100_roofs_with_tensor_cores();
  const RooflineData a = build_roofline(h100_rows(), Problem::Gemm, Precision::F32, &plain, "");
  const RooflineData b = build_roofline(h100_rows(), Problem::Gemm, Precision::F32, &with, "");
  ASSERT_EQ(a.compute.size(), 1u);
  ASSERT_EQ(b.compute.size(), 1u);
  EXPECT_EQ(a.compute[0].label, b.compute[0].label);
  EXPECT_DOUBLE_EQ(a.compute[0].y, b.compute[0].y);
  EXPECT_EQ(a.compute[0].color, b.compute[0].color);
  EXPECT_DOUBLE_EQ(a.top_compute, b.top_compute);
  ASSERT_EQ(a.ridges.size(), b.ridges.size());
  for (std::size_t i = 0; i < a.ridges.size(); ++i) EXPECT_EQ(a.ridges[i].label, b.ridges[i].label);
  EXPECT_DOUBLE_EQ(a.y.hi, b.y.hi);
  // tf32 has no roof in this table at all: no compute line, the bandwidth roofs still stand.
  const RooflineData t = build_roofline({}, Problem::Gemm, Precision::TF32, &with, "");
  EXPECT_TRUE(t.compute.empty());
  EXPECT_EQ(t.top_compute, 0.0);
  EXPECT_FALSE(t.bandwidth.empty());
}

TEST(RooflineModel, NearEqualComputeRoofsShareALine) {
  RoofTable t;
  auto add = [&t](const char* id, double gflops) {
    Roof r;
    r.id = id;
    r.name = id;
    r.kind = RoofKind::Compute;
    r.precision = "f64";
    r.measured = gflops;
    t.roofs.push_back(r);
  };
  add("c", 1000 * (1 - kSameRoofShare) - 50);  // below the share: a line of its own
  add("a", 1000);
  add("b", 1000 * (1 - kSameRoofShare) + 1);  // within the share of the highest: merged
  add("d", 0);                                // not measured: not drawn
  const std::vector<ComputeRoofLine> lines = compute_roof_lines(t, "f64");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].names, (std::vector<std::string>{"a", "b"}));
  EXPECT_DOUBLE_EQ(lines[0].gflops, 1000);
  EXPECT_EQ(lines[1].names, (std::vector<std::string>{"c"}));
  EXPECT_TRUE(compute_roof_lines(t, "f32").empty());
  // One label, every roof with its own value, the unit once.
  EXPECT_EQ(compute_roof_label(lines[0]), "a 1.00, b 0.901 TFLOP/s");
  EXPECT_EQ(compute_roof_label(lines[1]), "c " + compute_text(1000 * (1 - kSameRoofShare) - 50));
}

TEST(RooflinePng, RendersHeadlessWithPointsRoofsAndLabels) {
  auto host = make_host(640, 360);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());  // the ImGui context, its font and GL backend
  frame(*host, app);
  const RoofTable roofs = h100_roofs();
  const RooflineData d = build_roofline(h100_rows(), Problem::Gemm, Precision::F32, &roofs, "fixture");
  const std::string png = temp_path("roofline.png");
  std::string error;
  ASSERT_TRUE(write_roofline_png(png, 1600, 900, d, &error)) << error;
  Image img;
  ASSERT_TRUE(read_png(png, &img, &error)) << error;
  EXPECT_EQ(img.width, 1600);
  EXPECT_EQ(img.height, 900);
  EXPECT_GT(distinct_colors(img), 40u) << "blank or nearly so";
  for (const PlotSeriesData& s : d.series) EXPECT_GT(count_color(img, s.color, 30), 20) << s.label;
  for (const BandwidthRoof& b : d.bandwidth) EXPECT_GT(count_color(img, b.color, 30), 100) << b.label;
  EXPECT_GT(count_color(img, d.compute.front().color, 30), 100) << "the compute roof";
  unlink(png.c_str());
  // Double with tensor-core rows: both compute roofs are drawn, each in its colour.
  const RoofTable tensor = h100_roofs_with_tensor_cores();
  const RooflineData f64 = build_roofline({}, Problem::Gemm, Precision::F64, &tensor, "fixture");
  ASSERT_EQ(f64.compute.size(), 2u);
  ASSERT_TRUE(write_roofline_png(png, 1600, 900, f64, &error)) << error;
  ASSERT_TRUE(read_png(png, &img, &error)) << error;
  for (const ReferenceLine& c : f64.compute) EXPECT_GT(count_color(img, c.color, 30), 100) << c.label;
  unlink(png.c_str());
  // Only the CPU reference's rows and no roofs: the points are drawn.
  const RooflineData cpu = build_roofline(cpu_rows(), Problem::Gemm, Precision::F32, nullptr, "", kNoGpu);
  ASSERT_TRUE(write_roofline_png(png, 1280, 720, cpu, &error)) << error;
  ASSERT_TRUE(read_png(png, &img, &error)) << error;
  ASSERT_EQ(cpu.series.size(), 1u);
  EXPECT_GT(count_color(img, cpu.series[0].color, 30), 30) << "the CPU reference's points";
  unlink(png.c_str());
  // Nothing at all to draw: refused with a sentence, nothing written.
  const RooflineData empty = build_roofline({}, Problem::Gemm, Precision::F32, nullptr, "");
  EXPECT_FALSE(write_roofline_png(png, 640, 360, empty, &error));
  EXPECT_NE(access(png.c_str(), F_OK), 0);
}

TEST(RooflineWindow, TheTimingTabShowsTheRooflineWithItsRoofs) {
  auto host = make_host(1600, 900);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  ASSERT_TRUE(app.load_csv(kH100Csv)) << app.status();
  const RoofTable roofs = h100_roofs();
  app.timing().set_plot_kind(TimingPlotKind::Roofline);
  app.timing().set_roofs(roofs, "the fixture");
  frames(*host, app, 3);
  const Image img = screenshot(*host, app, "window.png");
  ASSERT_FALSE(app.status_is_error()) << app.status();
  // The same roofs the model gives for these rows are on screen, and the points.
  const RooflineData d = build_roofline(h100_rows(), Problem::Gemm, Precision::F32, &roofs, "");
  for (const BandwidthRoof& b : d.bandwidth) EXPECT_GT(count_color(img, b.color, 30), 50) << b.label;
  EXPECT_GT(count_color(img, d.compute.front().color, 30), 50) << "the compute roof";
  for (const PlotSeriesData& s : d.series) EXPECT_GT(count_color(img, s.color, 30), 10) << s.label;
  // Back to the timing plot: the roofs' colours are gone from the picture.
  app.timing().set_plot_kind(TimingPlotKind::Timing);
  frame(*host, app);
  const Image timing = screenshot(*host, app, "window.png");
  EXPECT_LT(count_color(timing, d.bandwidth.back().color, 20), count_color(img, d.bandwidth.back().color, 20) / 4);
}

// A window without a GPU, after a run: the Roofline shows the CPU reference's points.
TEST(RooflineWindow, WithoutAGpuTheCpuReferenceRowsAreDrawn) {
  const std::string csv = temp_path("cpu.csv");
  std::string error;
  ASSERT_TRUE(write_results_csv_file(csv, cpu_rows(), &error)) << error;
  auto host = make_host(1600, 900);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  ASSERT_TRUE(app.load_csv(csv)) << app.status();
  unlink(csv.c_str());
  app.timing().set_plot_kind(TimingPlotKind::Roofline);
  frames(*host, app, 3);
  const Image img = screenshot(*host, app, "cpu-window.png");
  const RooflineData d = build_roofline(cpu_rows(), Problem::Gemm, Precision::F32, nullptr, "", kNoGpu);
  ASSERT_EQ(d.series.size(), 1u);
  EXPECT_GT(count_color(img, d.series[0].color, 30), 30) << "the CPU reference's points";
}

// The roofs come from the cache of the device the CUDA rows name. Rows of the texture shaders
// name the GL renderer ("... /PCIe/SSE2") instead: loaded last, they must not hide the roofs.
TEST(RooflineWindow, TheRoofsOfTheCudaRowsDeviceComeFromTheCache) {
  const TempDir cache("tilescope-cache");
  const ScopedEnv xdg("XDG_CACHE_HOME", cache.path());
  std::string path, error;
  ASSERT_TRUE(cache_roofs(roofs_cache_dir(), h100_roofs(), &path, &error)) << error;
  auto host = make_host(1600, 900);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  ASSERT_TRUE(app.load_csv(kH100Csv)) << app.status();
  ASSERT_TRUE(app.load_csv(std::string(TILESCOPE_SOURCE_DIR) +
                           "/docs/benchmarks/gl_shader-2026-11-22/bench-gl_shader-h100.csv"))
      << app.status();
  app.timing().set_plot_kind(TimingPlotKind::Roofline);
  frames(*host, app, 3);
  const Image img = screenshot(*host, app, "cached.png");
  const RoofTable roofs = h100_roofs();
  const RooflineData d = build_roofline(h100_rows(), Problem::Gemm, Precision::F32, &roofs, "");
  for (const BandwidthRoof& b : d.bandwidth) EXPECT_GT(count_color(img, b.color, 30), 50) << b.label;
  EXPECT_GT(count_color(img, d.compute.front().color, 30), 50) << "the compute roof";
}

TEST(RooflineRunner, MeasuresTheRoofsOnItsWorkerOnlyWithAGpu) {
  TimingHistory history;
  {
    Runner cpu_only(history, false);
    EXPECT_FALSE(cpu_only.start_roofs()) << "without a GPU there is nothing to measure";
    EXPECT_FALSE(cpu_only.roofs_pending());
    EXPECT_EQ(cpu_only.roofs_version(), 0u);
  }
  if (!probe_device().ok()) GTEST_SKIP() << "no usable GPU: " << probe_device().unavailable_reason;
  Runner runner(history, true);
  ASSERT_TRUE(runner.start_roofs());
  EXPECT_FALSE(runner.start_roofs()) << "one measurement at a time";
  // A job started meanwhile is not refused: it runs after the measurement.
  RunRequest r;
  r.variant_id = variant_registry().front()->id;
  r.shape = Shape{256, 256, 256};
  r.repetitions = 2;
  EXPECT_TRUE(runner.start(JobKind::Run, {r}));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while ((runner.roofs_version() == 0 || runner.progress().busy) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(runner.roofs_version(), 1u) << runner.roofs_error();
  const RoofTable t = runner.roofs();
  ASSERT_NE(t.top_compute("f32"), nullptr) << runner.roofs_error();
  EXPECT_GT(t.top_compute("f32")->measured, 0.0);
  EXPECT_EQ(t.device_name, probe_device().name);
  EXPECT_EQ(history.size(), 1u) << "the job queued behind the measurement ran";
}

using Outcome = tilescope::testing::ProgramOutcome;

Outcome run(const std::string& args) {
  return tilescope::testing::run_program(TILESCOPE_BINARY, args);
}

TEST(PlotRoofline, CommandWritesThePngAndRefusesBadInput) {
  const std::string png = temp_path("plot-roofline.png");
  Outcome o = run("plot --roofline --roofs " + kRoofs + " --csv " + kH100Csv + " -o " + png + " --size 1280x720");
  ASSERT_EQ(o.code, 0) << o.output;
  Image img;
  std::string error;
  ASSERT_TRUE(read_png(png, &img, &error)) << error;
  EXPECT_EQ(img.width, 1280);
  EXPECT_GT(distinct_colors(img), 40u);
  unlink(png.c_str());

  o = run("plot --roofline --roofs /nonexistent/c.json --csv " + kH100Csv + " -o " + png);
  EXPECT_EQ(o.code, 1) << o.output;
  EXPECT_NE(o.output.find("/nonexistent/c.json"), std::string::npos) << o.output;
  o = run("plot --roofs " + kRoofs + " --csv " + kH100Csv + " -o " + png);
  EXPECT_EQ(o.code, 2) << o.output;
  EXPECT_NE(access(png.c_str(), F_OK), 0);
}

}  // namespace
