// The launch gate (kernels/measure/launch_gate.h): a timed run enqueued behind it is timed by its
// events as the GPU's work alone, however long the host takes to enqueue it; a gate never opened
// lets the stream go on by itself after its timeout and says so.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "kernels/measure/launch_gate.h"
#include "kernels/measure/measure.h"
#include "tests/support/variant_cases.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

// The stream, two events and a small buffer whose zeroing is the "run".
struct TimedStream {
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  void* buffer = nullptr;
  TimedStream() {
    EXPECT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    EXPECT_EQ(cudaEventCreate(&start), cudaSuccess);
    EXPECT_EQ(cudaEventCreate(&stop), cudaSuccess);
    EXPECT_EQ(cudaMalloc(&buffer, 4096), cudaSuccess);
  }
  ~TimedStream() {
    cudaFree(buffer);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaStreamDestroy(stream);
  }
  // Events around a zeroing that the host takes `host_ms` to enqueue after the start event; the
  // events' interval in ms. `gate`: enqueued behind it.
  float time_run(LaunchGate* gate, int host_ms) {
    if (gate) gate->close(stream);
    EXPECT_EQ(cudaEventRecord(start, stream), cudaSuccess);
    std::this_thread::sleep_for(std::chrono::milliseconds(host_ms));
    EXPECT_EQ(cudaMemsetAsync(buffer, 0, 4096, stream), cudaSuccess);
    EXPECT_EQ(cudaEventRecord(stop, stream), cudaSuccess);
    if (gate) gate->open();
    EXPECT_EQ(cudaEventSynchronize(stop), cudaSuccess);
    float ms = -1;
    EXPECT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    return ms;
  }
};

}  // namespace

TEST(GpuLaunchGate, TimesTheGpusWorkAloneHoweverLongTheHostTakes) {
  SKIP_WITHOUT_GPU();
  TimedStream t;
  LaunchGate gate;
  t.time_run(&gate, 0);  // the first zeroing loads what it needs
  // Ungated, the 20 ms the host took between the events are in their interval.
  EXPECT_GE(t.time_run(nullptr, 20), 15.0f);
  const float gated = t.time_run(&gate, 20);
  EXPECT_FALSE(gate.timed_out());
  EXPECT_LT(gated, 2.0f);
}

TEST(GpuLaunchGate, AGateNeverOpenedLetsTheStreamGoOnAndSaysSo) {
  SKIP_WITHOUT_GPU();
  TimedStream t;
  LaunchGate gate;
  const auto t0 = std::chrono::steady_clock::now();
  gate.close(t.stream);
  ASSERT_EQ(cudaStreamSynchronize(t.stream), cudaSuccess);
  const double waited_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(gate.timed_out());
  EXPECT_GE(waited_ms, 0.8 * LaunchGate::kTimeoutNs / 1e6);
  gate.open();
  // Closed and opened again, it does not time out.
  EXPECT_GE(t.time_run(&gate, 1), 0.0f);
  EXPECT_FALSE(gate.timed_out());
}

// The measurer times every run behind the gate, and its rows say so.
TEST(GpuLaunchGate, TheMeasurersRowsAreTimedBehindTheGate) {
  SKIP_WITHOUT_GPU();
  RunRequest r;
  r.variant_id = tilescope::testing::baseline().id;
  r.shape = {256, 256, 256};
  r.repetitions = 5;
  const RunResult res = Measurer().run(r);
  ASSERT_TRUE(res.ok()) << res.error;
  EXPECT_EQ(res.timer, "cuda_events_gated");
}
