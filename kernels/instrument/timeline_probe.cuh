// TimelineProbe: the pipeline timeline's build (timeline.h) of a kernel written with probes
// (probe.cuh). Its loads and stores are the timed build's; it adds the stamps: the block's SM
// clock and the global nanosecond timer at its start and end, and, per slab n of the block (the
// first records_per_block of them), when the producer issued the copies, when the observer saw
// them land, and when each consumer began and finished its products. One thread stamps each.
// Device-safe (timeline_buffers.h), so that NVRTC compiles a typed tile's timeline build; the
// kernel texts do not include it: the launch files choose the probe.
#pragma once

#include "kernels/instrument/no_probe.cuh"
#include "kernels/instrument/timeline_buffers.h"
#include "kernels/ptx/device_types.cuh"

namespace tilescope {

__device__ __forceinline__ std::uint64_t global_ns() {
  std::uint64_t ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

struct TimelineProbe : NoProbe {
  static constexpr bool kObserves = true;
  TimelineBuffers timeline;

  __host__ __device__ explicit TimelineProbe(const TimelineBuffers& t) : timeline(t) {}

  __device__ __forceinline__ void block_begin() const {
    TimelineClock& c = timeline.clocks[blockIdx.x];
    c.cycles_begin = static_cast<std::uint64_t>(clock64());
    c.ns_begin = global_ns();
    std::uint32_t sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    c.sm = sm;
  }
  __device__ __forceinline__ void block_end(int slabs) const {
    TimelineClock& c = timeline.clocks[blockIdx.x];
    c.cycles_end = static_cast<std::uint64_t>(clock64());
    c.ns_end = global_ns();
    c.records = static_cast<std::uint32_t>(slabs);
  }
  __device__ __forceinline__ void issued(int n) const {
    if (TimelineStamps* s = at(n)) s->issued = now();
  }
  __device__ __forceinline__ void arrived(int n) const {
    if (TimelineStamps* s = at(n)) s->arrived = now();
  }
  __device__ __forceinline__ void started(int consumer, int n) const {
    if (TimelineStamps* s = at(n)) s->started[consumer] = now();
  }
  __device__ __forceinline__ void done(int consumer, int n) const {
    if (TimelineStamps* s = at(n)) s->done[consumer] = now();
  }

 private:
  __device__ __forceinline__ static std::uint64_t now() { return static_cast<std::uint64_t>(clock64()); }
  __device__ __forceinline__ TimelineStamps* at(int n) const {
    if (n < 0 || n >= timeline.records_per_block) return nullptr;
    return timeline.stamps + static_cast<std::int64_t>(blockIdx.x) * timeline.records_per_block + n;
  }
};

}  // namespace tilescope
