// One piece of work on a thread of its own, whose result the UI thread takes in a later frame
// (a desktop file dialog waited for, a CSV file read). The hand-over is the same for every such
// job: busy from start() until take_result() has handed the result over, the result written under
// a lock before `finished` says it is there, the thread joined when its result is taken.
#pragma once

#include <atomic>
#include <mutex>
#include <thread>
#include <utility>

namespace tilescope {

template <typename Result>
class BackgroundResult {
 public:
  BackgroundResult() = default;
  BackgroundResult(const BackgroundResult&) = delete;
  BackgroundResult& operator=(const BackgroundResult&) = delete;
  ~BackgroundResult() { join(); }

  // From start() until take_result() has handed the result over.
  bool busy() const { return busy_.load(); }

  // Runs `work` (returning a Result) on a thread of its own; false, doing nothing, while busy.
  template <typename Work>
  bool start(Work work) {
    if (busy_.load()) return false;
    join();  // the previous job's thread has ended (its result was taken)
    busy_ = true;
    finished_ = false;
    thread_ = std::thread([this, work = std::move(work)]() mutable {
      Result r = work();
      std::lock_guard<std::mutex> lock(mutex_);
      result_ = std::move(r);
      finished_ = true;
    });
    return true;
  }

  // True once, when the work has ended: *out gets its result.
  bool take_result(Result* out) {
    if (!finished_.load()) return false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      *out = std::move(result_);
      result_ = Result();
    }
    join();
    finished_ = false;
    busy_ = false;
    return true;
  }

  // Waits for the thread (an owner that asked its work to stop, before it goes).
  void join() {
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::thread thread_;
  std::atomic<bool> busy_{false}, finished_{false};
  std::mutex mutex_;
  Result result_;  // written by the thread before finished_, read after
};

}  // namespace tilescope
