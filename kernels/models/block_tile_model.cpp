#include "kernels/models/block_tile_model.h"

#include <algorithm>

namespace tilescope {

namespace {

struct Span {
  std::int64_t lo, hi;
};
// Piece `index` of length `size` of [0, n), clipped.
Span span(int index, int size, std::int64_t n) {
  const std::int64_t lo = std::min<std::int64_t>(static_cast<std::int64_t>(index) * size, n);
  return {lo, std::min<std::int64_t>(lo + size, n)};
}

}  // namespace

BlockTileModel::BlockTileModel(const Tiling& t, Problem problem, const Shape& shape)
    : t_(t), ata_(problem == Problem::Ata), s_(shape) {
  grid_m_ = static_cast<int>(ceil_div(s_.M, t_.bm));
  grid_n_ = static_cast<int>(ceil_div(s_.N, t_.bn));
  blocks_ = t_.cluster_m > 1 ? t_.cluster_m * static_cast<int>(ceil_div(grid_m_, t_.cluster_m)) * grid_n_
                             : static_cast<int>(block_tile_count(ata_, grid_m_, grid_n_));
}

BlockTile BlockTileModel::tile_of(int linear) const {
  const int cm = t_.cluster_m;
  if (cm <= 1) return block_tile(ata_, linear, grid_m_, grid_n_, t_.band);
  const BlockTile group = gemm_block_tile(linear / cm, static_cast<int>(ceil_div(grid_m_, cm)), grid_n_, t_.band);
  return {group.row * cm + linear % cm, group.col};
}

int BlockTileModel::block_of(BlockTile tile) const {
  const int cm = t_.cluster_m;
  if (cm <= 1) return block_tile_index(ata_, tile, grid_m_, grid_n_, t_.band);
  const int group =
      gemm_block_index({tile.row / cm, tile.col}, static_cast<int>(ceil_div(grid_m_, cm)), grid_n_, t_.band);
  return group * cm + tile.row % cm;
}

int BlockTileModel::phases() const {
  return static_cast<int>(ceil_div(s_.K, t_.bk));
}

Owner BlockTileModel::owner(std::int64_t i, std::int64_t j) const {
  const bool mirrored = ata_ && i > j;
  if (mirrored) std::swap(i, j);
  const BlockTile tile{static_cast<int>(i / t_.bm), static_cast<int>(j / t_.bn)};
  Owner o;
  o.block_x = block_of(tile);
  o.block_y = 0;
  owner_in_block(static_cast<int>(i % t_.bm), static_cast<int>(j % t_.bn), &o);
  o.mirrored = mirrored;
  return o;
}

TileRect BlockTileModel::a_tile(int bx, int by, int phase) const {
  if (!block_active(bx, by)) return {};
  const Span rows = span(tile_of(bx).row, t_.bm, s_.M), ks = span(phase, t_.bk, s_.K);
  // Gemm: the block's rows of A x the slab's k. AᵀA: the slab's rows of A x the block row's columns.
  return ata_ ? TileRect{ks.lo, ks.hi, rows.lo, rows.hi} : TileRect{rows.lo, rows.hi, ks.lo, ks.hi};
}

TileRect BlockTileModel::b_tile(int bx, int by, int phase) const {
  if (!block_active(bx, by)) return {};
  const Span cols = span(tile_of(bx).col, t_.bn, s_.N), ks = span(phase, t_.bk, s_.K);
  return {ks.lo, ks.hi, cols.lo, cols.hi};
}

void BlockTileModel::thread_loads(int bx, int by, int tx, int ty, int phase, int piece, std::vector<ElementRef>* a,
                                  std::vector<ElementRef>* b) const {
  a->clear();
  b->clear();
  if (!block_active(bx, by) || phase < 0 || phase >= phases() || piece != 0) return;
  const BlockTile t = tile_of(bx);
  const int tid = ty * 32 + tx;
  const std::int64_t k0 = static_cast<std::int64_t>(phase) * t_.bk;
  const std::int64_t m0 = static_cast<std::int64_t>(t.row) * t_.bm, n0 = static_cast<std::int64_t>(t.col) * t_.bn;
  if (ata_)
    tile_loads(true, t_.bk, t_.bm, k0, m0, s_.K, s_.N, tid, a);
  else
    tile_loads(true, t_.bm, t_.bk, m0, k0, s_.M, s_.K, tid, a);
  // In a cluster, rank r copies columns r * BN / cluster_m .. of the common B tile.
  const int share = t_.bn / t_.cluster_m;
  tile_loads(false, t_.bk, share, k0, n0 + static_cast<std::int64_t>(bx % t_.cluster_m) * share, s_.K, s_.N, tid, b);
}

TileRect BlockTileModel::c_tile(int bx) const {
  const BlockTile t = tile_of(bx);
  const Span rows = span(t.row, t_.bm, s_.M), cols = span(t.col, t_.bn, s_.N);
  return {rows.lo, rows.hi, cols.lo, cols.hi};
}

BlockTileModel::Workers BlockTileModel::workers(int bx, int warp_m, int warp_n, bool idle_below_diagonal) const {
  const BlockTile t = tile_of(bx);
  const std::int64_t m0 = static_cast<std::int64_t>(t.row) * t_.bm, n0 = static_cast<std::int64_t>(t.col) * t_.bn;
  Workers out;
  for (int wm = 0; wm < t_.bm / warp_m; ++wm)
    for (int wn = 0; wn < t_.bn / warp_n; ++wn) {
      const std::int64_t r0 = m0 + static_cast<std::int64_t>(wm) * warp_m,
                         c0 = n0 + static_cast<std::int64_t>(wn) * warp_n;
      // As the kernels decide it: the warp tile's first row lies below its last column.
      if (idle_below_diagonal && ata_ && r0 > c0 + warp_n - 1) continue;
      ++out.warps;
      const TileRect inside{r0, std::min<std::int64_t>(r0 + warp_m, s_.M), c0,
                            std::min<std::int64_t>(c0 + warp_n, s_.N)};
      out.outputs += inside.elements();
    }
  return out;
}

PhaseWork BlockTileModel::phase_work(int bx, int, int phase) const {
  PhaseWork w;
  const Span ks = span(phase, t_.bk, s_.K);
  w.k0 = ks.lo;
  w.k1 = ks.hi;
  w.steps = t_.bk;
  w.outputs = c_tile(bx).elements();
  // Each block copies its A tile and its share of the B tile (all of it outside a cluster).
  const int cm = t_.cluster_m;
  w.global.value = t_.bm + t_.bn / cm;
  w.global.symbols = cm > 1 ? "BM + BN / " + std::to_string(cm) : "BM + BN";
  w.global.numbers = std::to_string(t_.bm) + " + " + std::to_string(t_.bn) + (cm > 1 ? " / " + std::to_string(cm) : "");
  describe_phase(bx, phase, &w);
  return w;
}

void BlockTileModel::tile_loads(bool, int tile_rows, int tile_cols, std::int64_t r0, std::int64_t c0, std::int64_t rows,
                                std::int64_t cols, int tid, std::vector<ElementRef>* out) const {
  element_loads(tile_rows, tile_cols, r0, c0, rows, cols, tid, out);
}

void BlockTileModel::element_loads(int tile_rows, int tile_cols, std::int64_t r0, std::int64_t c0, std::int64_t rows,
                                   std::int64_t cols, int tid, std::vector<ElementRef>* out) const {
  for (int e = tid; e < tile_rows * tile_cols; e += 32 * t_.warps) {
    const std::int64_t gr = r0 + e / tile_cols, gc = c0 + e % tile_cols;
    if (gr < rows && gc < cols) out->push_back({gr, gc});
  }
}

std::string BlockTileModel::reads_summary() const {
  const std::string verb = t_.verb;
  if (ata_)
    return "each element of A is " + verb + " g + 1 = " + std::to_string(grid_n_ + 1) +
           " times from global memory (g = ceil(N / " + std::to_string(t_.bn) + ") = " + std::to_string(grid_n_) +
           "): by the upper-triangle blocks of its block row as A^T and of its block column as A";
  if (t_.cluster_m > 1)
    return "each element of A is " + verb + " ceil(N / " + std::to_string(t_.bn) + ") = " + std::to_string(grid_n_) +
           " times and each element of B ceil(M / " + std::to_string(t_.bm * t_.cluster_m) +
           ") = " + std::to_string(b_reads(0, 0)) + " times from global memory" + t_.tail + "; a cluster of " +
           std::to_string(t_.cluster_m) + " blocks shares each slab of B, each block copying its share to all";
  return "each element of A is " + verb + " ceil(N / " + std::to_string(t_.bn) + ") = " + std::to_string(grid_n_) +
         " times and each element of B ceil(M / " + std::to_string(t_.bm) + ") = " + std::to_string(grid_m_) +
         " times from global memory" + t_.tail;
}

}  // namespace tilescope
