// A job the window hands to a worker process (this program started again with other arguments):
// a kernel that faults, or never ends, takes only the worker down, never the window and its CUDA
// context. The window polls the job each frame: busy() stops the worker once it has run past the
// job's time limit and, when the worker has ended (by itself, cancelled or stopped), has the job
// read what it left (finish) once; the outcome is then taken once. KernelEditJob (an edit compiled
// or run) and MemoryRecordJob (one warp's addresses recorded) are such jobs.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "app/platform/child_process.h"

namespace tilescope {

template <typename Outcome>
class WorkerJob {
 public:
  WorkerJob() = default;
  virtual ~WorkerJob() { child_.kill(); }
  WorkerJob(const WorkerJob&) = delete;
  WorkerJob& operator=(const WorkerJob&) = delete;

  // Whether a worker runs (polls it; stops it once past the time limit).
  bool busy() {
    if (!started_) return false;
    if (child_.running()) {
      if (child_.seconds() > time_limit_s_) {
        timed_out_ = true;
        child_.kill();
      }
      return true;
    }
    started_ = false;
    outcome_ = finish();
    done_ = true;
    return false;
  }
  // Started, and its outcome not taken yet: a worker that ended after the frame's take_outcome
  // (another poll saw it end) still counts, so whoever waits for it reads the new outcome.
  bool working() const { return started_ || done_; }
  void cancel() {
    if (!started_) return;
    cancelled_ = true;
    child_.kill();
  }
  double seconds() const { return child_.seconds(); }
  // True once after the worker ended: *out says what happened.
  bool take_outcome(Outcome* out) {
    if (started_) busy();
    if (!done_) return false;
    done_ = false;
    *out = std::move(outcome_);
    return true;
  }

 protected:
  // Starts the worker `argv`, its output into `output_path`; false with *error when it cannot start.
  bool launch(const std::vector<std::string>& argv, const std::string& output_path, double time_limit_s,
              std::string* error) {
    if (!child_.start(argv, output_path, error)) return false;
    time_limit_s_ = time_limit_s;
    started_ = true;
    cancelled_ = timed_out_ = done_ = false;
    return true;
  }
  // What the ended worker leaves, read once it has ended; cancelled(), timed_out() and ending()
  // say how it ended.
  virtual Outcome finish() = 0;
  bool cancelled() const { return cancelled_; }
  bool timed_out() const { return timed_out_; }
  const ChildProcess::Ending& ending() const { return child_.ending(); }

  // A file the worker wrote, whole ("" when there is none).
  static std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // The last line of the worker's output that starts with `prefix` ("" when none does).
  static std::string last_line_starting(const std::string& output, const std::string& prefix) {
    std::istringstream in(output);
    std::string line, last;
    while (std::getline(in, line))
      if (line.rfind(prefix, 0) == 0) last = line;
    return last;
  }

 private:
  ChildProcess child_;
  bool started_ = false, cancelled_ = false, timed_out_ = false, done_ = false;
  double time_limit_s_ = 0;
  Outcome outcome_;
};

}  // namespace tilescope
