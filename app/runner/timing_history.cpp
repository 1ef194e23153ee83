#include "app/runner/timing_history.h"

#include <algorithm>

namespace tilescope {

TimingHistory::TimingHistory() : rows_(std::make_shared<std::vector<RunResult>>()) {}

TimingHistory::ShapeKey TimingHistory::key_of(const RunResult& r) {
  return std::make_tuple(r.problem, r.precision, r.c_type, r.shape.M, r.shape.N, r.shape.K);
}

// fill_pct_of_cublas's rule, from a running best.
void TimingHistory::set_pct_of_cublas(const std::map<ShapeKey, double>& best, RunResult& r) {
  if (!r.ok()) return;
  const auto it = best.find(key_of(r));
  r.pct_of_cublas = it != best.end() && it->second > 0 ? 100.0 * r.gflops / it->second : -1;
}

void TimingHistory::append(RunResult row) {
  std::vector<RunResult> one;
  one.push_back(std::move(row));
  append_all(std::move(one));
}

void TimingHistory::append_all(std::vector<RunResult> rows) {
  if (rows.empty()) return;
  // % of cuBLAS is relative to the best cuBLAS row of the same problem, precision and shape
  // anywhere in the history, so a baseline measured after a kernel still counts: only a new
  // best makes the older rows change. The new rows' share is worked out before the lock is
  // taken (a loaded file's million rows must not stall the UI's reads).
  std::map<ShapeKey, double> best;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    best = best_baseline_;
  }
  const std::map<ShapeKey, double> best_before = best;
  for (const RunResult& b : rows) {
    if (!b.ok() || !is_baseline_row(b)) continue;
    double& top = best[key_of(b)];
    top = std::max(top, b.gflops);
  }
  for (RunResult& r : rows) set_pct_of_cublas(best, r);

  std::lock_guard<std::mutex> lock(mutex_);
  // Another append in between (the runner beside the CSV loader) changed the bests: merge, and
  // work every row out again under the lock (rare).
  const bool raced = best_baseline_ != best_before;
  bool older_rows_change = false;
  for (const auto& [key, gflops] : best) {
    double& top = best_baseline_[key];
    if (gflops > top) {
      top = gflops;
      older_rows_change = true;
    }
  }
  // A reader holds the rows (the UI mid-frame): it keeps its version, we change a copy.
  if (rows_.use_count() > 1) rows_ = std::make_shared<std::vector<RunResult>>(*rows_);
  std::vector<RunResult>& all = *rows_;
  const std::size_t old_size = all.size();
  if (all.empty()) {
    all = std::move(rows);  // a loaded file moves in whole, without a copy
  } else {
    for (RunResult& r : rows) all.push_back(std::move(r));
  }
  if (raced) {
    for (RunResult& r : all) set_pct_of_cublas(best_baseline_, r);
  } else if (older_rows_change) {
    for (std::size_t i = 0; i < old_size; ++i) set_pct_of_cublas(best_baseline_, all[i]);
  }
  ++version_;
}

void TimingHistory::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  rows_ = std::make_shared<std::vector<RunResult>>();
  best_baseline_.clear();
  ++version_;
}

std::shared_ptr<const std::vector<RunResult>> TimingHistory::rows() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rows_;
}

std::vector<RunResult> TimingHistory::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return *rows_;
}

std::size_t TimingHistory::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rows_->size();
}

}  // namespace tilescope
