#include "app/ui/timing/csv_loader.h"

#include <utility>

namespace tilescope {

CsvLoader::~CsvLoader() {
  cancel();
  job_.join();
}

bool CsvLoader::start(const std::string& path, std::size_t max_rows, TimingHistory* into) {
  if (job_.busy()) return false;
  path_ = path;
  cancel_ = false;
  bytes_read_ = 0;
  total_bytes_ = 0;
  return job_.start([this, path, max_rows, into] {
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
    return r;
  });
}

}  // namespace tilescope
