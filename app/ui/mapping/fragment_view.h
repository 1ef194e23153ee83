// The tensor-core pictures of the mapping view, drawn from a model's FragmentPicture: one mma
// instruction's A, B and C with every element coloured by the lane that holds it (hover or click
// a lane to see what it feeds in and gets back), the shared-memory banks of one k step's reads
// with and without the XOR swizzle (the wavefronts each request needs), and the ring of cp.async
// stages for the tile animation. What the pictures contain is computed in viz/fragment_images.h.
// An instruction that a group of warps issues (wgmma) is drawn by app/ui/mapping/warpgroup_view.h instead, and
// its stages, filled by the TMA and handed over through mbarriers, by app/ui/mapping/stage_ring_view.h.
#pragma once

#include <imgui.h>

#include <cstdint>

#include "kernels/models/fragment_model.h"

namespace tilescope {

class FragmentView {
 public:
  // A, B and C of one instruction in the textbook layout, and the lane table beside them (a
  // warpgroup's instruction: its C by warp, see warpgroup_view.h).
  void draw_fragments(const FragmentPicture& pic);
  // The A and B reads of one k step, a row of the 32 banks per request. A picture without lane
  // reads (wgmma: the tensor cores read shared memory themselves) says so and shows the TMA boxes
  // of a stage and the ring instead.
  void draw_banks(const FragmentPicture& pic);
  // The `stages` buffers while k tile `computing` is multiplied (-1: before the loop), as the
  // tile animation shows them: magenta the stage multiplied, cyan the stages loading. With
  // per-stage barriers: the producer/consumer handshake (stage_ring_view.h).
  static void draw_stage_ring(const FragmentPicture& pic, int computing, int tiles, int bk, std::int64_t K);

  // The lane highlighted in the fragments (-1: none); scripts and tests set it.
  void set_lane(int lane) { pinned_lane_ = lane < 0 || lane > 31 ? -1 : lane; }
  int lane() const { return pinned_lane_; }
  // A warpgroup's instruction: the warp of the group whose lane is lit up (-1: that lane in
  // every warp).
  void set_warp(int warp) { pinned_warp_ = warp < 0 || warp > 7 ? -1 : warp; }
  int warp() const { return pinned_warp_; }
  // The banks of the kernel's swizzled layout, or of a plain row-major tile.
  void set_swizzled(bool on) { swizzled_ = on; }
  bool swizzled() const { return swizzled_; }

 private:
  int pinned_lane_ = -1;  // clicked (a second click on the same lane lets it go)
  int pinned_warp_ = -1;
  bool swizzled_ = true;
};

}  // namespace tilescope
