#include "runner/timing_history.h"

namespace tilescope {

void TimingHistory::append(RunResult row) {
  std::vector<RunResult> one;
  one.push_back(std::move(row));
  append_all(std::move(one));
}

void TimingHistory::append_all(std::vector<RunResult> rows) {
  if (rows.empty()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  for (RunResult& r : rows) rows_.push_back(std::move(r));
  // % of cuBLAS is relative to the best cuBLAS row of the same problem, precision and shape
  // anywhere in the history, so a baseline measured after a kernel still counts.
  fill_pct_of_cublas(rows_);
  ++version_;
}

void TimingHistory::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  rows_.clear();
  ++version_;
}

std::vector<RunResult> TimingHistory::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rows_;
}

std::size_t TimingHistory::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rows_.size();
}

}  // namespace tilescope
