// Tensor-core test data made by hand, so the fragment pictures are checked without any variant:
// the m16n8k16 16-bit layout of mma.sync (kernels/ptx/mma_ptx.cuh), ldmatrix x4 reads of a 64 x 32
// tile of 2-byte elements with and without the XOR swizzle, and a small warp-level mapping model
// whose owners follow that layout.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/models/mapping_model.h"

namespace tilescope::testing {

// Byte address of (row, col) in a 64-byte-row tile of 2-byte elements: 4 chunks of 16 bytes a
// row; the swizzle XORs the chunk with (row / 2) % 4, so 8 consecutive rows cover all 32 banks.
inline std::int64_t test_tile_address(bool swizzled, int row, int col) {
  const int chunk = col / 8, x = swizzled ? (row / 2) % 4 : 0;
  return static_cast<std::int64_t>(row) * 64 + (chunk ^ x) * 16 + (col % 8) * 2;
}

// ldmatrix x4 of A's first 16 x 16 fragment: phase q (lanes 8q .. 8q + 7) reads matrix q, whose
// rows (l % 8) + 8 (q % 2) start at column 8 (q / 2); 16 bytes a lane.
inline std::vector<SharedRequest> test_ldmatrix_requests(bool swizzled) {
  std::vector<SharedRequest> out;
  for (int q = 0; q < 4; ++q) {
    SharedRequest r;
    for (int lane = 8 * q; lane < 8 * q + 8; ++lane)
      r.reads.push_back({lane, test_tile_address(swizzled, lane % 8 + 8 * (q % 2), 8 * (q / 2)), 16});
    out.push_back(r);
  }
  return out;
}

// mma.sync m16n8k16 with 16-bit inputs: lane l is group g = l / 4, thread t = l % 4;
// a[i] = A(g + 8 (i % 2), 2t + 8 (i / 2) + {0, 1}), b[i] = B(2t + 8i + {0, 1}, g),
// c[r] = C(g + 8 (r / 2), 2t + r % 2). Warp tile 16 x 16 (two mma tiles side by side), 2 x 1 warps.
inline FragmentPicture test_m16n8k16_picture() {
  FragmentPicture f;
  f.instruction = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";
  f.mma_m = 16, f.mma_n = 8, f.mma_k = 16;
  f.warps_m = 2, f.warps_n = 1, f.warp_m = 16, f.warp_n = 16;
  f.stages = 3;
  f.in_flight = 2;
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane / 4, t = lane % 4;
    for (int i = 0; i < 4; ++i)
      for (int e = 0; e < 2; ++e) f.a.push_back({lane, i, g + 8 * (i % 2), 2 * t + 8 * (i / 2) + e});
    for (int i = 0; i < 2; ++i)
      for (int e = 0; e < 2; ++e) f.b.push_back({lane, i, 2 * t + 8 * i + e, g});
    for (int r = 0; r < 4; ++r) f.c.push_back({lane, r, g + 8 * (r / 2), 2 * t + r % 2});
  }
  for (OperandReads* reads : {&f.a_reads, &f.b_reads}) {
    reads->instruction = "ldmatrix.sync.aligned.m8n8.x4.shared.b16";
    reads->swizzled = test_ldmatrix_requests(true);
    reads->unswizzled = test_ldmatrix_requests(false);
    reads->tile_rows = 64, reads->tile_cols = 32, reads->element_bytes = 2;
  }
  return f;
}

// A warp-level model over test_m16n8k16_picture(): blocks of 32 x 16 elements of C in a 2-D grid,
// 2 warps of 32 lanes each; warp w owns rows 16w .. 16w + 15 of the block, as two mma tiles of
// 16 x 8; slot = (mi * NI + ni) * 4 + r with NI = 2.
class TestWarpModel : public MappingModel {
 public:
  explicit TestWarpModel(const Shape& s) : s_(s), picture_(test_m16n8k16_picture()) {}
  Dim2 grid() const override {
    return {static_cast<int>((s_.N + kBn - 1) / kBn), static_cast<int>((s_.M + kBm - 1) / kBm)};
  }
  Dim2 block() const override { return {32, 2}; }
  int phases() const override { return static_cast<int>((s_.K + kBk - 1) / kBk); }
  bool block_active(int, int) const override { return true; }
  int writer_slots() const override { return 8; }
  const FragmentPicture* fragments() const override { return &picture_; }
  Owner owner(std::int64_t i, std::int64_t j) const override {
    const int ri = static_cast<int>(i % kBm), cj = static_cast<int>(j % kBn);
    const int r16 = ri % 16, ni = cj / 8, c8 = cj % 8;
    Owner o;
    o.block_x = static_cast<int>(j / kBn);
    o.block_y = static_cast<int>(i / kBm);
    o.thread_x = (r16 % 8) * 4 + c8 / 2;
    o.thread_y = ri / 16;
    o.slot = ni * 4 + (r16 / 8) * 2 + c8 % 2;
    return o;
  }
  TileRect a_tile(int bx, int by, int phase) const override {
    (void)bx;
    return clip({by * kBm, (by + 1LL) * kBm, phase * kBk, (phase + 1LL) * kBk}, s_.M, s_.K);
  }
  TileRect b_tile(int bx, int by, int phase) const override {
    (void)by;
    return clip({phase * kBk, (phase + 1LL) * kBk, bx * kBn, (bx + 1LL) * kBn}, s_.K, s_.N);
  }
  void thread_loads(int, int, int, int, int, int, std::vector<ElementRef>* a,
                    std::vector<ElementRef>* b) const override {
    a->clear();
    b->clear();
  }
  PhaseWork phase_work(int bx, int by, int phase) const override {
    PhaseWork w;
    const TileRect k = b_tile(bx, by, phase), a = a_tile(bx, by, phase);
    w.k0 = k.row0, w.k1 = k.row1, w.steps = kBk;
    w.outputs = (a.row1 - a.row0) * (k.col1 - k.col0);
    return w;
  }
  std::int64_t a_reads(std::int64_t, std::int64_t) const override { return grid().x; }
  std::int64_t b_reads(std::int64_t, std::int64_t) const override { return grid().y; }
  std::string reads_summary() const override { return "test model"; }

  static constexpr int kBm = 32, kBn = 16, kBk = 16;

 private:
  static TileRect clip(TileRect t, std::int64_t rows, std::int64_t cols) {
    t.row1 = std::min(t.row1, rows), t.col1 = std::min(t.col1, cols);
    t.row0 = std::min(t.row0, t.row1), t.col0 = std::min(t.col0, t.col1);
    return t;
  }
  Shape s_;
  FragmentPicture picture_;
};

}  // namespace tilescope::testing
