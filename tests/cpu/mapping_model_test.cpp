// The mapping models against the kernels, on the CPU. Every variant x configuration x problem x
// precision, on ragged sizes: the thread -> C formula of each kernel file's header, enumerated
// store by store, must give every element of C exactly once and agree with owner(); the tiles of
// consecutive phases must cover K exactly once per block; the threads' loads of a phase must
// fill the block's tiles exactly once; and the closed-form read counts must equal the counts
// summed from the tiles (for a one-phase kernel, from each thread's loads). Which kernel does what
// comes from the descriptors' model_caps and, for the thread -> C formula of each kernel file's
// header, from tests/data/variant_facts.json. The checks return the first
// disagreement as text, so the last test can show that each of them catches a broken model.
// (The GPU suite, gpu_trace_test.cpp, compares the same models with what the kernels record.)
#include "kernels/models/mapping_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/core/block_order.h"
#include "kernels/core/registry.h"
#include "kernels/cuda/device_info.h"
#include "kernels/instrument/trace.h"
#include "tests/support/variant_cases.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

using tilescope::testing::owner_text;
using tilescope::testing::where;

std::int64_t cdiv(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

std::vector<Shape> ragged_shapes(Problem p) {
  std::vector<Shape> out;
  for (std::int64_t n : {1, 7, 33, 127, 129}) out.push_back({n, n, n});
  if (p == Problem::Gemm) {
    out.push_back({129, 77, 301});
    out.push_back({77, 129, 33});
    out.push_back({1, 130, 7});
    out.push_back({300, 2, 129});
  } else {
    out.push_back({0, 129, 301});  // A is 301 x 129
    out.push_back({0, 300, 17});   // 7 block columns of 48: g + 1 = 8
    out.push_back({0, 77, 33});
  }
  return out;
}

bool same_owner(const Owner& a, const Owner& b) {
  return a.block_x == b.block_x && a.block_y == b.block_y && a.thread_x == b.thread_x && a.thread_y == b.thread_y &&
         a.slot == b.slot && a.mirrored == b.mirrored;
}

struct ModelCase {
  std::string variant;
  TileConfig cfg;
  Problem problem;
  Precision precision;
  Shape shape;              // normalised
  std::string thread_to_c;  // the kernel file's formula (variant_facts.json)
  bool one_phase = false;   // !model_caps.staged_phases: the K loop is one phase from global memory
  bool mirrored = false;    // model_caps.mirrored_ata: AᵀA stores the upper triangle and its mirror
  bool ata() const { return problem == Problem::Ata; }
  bool mirrors() const { return mirrored && ata(); }
  // Tensor-core kernels: a 1-D grid over the block tiles (block_order.h), threads (lane, warp).
  bool warp_level() const {
    return thread_to_c == "mma_fragments" || thread_to_c == "wmma_copy_out" || thread_to_c == "wgmma_fragments" ||
           thread_to_c == "wgmma_fragments_transposed";
  }
};

// The grid a kernel launches: 2-D (one block per tile; AᵀA's lower blocks exit at once; in bands
// when TileConfig::banded, and AᵀA then 1-D over the upper triangle), or 1-D over the tiles the
// kernel computes.
// Clusters (TileConfig::cluster_m, gemm): a cluster of cm blocks takes cm block rows of one block
// column, the clusters in block_order.h's order over those groups; the last group may reach below C.
Dim2 launch_grid(const ModelCase& s) {
  const std::int64_t gx = cdiv(s.shape.N, s.cfg.bn), gy = cdiv(s.shape.M, s.cfg.bm), cm = s.cfg.cluster_m;
  if (!s.warp_level() && s.cfg.banded && s.ata()) return {static_cast<int>(upper_block_count(static_cast<int>(gx))), 1};
  if (!s.warp_level()) return {static_cast<int>(gx), static_cast<int>(gy)};
  if (cm > 1) return {static_cast<int>(cm * cdiv(gy, cm) * gx), 1};
  return {static_cast<int>(s.ata() ? upper_block_count(static_cast<int>(gx)) : gx * gy), 1};
}
// The tile of C block (bx, by) computes, as (row, col) of block tiles.
BlockTile tile_of(const ModelCase& s, int bx, int by) {
  const int gx = static_cast<int>(cdiv(s.shape.N, s.cfg.bn)), gy = static_cast<int>(cdiv(s.shape.M, s.cfg.bm));
  if (!s.warp_level() && !s.cfg.banded) return {by, bx};
  if (!s.warp_level()) return s.ata() ? upper_block_tile(bx, gx) : gemm_block_tile(by * gx + bx, gy, gx);
  const int cm = s.cfg.cluster_m;
  if (cm > 1) {
    const BlockTile group = gemm_block_tile(bx / cm, static_cast<int>(cdiv(gy, cm)), gx, s.cfg.band_rows);
    return {group.row * cm + bx % cm, group.col};
  }
  return s.ata() ? upper_block_tile(bx, gx, s.cfg.band_rows) : gemm_block_tile(bx, gy, gx, s.cfg.band_rows);
}
bool tile_active(const ModelCase& s, int bx, int by) {
  const BlockTile t = tile_of(s, bx, by);
  return s.warp_level() || !(s.mirrors() && t.row > t.col);
}

ModelCase make_case(const VariantDescriptor& v, int ci, Problem problem, Precision precision, const Shape& raw) {
  ModelCase s;
  s.variant = v.id;
  s.cfg = v.configs[ci];
  s.problem = problem;
  s.precision = precision;
  s.shape = normalised(problem, raw);
  const auto& facts = tilescope::testing::facts_of(v);
  s.thread_to_c = facts.at("thread_to_c").get<std::string>();
  // A configuration whose threads are turned another way (naive's _columns) says so by name.
  if (facts.contains("thread_to_c_of_configs") && facts.at("thread_to_c_of_configs").contains(s.cfg.name))
    s.thread_to_c = facts.at("thread_to_c_of_configs").at(s.cfg.name).get<std::string>();
  s.one_phase = !v.model_caps.staged_phases;
  s.mirrored = v.model_caps.mirrored_ata;
  return s;
}

// ---- what the kernels do, written from the kernel files (not from the models) ---------------

// Every store to C the kernel makes, as (row, col, owner), from the header's thread -> C formula.
// mma_fragments (05_mma_sync.cu's header): warp w owns warp tile (w / WARPS_N, w % WARPS_N);
// lane l = 4g + t holds accumulator r of instruction tile (mi, ni): row 16 mi + g + 8 (r / 2),
// column 8 ni + 2t + r % 2 of the warp tile; slot (mi * NI + ni) * 4 + r.
// wgmma_fragments (06_wgmma_tma.cu's header): warp tile w (its slices of 64 rows x BN) is consumer
// warpgroup w + 1, warps 4 + 4 w + q; in slice s of it, warp q rows 16 q ..; lane 4g + t holds
// accumulator 4 j + r: row 64 s + 16 q + g + 8 (r / 2), column 8 j + 2t + r % 2; slot
// s * BN / 2 + 4 j + r.
// wgmma_fragments_transposed (the register-sourced rows, 06_wgmma_tma.cuh): the same with the
// accumulators holding Cᵀ: warp tile w is BM rows x 64 columns per slice s; lane 4g + t of warp q
// holds accumulator 4 j + r: row 8 j + 2t + r % 2, column 64 s + 16 q + g + 8 (r / 2); slot
// s * BM / 2 + 4 j + r.
// wmma_copy_out (04_wmma.cu's header): fragment f = i * (WN / FN) + j of the warp tile is copied
// out by lane l in chunks v = l, l + 32, ..: chunk v is row v / (FN / W), columns
// (v % (FN / W)) * W + [0, W) of the fragment, W = 16 bytes / sizeof(C); slot f.
template <typename F>
void for_each_warp_store(const ModelCase& s, F&& store) {
  const TileConfig& c = s.cfg;
  const bool f64 = s.precision == Precision::F64;
  const int warps_n = c.bn / c.warp_n, warps = (c.bm / c.warp_m) * warps_n;
  const Dim2 grid = launch_grid(s);
  auto put = [&](std::int64_t row, std::int64_t col, Owner o) {
    if (row >= s.shape.M || col >= s.shape.N) return;
    if (!s.mirrors()) return store(row, col, o);
    if (row > col) return;  // only i <= j is stored, with its mirror
    store(row, col, o);
    if (row != col) {
      o.mirrored = true;
      store(col, row, o);
    }
  };
  for (int b = 0; b < grid.x; ++b) {
    const BlockTile t = tile_of(s, b, 0);
    for (int w = 0; w < warps; ++w) {
      const std::int64_t r0 = static_cast<std::int64_t>(t.row) * c.bm + (w / warps_n) * c.warp_m;
      const std::int64_t c0 = static_cast<std::int64_t>(t.col) * c.bn + (w % warps_n) * c.warp_n;
      Owner o;
      o.block_x = b;
      o.block_y = 0;
      o.thread_y = w;
      if (s.thread_to_c == "mma_fragments") {
        for (int mi = 0; mi < c.warp_m / 16; ++mi)
          for (int ni = 0; ni < c.warp_n / 8; ++ni)
            for (int lane = 0; lane < 32; ++lane)
              for (int r = 0; r < 4; ++r) {
                o.thread_x = lane;
                o.slot = (mi * (c.warp_n / 8) + ni) * 4 + r;
                put(r0 + 16 * mi + lane / 4 + 8 * (r / 2), c0 + 8 * ni + 2 * (lane % 4) + r % 2, o);
              }
      } else if (s.thread_to_c == "wgmma_fragments") {
        for (int sl = 0; sl < c.warp_m / 64; ++sl)
          for (int q = 0; q < 4; ++q)
            for (int j = 0; j < c.warp_n / 8; ++j)
              for (int lane = 0; lane < 32; ++lane)
                for (int r = 0; r < 4; ++r) {
                  o.thread_y = 4 + 4 * w + q;
                  o.thread_x = lane;
                  o.slot = sl * c.warp_n / 2 + 4 * j + r;
                  put(r0 + 64 * sl + 16 * q + lane / 4 + 8 * (r / 2), c0 + 8 * j + 2 * (lane % 4) + r % 2, o);
                }
      } else if (s.thread_to_c == "wgmma_fragments_transposed") {
        for (int sl = 0; sl < c.warp_n / 64; ++sl)
          for (int q = 0; q < 4; ++q)
            for (int j = 0; j < c.warp_m / 8; ++j)
              for (int lane = 0; lane < 32; ++lane)
                for (int r = 0; r < 4; ++r) {
                  o.thread_y = 4 + 4 * w + q;
                  o.thread_x = lane;
                  o.slot = sl * c.warp_m / 2 + 4 * j + r;
                  put(r0 + 8 * j + 2 * (lane % 4) + r % 2, c0 + 64 * sl + 16 * q + lane / 4 + 8 * (r / 2), o);
                }
      } else {
        const int fm = f64 ? 8 : 16, fn = fm, width = f64 ? 2 : 4, per_row = fn / width;
        for (int i = 0; i < c.warp_m / fm; ++i)
          for (int j = 0; j < c.warp_n / fn; ++j)
            for (int v = 0; v < fm * per_row; ++v)
              for (int e = 0; e < width; ++e) {
                o.thread_x = v % 32;
                o.slot = i * (c.warp_n / fn) + j;
                put(r0 + i * fm + v / per_row, c0 + j * fn + (v % per_row) * width + e, o);
              }
      }
    }
  }
}

template <typename F>
void for_each_store(const ModelCase& s, F&& store) {
  if (s.warp_level()) return for_each_warp_store(s, store);
  const TileConfig& c = s.cfg;
  const Dim2 grid = launch_grid(s);
  // vector_chunks: W consecutive rows/cols per chunk when TM and TN are multiples of the
  // 16-byte vector, else 1.
  const int vec = s.precision == Precision::F32 ? 4 : 2;
  const int w = (c.tm % vec == 0 && c.tn % vec == 0) ? vec : 1;
  for (int by = 0; by < grid.y; ++by)
    for (int bx = 0; bx < grid.x; ++bx) {
      if (!tile_active(s, bx, by)) continue;  // lower-triangle block: returns at once
      const std::int64_t tr = tile_of(s, bx, by).row, tc = tile_of(s, bx, by).col;
      for (int ty = 0; ty < c.threads_y; ++ty)
        for (int tx = 0; tx < c.threads_x; ++tx)
          for (int i = 0; i < c.tm; ++i)
            for (int j = 0; j < c.tn; ++j) {
              std::int64_t row, col;
              if (s.thread_to_c == "vector_chunks") {
                row = tr * c.bm + (i / w) * w * c.threads_y + ty * w + i % w;
                col = tc * c.bn + (j / w) * w * c.threads_x + tx * w + j % w;
              } else if (s.thread_to_c == "x_along_row") {
                row = tr * c.bm + ty;
                col = tc * c.bn + tx;
              } else if (s.thread_to_c == "x_down_column") {
                row = tr * c.bm + tx;
                col = tc * c.bn + ty;
              } else {
                ADD_FAILURE() << s.variant << ": unknown thread_to_c \"" << s.thread_to_c << "\" in the facts";
                return;
              }
              if (row >= s.shape.M || col >= s.shape.N) continue;
              Owner o;
              o.block_x = static_cast<int>(bx);
              o.block_y = static_cast<int>(by);
              o.thread_x = tx;
              o.thread_y = ty;
              o.slot = i * c.tn + j;
              if (s.mirrors()) {
                if (row > col) continue;  // computed, but only i <= j is stored (with its mirror)
                store(row, col, o);
                if (row != col) {
                  o.mirrored = true;
                  store(col, row, o);
                }
              } else {
                store(row, col, o);
              }
            }
    }
}

// Closed forms of the global reads per element, derived from each kernel's loads.
std::int64_t expected_a_reads(const ModelCase& s) {
  const std::int64_t N = s.shape.N;
  if (s.one_phase) return s.ata() ? 2 * N : N;
  if (s.mirrored) return s.ata() ? cdiv(N, s.cfg.bn) + 1 : cdiv(N, s.cfg.bn);
  return s.ata() ? 2 * cdiv(N, s.cfg.bn) : cdiv(N, s.cfg.bn);  // tiles, both triangles
}
std::int64_t expected_b_reads(const ModelCase& s) {
  if (s.ata()) return 0;
  // A cluster reads each slab of B once for its cluster_m block rows.
  return s.one_phase ? s.shape.M : cdiv(cdiv(s.shape.M, s.cfg.bm), s.cfg.cluster_m);
}

// ---- the checks ------------------------------------------------------------------------------

std::string check_shapes(const MappingModel& m, const ModelCase& s) {
  const Dim2 g = m.grid(), b = m.block(), launched = launch_grid(s);
  if (b.x != s.cfg.threads_x || b.y != s.cfg.threads_y) return "block shape differs from the configuration's threads";
  if (g.x != launched.x || g.y != launched.y) return "grid differs from the launcher's";
  const int phases = s.one_phase ? 1 : static_cast<int>(cdiv(s.shape.K, s.cfg.bk));
  if (m.phases() != phases) return "phases() = " + std::to_string(m.phases()) + ", expected " + std::to_string(phases);
  for (int by = 0; by < g.y; ++by)
    for (int bx = 0; bx < g.x; ++bx)
      if (m.block_active(bx, by) != tile_active(s, bx, by))
        return "block_active(" + std::to_string(bx) + ", " + std::to_string(by) + ") is wrong";
  return "";
}

std::string check_ownership(const MappingModel& m, const ModelCase& s) {
  const std::int64_t M = s.shape.M, N = s.shape.N;
  std::vector<int> stores(static_cast<std::size_t>(M * N), 0);
  std::vector<Owner> expected(static_cast<std::size_t>(M * N));
  for_each_store(s, [&](std::int64_t r, std::int64_t c, const Owner& o) {
    ++stores[r * N + c];
    expected[r * N + c] = o;
  });
  const Dim2 g = m.grid(), b = m.block();
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t j = 0; j < N; ++j) {
      const int n = stores[i * N + j];
      if (n != 1) return where("C", i, j) + " is stored " + std::to_string(n) + " times by the kernel formula";
      const Owner o = m.owner(i, j);
      if (o.block_x < 0 || o.block_x >= g.x || o.block_y < 0 || o.block_y >= g.y)
        return where("C", i, j) + ": owner block outside the grid: " + owner_text(o);
      if (o.thread_x < 0 || o.thread_x >= b.x || o.thread_y < 0 || o.thread_y >= b.y)
        return where("C", i, j) + ": owner thread outside the block: " + owner_text(o);
      if (o.slot < 0 || o.slot >= (s.warp_level() ? m.writer_slots() : s.cfg.tm * s.cfg.tn))
        return where("C", i, j) + ": slot out of range: " + owner_text(o);
      if (!m.block_active(o.block_x, o.block_y)) return where("C", i, j) + ": owned by an inactive block";
      if (!same_owner(o, expected[i * N + j]))
        return where("C", i, j) + ": model says " + owner_text(o) + ", the kernel " + owner_text(expected[i * N + j]);
      if (s.mirrors()) {
        // Upper elements by one active block, lower ones as the mirror of their transpose.
        if (o.mirrored != (i > j)) return where("C", i, j) + ": mirrored flag wrong";
        if (i > j) {
          Owner t = m.owner(j, i);
          t.mirrored = true;
          if (!same_owner(o, t)) return where("C", i, j) + " is not written by the owner of its transpose";
        }
      } else if (o.mirrored) {
        return where("C", i, j) + ": mirrored, but this kernel mirrors nothing";
      }
    }
  // A (block, thread, slot) computes one value: no two direct stores share one. (wmma's owners
  // are the lanes that copy a fragment out, several elements each: its layout is not known.)
  if (s.thread_to_c == "wmma_copy_out") return "";
  std::vector<std::int64_t> keys;
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t j = 0; j < N; ++j) {
      const Owner o = m.owner(i, j);
      if (o.mirrored) continue;
      keys.push_back(
          (static_cast<std::int64_t>(o.block_linear(g)) * b.x * b.y + o.thread_linear(b)) * m.writer_slots() + o.slot);
    }
  std::sort(keys.begin(), keys.end());
  if (std::adjacent_find(keys.begin(), keys.end()) != keys.end()) return "two elements share one accumulator";
  return "";
}

// The k range of a tile (gemm A: its columns; otherwise its rows) and the other range.
struct Ranges {
  std::int64_t k0, k1, o0, o1;
};
Ranges ranges(const TileRect& t, bool k_is_cols) {
  return k_is_cols ? Ranges{t.col0, t.col1, t.row0, t.row1} : Ranges{t.row0, t.row1, t.col0, t.col1};
}

// Clusters: every block of a cluster stages the same B tile, and their threads' loads fill it
// exactly once between them (each copies its share to all).
std::string check_cluster_b_loads(const MappingModel& m, const ModelCase& s) {
  const Dim2 g = m.grid(), b = m.block();
  const int cm = s.cfg.cluster_m;
  std::vector<ElementRef> la, lb;
  for (int first = 0; first < g.x; first += cm)
    for (int p = 0; p < m.phases(); ++p) {
      const TileRect bt = m.b_tile(first, 0, p);
      const std::string ph = "cluster of block " + std::to_string(first) + " phase " + std::to_string(p);
      std::vector<int> seen(static_cast<std::size_t>(bt.elements()), 0);
      for (int bx = first; bx < first + cm; ++bx) {
        const TileRect other = m.b_tile(bx, 0, p);
        if (other.row0 != bt.row0 || other.row1 != bt.row1 || other.col0 != bt.col0 || other.col1 != bt.col1)
          return ph + ": its blocks stage different B tiles";
        for (int q = 0; q < m.pieces(); ++q)
          for (int ty = 0; ty < b.y; ++ty)
            for (int tx = 0; tx < b.x; ++tx) {
              m.thread_loads(bx, 0, tx, ty, p, q, &la, &lb);
              for (const ElementRef& e : lb) {
                if (e.row < bt.row0 || e.row >= bt.row1 || e.col < bt.col0 || e.col >= bt.col1)
                  return ph + ": a thread loads " + where("B", e.row, e.col) + " outside the B tile";
                ++seen[(e.row - bt.row0) * (bt.col1 - bt.col0) + (e.col - bt.col0)];
              }
            }
      }
      if (std::any_of(seen.begin(), seen.end(), [](int n) { return n != 1; }))
        return ph + ": the blocks' loads do not fill the B tile exactly once";
    }
  return "";
}

std::string check_tiles(const MappingModel& m, const ModelCase& s) {
  const Dim2 g = m.grid(), b = m.block();
  const std::int64_t M = s.shape.M, N = s.shape.N, K = s.shape.K;
  const std::int64_t a_rows = s.ata() ? K : M, a_cols = s.ata() ? N : K;
  std::vector<ElementRef> la, lb;
  std::vector<int> seen_a, seen_b;
  for (int by = 0; by < g.y; ++by)
    for (int bx = 0; bx < g.x; ++bx) {
      const std::string blk = "block (" + std::to_string(bx) + ", " + std::to_string(by) + ")";
      std::int64_t next_k_a = 0, next_k_b = 0;
      for (int p = 0; p < m.phases(); ++p) {
        const TileRect at = m.a_tile(bx, by, p), bt = m.b_tile(bx, by, p);
        if (s.one_phase || !m.block_active(bx, by)) {
          if (!at.empty() || !bt.empty()) return blk + ": loads tiles, but nothing goes through shared memory";
          continue;
        }
        const std::string ph = blk + " phase " + std::to_string(p);
        // The A-operand tile spans the block's rows of C (gemm: rows of A; AᵀA: columns of A).
        const Ranges ra = ranges(at, !s.ata()), rb = ranges(bt, false);
        const BlockTile t = tile_of(s, bx, by);
        const std::int64_t r0 = std::min<std::int64_t>(static_cast<std::int64_t>(t.row) * s.cfg.bm, M);
        const std::int64_t c0 = std::min<std::int64_t>(static_cast<std::int64_t>(t.col) * s.cfg.bn, N);
        if (ra.o0 != r0 || ra.o1 != std::min<std::int64_t>(r0 + s.cfg.bm, M))
          return ph + ": A tile misses the block's rows";
        if (rb.o0 != c0 || rb.o1 != std::min<std::int64_t>(c0 + s.cfg.bn, N))
          return ph + ": B tile misses the block's columns";
        // Consecutive phases: contiguous k ranges of at most BK, nonempty, from 0.
        if (ra.k0 != next_k_a || ra.k1 <= ra.k0 || ra.k1 - ra.k0 > s.cfg.bk)
          return ph + ": A tile's k range breaks the cover";
        if (rb.k0 != next_k_b || rb.k1 <= rb.k0 || rb.k1 - rb.k0 > s.cfg.bk)
          return ph + ": B tile's k range breaks the cover";
        next_k_a = ra.k1;
        next_k_b = rb.k1;
        if (at.row1 > a_rows || at.col1 > a_cols || bt.row1 > K || bt.col1 > N) return ph + ": tile outside the matrix";
        // The threads' loads of this phase fill the tiles, each element exactly once.
        seen_a.assign(static_cast<std::size_t>(at.elements()), 0);
        seen_b.assign(static_cast<std::size_t>(bt.elements()), 0);
        for (int q = 0; q < m.pieces(); ++q)
          for (int ty = 0; ty < b.y; ++ty)
            for (int tx = 0; tx < b.x; ++tx) {
              m.thread_loads(bx, by, tx, ty, p, q, &la, &lb);
              for (const ElementRef& e : la) {
                if (e.row < at.row0 || e.row >= at.row1 || e.col < at.col0 || e.col >= at.col1)
                  return ph + ": a thread loads " + where("A", e.row, e.col) + " outside the A tile";
                ++seen_a[(e.row - at.row0) * (at.col1 - at.col0) + (e.col - at.col0)];
              }
              for (const ElementRef& e : lb) {
                if (e.row < bt.row0 || e.row >= bt.row1 || e.col < bt.col0 || e.col >= bt.col1)
                  return ph + ": a thread loads " + where("B", e.row, e.col) + " outside the B tile";
                ++seen_b[(e.row - bt.row0) * (bt.col1 - bt.col0) + (e.col - bt.col0)];
              }
            }
        if (std::any_of(seen_a.begin(), seen_a.end(), [](int n) { return n != 1; }))
          return ph + ": the threads' loads do not fill the A tile exactly once";
        // In a cluster the B tile is the cluster's: its blocks' loads fill it together (below).
        if (s.cfg.cluster_m == 1 && std::any_of(seen_b.begin(), seen_b.end(), [](int n) { return n != 1; }))
          return ph + ": the threads' loads do not fill the B tile exactly once";
      }
      if (!s.one_phase && m.block_active(bx, by) && (next_k_a != K || next_k_b != K))
        return blk + ": the phases do not cover K";
    }
  return s.cfg.cluster_m > 1 ? check_cluster_b_loads(m, s) : "";
}

std::string check_reads(const MappingModel& m, const ModelCase& s) {
  const Dim2 g = m.grid(), b = m.block();
  const std::int64_t M = s.shape.M, N = s.shape.N, K = s.shape.K;
  const std::int64_t a_rows = s.ata() ? K : M, a_cols = s.ata() ? N : K;
  std::vector<std::int64_t> ra(static_cast<std::size_t>(a_rows * a_cols), 0);
  std::vector<std::int64_t> rb(static_cast<std::size_t>(s.ata() ? 0 : K * N), 0);
  // AᵀA: B is A, so both operand roles count as reads of A.
  std::vector<std::int64_t>& rb_target = s.ata() ? ra : rb;
  const std::int64_t b_cols = s.ata() ? a_cols : N;
  auto add_rect = [](std::vector<std::int64_t>& r, std::int64_t cols, const TileRect& t) {
    for (std::int64_t i = t.row0; i < t.row1; ++i)
      for (std::int64_t j = t.col0; j < t.col1; ++j) ++r[i * cols + j];
  };
  if (s.one_phase) {
    std::vector<ElementRef> la, lb;
    for (int by = 0; by < g.y; ++by)
      for (int bx = 0; bx < g.x; ++bx)
        for (int ty = 0; ty < b.y; ++ty)
          for (int tx = 0; tx < b.x; ++tx) {
            m.thread_loads(bx, by, tx, ty, 0, 0, &la, &lb);
            for (const ElementRef& e : la) ++ra[e.row * a_cols + e.col];
            for (const ElementRef& e : lb) ++rb_target[e.row * b_cols + e.col];
          }
  } else {
    for (int by = 0; by < g.y; ++by)
      for (int bx = 0; bx < g.x; ++bx)
        for (int p = 0; p < m.phases(); ++p) {
          add_rect(ra, a_cols, m.a_tile(bx, by, p));
          // A cluster reads its B tile once, for all its blocks.
          if (bx % s.cfg.cluster_m == 0) add_rect(rb_target, b_cols, m.b_tile(bx, by, p));
        }
  }
  const std::int64_t ea = expected_a_reads(s), eb = expected_b_reads(s);
  for (std::int64_t i = 0; i < a_rows; ++i)
    for (std::int64_t j = 0; j < a_cols; ++j) {
      const std::int64_t summed = ra[i * a_cols + j], model = m.a_reads(i, j);
      if (model != summed || model != ea)
        return where("A", i, j) + ": a_reads() = " + std::to_string(model) + ", summed from the loads " +
               std::to_string(summed) + ", closed form " + std::to_string(ea);
    }
  const std::int64_t b_rows = s.ata() ? a_rows : K;
  for (std::int64_t i = 0; i < b_rows; ++i)
    for (std::int64_t j = 0; j < b_cols; ++j) {
      const std::int64_t summed = s.ata() ? 0 : rb[i * N + j], model = m.b_reads(i, j);
      if (model != summed || model != eb)
        return where("B", i, j) + ": b_reads() = " + std::to_string(model) + ", summed from the loads " +
               std::to_string(summed) + ", closed form " + std::to_string(eb);
    }
  return "";
}

std::string check_all(const MappingModel& m, const ModelCase& s) {
  for (auto check : {check_shapes, check_ownership, check_tiles, check_reads}) {
    const std::string e = check(m, s);
    if (!e.empty()) return e;
  }
  return "";
}

// ---- the suites ------------------------------------------------------------------------------

using Case = tilescope::testing::VariantCase;
using tilescope::testing::case_name;

std::vector<Case> modelled_cases() {
  return tilescope::testing::variant_cases([](const VariantDescriptor& v) { return v.model != nullptr; });
}

class EveryModel : public ::testing::TestWithParam<Case> {};

TEST_P(EveryModel, MatchesTheKernelOnRaggedSizes) {
  const Case c = GetParam();
  const VariantDescriptor& v = *find_variant(c.variant);
  std::string refused;
  if (!supports(v, c.precision)) {
    // No model for an input type the variant does not compute, and a reason instead.
    EXPECT_EQ(make_mapping_model(c.variant, 0, c.problem, c.precision, Shape{8, 8, 8}, &refused), nullptr);
    EXPECT_NE(refused, "");
    return;
  }
  int checked = 0;
  for (const Shape& raw : ragged_shapes(c.problem))
    for (std::size_t ci = 0; ci < v.configs.size(); ++ci) {
      // Configurations tiled for other input types refuse this one.
      if (!variant_refusal(v, static_cast<int>(ci), c.problem, c.precision).empty()) continue;
      const ModelCase s = make_case(v, static_cast<int>(ci), c.problem, c.precision, raw);
      SCOPED_TRACE(c.variant + ":" + s.cfg.name + " " + to_string(c.problem) + " " + to_string(c.precision) + " M=" +
                   std::to_string(s.shape.M) + " N=" + std::to_string(s.shape.N) + " K=" + std::to_string(s.shape.K));
      std::string why;
      const auto m = make_mapping_model(c.variant, static_cast<int>(ci), c.problem, c.precision, raw, &why);
      ASSERT_NE(m, nullptr) << why;
      EXPECT_EQ(check_all(*m, s), "");
      EXPECT_FALSE(m->reads_summary().empty());
      ++checked;
    }
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(Cpu, EveryModel, ::testing::ValuesIn(modelled_cases()), case_name);

TEST(MappingModel, EveryCudaVariantHasOneAndTheOthersSayWhyNot) {
  std::string why;
  for (const VariantDescriptor* v : variant_registry()) {
    EXPECT_EQ(v->model != nullptr, v->backend == Backend::Cuda) << v->id;
    if (v->model) continue;
    EXPECT_EQ(make_mapping_model(v->id, 0, Problem::Gemm, Precision::F32, Shape{8, 8, 8}, &why), nullptr);
    EXPECT_EQ(why, v->no_model_reason) << v->id;
  }
  EXPECT_EQ(make_mapping_model("nonesuch", 0, Problem::Gemm, Shape{8, 8, 8}, &why), nullptr);
  EXPECT_NE(why.find("unknown variant"), std::string::npos);
  const std::string first = tilescope::testing::one_phase_kernel().id;
  EXPECT_EQ(make_mapping_model(first, 99, Problem::Gemm, Shape{8, 8, 8}, &why), nullptr);
  EXPECT_EQ(make_mapping_model(first, 0, Problem::Gemm, Shape{8, 0, 8}, &why), nullptr);
  EXPECT_FALSE(why.empty());
  EXPECT_NE(make_mapping_model(first, 0, Problem::Gemm, Shape{8, 8, 8}, &why), nullptr);
  EXPECT_EQ(why, "");
}

TEST(MappingModel, AtaShapeIsNormalisedAndPrecisionChangesTheVectorLayout) {
  const VariantDescriptor& v = tilescope::testing::prefetch_kernel();
  const nlohmann::json& layout = tilescope::testing::facts_of(v).at("vector_layout");
  const int ci = tilescope::testing::fact_config(v, layout.at("config").get<std::string>());
  const auto f = make_mapping_model(v.id, ci, Problem::Gemm, Precision::F32, Shape{64, 64, 8}, nullptr);
  const auto d = make_mapping_model(v.id, ci, Problem::Gemm, Precision::F64, Shape{64, 64, 8}, nullptr);
  // Float: 4 consecutive columns per thread (a float4), so column 4 is thread 1's; double: 2.
  const int f1 = layout.at("f32_first_column_of_thread_1").get<int>();
  const int d1 = layout.at("f64_first_column_of_thread_1").get<int>();
  EXPECT_EQ(f->owner(0, f1).thread_x, 1);
  EXPECT_EQ(f->owner(0, f1 - 1).thread_x, 0);
  EXPECT_EQ(d->owner(0, d1).thread_x, 1);
  EXPECT_EQ(d->owner(0, d1 + 1).thread_x, 1);
  const auto a = make_mapping_model(tilescope::testing::tiled_kernel().id, 0, Problem::Ata, Shape{5, 20, 3}, nullptr);
  EXPECT_EQ(a->grid().y, a->grid().x);  // M forced to N
}

// A model with one deliberate mistake, to show that each check catches it.
class Broken final : public MappingModel {
 public:
  enum class Bug { Owner, Slot, Reads, TileShift, TileDrop, Load, Active };
  Broken(std::unique_ptr<MappingModel> m, Bug bug) : m_(std::move(m)), bug_(bug) {}
  Dim2 grid() const override { return m_->grid(); }
  Dim2 block() const override { return m_->block(); }
  int phases() const override { return m_->phases(); }
  int pieces() const override { return m_->pieces(); }
  bool block_active(int bx, int by) const override {
    return bug_ == Bug::Active && bx == 0 && by == 1 ? !m_->block_active(bx, by) : m_->block_active(bx, by);
  }
  Owner owner(std::int64_t i, std::int64_t j) const override {
    Owner o = m_->owner(i, j);
    if (bug_ == Bug::Owner && i == 5 && j == 6) o.thread_x = (o.thread_x + 1) % block().x;
    if (bug_ == Bug::Slot && i == 5 && j == 6) o.slot += 1;
    return o;
  }
  TileRect a_tile(int bx, int by, int p) const override {
    TileRect t = m_->a_tile(bx, by, p);
    if (bug_ == Bug::TileShift && p == 1) t.col0 += 1, t.col1 = std::max(t.col1, t.col0);
    if (bug_ == Bug::TileDrop && bx == 1 && by == 0 && p == 0) t = {};
    return t;
  }
  TileRect b_tile(int bx, int by, int p) const override { return m_->b_tile(bx, by, p); }
  void thread_loads(int bx, int by, int tx, int ty, int p, int q, std::vector<ElementRef>* a,
                    std::vector<ElementRef>* b) const override {
    m_->thread_loads(bx, by, tx, ty, p, q, a, b);
    if (bug_ == Bug::Load && tx == 1 && ty == 0 && !a->empty()) a->pop_back();
  }
  PhaseWork phase_work(int bx, int by, int p) const override { return m_->phase_work(bx, by, p); }
  std::int64_t a_reads(std::int64_t r, std::int64_t c) const override {
    return m_->a_reads(r, c) + (bug_ == Bug::Reads && r == 3 && c == 2 ? 1 : 0);
  }
  std::int64_t b_reads(std::int64_t r, std::int64_t c) const override { return m_->b_reads(r, c); }
  std::string reads_summary() const override { return m_->reads_summary(); }

 private:
  std::unique_ptr<MappingModel> m_;
  Bug bug_;
};

Broken::Bug bug_named(const std::string& name) {
  static const std::pair<const char*, Broken::Bug> bugs[] = {
      {"Owner", Broken::Bug::Owner},         {"Slot", Broken::Bug::Slot},         {"Reads", Broken::Bug::Reads},
      {"TileShift", Broken::Bug::TileShift}, {"TileDrop", Broken::Bug::TileDrop}, {"Load", Broken::Bug::Load},
      {"Active", Broken::Bug::Active}};
  for (const auto& b : bugs)
    if (name == b.first) return b.second;
  throw std::runtime_error("unknown bug \"" + name + "\" in tests/data/variant_facts.json");
}

// The mutation cases (which configuration, problem and bug) are per-variant facts of the data
// file; every variant with a mapping model has some.
TEST(MappingModel, TheChecksCatchABrokenModel) {
  const Shape shape{129, 150, 77};
  int mutations = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (!v->model) continue;
    const nlohmann::json cases = tilescope::testing::facts_of(*v).value("mutations", nlohmann::json::array());
    EXPECT_FALSE(cases.empty()) << v->id << ": the data file lists no broken-model case";
    for (const nlohmann::json& mu : cases) {
      const std::string config = mu.at("config").get<std::string>();
      const int ci = tilescope::testing::fact_config(*v, config);
      Problem problem;
      ASSERT_TRUE(parse_problem(mu.at("problem").get<std::string>(), &problem));
      const Broken::Bug bug = bug_named(mu.at("bug").get<std::string>());
      Precision precision = Precision::F32;
      ASSERT_TRUE(parse_precision(mu.value("precision", std::string("f32")), &precision));
      const ModelCase s = make_case(*v, ci, problem, precision, shape);
      std::string why;
      auto good = make_mapping_model(v->id, ci, problem, precision, shape, &why);
      ASSERT_NE(good, nullptr) << v->id << " " << config << ": " << why;
      ASSERT_EQ(check_all(*good, s), "");
      const Broken broken(std::move(good), bug);
      EXPECT_NE(check_all(broken, s), "") << v->id << " " << config << " bug " << mu.at("bug");
      ++mutations;
    }
  }
  EXPECT_GT(mutations, 0);
}

// ---- the trace API's host side -------------------------------------------------------------

// Without a GPU the API answers with a reason instead of throwing or crashing.
TEST(Trace, WithoutAGpuSaysWhy) {
  if (probe_device().ok()) GTEST_SKIP() << "a GPU is present: GpuTrace covers it";
  std::string error;
  const TraceResult r =
      run_trace(tilescope::testing::one_phase_kernel().id, 0, Problem::Gemm, Precision::F32, {8, 8, 8}, -1, 1, &error);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(error.find("no usable GPU"), std::string::npos) << error;
  EXPECT_TRUE(r.writer.empty());
}

TEST(Trace, WriterIdsDecode) {
  const Dim2 grid{5, 3}, block{16, 8};
  const int id = trace_writer_id(2 * 5 + 4, 16 * 8, 7 * 16 + 9, 42);
  const Owner o = decode_writer(id, grid, block);
  EXPECT_EQ(o.block_x, 4);
  EXPECT_EQ(o.block_y, 2);
  EXPECT_EQ(o.thread_x, 9);
  EXPECT_EQ(o.thread_y, 7);
  EXPECT_EQ(o.slot, 42);
  EXPECT_EQ(decode_writer(-1, grid, block).block_x, -1);
  EXPECT_TRUE(writer_ids_fit({256, 256}, {16, 16}));   // 16 x 16 threads per block on 4096 x 4096
  EXPECT_FALSE(writer_ids_fit({512, 512}, {16, 16}));  // ... on 8192 x 8192
}

}  // namespace
