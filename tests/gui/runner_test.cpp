// The runner without a GPU (as in CI): the CPU reference stands in for the kernels, which is
// enough to test the threading, progress, cancel and the history.
#include "app/runner/runner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace tilescope;

namespace {

RunRequest cpu_request(int n, int reps) {
  RunRequest r;
  r.variant_id = kCpuReferenceId;
  r.shape = {n, n, n};
  r.repetitions = reps;
  r.warmup = 0;
  return r;
}

bool wait_idle(const Runner& runner, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (runner.progress().busy) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

}  // namespace

TEST(Runner, SweepRunsOffTheCallingThreadAndFillsTheHistory) {
  TimingHistory history;
  Runner runner(history, false);
  std::vector<RunRequest> job = {cpu_request(32, 3), cpu_request(64, 3), cpu_request(128, 3)};
  ASSERT_TRUE(runner.start(JobKind::Sweep, job));
  ASSERT_TRUE(wait_idle(runner, 30));
  const auto rows = history.snapshot();
  ASSERT_EQ(rows.size(), 3u);
  for (const RunResult& r : rows) {
    EXPECT_TRUE(r.ok()) << r.error;
    EXPECT_GT(r.median_ms, 0);
    EXPECT_GT(r.gflops, 0);
  }
  EXPECT_EQ(rows[2].shape.N, 128);
  EXPECT_EQ(runner.progress().done, 3);
  EXPECT_FALSE(runner.progress().busy);
}

TEST(Runner, OneJobAtATimeAndCancelTakesEffectWithinASecond) {
  TimingHistory history;
  Runner runner(history, false);
  // Minutes of work: 512^3 in double, many repetitions, several sizes.
  std::vector<RunRequest> job;
  for (int i = 0; i < 20; ++i) job.push_back(cpu_request(512, 200));
  ASSERT_TRUE(runner.start(JobKind::Sweep, job));
  // One job at a time: a second start while this one runs (minutes of work) is refused. (Asked
  // of a job of milliseconds, the answer depended on whether it had already finished.)
  EXPECT_FALSE(runner.start(JobKind::Run, {cpu_request(16, 1)})) << "one job at a time";
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_TRUE(runner.progress().busy);
  const auto t0 = std::chrono::steady_clock::now();
  runner.cancel();
  ASSERT_TRUE(wait_idle(runner, 5));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 1.0);
  EXPECT_LT(history.size(), 20u);
  // And the runner takes new work after a cancel.
  ASSERT_TRUE(runner.start(JobKind::Run, {cpu_request(16, 1)}));
  ASSERT_TRUE(wait_idle(runner, 10));
  EXPECT_TRUE(history.snapshot().back().ok());
}

TEST(Runner, ProgressEstimatesTheTimeLeftFromTheWorkDone) {
  TimingHistory history;
  Runner runner(history, false);
  std::vector<RunRequest> job = {cpu_request(64, 2), cpu_request(128, 2), cpu_request(256, 2), cpu_request(384, 2)};
  ASSERT_TRUE(runner.start(JobKind::Sweep, job));
  bool saw_eta = false;
  while (runner.progress().busy) {
    const RunnerProgress p = runner.progress();
    EXPECT_GE(p.fraction, 0.0);
    EXPECT_LE(p.fraction, 1.0);
    EXPECT_EQ(p.total, 4);
    if (p.eta_s >= 0) saw_eta = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_TRUE(saw_eta);
}

TEST(Runner, LiveKeepsATraceAndStopsOnCancel) {
  TimingHistory history;
  Runner runner(history, false);
  ASSERT_TRUE(runner.start(JobKind::Live, {cpu_request(48, 2)}));
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (runner.live_trace().size() < 5 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_GE(runner.live_trace().size(), 5u);
  runner.cancel();
  ASSERT_TRUE(wait_idle(runner, 5));
  EXPECT_EQ(history.size(), 1u) << "Live adds its last result only";
}

TEST(Runner, SizesTooLargeForTheCpuSayWhy) {
  TimingHistory history;
  Runner runner(history, false);
  ASSERT_TRUE(runner.start(JobKind::Run, {cpu_request(4096, 1)}));
  ASSERT_TRUE(wait_idle(runner, 10));
  ASSERT_EQ(history.size(), 1u);
  EXPECT_NE(history.snapshot()[0].error.find("up to 512"), std::string::npos);
  EXPECT_NE(runner.last_error().find("no usable GPU"), std::string::npos);
}

TEST(Runner, CountsTheFailedRunsOfAJobAndSaysWhetherItWasCancelled) {
  TimingHistory history;
  Runner runner(history, false);
  ASSERT_TRUE(runner.start(JobKind::Sweep, {cpu_request(16, 1), cpu_request(4096, 1), cpu_request(32, 1)}));
  ASSERT_TRUE(wait_idle(runner, 30));
  RunnerProgress p = runner.progress();
  EXPECT_EQ(p.done, 3);
  EXPECT_EQ(p.failed, 1) << "the size above the CPU reference's limit";
  EXPECT_FALSE(p.cancelled);

  std::vector<RunRequest> long_job(20, cpu_request(512, 200));
  ASSERT_TRUE(runner.start(JobKind::Sweep, long_job));
  EXPECT_EQ(runner.progress().failed, 0) << "a new job counts from zero";
  runner.cancel();
  ASSERT_TRUE(wait_idle(runner, 5));
  p = runner.progress();
  EXPECT_TRUE(p.cancelled);
  EXPECT_EQ(p.failed, 0) << "a cancelled run is not a failed one";
}
