// The order in which a 1-D grid visits the block tiles of C, shared by the tensor-core kernels
// (device) and their mapping models (host), so both compute the same tile for a block index.
//
// Gemm: blocks go down a band of kGroupRows block rows before moving one block column right, so
// the blocks that run at the same time share a few row panels of A and column panels of B and
// find them in L2 (a plain row-by-row order touches every column panel of B in each row). A kernel
// may pass another height (`band`): a tall tile takes fewer rows per band, so that the band's
// panels of A still fit the L2.
// AᵀA: only the upper-triangle tiles (row <= col) exist, in the same bands: in a band of rows
// [r0, r1), first the triangle of columns r0 .. r1 - 1 (column by column, rows r0 .. col), then
// the rectangle of columns r1 .. g - 1 (column by column, all rows of the band).
#pragma once

#include "kernels/ptx/device_types.cuh"  // std::int64_t and TILESCOPE_HOST_DEVICE, under NVRTC too

namespace tilescope {

constexpr int kGroupRows = 8;  // TileConfig::band_rows's default says the same

struct BlockTile {
  int row = 0, col = 0;  // block row (C rows row * BM ..) and block column (C columns col * BN ..)
};

// Blocks of a gemm grid of `rows` x `cols` block tiles.
TILESCOPE_HOST_DEVICE inline BlockTile gemm_block_tile(int index, int rows, int cols, int band_rows = kGroupRows) {
  const int per_band = band_rows * cols;
  const int band = index / per_band, r0 = band * band_rows;
  const int height = rows - r0 < band_rows ? rows - r0 : band_rows;
  const int within = index - band * per_band;
  return {r0 + within % height, within / height};
}

// Upper-triangle tiles of a g x g grid: g (g + 1) / 2 of them.
TILESCOPE_HOST_DEVICE inline std::int64_t upper_block_count(int g) {
  return static_cast<std::int64_t>(g) * (g + 1) / 2;
}

TILESCOPE_HOST_DEVICE inline BlockTile upper_block_tile(int index, int g, int band_rows = kGroupRows) {
  int r0 = 0;
  for (;;) {
    const int h = g - r0 < band_rows ? g - r0 : band_rows;
    const int triangle = h * (h + 1) / 2, band = triangle + h * (g - r0 - h);
    if (index < band) {
      if (index < triangle) {
        int c = 0;  // column r0 + c holds rows r0 .. r0 + c: c + 1 tiles
        while (index >= c + 1) index -= ++c;
        return {r0 + index, r0 + c};
      }
      index -= triangle;
      return {r0 + index % h, r0 + h + index / h};
    }
    index -= band;
    r0 += h;
  }
}

// The inverse of upper_block_tile for row <= col.
TILESCOPE_HOST_DEVICE inline int upper_block_index(BlockTile t, int g, int band_rows = kGroupRows) {
  int index = 0, r0 = 0;
  while (t.row >= r0 + band_rows) {
    const int h = band_rows;
    index += h * (h + 1) / 2 + h * (g - r0 - h);
    r0 += h;
  }
  const int h = g - r0 < band_rows ? g - r0 : band_rows;
  const int c = t.col - r0, r = t.row - r0;
  if (c < h) return index + c * (c + 1) / 2 + r;
  return index + h * (h + 1) / 2 + (c - h) * h + r;
}

// The inverse of gemm_block_tile.
TILESCOPE_HOST_DEVICE inline int gemm_block_index(BlockTile t, int rows, int cols, int band_rows = kGroupRows) {
  const int band = t.row / band_rows, r0 = band * band_rows;
  const int height = rows - r0 < band_rows ? rows - r0 : band_rows;
  return band * band_rows * cols + t.col * height + (t.row - r0);
}

// The 1-D grid of a problem, for grid_m x grid_n block tiles of C (AᵀA: grid_m == grid_n): how
// many blocks, which tile block `index` computes, and the inverse.
TILESCOPE_HOST_DEVICE inline std::int64_t block_tile_count(bool ata, int grid_m, int grid_n) {
  return ata ? upper_block_count(grid_n) : static_cast<std::int64_t>(grid_m) * grid_n;
}
TILESCOPE_HOST_DEVICE inline BlockTile block_tile(bool ata, int index, int grid_m, int grid_n,
                                                  int band_rows = kGroupRows) {
  return ata ? upper_block_tile(index, grid_n, band_rows) : gemm_block_tile(index, grid_m, grid_n, band_rows);
}
TILESCOPE_HOST_DEVICE inline int block_tile_index(bool ata, BlockTile t, int grid_m, int grid_n,
                                                  int band_rows = kGroupRows) {
  return ata ? upper_block_index(t, grid_n, band_rows) : gemm_block_index(t, grid_m, grid_n, band_rows);
}

}  // namespace tilescope
