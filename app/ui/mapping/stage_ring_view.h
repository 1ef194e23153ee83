// The ring of shared-memory stages of a kernel whose copy engine fills them (wgmma_tma: a
// FragmentPicture with stage_copies and stage_barriers): one stage as the TMA boxes that fill it,
// the ring of stages in shared memory with their two mbarriers, and, for the tile animation, the
// producer/consumer handshake at one phase (what each buffer holds and which barrier each side
// waits on). The states and words come from viz/stage_handshake.h and viz/warpgroup_images.h.
#pragma once

#include <cstdint>

#include "kernels/models/fragment_model.h"

namespace tilescope {

// One stage's boxes (operand, size, bytes, offset) and the ring of `stages` buffers.
void draw_stage_boxes(const FragmentPicture& pic);
// The ring after `phase` of `slabs` phases (slabs `bk` deep, K in all): a row per buffer with its
// slab and state, a mark on the buffers the two sides wait for, and a line in words per side.
void draw_stage_handshake(const FragmentPicture& pic, int phase, int slabs, int bk, std::int64_t K);

}  // namespace tilescope
