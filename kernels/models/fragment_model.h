// What a tensor-core kernel's mapping model adds for the fragment picture: the register layout of
// one matrix instruction (which lane and register hold which element of A, B and C), the warp
// tiling of a block, the ring of shared-memory stages, and a warp's shared-memory reads of one
// k step with and without the XOR swizzle (the bank-conflict picture). Plain C++; filled by the
// variant's model (MappingModel::fragments()) from the same formulas its kernel uses.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilescope {

// One element of an instruction's operand tile held by a lane: operand(row, col) is in register
// `reg` of lane `lane` (a 32-bit register may hold two 16-bit elements: both are listed).
struct LaneElement {
  int lane = 0, reg = 0;
  int row = 0, col = 0;
  int warp = 0;  // the warp of the group that issues the instruction together (wgmma: 0-3; mma.sync: 0)
};

// One copy of a stage as the copy engine receives it (a TMA box): which operand, its size in
// elements, its bytes and where it lands in the stage's buffer.
struct StageCopy {
  std::string operand;  // "A" or "B"
  int rows = 0, cols = 0;
  int bytes = 0;
  std::int64_t offset = 0;  // bytes from the start of the stage
  std::string origin;       // in words: "A rows 0-127 x k 0-63 of the block's tile (K-major, 128-byte swizzle)"
};

// One read of shared memory by one lane: `bytes` bytes at byte offset `address` from the start of
// the operand's stage buffer.
struct LaneRead {
  int lane = 0;
  std::int64_t address = 0;
  int bytes = 4;
};

// Reads the hardware serves together when nothing collides (one ldmatrix phase of 8 rows, or one
// load instruction of the warp): at most one 128-byte wavefront per bank when conflict-free.
struct SharedRequest {
  std::vector<LaneRead> reads;
};

// How many wavefronts a request needs: for each of the 32 four-byte banks, the number of distinct
// 4-byte words (address / 4) it is asked for, maximised over banks (1 = conflict-free). Lanes
// reading the same word share it (a broadcast).
int wavefronts(const SharedRequest& r);
// The bank of a byte address.
inline int bank_of(std::int64_t address) {
  return static_cast<int>((address / 4) % 32);
}

// A warp's shared-memory reads of one operand for one k step of its tile.
struct OperandReads {
  std::string instruction;                // "ldmatrix.sync.aligned.m8n8.x4.shared.b16", "ld.shared.f64"
  std::vector<SharedRequest> swizzled;    // as the kernel lays the tile out (XOR swizzle)
  std::vector<SharedRequest> unswizzled;  // the same reads in a plain row-major tile
  int tile_rows = 0, tile_cols = 0;       // the operand tile in shared memory, in elements
  int element_bytes = 2;
};

struct FragmentPicture {
  std::string instruction;  // "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
  int mma_m = 16, mma_n = 8, mma_k = 16;
  // The block's warps: warps_m x warps_n warp tiles of warp_m x warp_n elements of C; warp w
  // (threadIdx.y) owns warp tile (w / warps_n, w % warps_n).
  int warps_m = 1, warps_n = 1, warp_m = 16, warp_n = 8;
  // The lane layout of one instruction: A is mma_m x mma_k, B mma_k x mma_n, C mma_m x mma_n.
  std::vector<LaneElement> a, b, c;
  // The ring of shared-memory stages: the buffer of k tile s is stage s % stages; while tile s is
  // multiplied, tiles s + 1 .. s + in_flight are in flight (cp.async): stages - 1 behind one block
  // barrier per tile, stages - 2 with per-stage barriers (a stage is refilled only once every warp
  // is done with it, after the next tile).
  int stages = 1;
  int in_flight = 0;
  bool swizzled = true;  // whether this configuration lays its tiles out with the XOR swizzle
  OperandReads a_reads, b_reads;

  // Warpgroup instructions (wgmma), where group_warps is 4: the instruction's C (mma_m x mma_n)
  // belongs to four warps (LaneElement::warp); A and B stay in shared memory, read by the tensor
  // cores through descriptors, so `a`, `b` and the bank reads are empty.
  int group_warps = 1;
  // Warp specialisation: the first producer_warps warps of the block only copy (0: every warp
  // does both); the groups after them multiply, one per warp tile (consumer_groups), each issuing
  // slices() instructions of mma_m rows per k step.
  int producer_warps = 0;
  int consumer_groups() const { return warps_m * warps_n; }
  int slices() const { return mma_m > 0 ? warp_m / mma_m : 1; }
  // What fills a stage: the copies one thread issues (TMA boxes); empty where every thread copies.
  std::vector<StageCopy> stage_copies;
  int stage_bytes = 0;
  // Each stage has a "full" barrier (the copies landed) and an "empty" one (every consumer is done
  // with it), mbarriers, instead of one block barrier per tile.
  bool stage_barriers = false;
  // The instruction computes the block's Cᵀ (its rows are C's columns): B's slab is its A, held in
  // registers (`a`, the lanes' fragment), and A's rows its B, by descriptor.
  bool c_transposed = false;
};

}  // namespace tilescope
