// Holds a stream while the host enqueues a timed run, so that the run's CUDA events time the GPU's
// work alone. Without it the start event runs as soon as it reaches an idle GPU, and the interval to
// the stop event then also holds the host's own launch path (tensor maps encoded, a library's
// choice of kernel, the driver's submission): several microseconds, which at small sizes is a
// large part of the time. The gate is a one-thread kernel that waits until the host opens it (a
// flag in pinned host memory) or until a timeout passes: a launch that waits for the stream itself
// (a synchronous call) would otherwise wait forever. A gate that timed out says so, and that run's
// time is not the GPU's alone.
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/core/no_copy.h"

namespace tilescope {

class LaunchGate : NoCopy {
 public:
  // How long a closed gate waits before it lets the stream go on by itself.
  static constexpr long long kTimeoutNs = 50'000'000;

  LaunchGate();  // throws GpuError where pinned host memory cannot be had
  ~LaunchGate();

  // Enqueues the gate, closed, on `stream`: what is enqueued after it waits.
  void close(cudaStream_t stream);
  // Lets the stream through.
  void open();
  // Whether the last gate gave up waiting; valid once the stream has passed it.
  bool timed_out() const;

 private:
  volatile int* flags_ = nullptr;  // [0]: open, [1]: timed out; pinned, mapped into the device
  int* device_flags_ = nullptr;
};

// A gate closed on a stream for as long as this lives (nothing where `close` is false), and opened
// on every way out of the scope, an exception's included: a stream is never left waiting.
class ClosedGate : NoCopy {
 public:
  ClosedGate(LaunchGate& gate, cudaStream_t stream, bool close) : gate_(close ? &gate : nullptr) {
    if (gate_) gate_->close(stream);
  }
  ~ClosedGate() {
    if (gate_) gate_->open();
  }

 private:
  LaunchGate* gate_;
};

}  // namespace tilescope
