#include "ui/csv_loader.h"

#include <utility>

namespace tilescope {

CsvLoader::~CsvLoader() {
  cancel();
  join();
}

void CsvLoader::join() {
  if (worker_.joinable()) worker_.join();
}

bool CsvLoader::start(const std::string& path, std::size_t max_rows, TimingHistory* into) {
  if (busy_.load()) return false;
  join();  // the previous read's thread has ended (its result was taken)
  path_ = path;
  busy_ = true;
  finished_ = false;
  cancel_ = false;
  bytes_read_ = 0;
  total_bytes_ = 0;
  worker_ = std::thread([this, path, max_rows, into] {
    Result r;
    r.path = path;
    ResultsCsvReadOptions options;
    options.max_rows = max_rows;
    options.progress = [this](std::uint64_t done, std::uint64_t total) {
      bytes_read_ = done;
      total_bytes_ = total;
      return !cancel_.load();
    };
    r.outcome = read_results_csv_file(path, &r.rows, &r.error, options);
    r.rows_read = r.rows.size();
    // A cancel that comes after the last block still leaves the history as it was.
    if (r.outcome == ResultsCsvRead::kLoaded && cancel_.load()) {
      r.outcome = ResultsCsvRead::kCancelled;
      r.error = "loading " + path + " was cancelled";
      r.rows.clear();
    }
    if (r.outcome == ResultsCsvRead::kLoaded && into) {
      into->append_all(std::move(r.rows));
      r.rows.clear();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    result_ = std::move(r);
    finished_ = true;
  });
  return true;
}

bool CsvLoader::take_result(Result* out) {
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

}  // namespace tilescope
