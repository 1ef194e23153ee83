// Runs GEMM measurements off the UI thread. One worker thread owns the Measurer — and with it
// the CUDA stream and the cuBLAS handle — so the UI never blocks on the GPU. The UI submits a
// job (one run, a sweep, or live re-runs), polls progress() every frame, and may cancel(): the
// Measurer stops between launches, so a cancel takes effect within one kernel's time.
// Results land in the TimingHistory the UI reads.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/runner/timing_history.h"
#include "kernels/measure/measure.h"
#include "kernels/multi/split_measure.h"
#include "kernels/roofs/roofs.h"

namespace tilescope {

enum class JobKind { Run, Sweep, Live };

struct RunnerProgress {
  bool busy = false;
  JobKind kind = JobKind::Run;
  int done = 0, total = 0;  // runs (Live: iterations so far, total 0)
  int failed = 0;           // runs that erred or failed their check (last_error() says the last one's why)
  bool cancelled = false;   // the job ended by cancel() (kept once it is over, like done and failed)
  std::string current;      // "regtile_prefetch 128x128x32_8x8 gemm f32 4096x4096x4096"
  double elapsed_s = 0;
  double eta_s = -1;    // -1: no estimate yet
  double fraction = 0;  // of the work (counted in flops, not runs)
  bool cancelling = false;
};

// One point of the Live trace: the median of a few runs, at a time since Live started.
struct LiveSample {
  double t_s = 0;
  double ms = 0;
  double gflops = 0;
};

class Runner {
 public:
  // `gpu` false: runs time the CPU reference instead (sizes up to kCpuMaxSize).
  Runner(TimingHistory& history, bool gpu);
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  // Starts a job; false (and nothing changes) while another runs. Live repeats requests[0]
  // until cancel() and adds its last result to the history when it stops.
  bool start(JobKind kind, std::vector<RunRequest> requests);
  void cancel();
  RunnerProgress progress() const;
  // Why the last failed run failed ("refused: ...", "does not fit ...", "failed its check: ..."),
  // cleared by start().
  std::string last_error() const;
  std::vector<LiveSample> live_trace() const;
  // Why the link between the GPUs of the last split run could not be measured for the model ("" when
  // it was, or no split ran on two GPUs or more).
  std::string link_error() const;
  bool gpu() const { return gpu_; }

  // Measures the device's roofs (kernels/roofs/roofs.h, about a second) on the worker, before
  // the next job: a job started meanwhile waits for it instead of being refused. False without
  // a GPU or while a measurement is pending. The caller (the window at start-up, when its cache
  // has none) polls roofs_version() and reads the table with roofs().
  bool start_roofs();
  bool roofs_pending() const;
  // Bumped when a measurement finished (or failed: then roofs() is empty and roofs_error() says why).
  std::uint64_t roofs_version() const;
  RoofTable roofs() const;
  std::string roofs_error() const;

  static constexpr long long kCpuMaxSize = 512;
  static constexpr std::size_t kLiveTraceLength = 600;

 private:
  void worker_main();
  void measure_roofs_now();
  RunResult run_one(const RunRequest& r, bool first);
  void add_model(RunResult& row);

  TimingHistory& history_;
  const bool gpu_;
  std::unique_ptr<Measurer> measurer_;  // created and used on the worker thread only
  // Runs split across GPUs (kernels/multi/split_measure.h): no CUDA call until the first such run.
  std::unique_ptr<SplitMeasurer> split_measurer_;
  // The link between GPUs 0 .. N-1 by N, measured after the first split run on N GPUs (worker only).
  std::map<int, LinkFigures> links_;
  std::atomic<bool> cancel_{false};
  std::atomic<bool> quit_{false};

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool has_job_ = false;
  JobKind job_kind_ = JobKind::Run;
  std::vector<RunRequest> job_;
  RunnerProgress progress_;
  std::string last_error_;
  std::string link_error_;
  std::deque<LiveSample> live_;
  bool roofs_requested_ = false, roofs_running_ = false;
  std::uint64_t roofs_version_ = 0;
  RoofTable roofs_;
  std::string roofs_error_;
  std::chrono::steady_clock::time_point job_start_;
  bool cpu_first_ = true;

  std::thread worker_;  // last: starts after everything above exists
};

}  // namespace tilescope
