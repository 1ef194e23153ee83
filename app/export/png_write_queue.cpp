#include "app/export/png_write_queue.h"

#include <utility>

#include "app/export/png_writer.h"

namespace tilescope {

PngWriteQueue::PngWriteQueue() : thread_([this] { work(); }) {}

PngWriteQueue::~PngWriteQueue() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void PngWriteQueue::write(std::uint64_t id, std::string path, Image image) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queued_.push_back({id, std::move(path), std::move(image)});
  }
  changed_.notify_all();
}

std::vector<PngWriteQueue::Written> PngWriteQueue::take_written() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Written> out;
  out.swap(written_);
  return out;
}

bool PngWriteQueue::busy() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return writing_ || !queued_.empty();
}

void PngWriteQueue::wait_idle() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return !writing_ && queued_.empty(); });
}

void PngWriteQueue::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    // Stopping drains the queue first: the destructor's promise.
    changed_.wait(lock, [this] { return stopping_ || !queued_.empty(); });
    if (queued_.empty()) return;
    Job job = std::move(queued_.front());
    queued_.pop_front();
    writing_ = true;
    lock.unlock();
    Written done;
    done.id = job.id;
    done.path = job.path;
    done.ok = write_png(job.path, job.image, &done.error);
    lock.lock();
    written_.push_back(std::move(done));
    writing_ = false;
    changed_.notify_all();
  }
}

}  // namespace tilescope
