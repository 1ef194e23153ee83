// bench --profile's reading of Nsight Compute's raw page (app/cli/ncu_raw_page.h) and the figures
// made of it (app/cli/profiler_metrics.h). The fixtures in tests/data/ncu/ are copies of real raw
// pages (`ncu --import R --csv --page raw`, an H200, docs/benchmarks/h200-2026-11-27-memory-wmma/):
// other metrics than bench --profile asks for, in the same layout. Where a test needs its metrics,
// it adds their columns to such a copy.
#include "app/cli/ncu_raw_page.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "app/cli/profiler_metrics.h"

namespace tilescope {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(TILESCOPE_SOURCE_DIR) + "/tests/data/ncu/" + name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << "missing fixture tests/data/ncu/" << name;
  return text.str();
}

const char* kWmmaF64 = "raw-wmma-999-gemm-f64.csv";          // 4 kernels
const char* kWgmmaBf16 = "raw-wgmma_tma-1024-ata-bf16.csv";  // 8 kernels

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// A metric column to add to a page: its name, unit and each kernel's field as ncu would write it.
struct AddedColumn {
  std::string name, unit;
  std::vector<std::string> values;
};

// `page` (header, units, kernel rows) with `columns` added after its own.
std::string with_columns(const std::string& page, const std::vector<AddedColumn>& columns) {
  std::vector<std::string> lines = lines_of(page);
  for (const AddedColumn& c : columns) {
    lines[0] += ",\"" + c.name + "\"";
    lines[1] += ",\"" + c.unit + "\"";
    for (std::size_t k = 0; k + 2 < lines.size(); ++k) lines[k + 2] += ",\"" + c.values.at(k) + "\"";
  }
  return joined(lines);
}

const char* metric(ProfilerMetricUse use) {
  for (const ProfilerMetric& m : profiler_metrics())
    if (m.use == use) return m.name;
  ADD_FAILURE() << "no metric in the table for use " << static_cast<int>(use);
  return "";
}

std::vector<double> column_values(const NcuRawPage& page, const std::string& name) {
  std::vector<double> values;
  for (const KernelMetrics& k : kernel_metrics(page, {name})) values.push_back(k.count(name) ? k.at(name) : NAN);
  return values;
}

// ---- the page ----------------------------------------------------------------------------------

TEST(NcuRawPage, ReadsARealPageKernelByKernel) {
  for (const char* name : {kWmmaF64, kWgmmaBf16}) {
    SCOPED_TRACE(name);
    const std::string text = fixture(name);
    NcuRawPage page;
    std::string error;
    ASSERT_TRUE(read_ncu_raw_page(text, &page, &error)) << error;
    // A header, a units row, then a kernel per line.
    EXPECT_EQ(page.kernels.size(), lines_of(text).size() - 2);
    ASSERT_GT(page.columns.size(), 100u);
    EXPECT_EQ(page.columns[0], "ID");
    EXPECT_EQ(page.units.size(), page.columns.size());
    for (std::size_t k = 0; k < page.kernels.size(); ++k) {
      ASSERT_EQ(page.kernels[k].size(), page.columns.size()) << "kernel " << k;
      EXPECT_EQ(page.kernels[k][0], std::to_string(k)) << "the IDs count the kernels";
    }
    // The kernel name is quoted with commas inside it: still one field.
    std::size_t name_column = 0;
    while (name_column < page.columns.size() && page.columns[name_column] != "Kernel Name") ++name_column;
    ASSERT_LT(name_column, page.columns.size());
    EXPECT_NE(page.kernels[0][name_column].find("_kernel<"), std::string::npos) << page.kernels[0][name_column];
    EXPECT_NE(page.kernels[0][name_column].find(", "), std::string::npos) << page.kernels[0][name_column];
  }
}

// The same count written twice in the real file, once with thousands separators ("39,319,167")
// and once plain ("39319167.000000"), reads as one number.
TEST(NcuRawPage, ThousandsSeparatorsReadAsTheSameNumber) {
  NcuRawPage page;
  std::string error;
  ASSERT_TRUE(read_ncu_raw_page(fixture(kWmmaF64), &page, &error)) << error;
  const std::vector<double> plain = column_values(page, "smsp__inst_executed.sum");
  for (const char* separated : {"derived_tempMetric1", "sass__inst_executed_per_opcode"}) {
    const std::vector<double> with_commas = column_values(page, separated);
    ASSERT_EQ(with_commas.size(), plain.size());
    for (std::size_t k = 0; k < plain.size(); ++k) {
      EXPECT_GT(plain[k], 1e6) << "a count with separators in it";
      EXPECT_EQ(with_commas[k], plain[k]) << separated << ", kernel " << k;
    }
  }
}

TEST(NcuRawPage, FindsThePageAmongOtherLines) {
  const std::string page = fixture(kWmmaF64);
  const std::string noisy = "==PROF== Connected to process 980 (tilescope)\n[1/1] wmma 64x64 ... 0.18 ms\n" + page +
                            "==PROF== Disconnected from process 980\nvariant  config  problem\n";
  NcuRawPage clean, found;
  std::string error;
  ASSERT_TRUE(read_ncu_raw_page(page, &clean, &error)) << error;
  ASSERT_TRUE(read_ncu_raw_page(noisy, &found, &error)) << error;
  EXPECT_EQ(found.columns, clean.columns);
  EXPECT_EQ(found.kernels, clean.kernels);
  // A page printed in parts repeats its header and units: no kernels of their own.
  const std::vector<std::string> lines = lines_of(page);
  std::vector<std::string> parts = {lines[0], lines[1], lines[2], lines[0], lines[1], lines[3], lines[4]};
  ASSERT_TRUE(read_ncu_raw_page(joined(parts), &found, &error)) << error;
  EXPECT_EQ(found.kernels.size(), 3u);
}

TEST(NcuRawPage, MalformedPagesSayWhy) {
  const std::vector<std::string> lines = lines_of(fixture(kWmmaF64));
  NcuRawPage page;
  std::string error;
  // No header: the program's own output, or ncu's complaint alone.
  EXPECT_FALSE(read_ncu_raw_page("==WARNING== No kernels were profiled.\n", &page, &error));
  EXPECT_NE(error.find("no raw page"), std::string::npos) << error;
  EXPECT_FALSE(read_ncu_raw_page(joined({lines[1], lines[2]}), &page, &error)) << "units and a kernel, no header";
  EXPECT_NE(error.find("header"), std::string::npos) << error;
  // A header without its units.
  EXPECT_FALSE(read_ncu_raw_page(lines[0] + "\n", &page, &error));
  EXPECT_NE(error.find("units"), std::string::npos) << error;
  // Header and units, no kernel.
  EXPECT_FALSE(read_ncu_raw_page(joined({lines[0], lines[1]}), &page, &error));
  EXPECT_NE(error.find("no kernel"), std::string::npos) << error;
  // A kernel row cut short, one with a broken quote: not kernels.
  const std::string cut = lines[2].substr(0, lines[2].size() / 2);
  const std::string broken = lines[2].substr(0, 10) + "\"x\"y" + lines[2].substr(10);
  EXPECT_FALSE(read_ncu_raw_page(joined({lines[0], lines[1], cut, broken}), &page, &error));
  EXPECT_TRUE(page.kernels.empty());
  ASSERT_TRUE(read_ncu_raw_page(joined({lines[0], lines[1], cut, lines[3]}), &page, &error)) << error;
  ASSERT_EQ(page.kernels.size(), 1u);
  EXPECT_EQ(page.kernels[0][0], "1");
}

TEST(NcuRawPage, NumbersAsNcuWritesThem) {
  double v = 0;
  EXPECT_TRUE(parse_ncu_number("39,319,167", &v));
  EXPECT_EQ(v, 39319167.0);
  EXPECT_TRUE(parse_ncu_number("31,833.58", &v));
  EXPECT_EQ(v, 31833.58);
  EXPECT_TRUE(parse_ncu_number("13.408000", &v));
  EXPECT_EQ(v, 13.408);
  EXPECT_TRUE(parse_ncu_number("-0.5", &v));
  EXPECT_EQ(v, -0.5);
  EXPECT_TRUE(parse_ncu_number("1.5e+03", &v));
  EXPECT_EQ(v, 1500.0);
  v = 7;
  for (const char* not_a_number : {"n/a", "", "N/A", "nan", "inf", "abc", "12abc", ",5", "5,", "1.5,000", "(!) 3"})
    EXPECT_FALSE(parse_ncu_number(not_a_number, &v)) << "'" << not_a_number << "'";
  EXPECT_EQ(v, 7.0) << "a field that is no number leaves the value alone";
}

TEST(NcuRawPage, MetricsNamedInNcusErrorsAreFoundWhole) {
  const std::string fma = metric(ProfilerMetricUse::FmaPipe);
  const std::string dmma = metric(ProfilerMetricUse::DmmaTensorPipe);
  const std::string issued = metric(ProfilerMetricUse::WarpInstructions);
  const std::vector<std::string> asked = {fma, dmma, issued};
  const std::string output = "==PROF== Connected to process 1\n==ERROR== Failed to find metric " + dmma +
                             "\n==WARNING== metric " + issued + "_per_cycle is not available\nprogram says " + fma +
                             "\n";
  // Only the error and warning lines count, and only whole names ("..._per_cycle" is another).
  EXPECT_EQ(metrics_named_in_ncu_errors(output, asked), std::vector<std::string>{dmma});
  EXPECT_EQ(metrics_named_in_ncu_errors("==ERROR== Failed to find metric " + fma + ".\n", asked),
            std::vector<std::string>{fma})
      << "a sentence's full stop after the name";
  EXPECT_TRUE(metrics_named_in_ncu_errors("==ERROR== something else\n", asked).empty());
}

// ---- the figures -------------------------------------------------------------------------------

TEST(ProfilerMetrics, OneTableNamesEachFigureOnce) {
  const std::vector<ProfilerMetric>& table = profiler_metrics();
  for (ProfilerMetricUse use : {ProfilerMetricUse::KernelTime, ProfilerMetricUse::FmaPipe, ProfilerMetricUse::Fp64Pipe,
                                ProfilerMetricUse::MmaTensorPipe, ProfilerMetricUse::DmmaTensorPipe,
                                ProfilerMetricUse::IssueActive, ProfilerMetricUse::CyclesPerIssue,
                                ProfilerMetricUse::FfmaLaneInstructions, ProfilerMetricUse::WarpInstructions}) {
    int count = 0;
    for (const ProfilerMetric& m : table) count += m.use == use;
    EXPECT_EQ(count, 1) << static_cast<int>(use);
  }
  // The --metrics argument lists them all, comma separated, and leaves out what it is told to.
  const std::string all = profiler_metrics_argument();
  std::string expected;
  for (const ProfilerMetric& m : table) expected += (expected.empty() ? "" : ",") + std::string(m.name);
  EXPECT_EQ(all, expected);
  const std::string fewer = profiler_metrics_argument({metric(ProfilerMetricUse::DmmaTensorPipe)});
  EXPECT_EQ(fewer.find(metric(ProfilerMetricUse::DmmaTensorPipe)), std::string::npos) << fewer;
  EXPECT_NE(fewer.find(metric(ProfilerMetricUse::MmaTensorPipe)), std::string::npos) << fewer;
}

TEST(ProfilerMetrics, KernelsCombineWeightedByTheirDuration) {
  const std::string time = metric(ProfilerMetricUse::KernelTime);
  const std::string fma = metric(ProfilerMetricUse::FmaPipe);
  const std::string issue = metric(ProfilerMetricUse::IssueActive);
  const std::string hmma = metric(ProfilerMetricUse::MmaTensorPipe);
  const std::string dmma = metric(ProfilerMetricUse::DmmaTensorPipe);
  const std::string ffma = metric(ProfilerMetricUse::FfmaLaneInstructions);
  const std::string issued = metric(ProfilerMetricUse::WarpInstructions);
  // A split-K GEMM (3 us) and its reduction (1 us).
  const KernelMetrics gemm = {{time, 3}, {fma, 80}, {issue, 60}, {hmma, 10}, {dmma, 0}, {ffma, 3200}, {issued, 200}};
  const KernelMetrics reduce = {{time, 1}, {fma, 40}, {hmma, 30}, {ffma, 0}, {issued, 100}};  // no issue figure
  const ProfileFigures f = combine_kernel_metrics({gemm, reduce});
  EXPECT_DOUBLE_EQ(f.fma_pipe_pct, (3 * 80 + 1 * 40) / 4.0);
  EXPECT_DOUBLE_EQ(f.issue_active_pct, 60) << "the kernels that have it";
  EXPECT_DOUBLE_EQ(f.tensor_pipe_pct, std::max((3 * 10 + 1 * 30) / 4.0, 0.0)) << "the busier tensor pipe";
  EXPECT_DOUBLE_EQ(f.ffma_share_pct, 100.0 * 3200 / (32.0 * 300));
  EXPECT_TRUE(std::isnan(f.fp64_pipe_pct)) << "asked of no kernel";
  EXPECT_TRUE(std::isnan(f.cycles_per_issue));
  // wgmma's pipe busier than mma.sync's: its figure.
  const ProfileFigures g = combine_kernel_metrics({{{time, 2}, {hmma, 5}, {dmma, 70}}});
  EXPECT_DOUBLE_EQ(g.tensor_pipe_pct, 70);
  // A count one kernel lacks leaves the share empty; durations missing: each kernel counts once.
  const ProfileFigures h = combine_kernel_metrics({{{fma, 10}, {ffma, 5}, {issued, 1}}, {{fma, 30}, {issued, 1}}});
  EXPECT_TRUE(std::isnan(h.ffma_share_pct));
  EXPECT_DOUBLE_EQ(h.fma_pipe_pct, 20);
  EXPECT_FALSE(combine_kernel_metrics({}).any());
}

// The real page with the figures' metrics added: n/a and missing metrics leave their figures
// empty, the others come out weighted by the page's own durations.
TEST(ProfilerMetrics, FiguresOfARealPage) {
  const std::string fma = metric(ProfilerMetricUse::FmaPipe);
  const std::string ffma = metric(ProfilerMetricUse::FfmaLaneInstructions);
  const std::string tensor = metric(ProfilerMetricUse::MmaTensorPipe);
  const std::string text =
      with_columns(fixture(kWmmaF64), {{fma, "%", {"10.5", "20", "n/a", "40"}},
                                       {tensor, "%", {"n/a", "n/a", "n/a", "n/a"}},
                                       {ffma, "inst", {"1,000,000", "2,000,000", "3,000,000", "4,000,000"}}});
  NcuRawPage page;
  std::string error;
  ASSERT_TRUE(read_ncu_raw_page(text, &page, &error)) << error;
  std::vector<std::string> names;
  for (const ProfilerMetric& m : profiler_metrics()) names.push_back(m.name);
  const ProfileFigures f = combine_kernel_metrics(kernel_metrics(page, names));
  const std::vector<double> time = column_values(page, metric(ProfilerMetricUse::KernelTime));
  const std::vector<double> issued = column_values(page, metric(ProfilerMetricUse::WarpInstructions));
  ASSERT_EQ(time.size(), 4u);
  EXPECT_NE(time[0], time[3]) << "the fixture's kernels last differently, so the weights matter";
  EXPECT_DOUBLE_EQ(f.fma_pipe_pct, (time[0] * 10.5 + time[1] * 20 + time[3] * 40) / (time[0] + time[1] + time[3]));
  EXPECT_DOUBLE_EQ(f.ffma_share_pct, 100.0 * 10e6 / (32.0 * (issued[0] + issued[1] + issued[2] + issued[3])));
  EXPECT_TRUE(std::isnan(f.tensor_pipe_pct)) << "n/a in every kernel";
  EXPECT_TRUE(std::isnan(f.issue_active_pct)) << "a metric the page lacks";
  // The unchanged real page has none of the pipe figures, and its counts lack the FFMA share.
  ASSERT_TRUE(read_ncu_raw_page(fixture(kWmmaF64), &page, &error)) << error;
  EXPECT_FALSE(combine_kernel_metrics(kernel_metrics(page, names)).any());
}

// A page of the metrics the figures use, as ncu wrote it for two launches of cublasSgemm at 4096
// (an H200, docs/benchmarks/h200-2026-11-27-fp32-tiles/ncu/): the figures are the page's numbers.
TEST(ProfilerMetrics, FiguresOfARealProfileOfCublas) {
  NcuRawPage page;
  std::string error;
  ASSERT_TRUE(read_ncu_raw_page(fixture("raw-cublas-sgemm-4096-f32.csv"), &page, &error)) << error;
  std::vector<std::string> names;
  for (const ProfilerMetric& m : profiler_metrics()) names.push_back(m.name);
  const ProfileFigures f = combine_kernel_metrics(kernel_metrics(page, names));
  // The two kernels' FMA pipe: 79.124171% and 79.193986%; issue: 89.321490% and 89.413619%.
  EXPECT_GT(f.fma_pipe_pct, 79.124171);
  EXPECT_LT(f.fma_pipe_pct, 79.193986);
  EXPECT_GT(f.issue_active_pct, 89.321490);
  EXPECT_LT(f.issue_active_pct, 89.413619);
  EXPECT_NEAR(f.cycles_per_issue, 2.2392, 1e-4);
  // 68,736,253,952 FFMA lane-instructions of 2,428,305,408 warp instructions in each launch.
  EXPECT_NEAR(f.ffma_share_pct, 100.0 * 68736253952.0 / (32.0 * 2428305408.0), 1e-9);
  EXPECT_DOUBLE_EQ(f.fp64_pipe_pct, 0.0);
  // cublasSgemm leaves the tensor pipe idle but for 0.000302% of the cycles (HMMA), and no DMMA.
  EXPECT_DOUBLE_EQ(f.tensor_pipe_pct, 0.000302);
}

}  // namespace
}  // namespace tilescope
