// File > Load CSV off the UI thread: the file is read on a thread of its own (a long history
// takes seconds), the window keeps drawing a progress bar (bytes read of the file's size) with
// Cancel, and the rows are handed to the UI thread when the read ends.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "app/export/results_csv.h"
#include "app/platform/background_result.h"
#include "app/runner/timing_history.h"
#include "kernels/measure/measure.h"

namespace tilescope {

class CsvLoader {
 public:
  struct Result {
    std::string path;
    ResultsCsvRead outcome = ResultsCsvRead::kFailed;
    std::vector<RunResult> rows;  // kLoaded, when no history was given to start()
    std::size_t rows_read = 0;    // kLoaded: how many rows the file had
    std::string error;            // otherwise: why, naming the file
  };

  CsvLoader() = default;
  CsvLoader(const CsvLoader&) = delete;
  CsvLoader& operator=(const CsvLoader&) = delete;
  ~CsvLoader();  // cancels a read under way and waits for its thread

  // Starts reading `path` (at most `max_rows` rows, 0 = no limit). With `into`, the reading
  // thread also appends the rows to that history (which must outlive the loader), so that
  // the UI thread does not spend a frame on a million rows; else they come in the result.
  // False if a read is under way or its result has not been taken yet.
  bool start(const std::string& path, std::size_t max_rows, TimingHistory* into = nullptr);
  // From start() until take_result() hands the result over.
  bool busy() const { return job_.busy(); }
  const std::string& path() const { return path_; }
  std::uint64_t bytes_read() const { return bytes_read_.load(); }
  std::uint64_t total_bytes() const { return total_bytes_.load(); }  // 0 while unknown
  // Asks the reading thread to stop at its next block (about a MiB); the result says kCancelled.
  void cancel() { cancel_.store(true); }
  // True once, when the read has ended: *out gets its outcome and rows.
  bool take_result(Result* out) { return job_.take_result(out); }

 private:
  std::string path_;
  std::atomic<bool> cancel_{false};
  std::atomic<std::uint64_t> bytes_read_{0}, total_bytes_{0};
  BackgroundResult<Result> job_;  // last: its thread reads the members above until joined
};

}  // namespace tilescope
