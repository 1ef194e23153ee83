#include "kernels/multi/span_recorder.h"

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/device_scope.h"

namespace tilescope {

SpanRecorder::SpanRecorder(std::vector<int> devices)
    : devices_(std::move(devices)), origins_(devices_.size(), nullptr), pool_(devices_.size()), used_(devices_.size()) {
  for (std::size_t r = 0; r < devices_.size(); ++r) {
    DeviceScope on(devices_[r]);
    CUDA_CHECK(cudaEventCreate(&origins_[r]));
  }
}

SpanRecorder::~SpanRecorder() {
  for (std::size_t r = 0; r < devices_.size(); ++r) {
    if (cudaSetDevice(devices_[r]) != cudaSuccess) continue;
    if (origins_[r]) cudaEventDestroy(origins_[r]);
    for (cudaEvent_t e : pool_[r]) cudaEventDestroy(e);
  }
}

cudaEvent_t SpanRecorder::take_event(int rank) {
  std::vector<cudaEvent_t>& pool = pool_[rank];
  if (used_[rank] == pool.size()) {
    cudaEvent_t e = nullptr;
    DeviceScope on(devices_[rank]);
    CUDA_CHECK(cudaEventCreate(&e));
    pool.push_back(e);
  }
  return pool[used_[rank]++];
}

void SpanRecorder::begin_run(const std::vector<cudaStream_t>& origin_streams) {
  pending_.clear();
  std::fill(used_.begin(), used_.end(), 0);
  for (std::size_t r = 0; r < devices_.size() && r < origin_streams.size(); ++r) {
    DeviceScope on(devices_[r]);
    CUDA_CHECK(cudaEventRecord(origins_[r], origin_streams[r]));
  }
}

std::size_t SpanRecorder::open(int rank, SpanStream kind, cudaStream_t stream, const std::string& what) {
  Pending p;
  p.span.gpu = rank;
  p.span.stream = kind;
  p.span.what = what;
  p.stream = stream;
  p.start = take_event(rank);
  p.end = take_event(rank);
  DeviceScope on(devices_[rank]);
  CUDA_CHECK(cudaEventRecord(p.start, stream));
  pending_.push_back(std::move(p));
  return pending_.size() - 1;
}

cudaEvent_t SpanRecorder::close(std::size_t span) {
  const Pending& p = pending_.at(span);
  DeviceScope on(devices_[p.span.gpu]);
  CUDA_CHECK(cudaEventRecord(p.end, p.stream));
  return p.end;
}

void SpanRecorder::mark(int rank, SpanStream kind, cudaStream_t stream, const std::string& what,
                        const std::function<void()>& enqueue) {
  const std::size_t span = open(rank, kind, stream, what);
  {
    DeviceScope on(devices_[rank]);
    enqueue();
  }
  close(span);
}

std::vector<RunSpan> SpanRecorder::read() const {
  std::vector<RunSpan> spans;
  for (const Pending& p : pending_) {
    RunSpan s = p.span;
    float start = 0, end = 0;
    DeviceScope on(devices_[s.gpu]);
    CUDA_CHECK(cudaEventElapsedTime(&start, origins_[s.gpu], p.start));
    CUDA_CHECK(cudaEventElapsedTime(&end, origins_[s.gpu], p.end));
    s.start_ms = start;
    s.end_ms = end;
    spans.push_back(std::move(s));
  }
  return spans;
}

}  // namespace tilescope
