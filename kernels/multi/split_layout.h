// Where the pieces of a product lie when it is split across GPUs: blocks of row-major matrices,
// and the balanced cuts the splits make. Plain C++, so that the tests check every cut on a
// machine without a GPU.
#pragma once

#include <cstdint>
#include <vector>

namespace tilescope {

// A block of a row-major matrix: rows [row0, row0 + rows) x columns [col0, col0 + cols). A GPU
// holds its blocks packed in its buffer, each row-major with `cols` elements a row: one after
// another in the order its list gives, or from the element `at` where a block says (a buffer that
// also receives blocks from other GPUs between its own).
struct Block {
  std::int64_t row0 = 0, col0 = 0, rows = 0, cols = 0;
  std::int64_t at = -1;  // its first element in the buffer; -1: right after the block before it
  std::int64_t elements() const { return rows * cols; }
};

// The element offset of block i in a buffer packed as above.
std::int64_t packed_offset(const std::vector<Block>& blocks, std::size_t i);
// The elements of all the blocks of a list.
std::int64_t packed_elements(const std::vector<Block>& blocks);

// What one GPU holds: A's and B's blocks when a run starts (the measurer places them there
// before the clock starts), C's blocks when it ends (gathered for the check), and the sizes of its
// buffers (at least its blocks: a buffer may also receive what travels to it).
struct GpuLayout {
  std::vector<Block> a, b, c;
  std::int64_t a_elements = 0, b_elements = 0, c_elements = 0;
  std::size_t scratch_bytes = 0;
};

struct SplitLayout {
  std::vector<GpuLayout> gpus;
};

// `total` cut into `parts` pieces as equal as whole multiples of `multiple` allow (the last piece
// takes the rest): parts + 1 boundaries from 0 to total. A piece may be empty only when total is
// smaller than parts * multiple.
std::vector<std::int64_t> balanced_cuts(std::int64_t total, int parts, std::int64_t multiple);

// The rows of an N x N upper triangle cut into `parts` bands of about equal work: row i holds
// N - i elements, so the first bands are thinner. parts + 1 boundaries from 0 to N. Each inner one
// is rounded to a whole multiple of `multiple` (a power of two), or of a smaller power of two where
// that would leave its band more than 1% off its share of the work (thin bands: many parts); a
// band may be empty when N is small.
std::vector<std::int64_t> triangle_row_cuts(std::int64_t n, int parts, std::int64_t multiple = 1);

// How many column panels a product with `cols` columns of C is streamed in: enough that the
// next panel's transfer hides behind the current product, few enough that each product stays
// large (at least `min_width` columns).
int panel_count(std::int64_t cols, std::int64_t min_width, int most);

}  // namespace tilescope
