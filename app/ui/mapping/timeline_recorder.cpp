#include "app/ui/mapping/timeline_recorder.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "kernels/cuda/device_info.h"

namespace tilescope {

std::string TimelineRequest::key() const {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s:%d:%d:%d:%lld:%lld:%lld:%d:%llu", variant_id.c_str(), config_index,
                static_cast<int>(problem), static_cast<int>(precision), static_cast<long long>(shape.M),
                static_cast<long long>(shape.N), static_cast<long long>(shape.K), records_per_block,
                static_cast<unsigned long long>(seed));
  return buf;
}

TimelineRequest timeline_request(const AppState& state, std::uint64_t seed) {
  TimelineRequest r;
  if (!state.lesson.empty()) {
    const LessonEntry& e = state.lesson[std::clamp(state.focused, 0, static_cast<int>(state.lesson.size()) - 1)];
    r.variant_id = e.variant_id;
    r.config_index = e.config_index;
  }
  r.problem = state.problem;
  r.precision = state.precision;
  const Shape s = run_shape(state);
  r.shape.M = std::min<std::int64_t>(s.M, kTimelineMaxSide);
  r.shape.N = std::min<std::int64_t>(s.N, kTimelineMaxSide);
  r.shape.K = std::min<std::int64_t>(s.K, kTimelineMaxSide);
  r.clamped = s.M > kTimelineMaxSide || s.N > kTimelineMaxSide || s.K > kTimelineMaxSide;
  r.seed = seed;
  return r;
}

TimelineRecorder::~TimelineRecorder() {
  if (job_.valid()) job_.wait();
}

void TimelineRecorder::start(const TimelineRequest& request, bool gpu) {
  if (job_.valid()) {
    // run_timeline cannot be stopped: the newest request waits for the one in flight.
    has_pending_ = request.key() != job_key_;
    pending_ = request;
    pending_gpu_ = gpu;
    return;
  }
  launch(request, gpu);
}

void TimelineRecorder::launch(const TimelineRequest& request, bool gpu) {
  job_key_ = request.key();
  if (!gpu && probe_device().ok()) {
    // The window was told not to use the GPU (--no-gpu, the tests): record nothing, say so.
    std::promise<TimelineResult> done;
    TimelineResult r;
    r.variant_id = request.variant_id;
    r.error = "this window does not use the GPU (started with --no-gpu): no timeline is recorded";
    done.set_value(r);
    job_ = done.get_future();
    return;
  }
  job_ = std::async(std::launch::async, [request] {
    return run_timeline(request.variant_id, request.config_index, request.problem, request.precision, request.shape,
                        request.records_per_block, request.seed);
  });
}

bool TimelineRecorder::busy() {
  if (job_.valid() && job_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    result_ = std::make_shared<const TimelineResult>(job_.get());
    result_key_ = job_key_;
    job_key_.clear();
    if (has_pending_) {
      has_pending_ = false;
      launch(pending_, pending_gpu_);
    }
  }
  return job_.valid();
}

}  // namespace tilescope
