// bench --profile's worker (app/cli/profiler_worker.h) without a GPU: which ncu it takes, the
// command line it runs, and what it makes of ncu's output, with a stand-in for ncu (a shell
// script that records its arguments and prints what the test gives it: a real raw page from
// tests/data/ncu/ with the profile's metrics added, ncu's complaint about the counters'
// permission, or nothing for longer than the time limit).
#include "app/cli/profiler_worker.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/bench_args.h"
#include "app/cli/profiler_metrics.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "tests/support/variant_picks.h"

namespace tilescope {
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

const char* metric(ProfilerMetricUse use) {
  for (const ProfilerMetric& m : profiler_metrics())
    if (m.use == use) return m.name;
  return "";
}

// A row of a CUDA kernel of ours that timed and passed, as the sweep leaves it.
RunResult timed_row(const VariantDescriptor& v, int config, Problem problem, Shape shape) {
  RunRequest request;
  request.variant_id = v.id;
  request.config_index = config;
  request.problem = problem;
  request.shape = shape;
  request.seed = 12345;
  RunResult r = requested_row(request);
  record_variant(r, v, config);
  record_timings(r, {2.0, 2.5, 3.0}, 0);
  r.first_ms = 40;
  r.verified = r.passed = true;
  r.round = 1;
  return r;
}

RunResult gemm_row(int config = 0) {
  return timed_row(testing::prefetch_kernel(), config, Problem::Gemm, {300, 200, 100});
}

// The value of `option` in `args` ("" when absent).
std::string value_after(const std::vector<std::string>& args, const std::string& option) {
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == option) return args[i + 1];
  return "";
}

// ---- which ncu ---------------------------------------------------------------------------------

TEST(FindNcu, TilescopeNcuThenPathThenTheToolkit) {
  std::set<std::string> executables;
  auto is_exec = [&](const std::string& p) { return executables.count(p) > 0; };
  executables = {"dir-a/ncu", "/usr/local/cuda/bin/ncu", "mine/ncu"};
  EXPECT_EQ(find_ncu("mine/ncu", "dir-a", is_exec).path, "mine/ncu") << "$TILESCOPE_NCU first";
  EXPECT_EQ(find_ncu(nullptr, "dir-b:dir-a", is_exec).path, "dir-a/ncu") << "then PATH, in order";
  EXPECT_EQ(find_ncu("", "dir-b", is_exec).path, "/usr/local/cuda/bin/ncu") << "an empty variable is unset";
  EXPECT_EQ(find_ncu(nullptr, nullptr, is_exec).path, "/usr/local/cuda/bin/ncu");
  // A TILESCOPE_NCU that is no program is said, not passed over.
  const NcuLocation wrong = find_ncu("nowhere/ncu", "dir-a", is_exec);
  EXPECT_EQ(wrong.path, "");
  EXPECT_TRUE(contains(wrong.problem, "TILESCOPE_NCU")) << wrong.problem;
  EXPECT_TRUE(contains(wrong.problem, "nowhere/ncu")) << wrong.problem;
  executables.clear();
  const NcuLocation none = find_ncu(nullptr, "dir-a", is_exec);
  EXPECT_EQ(none.path, "");
  for (const char* part : {"Nsight Compute (ncu)", "not found on PATH or in /usr/local/cuda/bin", "TILESCOPE_NCU"})
    EXPECT_TRUE(contains(none.problem, part)) << none.problem;
}

// ---- the command -------------------------------------------------------------------------------

// The profiled process's arguments are bench's: parsed back, they run exactly the row's
// configuration, problem, type, shape and seed, once, without warm-up, baseline or check.
TEST(ProfiledBench, ArgumentsRunTheRowsConfigurationAloneOnce) {
  const VariantDescriptor& v = testing::prefetch_kernel();
  for (Problem problem : {Problem::Gemm, Problem::Ata}) {
    SCOPED_TRACE(to_string(problem));
    const int config = static_cast<int>(v.configs.size()) - 1;
    RunResult row = timed_row(v, config, problem, problem == Problem::Gemm ? Shape{300, 200, 100} : Shape{0, 64, 96});
    row.precision = Precision::F64;
    const std::vector<std::string> args = profiled_bench_arguments(row, "");
    const BenchOptions opt = parse_bench_args(args);
    ASSERT_TRUE(opt.ok()) << opt.error;
    ASSERT_EQ(opt.selections.size(), 1u);
    EXPECT_EQ(opt.selections[0].variant, &v);
    EXPECT_EQ(opt.selections[0].config_index, config);
    EXPECT_EQ(opt.problems, std::vector<Problem>{problem});
    EXPECT_EQ(opt.precisions, std::vector<Precision>{Precision::F64});
    const std::vector<Shape>& shapes = opt.shapes_for(problem);
    ASSERT_EQ(shapes.size(), 1u);
    EXPECT_EQ(shapes[0].M, row.shape.M);
    EXPECT_EQ(shapes[0].N, row.shape.N);
    EXPECT_EQ(shapes[0].K, row.shape.K);
    EXPECT_EQ(opt.repetitions, 1);
    EXPECT_EQ(opt.warmup, 0);
    EXPECT_FALSE(opt.verify);
    EXPECT_FALSE(opt.baseline);
    EXPECT_FALSE(opt.profile) << "no profile of the profile";
    EXPECT_EQ(opt.seed, row.seed);
    EXPECT_TRUE(opt.csv_path.empty() && opt.json_path.empty());
  }
}

// A configuration of an edited kernel text runs the edit again: its typed tile and the same file.
// A split row's kernels are its kernel's: profiled once, in the row of that kernel alone.
TEST(ProfiledBench, ASplitRowIsNotProfiledAgain) {
  RunResult alone;
  alone.variant_id = tilescope::testing::baseline().id;
  alone.verified = alone.passed = true;
  EXPECT_TRUE(worth_profiling(alone));
  RunResult split = alone;
  split.split = "split_nccl";
  split.gpus = 2;
  EXPECT_FALSE(worth_profiling(split));
}

TEST(ProfiledBench, AnEditedConfigurationNamesItsTextAgain) {
  RunResult row = gemm_row();
  const std::string typed =
      tile_values_text(testing::typed_prefetch_kernel().tile_values_of(testing::typed_prefetch_kernel().configs[0]));
  row.variant_id = testing::typed_prefetch_kernel().id;
  row.config_name = typed + " (edited 3fa2c1d0)";
  const std::string spec = row.variant_id + "=my-edit.cuh";
  const std::vector<std::string> args = profiled_bench_arguments(row, spec);
  EXPECT_EQ(value_after(args, "--variants"), row.variant_id + ":" + typed);
  EXPECT_EQ(value_after(args, "--kernel-text"), spec);
  // A row of the shipped text does not take the edit along.
  EXPECT_EQ(value_after(profiled_bench_arguments(gemm_row(), spec), "--kernel-text"), "");
}

TEST(ProfiledBench, NcuSelectsTheTimedLaunchesWithClocksAsTimed) {
  const std::vector<std::string> bench = profiled_bench_arguments(gemm_row(), "");
  const std::vector<std::string> argv = ncu_command_line("the-ncu", "the-program", bench, {});
  ASSERT_GT(argv.size(), bench.size() + 2);
  EXPECT_EQ(argv[0], "the-ncu");
  EXPECT_EQ(value_after(argv, "--nvtx-include"), std::string(kTimedLaunchesRange) + "/") << "a push/pop range";
  EXPECT_NE(std::find(argv.begin(), argv.end(), "--nvtx"), argv.end()) << "NVTX filtering needs --nvtx";
  EXPECT_EQ(value_after(argv, "--clock-control"), "none");
  EXPECT_EQ(value_after(argv, "--page"), "raw");
  EXPECT_NE(std::find(argv.begin(), argv.end(), "--csv"), argv.end());
  EXPECT_EQ(value_after(argv, "--print-units"), "base");
  EXPECT_EQ(value_after(argv, "--metrics"), profiler_metrics_argument());
  EXPECT_GE(std::stoi(value_after(argv, "--launch-count")), 1);
  // ncu's options, then the program, `bench` and the arguments as they are.
  const std::size_t program = std::find(argv.begin(), argv.end(), "the-program") - argv.begin();
  ASSERT_EQ(program + 2 + bench.size(), argv.size());
  EXPECT_EQ(argv[program + 1], "bench");
  EXPECT_TRUE(std::equal(bench.begin(), bench.end(), argv.begin() + program + 2));
  const std::string dmma = metric(ProfilerMetricUse::DmmaTensorPipe);
  EXPECT_FALSE(contains(value_after(ncu_command_line("n", "p", bench, {dmma}), "--metrics"), dmma));
}

// The range's name is written into ncu's filter, whose syntax gives '/', '@', '[', ']' and ','
// meanings of their own.
TEST(ProfiledBench, TheRangesNameIsPlainInNcusFilterSyntax) {
  const std::string name = kTimedLaunchesRange;
  EXPECT_FALSE(name.empty());
  EXPECT_EQ(name.find_first_of("/@[]*, "), std::string::npos) << name;
}

// The range is pushed in one place of the program: the timed launches of the Measurer.
TEST(ProfiledBench, TheTimedLaunchesRangeIsPushedInOnePlace) {
  std::vector<std::string> pushing;
  for (const char* folder : {"app", "kernels"})
    for (const auto& e : fs::recursive_directory_iterator(fs::path(TILESCOPE_SOURCE_DIR) / folder)) {
      if (!e.is_regular_file()) continue;
      const std::string ext = e.path().extension().string();
      if (ext != ".cpp" && ext != ".h" && ext != ".cu" && ext != ".cuh") continue;
      if (contains(read_text(e.path()), "nvtxRangePush")) pushing.push_back(e.path().string());
    }
  ASSERT_EQ(pushing.size(), 1u) << "NVTX ranges pushed in several files";
  EXPECT_TRUE(contains(pushing[0], "kernels/measure/measure.cu")) << pushing[0];
  const std::string text = read_text(pushing[0]);
  EXPECT_TRUE(contains(text, "nvtxRangePushA(kTimedLaunchesRange)")) << "the range bench --profile selects";
}

// ---- ncu's output ------------------------------------------------------------------------------

ChildProcess::Ending exited(int code) {
  ChildProcess::Ending e;
  e.exited = true;
  e.code = code;
  return e;
}

std::vector<std::string> all_metrics() {
  std::vector<std::string> names;
  for (const ProfilerMetric& m : profiler_metrics()) names.push_back(m.name);
  return names;
}

std::string fixture_page() {
  return read_text(fs::path(TILESCOPE_SOURCE_DIR) / "tests/data/ncu/raw-wmma-999-gemm-f64.csv");
}

// The real page with the FMA pipe's and the issue slots' metrics added (n/a in its last kernel).
std::string page_with_figures() {
  std::istringstream in(fixture_page());
  std::string out, line;
  for (int i = 0; std::getline(in, line); ++i) {
    if (line.empty()) continue;
    // Kernels 0, 1, 2, ...: the FMA pipe 50% busy but in the last one (n/a), the issue slots 20% busy in
    // each.
    const bool last = in.peek() == EOF;
    const std::string fma = i == 0 ? metric(ProfilerMetricUse::FmaPipe) : i == 1 ? "%" : last ? "n/a" : "50";
    const std::string issue = i == 0 ? metric(ProfilerMetricUse::IssueActive) : i == 1 ? "%" : "20";
    out += line + ",\"" + fma + "\",\"" + issue + "\"\n";
  }
  return out;
}

TEST(ProfileOutput, FiguresOfThePageAmongTheProgramsLines) {
  const std::string output = "==PROF== Connected to process 7 (tilescope)\n[1/1] run ... 2.0 ms\n" +
                             page_with_figures() + "==PROF== Disconnected from process 7\n";
  const ProfileOutcome o = read_profile_output(output, exited(0), false, 120, all_metrics());
  EXPECT_EQ(o.failure, "");
  EXPECT_DOUBLE_EQ(o.figures.fma_pipe_pct, 50);
  EXPECT_DOUBLE_EQ(o.figures.issue_active_pct, 20);
  EXPECT_TRUE(std::isnan(o.figures.tensor_pipe_pct)) << "not on the page: empty, not a failure";
  EXPECT_FALSE(o.repeats);
}

TEST(ProfileOutput, FailuresSayWhyAndWhetherTheyRepeat) {
  // No permission to the counters: the same for every run.
  const ProfileOutcome denied = read_profile_output(
      "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters\n",
      exited(1), false, 120, all_metrics());
  EXPECT_TRUE(denied.repeats);
  EXPECT_TRUE(contains(denied.failure, "permission")) << denied.failure;
  EXPECT_TRUE(contains(denied.failure, "ERR_NVGPUCTRPERM")) << denied.failure;
  EXPECT_FALSE(denied.figures.any());
  // Stopped at its time limit: this run only.
  const ProfileOutcome slow = read_profile_output(page_with_figures(), exited(0), true, 150, all_metrics());
  EXPECT_FALSE(slow.repeats);
  EXPECT_TRUE(contains(slow.failure, "150 s")) << slow.failure;
  EXPECT_FALSE(slow.figures.any()) << "a killed profile's output is not trusted";
  // Nothing profiled: ncu's own complaint and how it ended.
  const ProfileOutcome nothing =
      read_profile_output("==WARNING== No kernels were profiled.\n", exited(3), false, 120, all_metrics());
  EXPECT_TRUE(contains(nothing.failure, "No kernels were profiled")) << nothing.failure;
  EXPECT_TRUE(contains(nothing.failure, "exit status 3")) << nothing.failure;
  // A crash.
  ChildProcess::Ending crashed;
  crashed.signal = 11;
  EXPECT_TRUE(contains(read_profile_output("", crashed, false, 120, all_metrics()).failure, "signal 11"));
  // A metric ncu does not know is named, for a second try without it.
  const std::string dmma = metric(ProfilerMetricUse::DmmaTensorPipe);
  const ProfileOutcome unknown =
      read_profile_output("==ERROR== Failed to find metric " + dmma + "\n", exited(1), false, 120, all_metrics());
  EXPECT_EQ(unknown.unknown_metrics, std::vector<std::string>{dmma});
  // A page without any of the figures' metrics (the fixture as it is) is no figures.
  const ProfileOutcome none = read_profile_output(fixture_page(), exited(0), false, 120, all_metrics());
  EXPECT_FALSE(none.figures.any());
  EXPECT_FALSE(none.failure.empty());
}

TEST(ProfileOutput, TheTimeLimitGrowsWithTheKernel) {
  RunResult quick = gemm_row(), slow = gemm_row();
  slow.median_ms = 2000;
  EXPECT_GE(profile_time_limit_seconds(quick), kProfileSeconds);
  EXPECT_GE(profile_time_limit_seconds(slow), kProfileSeconds + 2.0 * kProfileReplays - 1e-9);
}

// ---- a stand-in for ncu --------------------------------------------------------------------------

// A folder with `ncu`, a shell script: it appends its arguments (one line per run) to `calls`,
// then runs `body`. $TILESCOPE_NCU points at it while the test runs.
class FakeNcu : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/tilescope-fake-ncu-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    const char* old = std::getenv("TILESCOPE_NCU");
    had_old_ = old != nullptr;
    if (old) old_ = old;
  }
  void TearDown() override {
    if (had_old_)
      setenv("TILESCOPE_NCU", old_.c_str(), 1);
    else
      unsetenv("TILESCOPE_NCU");
    fs::remove_all(dir_);
  }

  // The script's commands after the line that records the call.
  std::string install(const std::string& body) {
    std::ofstream(dir_ / "page.csv") << page_with_figures();
    const fs::path ncu = dir_ / "ncu";
    std::ofstream(ncu) << "#!/bin/sh\necho \"$*\" >> '" << (dir_ / "calls").string() << "'\n" << body << "\n";
    fs::permissions(ncu, fs::perms::owner_all);
    setenv("TILESCOPE_NCU", ncu.string().c_str(), 1);
    return ncu.string();
  }
  std::string page_command() const { return "cat '" + (dir_ / "page.csv").string() + "'"; }
  std::vector<std::string> calls() const {
    std::vector<std::string> lines;
    std::istringstream in(read_text(dir_ / "calls"));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }

  fs::path dir_;
  bool had_old_ = false;
  std::string old_;
};

TEST_F(FakeNcu, AProfileRunsNcuOnThisConfigurationAndReadsItsPage) {
  const std::string ncu = install("echo '==PROF== Connected'\n" + page_command());
  Profiler profiler(ncu, "tilescope-as-profiled", "");
  const std::atomic<bool> stop{false};
  const RunResult row = gemm_row();
  const ProfileOutcome o = profiler.profile(row, 30, stop);
  EXPECT_EQ(o.failure, "");
  EXPECT_DOUBLE_EQ(o.figures.fma_pipe_pct, 50);
  ASSERT_EQ(calls().size(), 1u);
  EXPECT_TRUE(contains(calls()[0], "tilescope-as-profiled bench --variants " + row.variant_id + ":")) << calls()[0];
  EXPECT_TRUE(contains(calls()[0], "--nvtx-include " + std::string(kTimedLaunchesRange) + "/")) << calls()[0];
}

TEST_F(FakeNcu, AMetricNcuDoesNotKnowIsLeftOutOfTheRetryAndOfLaterProfiles) {
  const std::string dmma = metric(ProfilerMetricUse::DmmaTensorPipe);
  const std::string ncu = install("case \"$*\" in *" + dmma + "*) echo '==ERROR== Failed to find metric " + dmma +
                                  "'; exit 1;; esac\n" + page_command());
  Profiler profiler(ncu, "tilescope-as-profiled", "");
  const std::atomic<bool> stop{false};
  const ProfileOutcome first = profiler.profile(gemm_row(0), 30, stop);
  EXPECT_EQ(first.failure, "");
  EXPECT_DOUBLE_EQ(first.figures.fma_pipe_pct, 50);
  const ProfileOutcome second = profiler.profile(gemm_row(0), 30, stop);
  EXPECT_EQ(second.failure, "");
  const std::vector<std::string> runs = calls();
  ASSERT_EQ(runs.size(), 3u) << "a failed try, its retry, then one run";
  EXPECT_TRUE(contains(runs[0], dmma));
  EXPECT_FALSE(contains(runs[1], dmma));
  EXPECT_FALSE(contains(runs[2], dmma));
  EXPECT_TRUE(contains(runs[2], metric(ProfilerMetricUse::MmaTensorPipe))) << "the others are still asked for";
}

TEST_F(FakeNcu, ANcuPastItsTimeLimitIsStopped) {
  const std::string ncu = install("exec sleep 30");
  Profiler profiler(ncu, "tilescope-as-profiled", "");
  const std::atomic<bool> stop{false};
  const auto t0 = std::chrono::steady_clock::now();
  const ProfileOutcome o = profiler.profile(gemm_row(), 0.5, stop);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 10) << "stopped at its limit, not waited for";
  EXPECT_TRUE(contains(o.failure, "did not finish")) << o.failure;
  EXPECT_FALSE(o.repeats);
  const std::atomic<bool> interrupted{true};
  const ProfileOutcome stopped = profiler.profile(gemm_row(), 30, interrupted);
  EXPECT_TRUE(stopped.interrupted);
}

// The phase: each configuration once (its rounds share the figures), only CUDA runs that timed and
// passed, the timings untouched.
TEST_F(FakeNcu, ThePhaseProfilesEachConfigurationOnceAndKeepsTheTimings) {
  install(page_command());
  RunResult round1 = gemm_row(0), round2 = gemm_row(0);
  round2.round = 2;
  round2.median_ms = 2.75;
  RunResult failed = gemm_row(1);
  failed.passed = false;
  RunResult erred = gemm_row(1);
  erred.error = "does not fit";
  RunResult shaders = gemm_row(0);
  shaders.variant_id = testing::shader_variant_desc().id;
  std::vector<RunResult> rows = {round1, failed, erred, shaders, round2};
  const std::vector<RunResult> before = rows;
  std::ostringstream err;
  const std::atomic<bool> stop{false};
  EXPECT_TRUE(profile_rows(rows, "", stop, err));
  EXPECT_EQ(calls().size(), 1u) << err.str();
  EXPECT_TRUE(contains(err.str(), "[profile 1/1]")) << err.str();
  EXPECT_DOUBLE_EQ(rows[0].profile.fma_pipe_pct, 50);
  EXPECT_DOUBLE_EQ(rows[4].profile.fma_pipe_pct, 50) << "round 2 shares round 1's profile";
  for (std::size_t i : {1u, 2u, 3u}) EXPECT_FALSE(rows[i].profile.any()) << "row " << i;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].median_ms, before[i].median_ms);
    EXPECT_EQ(rows[i].error, before[i].error);
  }
}

// No permission to the counters: said once, with the command to try by hand, and no further ncu.
TEST_F(FakeNcu, AFailureThatWouldRepeatIsSaidOnceAndEndsTheProfiling) {
  install(
      "echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance "
      "Counters on the target device 0.'\nexit 1");
  std::vector<RunResult> rows = {gemm_row(0), gemm_row(1),
                                 timed_row(testing::prefetch_kernel(), 0, Problem::Ata, {0, 64, 64})};
  std::ostringstream err;
  const std::atomic<bool> stop{false};
  EXPECT_TRUE(profile_rows(rows, "", stop, err));
  EXPECT_EQ(calls().size(), 1u) << err.str();
  EXPECT_EQ(count_of(err.str(), "no permission to the GPU's performance counters"), 1u) << err.str();
  EXPECT_TRUE(contains(err.str(), "the other 2 configurations are not profiled")) << err.str();
  EXPECT_TRUE(contains(err.str(), "--nvtx-include")) << "the command, to try by hand:\n" << err.str();
  for (const RunResult& r : rows) EXPECT_FALSE(r.profile.any());
}

TEST_F(FakeNcu, WithoutNcuTheReasonIsSaidOnce) {
  setenv("TILESCOPE_NCU", (dir_ / "no-such-ncu").string().c_str(), 1);
  std::vector<RunResult> rows = {gemm_row(0), gemm_row(1)};
  std::ostringstream err;
  const std::atomic<bool> stop{false};
  EXPECT_TRUE(profile_rows(rows, "", stop, err));
  EXPECT_EQ(count_of(err.str(), "TILESCOPE_NCU"), 1u) << err.str();
  EXPECT_TRUE(contains(err.str(), "timings are complete")) << err.str();
  EXPECT_FALSE(contains(err.str(), "[profile")) << err.str();
  for (const RunResult& r : rows) EXPECT_FALSE(r.profile.any());
}

}  // namespace
}  // namespace tilescope
