// PNG files encoded and written on a thread of their own. A frame that asks for a screenshot or
// a plot export only reads its pixels back; the encoding (stb's deflate, about 0.2 s for a
// 1920 x 1080 screenshot on one core of a laptop) and the write happen beside the frames, so the
// window does not stop while a file is made.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/platform/image.h"

namespace tilescope {

class PngWriteQueue {
 public:
  // What became of one file asked for.
  struct Written {
    std::uint64_t id = 0;  // the caller's, as given to write()
    std::string path;
    bool ok = false;
    std::string error;  // write_png's sentence when !ok
  };

  PngWriteQueue();
  // Writes every file still queued before it returns: a file asked for is never dropped.
  ~PngWriteQueue();
  PngWriteQueue(const PngWriteQueue&) = delete;
  PngWriteQueue& operator=(const PngWriteQueue&) = delete;

  // Queues `image` to be written to `path` (atomically, as write_png does).
  void write(std::uint64_t id, std::string path, Image image);
  // The files finished since the last call, in the order they were asked for.
  std::vector<Written> take_written();
  // Whether files are queued or being written.
  bool busy() const;
  // Waits until every file queued so far is written (tests, and the end of a script).
  void wait_idle();

 private:
  struct Job {
    std::uint64_t id;
    std::string path;
    Image image;
  };
  void work();

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> queued_;
  std::vector<Written> written_;
  bool writing_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace tilescope
