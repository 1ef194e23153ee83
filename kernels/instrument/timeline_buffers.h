// What the pipeline timeline's build (timeline.h tells the whole story) stamps into: the records
// and clocks its TimelineProbe (timeline_probe.cuh) carries by value. Device-safe, no host header,
// so that NVRTC compiles the timeline build of a typed tile as the build does.
#pragma once

#include "kernels/ptx/device_types.cuh"

namespace tilescope {

// Consumers (warpgroups that multiply) a stamp record has room for.
constexpr int kTimelineMaxConsumers = 4;

// One k slab of one block, in SM clock cycles (clock64 of the block's SM); 0 = not stamped.
struct TimelineStamps {
  std::uint64_t issued = 0;                           // the producer found the stage free and issued the copies
  std::uint64_t arrived = 0;                          // an observer saw the stage's barrier complete: all bytes landed
  std::uint64_t started[kTimelineMaxConsumers] = {};  // consumer c saw it complete and began
  std::uint64_t done[kTimelineMaxConsumers] = {};     // consumer c's products of it completed
};

// Per block: the SM clock and the global nanosecond timer read together at the start and the end,
// which convert the block's cycles into nanoseconds on one axis for all blocks.
struct TimelineClock {
  std::uint64_t cycles_begin = 0, ns_begin = 0, cycles_end = 0, ns_end = 0;
  std::uint32_t sm = 0;       // %smid
  std::uint32_t records = 0;  // slabs this block moved (it stamps the first records_per_block)
};

// What the instrumented kernel writes into (device pointers), passed inside its TimelineProbe.
struct TimelineBuffers {
  TimelineStamps* stamps = nullptr;  // blocks x records_per_block, block-major
  TimelineClock* clocks = nullptr;   // one per block
  int records_per_block = 0;
};

}  // namespace tilescope
