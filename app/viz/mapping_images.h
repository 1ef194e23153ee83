// The pictures of the mapping view, computed on the host from a variant's mapping model: C
// coloured by the block that computes each element (the selected block's threads, or a
// tensor-core kernel's warps, lanes or registers, told apart),
// and heatmaps of how often each element of A and B is read from global memory. Large matrices
// are sampled (one element per pixel of an image of at most `max_side` pixels a side); the
// panel draws block boundaries on top, so they stay visible at any zoom.
#pragma once

#include <cstdint>
#include <string>

#include "app/platform/image.h"
#include "app/viz/colors.h"
#include "kernels/models/mapping_model.h"

namespace tilescope {

struct MappingImages {
  Image c, a, b;                        // a, b: the stored A and B (for AᵀA, b is empty)
  std::int64_t c_rows = 0, c_cols = 0;  // the matrices' sizes in elements
  std::int64_t a_rows = 0, a_cols = 0, b_rows = 0, b_cols = 0;
  std::int64_t max_reads = 0;  // the top of the heatmaps' colour scale
};

// `selected_*`: the block whose threads get their own colours (-1: none). `colouring`: what
// tells them apart; Warp, Lane and Register are for tensor-core models (MappingCaps::warp_level:
// thread_x is the lane, thread_y the warp, slot the lane's accumulator register).
MappingImages render_mapping_images(const MappingModel& model, Problem problem, const Shape& shape,
                                    int selected_block_x, int selected_block_y, int max_side,
                                    ThreadColouring colouring = ThreadColouring::Thread);

}  // namespace tilescope
