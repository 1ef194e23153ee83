// Every result the window has measured (or loaded from CSV), in one list that the plot, the
// results table and the exports all read. Written by the runner's worker thread (and the CSV
// loader), read by the UI thread: a mutex around the rows, and a version number so the UI
// re-derives its plot series only when something changed.
//
// Histories can be long (a CSV of a million rows), so nothing here is worse than linear in the
// rows added: readers share the rows through rows() instead of copying them every frame, an
// append changes them in place unless a reader holds them at that moment (then it copies once),
// and "% of cuBLAS" is kept up to date from a running best per problem, precision and shape.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/measure/measure.h"

namespace tilescope {

class TimingHistory {
 public:
  // The most rows a history takes from files (File > Load CSV, `tilescope plot`): at about
  // 1 KB a row in memory, 2 million rows are 2 GB. Measured rows are never refused.
  static constexpr std::size_t kMaxLoadedRows = 2000000;

  TimingHistory();
  // Adds rows and refreshes "% of cuBLAS" of the rows they share a problem/precision/shape with.
  void append(RunResult row);
  void append_all(std::vector<RunResult> rows);
  void clear();
  // The rows as they are now, shared: O(1), for readers that draw every frame. Do not keep the
  // pointer across frames (an append while it is held copies the rows).
  std::shared_ptr<const std::vector<RunResult>> rows() const;
  // A copy, for callers that keep or change it.
  std::vector<RunResult> snapshot() const;
  std::size_t size() const;
  std::uint64_t version() const { return version_.load(); }

 private:
  using ShapeKey = std::tuple<Problem, Precision, OutputType, std::int64_t, std::int64_t, std::int64_t>;
  static ShapeKey key_of(const RunResult& r);
  static void set_pct_of_cublas(const std::map<ShapeKey, double>& best, RunResult& r);

  mutable std::mutex mutex_;
  std::shared_ptr<std::vector<RunResult>> rows_;
  std::map<ShapeKey, double> best_baseline_;  // the best cuBLAS GFLOP/s per problem/precision/C type/shape
  std::atomic<std::uint64_t> version_{0};
};

}  // namespace tilescope
