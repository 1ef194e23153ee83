// The Mapping tab's timeline recordings: run_timeline (kernels/instrument/timeline.h) on a thread of its
// own, because it waits for the GPU, so that the window keeps drawing while a recording is made;
// the last result, with what it was recorded for, so that a change of configuration or size is
// seen and recorded again.
#pragma once

#include <cstdint>
#include <future>
#include <memory>
#include <string>

#include "app/ui/shell/app_state.h"
#include "kernels/instrument/timeline.h"

namespace tilescope {

// The sizes a timeline is recorded at: the window's sizes, each at most this. A bigger product
// only repeats the same tiles; its hundreds of slabs per block are too dense to read.
constexpr int kTimelineMaxSide = 4096;
// Slabs each block has room to stamp: every slab of a block at the largest sizes above with the
// smallest tiles (4096 / 128 squared tiles over 132 SMs, 64 slabs each, is about 500).
constexpr int kTimelineRecordsPerBlock = 1024;

// One recording: what run_timeline takes.
struct TimelineRequest {
  std::string variant_id;
  int config_index = 0;
  Problem problem = Problem::Gemm;
  Precision precision = Precision::BF16;
  Shape shape;
  bool clamped = false;  // a size of the window was above kTimelineMaxSide
  int records_per_block = kTimelineRecordsPerBlock;
  std::uint64_t seed = 1;
  // Everything above in one string: equal keys, equal recordings.
  std::string key() const;
};

// The focused variant's configuration at the window's problem, type and sizes (clamped).
TimelineRequest timeline_request(const AppState& state, std::uint64_t seed);

class TimelineRecorder {
 public:
  TimelineRecorder() = default;
  ~TimelineRecorder();  // waits for a recording in flight: it writes into this object's future
  TimelineRecorder(const TimelineRecorder&) = delete;
  TimelineRecorder& operator=(const TimelineRecorder&) = delete;

  // Records `request` on a thread of its own; while another recording is in flight, after it
  // (the last request wins). `gpu` false (the window does not use the GPU): where a GPU exists
  // nothing runs and the result says why; where none does, run_timeline says why itself.
  void start(const TimelineRequest& request, bool gpu);
  // Takes a finished recording's result (call once a frame); true while one is in flight or waits.
  bool busy();
  // The last result (nullptr before the first) and the key of the request it answers.
  const std::shared_ptr<const TimelineResult>& result() const { return result_; }
  const std::string& result_key() const { return result_key_; }
  // The key of the recording in flight ("" when none).
  const std::string& recording_key() const { return job_key_; }

 private:
  void launch(const TimelineRequest& request, bool gpu);
  std::future<TimelineResult> job_;
  std::string job_key_;
  bool has_pending_ = false;  // a request that came while job_ was in flight
  TimelineRequest pending_;
  bool pending_gpu_ = false;
  std::shared_ptr<const TimelineResult> result_;
  std::string result_key_;
};

}  // namespace tilescope
