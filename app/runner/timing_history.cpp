#include "runner/timing_history.h"

#include <fstream>
#include <sstream>

#include "export/atomic_file.h"
#include "export/results_csv.h"

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

bool TimingHistory::save_csv(const std::string& path, std::string* error) const {
  return write_file_atomically(path, results_to_csv(snapshot()), error);
}

bool TimingHistory::load_csv(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<RunResult> rows;
  std::string why;
  if (!results_from_csv(text.str(), &rows, &why)) {
    *error = path + ": " + why;
    return false;
  }
  append_all(std::move(rows));
  return true;
}

}  // namespace tilescope
