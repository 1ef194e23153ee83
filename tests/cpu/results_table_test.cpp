// The terminal table of `tilescope bench`: what each column shows, alignment, cold first runs,
// failed and erroring rows, and the device line.
#include "app/cli/results_table.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "kernels/core/registry.h"
#include "tests/support/variant_picks.h"

namespace tilescope {
namespace {

DeviceInfo h100() {
  DeviceInfo d;
  d.availability = GpuAvailability::Available;
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sm_count = 132;
  d.sm_clock_khz = 1980000;
  d.driver_version = 13000;
  d.runtime_version = 13000;
  d.cublas_version = 130100;
  d.peak_fp32_gflops = 66908.2;
  d.peak_fp64_gflops = 33454.1;
  return d;
}

// A row of variant v's configuration ci at 4096 cubed on the H100, as the Measurer fills it
// (labels from the registry, the timings' statistics, the machine); the figures are made up.
RunResult row(const VariantDescriptor& v, int ci, double median_ms) {
  RunRequest request;
  request.variant_id = v.id;
  request.config_index = ci;
  request.shape = {4096, 4096, 4096};
  RunResult r = requested_row(request);
  record_variant(r, v, ci);
  r.first_ms = median_ms * 1.5;
  record_timings(r, {median_ms * 0.9, median_ms, median_ms * 1.2}, h100().peak_fp32_gflops);
  r.verified = true;
  r.passed = true;
  r.rel_error = 3.2e-7;
  r.tolerance = 1e-5;
  r.reference = "cublas_dgemm";
  record_device(r, h100());
  if (v.role != Role::Baseline) {  // the library is opaque: no resources
    r.registers_per_thread = 128;
    r.static_shared_bytes = 4096;
    r.dynamic_shared_bytes = 8192;
    r.threads_per_block = 256;
    r.active_blocks_per_sm = 2;
    r.occupancy = 0.25;
  }
  return r;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The line that starts with `prefix` (empty when none).
std::string line_starting(const std::string& text, const std::string& prefix) {
  for (const std::string& line : lines_of(text))
    if (line.rfind(prefix, 0) == 0) return line;
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

using testing::baseline;
using testing::one_phase_kernel;
using testing::prefetch_kernel;
using testing::tiled_kernel;

RunResult base_row(double ms) {
  return row(baseline(), baseline().default_config, ms);
}
RunResult first_row(int ci, double ms) {
  return row(one_phase_kernel(), ci, ms);
}

// The line of the table for this variant and configuration ("" when none).
std::string line_of(const std::string& table, const RunResult& r) {
  for (const std::string& l : lines_of(table))
    if (l.rfind(r.variant_id + " ", 0) == 0 && contains(l, " " + r.config_name + " ")) return l;
  return "";
}

TEST(ResultsTable, DeviceLine) {
  const std::string t = format_results_table({first_row(0, 100)}, h100());
  const std::string first = lines_of(t).at(0);
  EXPECT_TRUE(contains(first, "NVIDIA H100 80GB HBM3")) << first;
  EXPECT_TRUE(contains(first, "SM clock 1980 MHz")) << first;
  EXPECT_TRUE(contains(first, "driver 13.0")) << first;
  EXPECT_TRUE(contains(first, "runtime 13.0")) << first;
  EXPECT_TRUE(contains(first, "cuBLAS 13.1.0")) << first;
}

TEST(ResultsTable, DeviceLineFallsBackToTheRowsThenToNone) {
  DeviceInfo none;
  none.availability = GpuAvailability::NoDriver;
  none.unavailable_reason = "no NVIDIA driver";
  const std::string from_rows = format_device_line(none, {first_row(0, 1)});
  EXPECT_TRUE(contains(from_rows, "NVIDIA H100 80GB HBM3")) << from_rows;
  EXPECT_TRUE(contains(from_rows, "1980 MHz")) << from_rows;
  const std::string nothing = format_device_line(none, {});
  EXPECT_TRUE(contains(nothing, "none")) << nothing;
  EXPECT_TRUE(contains(nothing, "no NVIDIA driver")) << nothing;
}

TEST(ResultsTable, ShowsTheFiguresOfARow) {
  const VariantDescriptor& v = prefetch_kernel();
  RunResult r = row(v, static_cast<int>(v.configs.size()) - 1, 2.0);
  r.pct_of_cublas = 94.53;
  const std::string t = format_results_table({r}, h100());
  const std::string line = line_of(t, r);
  ASSERT_FALSE(line.empty()) << t;
  for (const std::string& part :
       {r.config_name, std::string(to_string(Problem::Gemm)), std::string(to_string(Precision::F32)),
        std::string("4096"), std::string("3.000"), std::string("2.000"), std::string("1.800"), std::string("2.400"),
        std::string("68719.5"), std::string("94.5%"), std::string("102.7%"), std::string("3.2e-07"),
        std::string("pass"), std::string("128"), std::string("12.0K"), std::string("25%")})
    EXPECT_TRUE(contains(line, part)) << "missing " << part << " in\n" << line;
  EXPECT_FALSE(contains(line, "*")) << "not a cold run";
}

// The clock the timed runs ran at, where it was sampled, in the last column, with its footnote.
TEST(ResultsTable, ShowsTheClockOfTheTimedRunsWhereKnown) {
  const VariantDescriptor& v = prefetch_kernel();
  RunResult clocked = row(v, 0, 2.0), unclocked = row(v, 1, 2.0);
  clocked.run_clock_mhz = 1755.4;
  const std::string t = format_results_table({clocked, unclocked}, h100());
  const std::string a = line_of(t, clocked), b = line_of(t, unclocked);
  ASSERT_FALSE(a.empty() || b.empty()) << t;
  EXPECT_EQ(a.substr(a.size() - 5), " 1755") << a;
  EXPECT_EQ(b.back(), '-') << b;
  EXPECT_TRUE(contains(t, "MHz: the median SM clock while the timed runs ran")) << t;
  EXPECT_FALSE(contains(format_results_table({unclocked}, h100()), "MHz: the median")) << "no clock, no footnote";
}

// The model's memory counts: sectors per load / store request and bank conflicts, with their
// footnote; "-" where the model counts none.
TEST(ResultsTable, ShowsTheMemoryCountsWhereCounted) {
  const VariantDescriptor& v = prefetch_kernel();
  RunResult counted = row(v, 0, 2.0), uncounted = row(v, 1, 2.0);
  counted.load_sectors_per_request = 16.5;
  counted.store_sectors_per_request = 32;
  counted.shared_conflicts_per_instruction = 0.34;
  const std::string t = format_results_table({counted, uncounted}, h100());
  EXPECT_TRUE(contains(line_of(t, counted), "16.5/32")) << t;
  EXPECT_TRUE(contains(line_of(t, counted), "0.34")) << t;
  EXPECT_TRUE(contains(t, "sect/rq: 32-byte sectors per global load / store request")) << t;
  EXPECT_FALSE(contains(format_results_table({uncounted}, h100()), "sect/rq: 32-byte"))
      << "nothing counted, no footnote";
}

// bench --profile's figures: their columns after the others and a line per column under the
// table, only where some row was profiled; "-" for a row or figure without.
TEST(ResultsTable, ShowsTheProfilersFiguresOnlyWhereSomeRowWasProfiled) {
  const VariantDescriptor& v = prefetch_kernel();
  RunResult profiled = row(v, 0, 2.0), unprofiled = row(v, 1, 2.0);
  profiled.run_clock_mhz = unprofiled.run_clock_mhz = 1755;
  const std::string plain = format_results_table({profiled, unprofiled}, h100());
  for (const char* header : {"FMA%", "FP64%", "tensor%", "issue%", "cyc/issue", "FFMA%"})
    EXPECT_FALSE(contains(line_starting(plain, "variant"), header)) << "nothing profiled: no " << header;
  EXPECT_FALSE(contains(plain, "Nsight Compute's figures")) << plain;

  profiled.profile.fma_pipe_pct = 81.24;
  profiled.profile.issue_active_pct = 47.5;
  profiled.profile.cycles_per_issue = 3.126;
  profiled.profile.ffma_share_pct = 62.76;
  const std::string t = format_results_table({profiled, unprofiled}, h100());
  const std::string header = line_starting(t, "variant");
  const std::vector<std::string> in_order = {"MHz", "FMA%", "FP64%", "tensor%", "issue%", "cyc/issue", "FFMA%"};
  std::size_t at = 0;
  for (const std::string& h : in_order) {
    const std::size_t found = header.find(" " + h, at);
    ASSERT_NE(found, std::string::npos) << h << " after the clock, in order:\n" << header;
    at = found + 1;
  }
  // The profiled row ends with its figures, right-aligned under their headers; FP64 and tensor "-".
  const std::string a = line_of(t, profiled);
  EXPECT_EQ(a.substr(a.size() - 4), "62.8") << a;
  for (const char* figure : {" 81.2", " 47.5", " 3.13"}) EXPECT_TRUE(contains(a, figure)) << figure << " in\n" << a;
  EXPECT_EQ(a.size(), header.size()) << "the last column is right-aligned\n" << header << "\n" << a;
  const std::string b = line_of(t, unprofiled);
  EXPECT_EQ(b.back(), '-') << b;
  EXPECT_TRUE(contains(b, " 1755 ")) << "its timings unchanged: " << b;
  for (const char* legend : {"FMA% / FP64% / tensor%:", "issue%:", "cyc/issue:", "FFMA%:"})
    EXPECT_FALSE(line_starting(t, std::string("  ") + legend).empty()) << legend << " explained in\n" << t;
}

// bench --rounds: the table ends with each configuration's % of cuBLAS round by round and their
// median; a sweep of one round has no such lines.
TEST(ResultsTable, RoundsEndWithEachConfigurationsPercentRoundByRound) {
  const VariantDescriptor& v = prefetch_kernel();
  const VariantDescriptor& cublas = tilescope::testing::baseline();
  std::vector<RunResult> rows;
  const double kernel_ms[] = {2.0, 2.5, 2.2};
  for (int round = 1; round <= 3; ++round) {
    RunResult base = row(cublas, 0, 2.0), kernel = row(v, 0, kernel_ms[round - 1]);
    base.round = kernel.round = round;
    rows.push_back(base);
    rows.push_back(kernel);
  }
  fill_pct_of_cublas(rows);
  const std::string t = format_results_table(rows, h100());
  EXPECT_TRUE(contains(t, "Round by round")) << t;
  EXPECT_TRUE(contains(t, "%cuBLAS r3")) << t;
  // 100%, 80%, 90.9% of the baseline of each round; the median 90.9%.
  const std::string kernel_line = t.substr(t.rfind(std::string(v.id) + " "));
  EXPECT_TRUE(contains(kernel_line, "100.0%")) << kernel_line;
  EXPECT_TRUE(contains(kernel_line, "80.0%")) << kernel_line;
  EXPECT_NE(kernel_line.find("90.9%"), kernel_line.rfind("90.9%")) << "round 3 and the median: " << kernel_line;
  for (RunResult& r : rows) r.round = 1;
  EXPECT_FALSE(contains(format_results_table(rows, h100()), "Round by round"));
}

TEST(ResultsTable, ColdFirstRunIsStarredAndExplained) {
  RunResult cold = base_row(1.0);
  cold.first_ms = 120.25;
  cold.first_was_cold = true;
  const std::string t = format_results_table({cold}, h100());
  const std::string line = line_of(t, cold);
  ASSERT_FALSE(line.empty()) << t;
  EXPECT_TRUE(contains(line, "120.2*") || contains(line, "120.3*")) << t;
  EXPECT_TRUE(contains(t, "* first use")) << t;
  // The library is opaque: no registers, shared memory or occupancy.
  EXPECT_FALSE(contains(line, "K ")) << t;
  EXPECT_FALSE(contains(format_results_table({first_row(0, 1)}, h100()), "* first use"));
}

TEST(ResultsTable, ColumnsAreAligned) {
  std::vector<RunResult> rows = {base_row(1.2345), first_row(0, 123.456), row(tiled_kernel(), 0, 0.0421)};
  rows[1].shape = {7, 33, 129};
  const std::string t = format_results_table(rows, h100());
  const std::string header = line_starting(t, "variant");
  ASSERT_FALSE(header.empty()) << t;
  // Numbers are right-aligned: every value of the median column ends where its title ends.
  const std::size_t end = header.find("median ms") + std::string("median ms").size();
  for (const RunResult& r : rows) {
    const std::string line = line_of(t, r);
    ASSERT_GT(line.size(), end) << line;
    EXPECT_TRUE(std::isdigit(static_cast<unsigned char>(line[end - 1]))) << "\n" << header << "\n" << line;
    EXPECT_EQ(line[end], ' ') << "\n" << header << "\n" << line;
  }
}

TEST(ResultsTable, FailedVerificationIsFlaggedAndExplained) {
  const VariantDescriptor& tiled = tiled_kernel();
  RunResult bad = row(tiled, static_cast<int>(tiled.configs.size()) - 1, 5);
  bad.passed = false;
  bad.rel_error = 0.25;
  bad.unwritten = 17;
  const std::string t = format_results_table({bad}, h100());
  EXPECT_TRUE(contains(line_of(t, bad), "FAIL")) << t;
  const std::string note = line_starting(t, "FAIL " + bad.variant_id + ":" + bad.config_name);
  EXPECT_TRUE(contains(note, "2.500e-01")) << t;
  EXPECT_TRUE(contains(note, "17 elements")) << t;
}

TEST(ResultsTable, ErrorRowShowsItsErrorInsteadOfFigures) {
  ASSERT_GE(one_phase_kernel().configs.size(), 2u);
  RunResult err = first_row(1, 5);
  err.error = "does not fit in device memory: needs 96.00 GiB";
  const std::string t = format_results_table({first_row(0, 5), err}, h100());
  const std::string line = line_of(t, err);
  ASSERT_FALSE(line.empty()) << t;
  EXPECT_TRUE(contains(line, "error: does not fit in device memory: needs 96.00 GiB")) << line;
  EXPECT_FALSE(contains(line, "pass")) << line;
}

TEST(ResultsTable, NotVerifiedAndNoBaselineShowDashes) {
  RunResult r = first_row(0, 5);
  r.verified = false;
  r.passed = false;
  r.rel_error = -1;
  r.pct_of_cublas = -1;
  const std::string t = format_results_table({r}, h100());
  const std::string line = line_of(t, r);
  ASSERT_FALSE(line.empty()) << t;
  EXPECT_FALSE(contains(line, "FAIL")) << line;
  EXPECT_FALSE(contains(t, "%cuBLAS: against")) << "no row has a % of cuBLAS";
}

TEST(ResultsTable, Empty) {
  EXPECT_TRUE(contains(format_results_table({}, h100()), "(no results)"));
}

TEST(RegistryListing, NamesEveryVariantAndConfig) {
  const std::string t = format_registry_listing();
  for (const VariantDescriptor* v : variant_registry()) {
    EXPECT_TRUE(contains(t, std::string(v->id) + " - " + v->label)) << v->id;
    for (const TileConfig& c : v->configs) {
      EXPECT_TRUE(contains(t, "    " + c.name + " ")) << v->id << ":" << c.name;
      if (c.opt_in) {
        EXPECT_TRUE(contains(t, std::string(v->id) + ":" + c.name + "]")) << c.name;
      }
    }
  }
}

}  // namespace
}  // namespace tilescope
