// The Fragments view of an instruction that a group of warps issues together (wgmma, from a
// FragmentPicture with group_warps > 1): its whole C tile (64 x N) coloured by warp, every element's
// warp, lane and register on hover, a thread (warp and lane) lit up by a click or a script, and a
// magnified m16n8 piece of one warp's band numbered by lane. What it says comes from
// viz/warpgroup_images.h.
#pragma once

#include "kernels/models/fragment_model.h"

namespace tilescope {

// *warp (-1: every warp of the group) and *lane (-1: none) are the thread pinned; clicks change them.
void draw_warpgroup_accumulators(const FragmentPicture& pic, int* warp, int* lane);

}  // namespace tilescope
