// The tensor-core pictures of the mapping view, drawn from a model's FragmentPicture: one mma
// instruction's A, B and C with every element coloured by the lane that holds it (hover or click
// a lane to see what it feeds in and gets back), the shared-memory banks of one k step's reads
// with and without the XOR swizzle (the wavefronts each request needs), and the ring of cp.async
// stages for the tile animation. What the pictures contain is computed in viz/fragment_images.h.
#pragma once

#include <imgui.h>

#include <cstdint>

#include "fragment_model.h"

namespace tilescope {

class FragmentView {
 public:
  // A, B and C of one instruction in the textbook layout, and the lane table beside them.
  void draw_fragments(const FragmentPicture& pic);
  // The A and B reads of one k step, a row of the 32 banks per request.
  void draw_banks(const FragmentPicture& pic);
  // The `stages` buffers while k tile `computing` is multiplied (-1: before the loop), as the
  // tile animation shows them: magenta the stage multiplied, cyan the stages loading.
  static void draw_stage_ring(const FragmentPicture& pic, int computing, int tiles, int bk, std::int64_t K);

  // The lane highlighted in the fragments (-1: none); scripts and tests set it.
  void set_lane(int lane) { pinned_lane_ = lane < 0 || lane > 31 ? -1 : lane; }
  int lane() const { return pinned_lane_; }
  // The banks of the kernel's swizzled layout, or of a plain row-major tile.
  void set_swizzled(bool on) { swizzled_ = on; }
  bool swizzled() const { return swizzled_; }

 private:
  int pinned_lane_ = -1;  // clicked (a second click on the same lane lets it go)
  bool swizzled_ = true;
};

}  // namespace tilescope
