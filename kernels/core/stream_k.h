// Stream-K: how a persistent grid's blocks share out the tiles of C and their k slabs so that every
// block has the same work (Osama et al., "Stream-K: Work-centric Parallel Decomposition for Dense
// Matrix-Matrix Multiplication on the GPU", 2023, its hybrid of whole tiles and shared-out slabs).
// The tiles are numbered in block_order.h's order. Plain C++ header that device code and NVRTC
// compile too.
#pragma once

#include "kernels/ptx/device_types.cuh"  // std::int64_t and TILESCOPE_HOST_DEVICE, under NVRTC too

namespace tilescope {

// One run of a block's work: `slabs` slabs of the tile at `tile` in the order, from its slab `slab0`
// on. w is the work it belongs to (split K's (tile, part); stream-K's whole tile), it (stream-K) the
// run's first shared-out iteration, or -1 for a whole tile.
struct WorkRun {
  int w = 0, tile = 0, slab0 = 0, slabs = 0, it = -1;
};

// Stream-K's share-out: the tiles of the whole waves of the grid's blocks are taken whole, tile t
// by block t % blocks as without it; the rest, the last part-empty wave (all of them where there
// are fewer tiles than blocks), are cut in their (tile, slab) iterations, tile after tile in the
// order, and block b takes iterations begin(b) .. begin(b + 1) - 1 of them: every block the same
// work, give or take a slab, where whole tiles would leave the last wave's SMs idle. A run may begin
// or end inside a tile: the block whose run holds a tile's first slab adds the partial sums of the
// blocks after it that hold the rest of its slabs. A tile of no slabs (an empty K, or an
// instrumented build stopped before the first) is taken whole: its C, zeros, is still stored.
// Host and device: a kernel walks its block's runs, the launch sizes the workspace and lays out the
// timeline from the same walk, and a CPU test checks that the runs cover every iteration once.
struct StreamShare {
  // 32-bit counts (a kernel keeps them in registers beside its accumulators): a launch has fewer
  // than 2^31 tiles and iterations; only begin's product needs 64 bits.
  int whole = 0;              // tiles taken whole
  int iterations = 0;         // the rest's (tile, slab) iterations, shared out
  int blocks = 1, slabs = 1;  // of the grid; of a tile (fewer iterations than blocks: some runs are empty)

  StreamShare() = default;
  TILESCOPE_HOST_DEVICE StreamShare(int tiles, int slabs_per_tile, int grid)
      : whole(slabs_per_tile > 0 ? tiles / grid * grid : tiles),
        iterations((tiles - whole) * slabs_per_tile),
        blocks(grid),
        slabs(slabs_per_tile) {}
  // Block b's first iteration (b = blocks: one past the last).
  TILESCOPE_HOST_DEVICE int begin(int b) const {
    return static_cast<int>(static_cast<std::int64_t>(b) * iterations / blocks);
  }
  // The block whose run holds iteration i: the last b with begin(b) <= i.
  TILESCOPE_HOST_DEVICE int block_of(int i) const {
    return static_cast<int>(((i + 1) * static_cast<std::int64_t>(blocks) - 1) / iterations);
  }
  // Whether block b's shared-out run holds any slab (with fewer iterations than blocks, some do not).
  TILESCOPE_HOST_DEVICE bool holds_slabs(int b) const { return begin(b) < begin(b + 1); }
  // The slabs block b goes through.
  TILESCOPE_HOST_DEVICE int block_slabs(int b) const {
    const int whole_tiles = b < whole ? (whole - b + blocks - 1) / blocks : 0;
    return whole_tiles * slabs + begin(b + 1) - begin(b);
  }

  // Block b's runs in turn: for (WorkRun r = first_run(b); more(b, r); next_run(b, r)).
  TILESCOPE_HOST_DEVICE WorkRun first_run(int b) const {
    WorkRun r;
    r.w = b;
    if (b < whole)
      whole_run(r);
    else
      shared_run(b, r, begin(b));
    return r;
  }
  TILESCOPE_HOST_DEVICE bool more(int b, const WorkRun& r) const { return r.it < 0 || r.it < begin(b + 1); }
  TILESCOPE_HOST_DEVICE void next_run(int b, WorkRun& r) const {
    if (r.it < 0 && r.w + blocks < whole) {
      r.w += blocks;
      whole_run(r);
    } else {
      shared_run(b, r, r.it < 0 ? begin(b) : r.it + r.slabs);
    }
  }

 private:
  TILESCOPE_HOST_DEVICE void whole_run(WorkRun& r) const {
    r.tile = r.w;
    r.slab0 = 0;
    r.slabs = slabs;
  }
  // The shared-out iterations from `it` on, to the end of block b's run or of the tile.
  TILESCOPE_HOST_DEVICE void shared_run(int b, WorkRun& r, int it) const {
    const int left = begin(b + 1) - it;
    r.it = it;
    if (left <= 0) {  // the block's run is done (or empty): no slab to divide
      r.slabs = 0;
      return;
    }
    r.tile = whole + it / slabs;
    r.slab0 = it % slabs;
    r.slabs = left < slabs - r.slab0 ? left : slabs - r.slab0;
  }
};

}  // namespace tilescope
