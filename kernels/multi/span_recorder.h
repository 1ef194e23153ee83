// The timeline of a split run: per GPU and per stream, when each product and each transfer ran,
// from CUDA events recorded around it on its stream. The times are read after the run, each
// against its own GPU's origin event (events of two devices cannot be subtracted), so two GPUs'
// rows are aligned as well as the origins were: each is recorded right after the run's start,
// which every stream waits for, on its GPU.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <vector>

#include "kernels/core/no_copy.h"
#include "kernels/measure/run_span.h"

namespace tilescope {

class SpanRecorder : NoCopy {
 public:
  // devices[rank]: the CUDA device of each rank; streams of the run are passed with each span.
  explicit SpanRecorder(std::vector<int> devices);
  ~SpanRecorder();

  // Starts a run: forgets the last one's spans and records each GPU's origin on `origin_streams[rank]`.
  void begin_run(const std::vector<cudaStream_t>& origin_streams);
  // Runs `enqueue` (which puts the piece on `stream`) between two events on that stream, with the
  // rank's device current.
  void mark(int rank, SpanStream kind, cudaStream_t stream, const std::string& what,
            const std::function<void()>& enqueue);
  // The same in two steps, for pieces that are enqueued together for several ranks (NCCL's
  // grouped calls launch at the group's end): open records the start, close the end, whose event
  // it returns (another stream may wait on it: the piece has landed).
  std::size_t open(int rank, SpanStream kind, cudaStream_t stream, const std::string& what);
  cudaEvent_t close(std::size_t span);
  // After the run has finished (its streams synchronised): the spans, in the order marked.
  std::vector<RunSpan> read() const;

 private:
  struct Pending {
    RunSpan span;
    cudaEvent_t start = nullptr, end = nullptr;
    cudaStream_t stream = nullptr;
  };
  cudaEvent_t take_event(int rank);
  std::vector<int> devices_;
  std::vector<cudaEvent_t> origins_;
  std::vector<std::vector<cudaEvent_t>> pool_;  // per rank: events made so far, reused run after run
  std::vector<std::size_t> used_;               // per rank: how many of its pool this run took
  std::vector<Pending> pending_;
};

}  // namespace tilescope
