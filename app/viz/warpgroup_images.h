// What the warpgroup pictures of the mapping view say, as plain data and words computed from a
// FragmentPicture whose instruction is issued by a group of warps (wgmma: group_warps = 4): which
// warp, lane and register hold each element of the instruction's C, the band of rows of each warp,
// and the TMA boxes that fill one stage of the ring. No ImGui here (app/ui/mapping/warpgroup_view.cpp and
// app/ui/mapping/stage_ring_view.cpp draw them), so the words are tested without a window.
#pragma once

#include <string>
#include <vector>

#include "app/viz/fragment_images.h"
#include "kernels/models/fragment_model.h"

namespace tilescope {

// An instruction issued by several warps together, whose operands stay in shared memory.
inline bool is_warpgroup_picture(const FragmentPicture& pic) {
  return pic.group_warps > 1;
}
// Whether the picture has per-lane shared-memory reads to draw as banks (wgmma has none).
bool has_lane_reads(const FragmentPicture& pic);

// Whether (warp, lane) holds the element; warp -1: any warp of the group.
bool held_by_thread(const OperandGrid& g, int row, int col, int warp, int lane);

// The rows of C each warp of the group holds (row0 > row1: none).
struct WarpBand {
  int warp = 0, row0 = 0, row1 = -1;
};
std::vector<WarpBand> warp_bands(const FragmentPicture& pic);

// Whether C follows wgmma's accumulator layout for 32-bit accumulators: warp q, lane 4g + t,
// register 4j + r holds C(16q + g + 8(r / 2), 8j + 2t + r % 2). The caption states it only then.
bool follows_wgmma_layout(const FragmentPicture& pic);

// The view's caption: who issues the instruction, the warps' bands, the lanes' pattern, and
// where A and B are.
std::string warpgroup_caption(const FragmentPicture& pic);
// The block's warps: "warpgroup 0 (warps 0-3) copies; 2 consumer warpgroups (warps 4-11), each 1
// slice of 64 rows: 1 wgmma m64n256k16 per k step of 16".
std::string warpgroup_block_summary(const FragmentPicture& pic);
// "warp 2, lane 5 (group 1, thread 1) holds 128 elements of C, registers c0 ... c127: rows 33 and
// 41, two columns in every 8". warp -1: the lane in every warp.
std::string warpgroup_lane_summary(const FragmentPicture& pic, int warp, int lane);

// One TMA box in words: "A, 128 x 64 elements (16384 bytes) at byte 0 of the stage".
std::string stage_copy_words(const StageCopy& c);
// The ring in words: "4 stages of 49152 bytes = 196608 bytes; stage s starts at byte s x 49152".
std::string stage_ring_words(const FragmentPicture& pic);

}  // namespace tilescope
