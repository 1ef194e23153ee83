// One warp's addresses as the instrumented kernel recorded them (trace.h: record_warp), and the
// comparison with the mapping model's access sites (warp_access.h) that proves the model draws
// what the kernel does. Plain C++.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/models/mapping_model.h"

namespace tilescope {

// Per stream (RecordedStream, recorded_streams.h), step and lane, the byte address (from the matrix's
// start, or from the block's shared memory), -1 where the lane made no such access. A lane's steps
// are its own executions in order: a lane guarded off an access does not count it.
struct RecordedWarp {
  std::string error;  // empty when the run happened
  bool ok() const { return error.empty(); }
  int steps = 0;
  std::vector<std::int64_t> address;  // [stream][step][lane]
  std::int64_t at(int stream, int step, int lane) const {
    return address[(static_cast<std::size_t>(stream) * steps + step) * kWarpLanes + lane];
  }
};

// The steps to record so that every access of warp `warp` of block (bx, by) fits, by the model.
int steps_to_record(const MappingModel& m, int block_x, int block_y);

// "" when every lane recorded, in every stream, exactly the model's addresses in the model's order
// (the steps of the sites recorded in one stream taken step by step in the sites' order, each
// step as its recorded_per_step neighbouring elements); else the first difference, in words.
// Shared addresses may all sit one common whole number of 128-byte rows further than the model's
// (the system's reserved shared memory before the kernel's): the banks are the same.
std::string compare_recorded_warp(const MappingModel& m, const RecordedWarp& r, int block_x, int block_y, int warp);

// The recording cut into the model's sites and steps ([site][step], as warp_access gives them):
// each lane's n-th recorded access in a stream is the access the model puts n-th for that lane
// (recorded_order, the lanes taking part where the model says they do), so a kernel that moves an
// address (an edited padding or swizzle) shows where it moved. Steps the recording does not reach,
// and lanes the model leaves out, stay -1. Shared addresses are counted from where the model's
// start (the system's reserved part taken off, as compare_recorded_warp finds it).
std::vector<std::vector<WarpAccess>> split_recording(const MappingModel& m, const RecordedWarp& r, int block_x,
                                                     int block_y, int warp);

}  // namespace tilescope
