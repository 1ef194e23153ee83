#include "app/runner/runner.h"

#include <algorithm>
#include <cstdio>
#include <exception>

#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/multi/split_forecast.h"

namespace tilescope {

namespace {

std::string describe(const RunRequest& r) {
  const Shape s = normalised(r.problem, r.shape);
  std::string config;
  if (const VariantDescriptor* v = find_variant(r.variant_id))
    if (r.config_index >= 0 && r.config_index < config_count(*v)) config = config_at(*v, r.config_index).name;
  return r.variant_id + " " + config + " " + to_string(r.problem) + " " + to_string(r.precision) + " " +
         std::to_string(s.M) + "x" + std::to_string(s.N) + "x" + std::to_string(s.K);
}

// Why a run counts as failed ("" when it did not): an error, or a result its check refused.
std::string failure_of(const RunResult& r) {
  if (!r.ok()) return r.error;
  if (r.verified && !r.passed) {
    char text[160];
    std::snprintf(text, sizeof text, "%s failed its check: relative error %.3g above the tolerance %.3g",
                  r.variant_id.c_str(), r.rel_error, r.tolerance);
    return r.unwritten > 0 ? text + std::string(" (") + std::to_string(r.unwritten) + " elements never written)"
                           : std::string(text);
  }
  return "";
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

Runner::Runner(TimingHistory& history, bool gpu)
    : history_(history),
      gpu_(gpu),
      measurer_(std::make_unique<Measurer>()),
      split_measurer_(std::make_unique<SplitMeasurer>()),
      worker_(&Runner::worker_main, this) {}

Runner::~Runner() {
  quit_ = true;
  cancel();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    wake_.notify_all();
  }
  worker_.join();
}

bool Runner::start(JobKind kind, std::vector<RunRequest> requests) {
  if (requests.empty()) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  if (has_job_ || progress_.busy) return false;
  // The cancel flags are sticky (a cancel landing between two runs must not be lost); a new
  // job starts with them clear.
  cancel_ = false;
  measurer_->cancel_flag() = false;
  split_measurer_->cancel_flag() = false;
  has_job_ = true;
  job_kind_ = kind;
  job_ = std::move(requests);
  last_error_.clear();
  if (kind == JobKind::Live) live_.clear();
  progress_ = RunnerProgress{};
  progress_.busy = true;
  progress_.kind = kind;
  progress_.total = kind == JobKind::Live ? 0 : static_cast<int>(job_.size());
  job_start_ = std::chrono::steady_clock::now();
  wake_.notify_all();
  return true;
}

void Runner::cancel() {
  cancel_ = true;
  measurer_->cancel_flag() = true;
  split_measurer_->cancel_flag() = true;
  std::lock_guard<std::mutex> lock(mutex_);
  if (progress_.busy) progress_.cancelling = true;
}

RunnerProgress Runner::progress() const {
  std::lock_guard<std::mutex> lock(mutex_);
  RunnerProgress p = progress_;
  if (p.busy) {
    p.elapsed_s = seconds_since(job_start_);
    // Time left from the share of the work (in flops) done so far: sweeps grow ~N^3, so
    // counting runs would promise far too little for the last, largest sizes.
    if (p.fraction > 0.02 && p.kind != JobKind::Live) p.eta_s = p.elapsed_s * (1.0 - p.fraction) / p.fraction;
  }
  return p;
}

std::string Runner::last_error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return last_error_;
}

std::string Runner::link_error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return link_error_;
}

std::vector<LiveSample> Runner::live_trace() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return {live_.begin(), live_.end()};
}

RunResult Runner::run_one(const RunRequest& r, bool first) {
  // A variant that needs no CUDA (the texture shaders: OpenGL only) runs with or without a GPU.
  const VariantDescriptor* v = find_variant(r.variant_id);
  if (gpu_ && !r.split.empty()) return split_measurer_->run(r);
  if (gpu_ || (v && !needs_cuda(*v))) return measurer_->run(r);
  const Shape s = normalised(r.problem, r.shape);
  if (std::max({s.M, s.N, s.K}) > kCpuMaxSize) {
    RunResult res = cpu_reference_row(r, first);
    res.error = "no usable GPU: the CPU reference runs sizes up to " + std::to_string(kCpuMaxSize) + " only";
    return res;
  }
  return measure_cpu_reference(r, first, cancel_);
}

// A split run on two GPUs or more gets the model's figures, as bench's rows do: the link between its
// GPUs (NCCL's broadcasts and reductions on the same GPUs, about a second, here on the worker and
// once per count) and its predicted time from the history's newest run of its kernel alone on one
// GPU, which a Run with a split runs first. Without that run the row carries the link alone (the
// GPUs tab predicts from it once such a run is in the history).
void Runner::add_model(RunResult& row) {
  if (!gpu_ || !row.ok() || row.split.empty() || row.gpus < 2 || cancel_.load()) return;
  auto link = links_.find(row.gpus);
  if (link == links_.end()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      progress_.current = "the link between " + std::to_string(row.gpus) + " GPUs, for the model";
    }
    LinkBench bench;
    std::string why;
    if (!split_measurer_->measure_links(row.gpus, kLinkRepetitions, &bench, &why) || !bench.figures.known()) {
      std::lock_guard<std::mutex> lock(mutex_);
      link_error_ = "the link between " + std::to_string(row.gpus) +
                    " GPUs could not be measured: " + (why.empty() ? "it gave no figures" : why);
      return;
    }
    link = links_.emplace(row.gpus, bench.figures).first;
    std::lock_guard<std::mutex> lock(mutex_);
    link_error_.clear();
  }
  std::vector<RunResult> pair;
  {
    const auto rows = history_.rows();
    for (auto it = rows->rbegin(); it != rows->rend() && pair.empty(); ++it)
      if (it->ok() && it->split.empty() && same_product(*it, row)) pair.push_back(*it);
  }
  pair.push_back(row);
  predict_splits(pair, link->second);  // the row's predicted_ms, where its one-GPU run is there
  row.predicted_ms = pair.back().predicted_ms;
  set_link(row, link->second);
}

bool Runner::start_roofs() {
  if (!gpu_) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  if (roofs_requested_ || roofs_running_) return false;
  roofs_requested_ = true;
  wake_.notify_all();
  return true;
}

bool Runner::roofs_pending() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return roofs_requested_ || roofs_running_;
}

std::uint64_t Runner::roofs_version() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return roofs_version_;
}

RoofTable Runner::roofs() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return roofs_;
}

std::string Runner::roofs_error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return roofs_error_;
}

// On the worker: the thread that owns the CUDA device for the app.
void Runner::measure_roofs_now() {
  RoofTable table;
  std::string error;
  try {
    table = measure_roofs(probe_device(), &quit_);
  } catch (const std::exception& e) {
    error = e.what();
    table = RoofTable{};
  }
  std::lock_guard<std::mutex> lock(mutex_);
  roofs_running_ = false;
  roofs_ = table;
  roofs_error_ = error;
  ++roofs_version_;
}

void Runner::worker_main() {
  for (;;) {
    JobKind kind;
    std::vector<RunRequest> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return has_job_ || roofs_requested_ || quit_.load(); });
      if (quit_) return;
      if (roofs_requested_) {
        roofs_requested_ = false;
        roofs_running_ = true;
        lock.unlock();
        measure_roofs_now();
        continue;
      }
      kind = job_kind_;
      job = job_;
      has_job_ = false;
    }

    double total_flops = 0, done_flops = 0;
    for (const RunRequest& r : job) total_flops += flop_count(r.problem, r.shape);
    std::string error;
    std::vector<RunResult> pending;  // Live: only the last result goes to the history

    for (std::size_t i = 0; !cancel_.load(); ++i) {
      if (kind != JobKind::Live && i >= job.size()) break;
      RunRequest r = kind == JobKind::Live ? job.front() : job[i];
      if (kind == JobKind::Live && i > 0) {
        // Live re-runs the same configuration: verified once, then only timed, few repetitions.
        r.verify = false;
        r.warmup = 0;
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        progress_.current = describe(r);
      }
      RunResult res = run_one(r, cpu_first_);
      if (!gpu_) cpu_first_ = false;
      if (!res.ok() && res.error == "cancelled") break;
      add_model(res);
      const std::string failure = failure_of(res);
      if (!failure.empty()) error = failure;
      done_flops += flop_count(r.problem, r.shape);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        ++progress_.done;
        if (!failure.empty()) ++progress_.failed;
        progress_.fraction = total_flops > 0 ? std::min(1.0, done_flops / total_flops) : 0;
        if (kind == JobKind::Live) {
          progress_.fraction = 0;
          if (res.ok()) {
            live_.push_back({seconds_since(job_start_), res.median_ms, res.gflops});
            while (live_.size() > kLiveTraceLength) live_.pop_front();
          }
        }
        if (!error.empty()) last_error_ = error;
      }
      if (kind == JobKind::Live) {
        pending.clear();
        pending.push_back(std::move(res));
        if (!error.empty()) break;  // a failing configuration would fail forever
      } else {
        history_.append(std::move(res));
      }
    }
    if (!pending.empty()) history_.append_all(std::move(pending));

    std::lock_guard<std::mutex> lock(mutex_);
    progress_.busy = false;
    progress_.cancelled = cancel_.load();
    progress_.cancelling = false;
    progress_.current.clear();
  }
}

}  // namespace tilescope
