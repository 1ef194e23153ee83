// Every result the window has measured (or loaded from CSV), in one list that the plot, the
// results table and the exports all read. Written by the runner's worker thread, read by the UI
// thread: a mutex around the rows, and a version number so the UI re-derives its plot series
// only when something changed.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "measure.h"

namespace tilescope {

class TimingHistory {
 public:
  // Adds a row and refreshes "% of cuBLAS" of the rows it shares a problem/precision/shape with.
  void append(RunResult row);
  void append_all(std::vector<RunResult> rows);
  void clear();
  std::vector<RunResult> snapshot() const;
  std::size_t size() const;
  std::uint64_t version() const { return version_.load(); }

 private:
  mutable std::mutex mutex_;
  std::vector<RunResult> rows_;
  std::atomic<std::uint64_t> version_{0};
};

}  // namespace tilescope
