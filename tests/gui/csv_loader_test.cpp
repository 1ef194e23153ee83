// File > Load CSV off the UI thread: the loader reads on its own thread with progress and
// cancel, and the App takes the rows in a later frame while it keeps drawing.
#include "app/ui/timing/csv_loader.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "app/export/results_csv.h"
#include "app/ui/shell/app.h"
#include "tests/gui/gui_test_support.h"
#include "tests/support/printable_check.h"
#include "tests/support/run_program.h"

using namespace tilescope;
using namespace tilescope::testing;

namespace {

// A real sweep's rows repeated `times` times, written to a temporary file (removed after).
class RepeatedSweep {
 public:
  explicit RepeatedSweep(int times) : path_(temp_path("repeated-sweep.csv")) {
    std::vector<RunResult> sweep, rows;
    std::string error;
    EXPECT_TRUE(read_results_csv_file(kH100Csv, &sweep, &error)) << error;
    for (int i = 0; i < times; ++i) rows.insert(rows.end(), sweep.begin(), sweep.end());
    rows_ = rows.size();
    EXPECT_TRUE(write_results_csv_file(path_, rows, &error)) << error;
  }
  ~RepeatedSweep() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }
  std::size_t rows() const { return rows_; }

 private:
  std::string path_;
  std::size_t rows_ = 0;
};

bool wait_for(CsvLoader& loader, CsvLoader::Result* r) {
  for (int i = 0; i < 6000; ++i) {
    if (loader.take_result(r)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

}  // namespace

TEST(CsvLoader, ReadsOnItsThreadAndHandsTheRowsOver) {
  RepeatedSweep file(100);
  CsvLoader loader;
  ASSERT_TRUE(loader.start(file.path(), 0));
  EXPECT_TRUE(loader.busy());
  EXPECT_FALSE(loader.start(file.path(), 0)) << "one read at a time";
  CsvLoader::Result r;
  ASSERT_TRUE(wait_for(loader, &r));
  EXPECT_FALSE(loader.busy());
  EXPECT_EQ(r.outcome, ResultsCsvRead::kLoaded) << r.error;
  EXPECT_EQ(r.rows.size(), file.rows());
  EXPECT_GT(loader.total_bytes(), 0u);
  EXPECT_EQ(loader.bytes_read(), loader.total_bytes()) << "progress reached the end";
  EXPECT_FALSE(loader.take_result(&r)) << "the result is handed over once";
}

TEST(CsvLoader, CancelStopsTheReadAndReturnsNoRows) {
  RepeatedSweep file(100);
  CsvLoader loader;
  ASSERT_TRUE(loader.start(file.path(), 0));
  loader.cancel();
  CsvLoader::Result r;
  ASSERT_TRUE(wait_for(loader, &r));
  EXPECT_EQ(r.outcome, ResultsCsvRead::kCancelled);
  EXPECT_TRUE(r.rows.empty());
  // The loader can be used again after a cancel.
  ASSERT_TRUE(loader.start(file.path(), 0));
  ASSERT_TRUE(wait_for(loader, &r));
  EXPECT_EQ(r.outcome, ResultsCsvRead::kLoaded) << r.error;
}

TEST(CsvLoader, TooManyRowsAreRefusedWithTheCountAndTheLimit) {
  RepeatedSweep file(10);
  CsvLoader loader;
  ASSERT_TRUE(loader.start(file.path(), 100));
  CsvLoader::Result r;
  ASSERT_TRUE(wait_for(loader, &r));
  EXPECT_EQ(r.outcome, ResultsCsvRead::kTooManyRows);
  EXPECT_NE(r.error.find(std::to_string(file.rows()) + " rows"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("100"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find(file.path()), std::string::npos) << r.error;
}

TEST(CsvLoader, TheAppKeepsDrawingWhileItLoadsAndCanCancel) {
  RepeatedSweep file(200);
  auto host = make_host(1280, 720);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  ASSERT_TRUE(app.start_load_csv(file.path())) << app.status();
  EXPECT_TRUE(app.loading_csv());
  frames_while_loading(*host, app);
  ASSERT_FALSE(app.loading_csv());
  EXPECT_FALSE(app.status_is_error()) << app.status();
  EXPECT_EQ(app.history().size(), file.rows()) << app.status();
  EXPECT_NE(app.status().find("loaded"), std::string::npos) << app.status();

  // Cancelled: the history is unchanged.
  app.history().clear();
  ASSERT_TRUE(app.start_load_csv(file.path()));
  app.cancel_load_csv();
  frames_while_loading(*host, app);
  EXPECT_EQ(app.history().size(), 0u);
  EXPECT_NE(app.status().find("cancelled"), std::string::npos) << app.status();
}

// A file that arrives slowly (a named pipe the test writes into): the loader waits inside its
// read while the window goes on drawing frames, with the progress bar in the status bar.
TEST(CsvLoader, TheWindowDrawsOnWhileTheFileIsSlowToArrive) {
  const std::string fifo = temp_path("loader-fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto host = make_host(1280, 720);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  ASSERT_TRUE(app.start_load_csv(fifo));
  const int fd = open(fifo.c_str(), O_WRONLY);  // waits for the loader to open its end
  ASSERT_GE(fd, 0);
  std::vector<RunResult> sweep;
  std::string error;
  ASSERT_TRUE(read_results_csv_file(kH100Csv, &sweep, &error)) << error;
  const std::string text = results_to_csv(sweep);
  ASSERT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  // The loader now waits for the rest of its first block; the UI must not.
  frames(*host, app, 5);
  EXPECT_TRUE(app.loading_csv());
  EXPECT_FALSE(app.status_is_error()) << app.status();
  app.cancel_load_csv();
  close(fd);  // the end of the file: the loader sees the cancel at its next report
  frames_while_loading(*host, app);
  EXPECT_FALSE(app.loading_csv());
  EXPECT_EQ(app.history().size(), 0u);
  EXPECT_NE(app.status().find("cancelled"), std::string::npos) << app.status();
  std::remove(fifo.c_str());
}

// A file of garbage (NUL, ESC and terminal commands, invalid UTF-8, random bytes): refused with
// a message that shows its bytes as \xNN, in the status bar (each way of loading) and on the
// terminal, never raw.
TEST(CsvLoader, GarbageIsRefusedInPrintableWordsOnScreenAndTerminal) {
  const std::string path = temp_path("garbage.csv");
  tilescope::testing::write_file(path, tilescope::testing::garbage_bytes(64 * 1024));
  auto host = make_host(1280, 720);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  EXPECT_FALSE(app.load_csv(path));
  EXPECT_TRUE(app.status_is_error());
  EXPECT_NE(app.status().find("\\x1B[2J"), std::string::npos) << app.status();
  EXPECT_EQ(tilescope::testing::first_unprintable(app.status()), "") << app.status();

  ASSERT_TRUE(app.start_load_csv(path));
  frames_while_loading(*host, app);
  EXPECT_TRUE(app.status_is_error());
  EXPECT_EQ(tilescope::testing::first_unprintable(app.status()), "") << app.status();
  EXPECT_EQ(app.history().size(), 0u);

  // The status line, even set from raw bytes directly, shows them escaped.
  app.set_status("bad \x1b[31mred\x00 bytes", true);
  EXPECT_EQ(tilescope::testing::first_unprintable(app.status()), "") << app.status();

  // The program's own terminal output (stdout and stderr) for the same file.
  const tilescope::testing::ProgramOutcome o = tilescope::testing::run_program(
      TILESCOPE_BINARY, "--headless --no-settings --no-gpu --size 640x360 --frames 1 --load-csv " + path);
  EXPECT_EQ(o.code, 1) << o.output;
  EXPECT_NE(o.output.find("\\x1B[2J"), std::string::npos) << o.output;
  EXPECT_EQ(tilescope::testing::first_unprintable(o.output, true), "") << o.output;
  std::remove(path.c_str());
}
