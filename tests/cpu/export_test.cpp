// The result writers: CSV that reads back exactly (the app's history depends on it), JSON
// with every field, and atomic file writing that leaves nothing half-written behind.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app/export/atomic_file.h"
#include "app/export/count_text.h"
#include "app/export/file_names.h"
#include "app/export/printable_text.h"
#include "app/export/results_csv.h"
#include "app/export/results_json.h"
#include "kernels/core/registry.h"
#include "kernels/measure/measure.h"
#include "tests/support/printable_check.h"
#include "tests/support/variant_picks.h"

namespace tilescope {
namespace {

namespace fs = std::filesystem;

RunResult realistic_row() {
  RunResult r;
  // A kernel of ours, its labels from the registry (the row is data: only the round trip matters).
  const VariantDescriptor& v = testing::prefetch_kernel();
  r.variant_id = v.id;
  record_variant(r, v, static_cast<int>(v.configs.size()) - 1);
  r.problem = Problem::Ata;
  r.precision = Precision::F32;
  r.shape = {4096, 4096, 1000};
  r.repetitions = 10;
  r.warmup = 2;
  r.seed = 18446744073709551615ull;  // the largest --seed: must not pass through a double or int64
  r.timestamp = "2026-11-21T23:40:05Z";
  r.first_ms = 1.2345678901234567;
  r.first_was_cold = true;
  r.median_ms = 0.1;  // not exact in binary: must still round-trip
  r.min_ms = 0.099;
  r.max_ms = 0.13;
  r.gflops = 33554.432;
  r.pct_of_peak = 50.15;
  r.pct_of_cublas = 94.5;
  r.verified = true;
  r.passed = true;
  r.rel_error = 3.3306690738754696e-16;
  r.tolerance = 1.5e-5;
  r.unwritten = 0;
  r.reference = "cublas_dgemm";
  r.registers_per_thread = 127;
  r.static_shared_bytes = 8448;
  r.dynamic_shared_bytes = 0;
  r.threads_per_block = 256;
  r.active_blocks_per_sm = 2;
  r.occupancy = 0.25;
  r.input_sets = 3;
  r.timer = "cuda_events";
  r.device_name = "NVIDIA H100 80GB HBM3";
  r.sm_clock_mhz = 1980;
  r.run_clock_mhz = 1755.5;
  r.driver_version = "13.0";
  r.runtime_version = "13.0";
  r.cublas_version = 130100;
  return r;
}

RunResult error_row() {
  RunResult r;
  const VariantDescriptor& base = testing::baseline();
  r.variant_id = base.id;
  record_variant(r, base, base.default_config);  // the library's math text has a comma CSV must quote
  r.problem = Problem::Gemm;
  r.precision = Precision::F64;
  r.shape = {7, 33, 129};
  r.repetitions = 5;
  r.warmup = 0;
  r.seed = 0;
  // A row that never ran still says when it was attempted.
  r.timestamp = "2026-01-02T03:04:05Z";
  // Commas, quotes, a line break and a leading space: everything CSV quoting must survive.
  r.error = " cudaMalloc(&p, bytes) failed: out of memory, needs \"12.00 GiB\"\nsecond line, too";
  r.pct_of_cublas = -1;
  r.rel_error = std::numeric_limits<double>::quiet_NaN();
  r.device_name = "GPU, with \"quotes\"";
  return r;
}

void expect_same(const RunResult& a, const RunResult& b) {
  EXPECT_EQ(a.variant_id, b.variant_id);
  EXPECT_EQ(a.variant_label, b.variant_label);
  EXPECT_EQ(a.config_name, b.config_name);
  EXPECT_EQ(a.backend, b.backend);
  EXPECT_EQ(a.math, b.math);
  EXPECT_EQ(a.problem, b.problem);
  EXPECT_EQ(a.precision, b.precision);
  EXPECT_EQ(a.shape.M, b.shape.M);
  EXPECT_EQ(a.shape.N, b.shape.N);
  EXPECT_EQ(a.shape.K, b.shape.K);
  EXPECT_EQ(a.repetitions, b.repetitions);
  EXPECT_EQ(a.warmup, b.warmup);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.timestamp, b.timestamp);
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.timer, b.timer);
  EXPECT_EQ(a.passes, b.passes);
  EXPECT_EQ(a.fetches_per_fma, b.fetches_per_fma);
  EXPECT_EQ(a.run_clock_mhz, b.run_clock_mhz);
  EXPECT_EQ(a.load_sectors_per_request, b.load_sectors_per_request);
  EXPECT_EQ(a.store_sectors_per_request, b.store_sectors_per_request);
  EXPECT_EQ(a.shared_conflicts_per_instruction, b.shared_conflicts_per_instruction);
  EXPECT_EQ(a.round, b.round);
  EXPECT_EQ(a.wrong_row, b.wrong_row);
  EXPECT_EQ(a.wrong_col, b.wrong_col);
  EXPECT_EQ(a.wrong_value, b.wrong_value);
  EXPECT_EQ(a.wrong_expected, b.wrong_expected);
  EXPECT_EQ(a.first_ms, b.first_ms);
  EXPECT_EQ(a.first_was_cold, b.first_was_cold);
  EXPECT_EQ(a.median_ms, b.median_ms);
  EXPECT_EQ(a.min_ms, b.min_ms);
  EXPECT_EQ(a.max_ms, b.max_ms);
  EXPECT_EQ(a.gflops, b.gflops);
  EXPECT_EQ(a.pct_of_peak, b.pct_of_peak);
  EXPECT_EQ(a.pct_of_cublas, b.pct_of_cublas);
  EXPECT_EQ(a.verified, b.verified);
  EXPECT_EQ(a.passed, b.passed);
  if (std::isnan(a.rel_error))
    EXPECT_TRUE(std::isnan(b.rel_error));
  else
    EXPECT_EQ(a.rel_error, b.rel_error);
  EXPECT_EQ(a.tolerance, b.tolerance);
  EXPECT_EQ(a.unwritten, b.unwritten);
  EXPECT_EQ(a.reference, b.reference);
  EXPECT_EQ(a.registers_per_thread, b.registers_per_thread);
  EXPECT_EQ(a.static_shared_bytes, b.static_shared_bytes);
  EXPECT_EQ(a.dynamic_shared_bytes, b.dynamic_shared_bytes);
  EXPECT_EQ(a.threads_per_block, b.threads_per_block);
  EXPECT_EQ(a.active_blocks_per_sm, b.active_blocks_per_sm);
  EXPECT_EQ(a.occupancy, b.occupancy);
  EXPECT_EQ(a.input_sets, b.input_sets);
  EXPECT_EQ(a.device_name, b.device_name);
  EXPECT_EQ(a.sm_clock_mhz, b.sm_clock_mhz);
  EXPECT_EQ(a.driver_version, b.driver_version);
  EXPECT_EQ(a.runtime_version, b.runtime_version);
  EXPECT_EQ(a.cublas_version, b.cublas_version);
  // The profiler's figures: equal, or both missing (NaN).
  for (double ProfileFigures::*figure :
       {&ProfileFigures::fma_pipe_pct, &ProfileFigures::fp64_pipe_pct, &ProfileFigures::tensor_pipe_pct,
        &ProfileFigures::issue_active_pct, &ProfileFigures::cycles_per_issue, &ProfileFigures::ffma_share_pct}) {
    const double x = a.profile.*figure, y = b.profile.*figure;
    if (std::isnan(x))
      EXPECT_TRUE(std::isnan(y)) << y;
    else
      EXPECT_EQ(x, y);
  }
}

// `csv` holds exactly one row, `row` field for field.
void expect_one_row(const std::string& csv, const RunResult& row) {
  std::vector<RunResult> back;
  std::string error;
  ASSERT_TRUE(results_from_csv(csv, &back, &error)) << error;
  ASSERT_EQ(back.size(), 1u);
  expect_same(row, back[0]);
}

// `line` without its last `n` fields.
std::string without_last_fields(std::string line, int n) {
  for (int i = 0; i < n; ++i) line = line.substr(0, line.rfind(','));
  return line;
}

// The CSV of `row` as a version from before the last `n` columns wrote it: header and row cut.
std::string older_csv(const RunResult& row, int n) {
  const std::string text = results_to_csv({row});
  const std::size_t eol = text.find('\n');
  return without_last_fields(text.substr(0, eol), n) + "\n" +
         without_last_fields(text.substr(eol + 1, text.find('\n', eol + 1) - eol - 1), n) + "\n";
}

// How many columns bench --profile added after "round": the profiler's columns, after round and
// before c_type, the split's columns and the link's, the last of the file (kCTypeColumns of them).
constexpr int kSplitColumns = 6;  // split, split_config, gpus, gpu_names, speedup_over_one_gpu, predicted_ms
constexpr int kLinkColumns = 3;   // link_latency_us, link_broadcast_gbs, link_reduce_gbs
constexpr int kCTypeColumns = 1 + kSplitColumns + kLinkColumns;
int profile_columns() {
  const std::vector<std::string>& names = results_csv_columns();
  const auto round = std::find(names.begin(), names.end(), "round");
  EXPECT_NE(round, names.end());
  EXPECT_EQ(names.back(), "link_reduce_gbs");
  return static_cast<int>(names.end() - round) - 1 - kCTypeColumns;
}

// A row as `bench --profile` leaves it: some figures, and NaN where ncu gave none.
RunResult profiled_row() {
  RunResult r = realistic_row();
  r.profile.fma_pipe_pct = 81.2345;
  r.profile.tensor_pipe_pct = 0;
  r.profile.issue_active_pct = 47.5;
  r.profile.cycles_per_issue = 3.1;
  r.profile.ffma_share_pct = 62.5;
  return r;  // fp64_pipe_pct stays NaN: "n/a" on this GPU
}

// The name of a header's last column.
std::string last_column(const std::string& csv) {
  const std::string header = csv.substr(0, csv.find('\n'));
  return header.substr(header.rfind(',') + 1);
}

std::string csv_error(const std::string& text) {
  std::vector<RunResult> rows = {realistic_row()};
  std::string error;
  EXPECT_FALSE(results_from_csv(text, &rows, &error)) << "accepted:\n" << text;
  EXPECT_TRUE(rows.empty()) << "a failed read must not leave rows behind";
  return error;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string header_line() {
  return results_to_csv({});
}

// ---- CSV ----------------------------------------------------------------------------------------

TEST(ResultsCsv, HeaderHasOneColumnPerField) {
  const std::string header = header_line();
  ASSERT_FALSE(header.empty());
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ(static_cast<std::size_t>(std::count(header.begin(), header.end(), ',')) + 1, results_csv_columns().size());
  for (const char* column : {"variant_id",
                             "config_name",
                             "problem",
                             "precision",
                             "M",
                             "N",
                             "K",
                             "repetitions",
                             "warmup",
                             "seed",
                             "timestamp",
                             "first_ms",
                             "first_was_cold",
                             "median_ms",
                             "gflops",
                             "pct_of_cublas",
                             "rel_error",
                             "unwritten",
                             "occupancy",
                             "device_name",
                             "sm_clock_mhz",
                             "driver_version",
                             "runtime_version",
                             "cublas_version"})
    EXPECT_TRUE(contains(header, column)) << column;
}

TEST(ResultsCsv, RoundTripIsExact) {
  RunResult second = realistic_row();
  second.problem = Problem::Gemm;
  second.precision = Precision::F64;
  second.first_was_cold = false;
  second.passed = false;
  second.unwritten = 123456789012;
  second.median_ms = 1e-300;
  second.gflops = std::numeric_limits<double>::infinity();
  const std::vector<RunResult> rows = {realistic_row(), error_row(), second};
  const std::string text = results_to_csv(rows);

  std::vector<RunResult> back;
  std::string error;
  ASSERT_TRUE(results_from_csv(text, &back, &error)) << error << "\n" << text;
  ASSERT_EQ(back.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    SCOPED_TRACE("row " + std::to_string(i));
    expect_same(rows[i], back[i]);
  }
  // Written again, it is the same text.
  EXPECT_EQ(results_to_csv(back), text);
}

TEST(ResultsCsv, EveryInputTypeRoundTripsByItsName) {
  std::vector<RunResult> rows;
  for (Precision p : all_precisions()) {
    RunResult r = realistic_row();
    r.precision = p;
    rows.push_back(r);
  }
  const std::string text = results_to_csv(rows);
  for (Precision p : all_precisions())
    EXPECT_TRUE(contains(text, std::string(",") + to_string(p) + ",")) << to_string(p);
  std::vector<RunResult> back;
  std::string error;
  ASSERT_TRUE(results_from_csv(text, &back, &error)) << error;
  ASSERT_EQ(back.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(back[i].precision, rows[i].precision);
  // A name no version wrote is refused, not read as another type.
  const std::size_t at = text.find(",bf16,");
  ASSERT_NE(at, std::string::npos);
  std::string bad = text;
  bad.replace(at, 6, ",fp8,");
  EXPECT_FALSE(results_from_csv(bad, &back, &error));
}

TEST(ResultsCsv, DeviceMetadataOnEveryRow) {
  const std::string text = results_to_csv({realistic_row(), realistic_row()});
  std::size_t count = 0;
  for (std::size_t pos = 0; (pos = text.find("NVIDIA H100 80GB HBM3", pos)) != std::string::npos; ++pos) ++count;
  EXPECT_EQ(count, 2u);
}

TEST(ResultsCsv, QuotesOnlyWhereNeeded) {
  const std::string text = results_to_csv({error_row()});
  EXPECT_TRUE(contains(text, "\"GPU, with \"\"quotes\"\"\"")) << text;
  EXPECT_TRUE(contains(text, "," + error_row().backend + ",")) << text;
  // The cuBLAS math text holds a comma ("FP32 FMA, tensor cores off / FP64"): quoted.
  ASSERT_TRUE(contains(error_row().math, ",")) << "the registry's cuBLAS math text changed: " << error_row().math;
  EXPECT_TRUE(contains(text, "\"" + error_row().math + "\"")) << text;
  // The timestamp needs no quotes.
  EXPECT_TRUE(contains(text, ",2026-01-02T03:04:05Z,")) << text;
}

TEST(ResultsCsv, SeedKeepsAll64Bits) {
  const std::string text = results_to_csv({realistic_row()});
  EXPECT_TRUE(contains(text, ",18446744073709551615,")) << text;
}

TEST(ResultsCsv, AcceptsCrLfAndBlankLines) {
  std::string text = results_to_csv({realistic_row()});
  std::string crlf;
  for (char ch : text) crlf += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
  expect_one_row(crlf + "\r\n\r\n", realistic_row());
  std::vector<RunResult> back;
  std::string error;
  ASSERT_TRUE(results_from_csv(header_line(), &back, &error)) << error;
  EXPECT_TRUE(back.empty());
}

TEST(ResultsCsv, RejectsEmptyAndForeignFiles) {
  EXPECT_TRUE(contains(csv_error(""), "line 1"));
  const std::string foreign = csv_error("name,time\nfoo,1\n");
  EXPECT_TRUE(contains(foreign, "line 1")) << foreign;
  EXPECT_TRUE(contains(foreign, "'name'")) << foreign;
  EXPECT_TRUE(contains(foreign, "'variant_id'")) << foreign;
}

// A file written before the split columns loads as runs on one GPU, nothing split.
TEST(ResultsCsv, ReadsFilesFromBeforeTheSplitColumns) {
  RunResult split = realistic_row();
  split.split = "split_nccl";
  split.split_config = "rows_1d";
  split.gpus = 2;
  split.gpu_names = "NVIDIA H200; NVIDIA H200";
  split.speedup_over_one_gpu = 1.93;
  split.predicted_ms = 91.25;
  std::vector<RunResult> back;
  std::string error;
  ASSERT_TRUE(results_from_csv(results_to_csv({split}), &back, &error)) << error;
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].split, "split_nccl");
  EXPECT_EQ(back[0].split_config, "rows_1d");
  EXPECT_EQ(back[0].gpus, 2);
  EXPECT_EQ(back[0].gpu_names, "NVIDIA H200; NVIDIA H200");
  EXPECT_DOUBLE_EQ(back[0].speedup_over_one_gpu, 1.93);
  EXPECT_DOUBLE_EQ(back[0].predicted_ms, 91.25);
  ASSERT_TRUE(results_from_csv(older_csv(split, kSplitColumns + kLinkColumns), &back, &error)) << error;
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].split, "");
  EXPECT_EQ(back[0].gpus, 1);
  EXPECT_EQ(back[0].speedup_over_one_gpu, -1);
}

// The link the model used travels with a split row and reads back; a file written before it loads
// with none (0), and a field that is no number is refused, naming its column.
TEST(ResultsCsv, LinkFiguresRoundTripAndOlderFilesLoadWithout) {
  RunResult split = realistic_row();
  split.split = "split_nccl";
  split.split_config = "rows_1d";
  split.gpus = 2;
  split.predicted_ms = 752.75;
  split.link_latency_us = 21.3;
  split.link_broadcast_gbs = 353.6;
  split.link_reduce_gbs = 356.9;
  std::vector<RunResult> back;
  std::string error;
  const std::string text = results_to_csv({split});
  ASSERT_TRUE(results_from_csv(text, &back, &error)) << error;
  ASSERT_EQ(back.size(), 1u);
  EXPECT_DOUBLE_EQ(back[0].link_latency_us, 21.3);
  EXPECT_DOUBLE_EQ(back[0].link_broadcast_gbs, 353.6);
  EXPECT_DOUBLE_EQ(back[0].link_reduce_gbs, 356.9);
  EXPECT_DOUBLE_EQ(back[0].predicted_ms, 752.75);

  const std::string old = older_csv(split, kLinkColumns);
  EXPECT_EQ(last_column(old), "predicted_ms");
  ASSERT_TRUE(results_from_csv(old, &back, &error)) << error;
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].split_config, "rows_1d");
  EXPECT_DOUBLE_EQ(back[0].predicted_ms, 752.75);
  EXPECT_EQ(back[0].link_latency_us, 0);
  EXPECT_EQ(back[0].link_broadcast_gbs, 0);
  EXPECT_EQ(back[0].link_reduce_gbs, 0);

  std::string bad = text;
  bad.replace(bad.rfind(",353.6,"), 7, ",fast,");
  EXPECT_TRUE(contains(csv_error(bad), "'link_broadcast_gbs'")) << csv_error(bad);
}

TEST(ResultsCsv, RejectsHeaderWithExtraOrMissingColumns) {
  std::string header = header_line();
  header.pop_back();
  EXPECT_TRUE(contains(csv_error(header + ",extra\n"), "line 1"));
  // A header without c_type and some of the profiler's columns matches no version of the file: they
  // came together (without all of them, it is one from before them:
  // ReadsFilesFromBeforeTheProfileColumns; without c_type alone, one from before it).
  const std::string last_profile = "ffma_share_pct";
  EXPECT_TRUE(contains(csv_error(without_last_fields(header, kCTypeColumns + 1) + "\n"), "'" + last_profile + "'"));
  // Without its last two columns before the profiler's, the header matches no version of the file
  // (without the last one, it is one from before the rounds: ReadsFilesFromBeforeTheRoundColumn;
  // without the last four, one from before the memory columns: ReadsFilesFromBeforeTheMemoryColumns).
  const int p = profile_columns() + kCTypeColumns;
  EXPECT_TRUE(contains(csv_error(without_last_fields(header, p + 2) + "\n"), "shared_conflicts_per_instruction"));
  EXPECT_TRUE(contains(csv_error(without_last_fields(header, p + 5) + "\n"), "wrong_expected"));
  EXPECT_TRUE(contains(csv_error(without_last_fields(header, p + 10) + "\n"), "fetches_per_fma"));
}

// bench --profile's figures are the last columns: they round-trip, a figure ncu did not give is an
// empty field (a blank in a spreadsheet), and files written before them load with no figures.
TEST(ResultsCsv, ProfileFiguresAreTheLastColumnsAndRoundTrip) {
  const std::vector<std::string>& names = results_csv_columns();
  const std::vector<std::string> profile = {"fma_pipe_pct",     "fp64_pipe_pct",    "tensor_pipe_pct",
                                            "issue_active_pct", "cycles_per_issue", "ffma_share_pct"};
  ASSERT_EQ(profile_columns(), static_cast<int>(profile.size()));
  EXPECT_TRUE(std::equal(profile.begin(), profile.end(), names.end() - kCTypeColumns - profile.size()))
      << "after round, in order";
  const RunResult row = profiled_row();
  expect_one_row(results_to_csv({row}), row);
  // Unprofiled: six empty fields; profiled without FP64's: one (then C's type and a run on one
  // GPU: no split, 1 GPU, no names, no speed-up, no prediction, no link).
  const std::string plain = results_to_csv({realistic_row()});
  const std::string one_gpu = ",,,1,,-1,0,0,0,0\n";
  EXPECT_EQ(plain.substr(plain.size() - 11 - one_gpu.size() + 1), ",,,,,,,f32" + one_gpu) << plain;
  const std::string text = results_to_csv({row});
  EXPECT_TRUE(contains(text, ",81.2345,,0,47.5,3.1,62.5,f32" + one_gpu)) << text;
  expect_one_row(plain, realistic_row());
  // A figure that is neither a number nor empty is refused, naming its column.
  std::string bad = text;
  bad.replace(bad.rfind(",47.5,"), 6, ",n/a,");
  EXPECT_TRUE(contains(csv_error(bad), "'issue_active_pct'"));
}

TEST(ResultsCsv, ReadsFilesFromBeforeTheProfileColumns) {
  const std::string old = older_csv(profiled_row(), profile_columns() + kCTypeColumns);
  EXPECT_EQ(last_column(old), "round");
  std::vector<RunResult> back;
  std::string error;
  ASSERT_TRUE(results_from_csv(old, &back, &error)) << error;
  ASSERT_EQ(back.size(), 1u);
  EXPECT_FALSE(back[0].profile.any()) << "no figures: NaN, not 0";
  expect_one_row(old, realistic_row());
}

// Files written before bench --rounds load with no round (0).
TEST(ResultsCsv, ReadsFilesFromBeforeTheRoundColumn) {
  RunResult row = realistic_row();
  row.round = 3;
  expect_one_row(results_to_csv({row}), row);
  const std::string old = older_csv(row, 1 + profile_columns() + kCTypeColumns);
  EXPECT_EQ(last_column(old), "shared_conflicts_per_instruction");
  row.round = 0;
  expect_one_row(old, row);
}

// Files written before the model's memory counts load with none counted (-1).
TEST(ResultsCsv, ReadsFilesFromBeforeTheMemoryColumns) {
  RunResult row = realistic_row();
  row.load_sectors_per_request = 2.5;
  row.store_sectors_per_request = 4;
  row.shared_conflicts_per_instruction = 0.125;
  expect_one_row(results_to_csv({row}), row);
  const std::string old = older_csv(row, 4 + profile_columns() + kCTypeColumns);
  EXPECT_EQ(last_column(old), "wrong_expected");
  row.load_sectors_per_request = row.store_sectors_per_request = row.shared_conflicts_per_instruction = -1;
  expect_one_row(old, row);
}

// Files written before a failed check named its first wrong element load with none located.
TEST(ResultsCsv, ReadsFilesFromBeforeTheWrongElementColumns) {
  RunResult row = realistic_row();
  row.wrong_row = 3;
  row.wrong_col = 17;
  row.wrong_value = 2.5;
  row.wrong_expected = -0.125;
  expect_one_row(results_to_csv({row}), row);
  const std::string old = older_csv(row, 8 + profile_columns() + kCTypeColumns);
  EXPECT_EQ(last_column(old), "run_clock_mhz");
  row.wrong_row = row.wrong_col = -1;
  row.wrong_value = row.wrong_expected = 0;
  expect_one_row(old, row);
}

// Files written before the clock column existed load, with the clock unknown (0).
TEST(ResultsCsv, ReadsFilesFromBeforeTheClockColumn) {
  RunResult row = realistic_row();
  ASSERT_GT(row.run_clock_mhz, 0.0);
  const std::string old = older_csv(row, 9 + profile_columns() + kCTypeColumns);
  EXPECT_EQ(last_column(old), "fetches_per_fma");
  row.run_clock_mhz = 0;
  expect_one_row(old, row);
}

// Files written before the texture-shader columns (timer, passes, fetches_per_fma) existed, and
// so before the clock column, load with those fields at their defaults; cutting deeper is still
// an error.
TEST(ResultsCsv, ReadsFilesFromBeforeTheTextureShaderColumns) {
  RunResult row = realistic_row();
  row.timer.clear();
  const std::string old = older_csv(row, 12 + profile_columns() + kCTypeColumns);
  EXPECT_EQ(last_column(old), "cublas_version");
  row.run_clock_mhz = 0;
  expect_one_row(old, row);
  EXPECT_TRUE(contains(csv_error(without_last_fields(old.substr(0, old.find('\n')), 4) + "\n"), "line 1"));
}

TEST(ResultsCsv, TextureShaderRowRoundTrips) {
  RunResult r = realistic_row();
  const VariantDescriptor& shaders = testing::shader_variant_desc();
  r.variant_id = shaders.id;
  record_variant(r, shaders, static_cast<int>(shaders.configs.size()) - 1);
  r.timer = "gl_time_elapsed";
  r.passes = 16;
  r.fetches_per_fma = 0.09375;
  expect_one_row(results_to_csv({r}), r);
}

TEST(ResultsCsv, RejectsWrongColumnCountNamingTheLine) {
  const std::string good = results_to_csv({realistic_row(), realistic_row()});
  // Drop the last field of the third line.
  std::string bad = good.substr(0, good.size() - 1);
  bad = bad.substr(0, bad.rfind(',')) + "\n";
  const std::string e = csv_error(bad);
  EXPECT_TRUE(contains(e, "line 3")) << e;
  EXPECT_TRUE(contains(e, "expected " + std::to_string(results_csv_columns().size()))) << e;
}

TEST(ResultsCsv, RejectsBadNumbersAndFlags) {
  const std::string good = results_to_csv({realistic_row()});
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const std::size_t pos = s.find(from, s.find('\n'));
    EXPECT_NE(pos, std::string::npos) << from;
    return s.replace(pos, from.size(), to);
  };
  std::string e = csv_error(replace(",4096,4096,1000,", ",4096,4O96,1000,"));
  EXPECT_TRUE(contains(e, "line 2")) << e;
  EXPECT_TRUE(contains(e, "'N'")) << e;
  EXPECT_TRUE(contains(e, "'4O96'")) << e;
  e = csv_error(replace(",true,", ",yes,"));
  EXPECT_TRUE(contains(e, "first_was_cold")) << e;
  e = csv_error(replace(",ata,", ",atb,"));
  EXPECT_TRUE(contains(e, "problem")) << e;
  e = csv_error(replace(",1980,", ",1980.5,"));
  EXPECT_TRUE(contains(e, "sm_clock_mhz")) << e;
  e = csv_error(replace(",127,", ",,"));
  EXPECT_TRUE(contains(e, "registers_per_thread")) << e;
  e = csv_error(replace(",3,NVIDIA", ",99999999999,NVIDIA"));
  EXPECT_TRUE(contains(e, "input_sets")) << e;
  // A seed is a whole number from 0 to 2^64-1: no sign, no wrap-around, no overflow.
  for (const char* bad_seed : {"-1", "+5", "18446744073709551616", "1e3", " 7"}) {
    e = csv_error(replace(",18446744073709551615,", std::string(",") + bad_seed + ","));
    EXPECT_TRUE(contains(e, "'seed'")) << bad_seed << ": " << e;
  }
  e = csv_error(replace(",10,2,", ",10,two,"));
  EXPECT_TRUE(contains(e, "'warmup'")) << e;
}

TEST(ResultsCsv, RejectsBrokenQuoting) {
  const std::string good = results_to_csv({error_row()});
  // Remove the closing quote of the last quoted field.
  std::string bad = good;
  bad.erase(bad.rfind('"'), 1);
  EXPECT_TRUE(contains(csv_error(bad), "never closed"));
  std::string stray = results_to_csv({realistic_row()});
  stray.replace(stray.find("cublas_dgemm"), 12, "cublas\"dgemm");
  EXPECT_TRUE(contains(csv_error(stray), "line 2"));
}

// ---- CSV files, read as a stream -------------------------------------------------------------------

class ResultsCsvFile : public ::testing::Test {
 protected:
  void SetUp() override { path_ = "/tmp/tilescope-csv-test-" + std::to_string(getpid()) + ".csv"; }
  void TearDown() override { std::remove(path_.c_str()); }
  void write(const std::string& text) {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out << text;
    ASSERT_TRUE(out.good());
  }
  // Rows that fill several of the reader's 1 MiB blocks, quoted fields with line breaks among
  // them, so records and quoted fields straddle block boundaries somewhere.
  static std::vector<RunResult> many_rows(std::size_t n) {
    std::vector<RunResult> rows;
    for (std::size_t i = 0; i < n; ++i) {
      RunResult r = i % 7 == 3 ? error_row() : realistic_row();
      r.seed = i;
      r.median_ms = 1.0 + static_cast<double>(i) / 3.0;
      rows.push_back(r);
    }
    return rows;
  }
  // The file read into back_ (error_ says why not), at most `max_rows` rows.
  ResultsCsvRead read_at_most(std::size_t max_rows) {
    ResultsCsvReadOptions options;
    options.max_rows = max_rows;
    return read_results_csv_file(path_, &back_, &error_, options);
  }
  std::string path_;
  std::vector<RunResult> back_;
  std::string error_;
};

TEST_F(ResultsCsvFile, RoundTripAcrossBlocksIsExact) {
  const std::vector<RunResult> rows = many_rows(9000);
  const std::string text = results_to_csv(rows);
  ASSERT_GT(text.size(), 2u << 20) << "the test needs several blocks";
  write(text);
  std::vector<RunResult> back;
  std::string error;
  ASSERT_TRUE(read_results_csv_file(path_, &back, &error)) << error;
  ASSERT_EQ(back.size(), rows.size());
  EXPECT_EQ(results_to_csv(back), text) << "every field of every row, byte for byte";
  expect_same(rows[3], back[3]);
  expect_same(rows.back(), back.back());
  // The same with Windows line ends (inside quoted fields too, where they are data: the rows
  // compared below have none).
  std::string crlf;
  for (char ch : text) {
    if (ch == '\n') crlf += '\r';
    crlf += ch;
  }
  write(crlf);
  ASSERT_TRUE(read_results_csv_file(path_, &back, &error)) << error;
  ASSERT_EQ(back.size(), rows.size());
  expect_same(rows[4], back[4]);
  expect_same(rows[8999], back[8999]);
}

TEST_F(ResultsCsvFile, MalformedLineFarIntoTheFileNamesFileAndLine) {
  const std::vector<RunResult> rows = many_rows(6000);
  std::string text = results_to_csv(rows);
  // Break the last row: its line number counts the line breaks inside quoted fields too.
  const std::size_t last = text.rfind('\n', text.size() - 2) + 1;
  const int line =
      1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(last), '\n'));
  text.insert(last, "x,");
  write(text);
  std::vector<RunResult> back = {realistic_row()};
  std::string error;
  EXPECT_FALSE(read_results_csv_file(path_, &back, &error));
  EXPECT_EQ(back.size(), 1u) << "a failed read leaves *out unchanged";
  EXPECT_TRUE(contains(error, path_ + ": line " + std::to_string(line) + ":")) << error;
  EXPECT_TRUE(contains(error, "fields, expected")) << error;
  EXPECT_FALSE(read_results_csv_file("/nonexistent/dir/x.csv", &back, &error));
  EXPECT_TRUE(contains(error, "/nonexistent/dir/x.csv")) << error;
}

TEST_F(ResultsCsvFile, MoreRowsThanTheLimitAreRefusedWithCountAndLimit) {
  write(results_to_csv(many_rows(250)));
  EXPECT_EQ(read_at_most(100), ResultsCsvRead::kTooManyRows);
  EXPECT_TRUE(back_.empty());
  EXPECT_TRUE(contains(error_, "250 rows")) << error_;
  EXPECT_TRUE(contains(error_, "100")) << error_;
  EXPECT_EQ(read_at_most(250), ResultsCsvRead::kLoaded) << error_;
  EXPECT_EQ(back_.size(), 250u);
}

TEST_F(ResultsCsvFile, FilesFarOverTheLimitAreCountedNotLoaded) {
  // The file's size says about 5000 rows against a limit of 1500: refused by count alone.
  write(results_to_csv(many_rows(5000)));
  EXPECT_EQ(read_at_most(1500), ResultsCsvRead::kTooManyRows);
  EXPECT_TRUE(contains(error_, "5000 rows")) << error_;
  EXPECT_TRUE(contains(error_, "1500")) << error_;

  // Short rows first, then long ones: the estimate from the first rows overshoots; the count
  // comes out within the limit, and the file is read again and loads.
  std::vector<RunResult> rows = many_rows(2000);
  for (std::size_t i = 1000; i < rows.size(); ++i) rows[i].error = std::string(6000, 'x');
  for (std::size_t i = 0; i < 1000; ++i) rows[i].error.clear();
  write(results_to_csv(rows));
  ASSERT_EQ(read_at_most(2000), ResultsCsvRead::kLoaded) << error_;
  ASSERT_EQ(back_.size(), 2000u);
  expect_same(rows[1999], back_[1999]);
}

TEST_F(ResultsCsvFile, ProgressCountsBytesAndCanCancel) {
  const std::string text = results_to_csv(many_rows(9000));
  write(text);
  std::vector<RunResult> back;
  std::string error;
  ResultsCsvReadOptions options;
  std::vector<std::uint64_t> seen;
  options.progress = [&](std::uint64_t done, std::uint64_t total) {
    EXPECT_EQ(total, text.size());
    seen.push_back(done);
    return true;
  };
  ASSERT_EQ(read_results_csv_file(path_, &back, &error, options), ResultsCsvRead::kLoaded) << error;
  ASSERT_GE(seen.size(), 3u) << "one report per block";
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_EQ(seen.back(), text.size());

  // Cancelled after the second block: nothing is returned.
  int calls = 0;
  options.progress = [&](std::uint64_t, std::uint64_t) { return ++calls < 2; };
  back = {realistic_row()};
  EXPECT_EQ(read_results_csv_file(path_, &back, &error, options), ResultsCsvRead::kCancelled);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(back.size(), 1u) << "*out unchanged";
  EXPECT_TRUE(contains(error, "cancelled")) << error;
}

// ---- JSON ---------------------------------------------------------------------------------------

DeviceInfo h100() {
  DeviceInfo d;
  d.availability = GpuAvailability::Available;
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.sm_count = 132;
  d.sm_clock_khz = 1980000;
  d.global_memory_bytes = 85520809984ull;
  d.driver_version = 13000;
  d.runtime_version = 13000;
  d.cublas_version = 130100;
  d.peak_fp32_gflops = 66908.16;
  d.peak_fp64_gflops = 33454.08;
  d.limits.shared_per_block_optin = 232448;
  return d;
}

TEST(ResultsJson, ParsesBackWithEveryField) {
  const std::string text = results_to_json({realistic_row(), error_row()}, h100(), "0.1.0");
  const nlohmann::json doc = nlohmann::json::parse(text);
  EXPECT_EQ(doc.at("tool"), "tilescope");
  EXPECT_EQ(doc.at("version"), "0.1.0");

  const nlohmann::json& device = doc.at("device");
  EXPECT_EQ(device.at("availability"), "available");
  EXPECT_EQ(device.at("name"), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(device.at("compute_capability"), "9.0");
  EXPECT_EQ(device.at("sm_count"), 132);
  EXPECT_EQ(device.at("sm_clock_khz"), 1980000);
  EXPECT_EQ(device.at("global_memory_bytes"), 85520809984ull);
  EXPECT_EQ(device.at("driver_version_string"), "13.0");
  EXPECT_EQ(device.at("cublas_version"), 130100);
  EXPECT_DOUBLE_EQ(device.at("peak_fp32_gflops").get<double>(), 66908.16);
  EXPECT_DOUBLE_EQ(device.at("peak_fp64_gflops").get<double>(), 33454.08);
  EXPECT_EQ(device.at("limits").at("shared_per_block_optin"), 232448);

  const nlohmann::json& results = doc.at("results");
  ASSERT_EQ(results.size(), 2u);
  // Every CSV column is a key of every result, so the two formats carry the same data.
  for (const nlohmann::json& r : results)
    for (const std::string& column : results_csv_columns()) EXPECT_TRUE(r.contains(column)) << column;
  const nlohmann::json& r = results[0];
  EXPECT_EQ(r.at("variant_id"), realistic_row().variant_id);
  EXPECT_EQ(r.at("problem"), "ata");
  EXPECT_EQ(r.at("N"), 4096);
  EXPECT_EQ(r.at("K"), 1000);
  EXPECT_EQ(r.at("first_was_cold"), true);
  EXPECT_DOUBLE_EQ(r.at("median_ms").get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(r.at("pct_of_cublas").get<double>(), 94.5);
  EXPECT_EQ(r.at("registers_per_thread"), 127);
  EXPECT_EQ(r.at("warmup"), 2);
  EXPECT_EQ(r.at("seed").get<std::uint64_t>(), 18446744073709551615ull) << "the seed is written as an exact integer";
  EXPECT_EQ(r.at("timestamp"), "2026-11-21T23:40:05Z");
  EXPECT_EQ(results[1].at("timestamp"), "2026-01-02T03:04:05Z");
  // The error text survives, and NaN becomes null (JSON has no NaN).
  EXPECT_EQ(results[1].at("error"), error_row().error);
  EXPECT_TRUE(results[1].at("rel_error").is_null());
}

// bench --profile's figures: numbers where profiled, null where not (NaN).
TEST(ResultsJson, ProfileFiguresAreNumbersOrNull) {
  const RunResult profiled = profiled_row();
  const nlohmann::json doc = nlohmann::json::parse(results_to_json({profiled, realistic_row()}, h100(), "0.1.0"));
  const nlohmann::json& a = doc.at("results").at(0);
  EXPECT_DOUBLE_EQ(a.at("fma_pipe_pct").get<double>(), profiled.profile.fma_pipe_pct);
  EXPECT_DOUBLE_EQ(a.at("tensor_pipe_pct").get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(a.at("issue_active_pct").get<double>(), profiled.profile.issue_active_pct);
  EXPECT_DOUBLE_EQ(a.at("cycles_per_issue").get<double>(), profiled.profile.cycles_per_issue);
  EXPECT_DOUBLE_EQ(a.at("ffma_share_pct").get<double>(), profiled.profile.ffma_share_pct);
  EXPECT_TRUE(a.at("fp64_pipe_pct").is_null());
  const nlohmann::json& b = doc.at("results").at(1);
  for (const char* key :
       {"fma_pipe_pct", "fp64_pipe_pct", "tensor_pipe_pct", "issue_active_pct", "cycles_per_issue", "ffma_share_pct"})
    EXPECT_TRUE(b.at(key).is_null()) << key;
}

TEST(ResultsJson, NoGpuDevice) {
  DeviceInfo none;
  none.availability = GpuAvailability::NoDriver;
  none.unavailable_reason = "no NVIDIA driver is installed";
  const nlohmann::json doc = nlohmann::json::parse(results_to_json({}, none, "0.1.0"));
  EXPECT_EQ(doc.at("device").at("availability"), "no_driver");
  EXPECT_EQ(doc.at("device").at("unavailable_reason"), "no NVIDIA driver is installed");
  EXPECT_TRUE(doc.at("results").is_array());
  EXPECT_TRUE(doc.at("results").empty());
}

// ---- atomic writes ------------------------------------------------------------------------------

class AtomicFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tilescope_export_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  fs::path dir_;
};

TEST_F(AtomicFile, WritesAndReplaces) {
  const fs::path p = dir_ / "results.csv";
  std::string error;
  ASSERT_TRUE(write_file_atomically(p.string(), "first\n", &error)) << error;
  EXPECT_EQ(read(p), "first\n");
  const std::string big(3 << 20, 'x');
  ASSERT_TRUE(write_file_atomically(p.string(), big, &error)) << error;
  EXPECT_EQ(read(p), big);
  EXPECT_EQ(entries(), std::vector<std::string>{"results.csv"}) << "no temporary file left behind";
}

TEST(AtomicFileErrors, MissingDirectoryGivesAClearError) {
  const std::string path = "/nonexistent/dir/x.csv";
  std::string error;
  EXPECT_FALSE(write_file_atomically(path, "data\n", &error));
  EXPECT_EQ(error, "cannot write /nonexistent/dir/x.csv: No such file or directory");
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(atomic_temp_path(path)));
  EXPECT_FALSE(fs::exists("/nonexistent"));
}

// The write itself succeeds here and the final rename fails: the temporary file must go.
TEST_F(AtomicFile, DirectoryAsTargetIsRefusedAndKept) {
  const fs::path target = dir_ / "out";
  fs::create_directory(target);
  std::ofstream(target / "keep.txt") << "keep";
  std::string error;
  EXPECT_FALSE(write_file_atomically(target.string(), "data", &error));
  EXPECT_TRUE(contains(error, "cannot write " + target.string())) << error;
  EXPECT_TRUE(contains(error, "Is a directory")) << error;
  EXPECT_TRUE(fs::is_directory(target));
  EXPECT_EQ(read(target / "keep.txt"), "keep");
  EXPECT_EQ(entries(), std::vector<std::string>{"out"});
}

TEST_F(AtomicFile, FailureDoesNotClobberAnExistingFile) {
  // A name so long that the temporary name ("NAME.tmp.<pid>") exceeds the file system's
  // limit, while the target itself exists: the write must fail before touching it.
  const fs::path target = dir_ / std::string(250, 'r');
  std::ofstream(target) << "precious results\n";
  ASSERT_EQ(read(target), "precious results\n");
  std::string error;
  EXPECT_FALSE(write_file_atomically(target.string(), "new data\n", &error));
  EXPECT_TRUE(contains(error, "cannot write")) << error;
  EXPECT_EQ(read(target), "precious results\n");
  EXPECT_EQ(entries(), std::vector<std::string>{target.filename().string()});
}

TEST(AtomicFileErrors, EmptyPath) {
  std::string error;
  EXPECT_FALSE(write_file_atomically("", "x", &error));
  EXPECT_FALSE(error.empty());
}

// ---- checked before the work: check_writable_path ------------------------------------------------

TEST_F(AtomicFile, WritablePathInAFolderThatExistsIsAcceptedAndLeavesNothing) {
  std::string error;
  EXPECT_TRUE(check_writable_path((dir_ / "results.csv").string(), &error)) << error;
  std::ofstream(dir_ / "old.csv") << "old";
  EXPECT_TRUE(check_writable_path((dir_ / "old.csv").string(), &error)) << "an existing file is replaced";
  EXPECT_EQ(entries(), std::vector<std::string>{"old.csv"}) << "the trial file is gone";
}

TEST_F(AtomicFile, WritablePathRefusesMissingFoldersFoldersAndDevices) {
  std::string error;
  EXPECT_FALSE(check_writable_path((dir_ / "missing" / "x.csv").string(), &error));
  EXPECT_EQ(error, "cannot write " + (dir_ / "missing" / "x.csv").string() + ": the folder " +
                       (dir_ / "missing").string() + " does not exist");
  EXPECT_FALSE(check_writable_path(dir_.string(), &error));
  EXPECT_TRUE(contains(error, "it is a folder")) << error;
  EXPECT_FALSE(check_writable_path((dir_.string() + "/"), &error)) << "a trailing slash names the folder";
  std::ofstream(dir_ / "file") << "x";
  EXPECT_FALSE(check_writable_path((dir_ / "file" / "x.csv").string(), &error));
  EXPECT_TRUE(contains(error, "not a folder")) << error;
  EXPECT_FALSE(check_writable_path("/dev/null", &error)) << "the rename would replace the device";
  EXPECT_TRUE(contains(error, "not a regular file")) << error;
  EXPECT_FALSE(check_writable_path("", &error));
}

TEST_F(AtomicFile, WritablePathRefusesAFolderThatTakesNoNewFile) {
  // Permission bits do not bind root: then a folder of /proc, where nobody can create a file.
  const fs::path locked = dir_ / "locked";
  fs::create_directory(locked);
  ASSERT_EQ(chmod(locked.c_str(), 0555), 0);
  const std::string target = (geteuid() == 0 ? fs::path("/proc/self") : locked).string() + "/x.csv";
  std::string error;
  EXPECT_FALSE(check_writable_path(target, &error));
  EXPECT_TRUE(contains(error, "cannot create a file in")) << error;
  chmod(locked.c_str(), 0755);
}

// ---- what messages show of a file's bytes -------------------------------------------------------

TEST(PrintableText, KeepsPrintableTextAndValidUtf8) {
  const std::string text = "wrote C:\\tmp/plot.png (A\u1d40A, 3 \u00d7 4, \u6f22\u5b57, \U0001F600)";
  EXPECT_EQ(printable_text(text), text);
  EXPECT_EQ(printable_text(""), "");
}

TEST(PrintableText, EscapesControlBytesAndInvalidUtf8) {
  EXPECT_EQ(printable_text(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable_text("\x1b[2J\t\n\x7f"), "\\x1B[2J\\x09\\x0A\\x7F");
  EXPECT_EQ(printable_text("\xff\xfe"), "\\xFF\\xFE");
  EXPECT_EQ(printable_text("\xc0\xaf"), "\\xC0\\xAF") << "an overlong slash";
  EXPECT_EQ(printable_text("\xed\xa0\x80"), "\\xED\\xA0\\x80") << "a surrogate";
  EXPECT_EQ(printable_text("\xf4\x90\x80\x80"), "\\xF4\\x90\\x80\\x80") << "beyond U+10FFFF";
  EXPECT_EQ(printable_text("\xe2\x82"), "\\xE2\\x82") << "cut short";
  EXPECT_EQ(printable_text("\xe2\x82\xc3\xa9"), "\\xE2\\x82\xc3\xa9") << "a valid character after a broken one";
  // Split where a hex escape would otherwise swallow the letters after it.
  EXPECT_EQ(printable_text(std::string("\xc2\x9b") + "31m"), "\\xC2\\x9B31m") << "C1 CSI steers a terminal";
  EXPECT_EQ(printable_text(std::string("abc\xe2\x80\xae") + "fdp.exe"), "abc\\xE2\\x80\\xAEfdp.exe")
      << "right-to-left override";
}

TEST(PrintableText, GarbageComesOutPrintableAndStaysSo) {
  const std::string garbage = testing::garbage_bytes(4096);
  const std::string shown = printable_text(garbage);
  EXPECT_EQ(testing::first_unprintable(shown), "");
  EXPECT_EQ(printable_text(shown), shown) << "escaping twice changes nothing";
  EXPECT_EQ(testing::first_unprintable(printable_excerpt(garbage)), "");
}

TEST(PrintableText, ExcerptCutsWholeCharacters) {
  EXPECT_EQ(printable_excerpt("short", 60), "short");
  EXPECT_EQ(printable_excerpt("abcdef", 3), "abc...");
  EXPECT_EQ(printable_excerpt("ab\xc3\xa9z", 3), "ab...") << "not half of the \xc3\xa9";
}

TEST(ResultsCsv, ErrorsQuoteTheFilesBytesPrintably) {
  std::vector<RunResult> rows;
  std::string error;
  const std::string garbage = testing::garbage_bytes(300);
  EXPECT_FALSE(results_from_csv(garbage, &rows, &error));
  EXPECT_TRUE(contains(error, "\\x1B[2J")) << error;
  EXPECT_EQ(testing::first_unprintable(error), "") << error;
  EXPECT_LT(error.size(), 400u) << "an excerpt of the field, not all of it";
  // A row's bad value too: the problem column (realistic_row's is AtA) set to a terminal command.
  std::string damaged = results_to_csv({realistic_row()});
  const std::size_t problem = damaged.find(",ata,", damaged.find('\n'));
  ASSERT_NE(problem, std::string::npos) << damaged;
  damaged.replace(problem + 1, 3, "\x1b]0;owned\x07");
  EXPECT_FALSE(results_from_csv(damaged, &rows, &error));
  EXPECT_TRUE(contains(error, "\\x1B]0;owned\\x07")) << error;
  EXPECT_EQ(testing::first_unprintable(error), "") << error;
}

// ---- names the program makes up -----------------------------------------------------------------

TEST(FileNames, TimestampedNamesHaveNoColons) {
  const std::time_t when = 1795703405;  // some second in November 2026
  const std::string name = timestamped_file_name("tilescope-screenshot", "png", when);
  EXPECT_EQ(name.find(':'), std::string::npos) << name;
  std::tm local{};
  localtime_r(&when, &local);
  char expected[64];
  std::snprintf(expected, sizeof expected, "tilescope-screenshot-%04d-%02d-%02d-%02d%02d%02d.png", local.tm_year + 1900,
                local.tm_mon + 1, local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec);
  EXPECT_EQ(name, expected);
  EXPECT_NE(timestamped_file_name("x", "png", when + 1), timestamped_file_name("x", "png", when))
      << "one second apart, two names";
}

TEST(CountText, SingularForOne) {
  EXPECT_EQ(count_text(1, "row", "rows"), "1 row");
  EXPECT_EQ(count_text(0, "row", "rows"), "0 rows");
  EXPECT_EQ(count_text(2, "match", "matches"), "2 matches");
}

// bench's JSON reads back: every field the CSV has, and a split run's timeline; the window loads it
// through the same call as a CSV (the file's first character decides).
TEST(ResultsJson, ReadsBackEveryFieldAndTheSpans) {
  RunResult r = realistic_row();
  r.split = "split_nccl";
  r.split_config = "rows_1d";
  r.gpus = 2;
  r.gpu_names = "NVIDIA H200; NVIDIA H200";
  r.speedup_over_one_gpu = 1.9;
  r.predicted_ms = 10.5;
  r.link_latency_us = 19.7;
  r.link_broadcast_gbs = 353.0;
  r.link_reduce_gbs = 356.2;
  r.spans = {{0, SpanStream::Transfer, "B columns 0-2047 sent", 0.004, 0.5},
             {1, SpanStream::Compute, "C rows 8192-16383, columns 0-2047", 0.6, 11.25}};
  const std::string json = results_to_json({r}, DeviceInfo{}, "0.1.0");
  std::vector<RunResult> back;
  std::string error;
  ASSERT_TRUE(results_from_json(json, &back, &error)) << error;
  ASSERT_EQ(back.size(), 1u);
  // Every column as the CSV writes it, the same after the trip through JSON.
  EXPECT_EQ(results_to_csv(back), results_to_csv({r}));
  EXPECT_DOUBLE_EQ(back[0].link_latency_us, 19.7);
  EXPECT_DOUBLE_EQ(back[0].link_broadcast_gbs, 353.0);
  EXPECT_DOUBLE_EQ(back[0].link_reduce_gbs, 356.2);
  ASSERT_EQ(back[0].spans.size(), 2u);
  EXPECT_EQ(back[0].spans[1].gpu, 1);
  EXPECT_EQ(back[0].spans[1].stream, SpanStream::Compute);
  EXPECT_EQ(back[0].spans[1].what, "C rows 8192-16383, columns 0-2047");
  EXPECT_DOUBLE_EQ(back[0].spans[1].end_ms, 11.25);

  const std::string path = ::testing::TempDir() + "/tilescope_results.json";
  ASSERT_TRUE(write_file_atomically(path, json, &error)) << error;
  back.clear();
  ASSERT_TRUE(read_results_csv_file(path, &back, &error)) << error;
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].spans.size(), 2u);
  // Not ours: refused with the reason.
  EXPECT_FALSE(results_from_json("{\"results\": []}", &back, &error));
  EXPECT_NE(error.find("not a tilescope results file"), std::string::npos) << error;
  EXPECT_FALSE(results_from_json("{\"tool\": \"tilescope\", \"results\": [{\"gpus\": \"two\"}]}", &back, &error));
  EXPECT_NE(error.find("gpus"), std::string::npos) << error;
  // A link figure that is no number is refused, naming it; a file without them loads with none.
  EXPECT_FALSE(
      results_from_json("{\"tool\": \"tilescope\", \"results\": [{\"link_reduce_gbs\": \"fast\"}]}", &back, &error));
  EXPECT_NE(error.find("link_reduce_gbs"), std::string::npos) << error;
  ASSERT_TRUE(results_from_json("{\"tool\": \"tilescope\", \"results\": [{\"split\": \"split_nccl\"}]}", &back, &error))
      << error;
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].link_broadcast_gbs, 0);
}

}  // namespace
}  // namespace tilescope
