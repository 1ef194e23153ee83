// Where a recorded warp first parts from a mapping model, access by access: the access site, the
// step and the lane, with both addresses. compare_recorded_warp (recorded_warp.h) says where the
// recorded streams differ, which proves a model wrong; a learner who edited a kernel's layout wants
// the access the edit moved, in the words of the Memory view's controls. `tilescope memory
// --kernel-text ... --record` says it, and the window's Memory view beside the edited picture.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/models/mapping_model.h"

namespace tilescope {

struct MovedAddress {
  bool found = false;  // false: every recorded access of every site is the model's
  int site = -1, step = -1, lane = -1;
  std::int64_t recorded = -1, modelled = -1;  // bytes; -1: no access
};

// The first (site, step, lane), in the model's order of sites and steps, where `split` (the
// recording cut by split_recording) holds another address than the model gives warp `warp` of
// block (bx, by). Sites the instrumented build does not record are left out.
MovedAddress first_moved_address(const MappingModel& m, const std::vector<std::vector<WarpAccess>>& split, int bx,
                                 int by, int warp);

// "at site 'A into shared memory', step 3, lane 7: recorded byte 1156, the model says byte 1152".
std::string moved_address_words(const MappingModel& m, const MovedAddress& moved);

}  // namespace tilescope
