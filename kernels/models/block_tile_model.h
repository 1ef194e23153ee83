// What the mapping models of the warp-tiled kernels (wmma, mma_sync) share: a 1-D grid over the
// block tiles of C in block_order.h's order, blocks of (32 lanes, warps), BK-deep phases, and
// what follows from "each block copies every slab of its rows of A and its columns of B into
// shared memory exactly once": the tiles of each phase, the closed-form read counts, AᵀA's
// mirrors. A kernel's model adds the owner of each element it stores directly (direct_owner),
// how a thread's copies of a tile are assigned (tile_loads) and, where it has one, its fragment
// picture. Plain C++.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/core/block_order.h"
#include "kernels/models/mapping_model.h"

namespace tilescope {

class BlockTileModel : public MappingModel {
 public:
  struct Tiling {
    int bm = 0, bn = 0, bk = 0;  // block tile of C and slab depth
    int warps = 1;
    // How the reads summary says the elements travel: "read", or "copied" with a tail such as
    // ", straight into shared memory (cp.async)".
    const char* verb = "read";
    const char* tail = "";
    // Gemm blocks in clusters of cluster_m (TileConfig::cluster_m): block b is rank b % cluster_m of
    // cluster b / cluster_m, which takes cluster_m block rows of one block column, the clusters in
    // block_order.h's order over those groups of rows; each block copies its A tile and the rank's
    // share of the columns of B, which reaches every block of the cluster. When the block rows do
    // not divide, the last clusters' spare blocks lie below C: they store nothing but still copy
    // their share of B.
    int cluster_m = 1;
    int band = kGroupRows;  // block rows per band of block_order.h's order
  };
  BlockTileModel(const Tiling& t, Problem problem, const Shape& shape);

  Dim2 grid() const override { return {blocks_, 1}; }
  Dim2 block() const override { return {32, t_.warps}; }
  int phases() const override;
  // AᵀA's grid holds the upper-triangle block tiles only: every block of it works.
  bool block_active(int bx, int by) const override { return by == 0 && bx >= 0 && bx < blocks_; }
  // AᵀA: C(i, j) below the diagonal is stored as the mirror of C(j, i), by its owner.
  Owner owner(std::int64_t i, std::int64_t j) const override;
  TileRect a_tile(int bx, int by, int phase) const override;
  TileRect b_tile(int bx, int by, int phase) const override;
  // Gemm: the A tile is rows m x k of A, AᵀA: rows k x columns m of A; B (or A as the B operand):
  // rows k x columns n. Each is assigned to the threads by tile_loads.
  void thread_loads(int bx, int by, int tx, int ty, int phase, int piece, std::vector<ElementRef>* a,
                    std::vector<ElementRef>* b) const override;
  // Gemm: A(r, k) is copied by the grid_n blocks of its block row, B(k, c) by the grid_m blocks
  // of its block column. AᵀA: A(k, c), c in block column b, by the g - b upper blocks of block
  // row b (as the A operand) and the b + 1 of block column b (as the B operand): g + 1.
  std::int64_t a_reads(std::int64_t, std::int64_t) const override { return ata_ ? grid_n_ + 1 : grid_n_; }
  // Clusters: B(k, c) by one block of each cluster of the column, ceil(grid_m / cluster_m).
  std::int64_t b_reads(std::int64_t, std::int64_t) const override { return ata_ ? 0 : ceil_div(grid_m_, t_.cluster_m); }
  // Every element of a matrix is read equally often: the totals are the count times the size.
  std::int64_t a_reads_total(std::int64_t rows, std::int64_t cols) const override {
    return rows * cols * a_reads(0, 0);
  }
  std::int64_t b_reads_total(std::int64_t rows, std::int64_t cols) const override {
    return rows * cols * b_reads(0, 0);
  }
  std::string reads_summary() const override;
  // The slab's k, the block's outputs and its global loads per k (BM + BN; a cluster's block
  // copies BN / cluster_m of B); the kernel adds its shared-memory reads and words
  // (describe_phase).
  PhaseWork phase_work(int bx, int by, int phase) const override;

 protected:
  // The warp tiles of a block, warp_m x warp_n (bn / warp_n across): how many of them compute,
  // and the elements of C inside C they accumulate. With idle_below_diagonal, AᵀA's diagonal
  // blocks leave the warp tiles wholly below the diagonal idle (their mirrors above compute them).
  struct Workers {
    int warps = 0;
    std::int64_t outputs = 0;
  };
  Workers workers(int bx, int warp_m, int warp_n, bool idle_below_diagonal) const;
  // What the kernel does with the slab of `phase` in block bx: its shared-memory reads per k
  // step (w->shared), the words, and w->outputs where warps idle. k0, k1, steps, outputs (the
  // block's tile inside C) and global are filled in already.
  virtual void describe_phase(int bx, int phase, PhaseWork* w) const = 0;
  // The block's tile of C, clipped to C (empty for a cluster's spare block below C).
  TileRect c_tile(int bx) const;

  // Who, inside a block, owns element (row, col) of its BM x BN tile: o's thread_x (the lane),
  // thread_y (the warp) and slot.
  virtual void owner_in_block(int row, int col, Owner* o) const = 0;
  // The elements thread `tid` copies of a tile_rows x tile_cols tile at (r0, c0) of a matrix of
  // rows x cols; `a_operand` tells which operand. By default element by element: elements tid,
  // tid + threads, .. row by row, those inside the matrix.
  virtual void tile_loads(bool a_operand, int tile_rows, int tile_cols, std::int64_t r0, std::int64_t c0,
                          std::int64_t rows, std::int64_t cols, int tid, std::vector<ElementRef>* out) const;
  void element_loads(int tile_rows, int tile_cols, std::int64_t r0, std::int64_t c0, std::int64_t rows,
                     std::int64_t cols, int tid, std::vector<ElementRef>* out) const;

  bool ata() const { return ata_; }
  const Tiling& tiling() const { return t_; }
  const Shape& shape() const { return s_; }

 private:
  BlockTile tile_of(int linear) const;
  int block_of(BlockTile tile) const;  // the inverse, for tiles inside C

  Tiling t_;
  bool ata_;
  Shape s_;
  int grid_m_ = 1, grid_n_ = 1, blocks_ = 1;
};

}  // namespace tilescope
