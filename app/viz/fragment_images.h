// What the fragment pictures of the mapping view show, as plain data computed from a tensor-core
// model's FragmentPicture (kernels/models/fragment_model.h): which lane and register hold each element of
// one mma instruction's A, B and C; which lane's bytes land in which shared-memory bank for one
// request of a warp, and how many wavefronts that takes; which k tiles sit in the ring of
// shared-memory stages. No ImGui here, so the pictures' contents are tested without a window
// (app/ui/mapping/fragment_view.cpp draws them).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/models/fragment_model.h"

namespace tilescope {

// A colour mixed with `background` (IM_COL32 layout), keeping `keep` of it: the elements of the
// lanes not highlighted.
unsigned mix_color(unsigned color, unsigned background, double keep);
// Black or white, whichever reads better on `background`.
unsigned text_color_on(unsigned background);

// ---- the lane layout of one instruction --------------------------------------------------------

struct Holder {
  int lane = 0, reg = 0;
  int warp = 0;  // of the group issuing the instruction together (wgmma: 0-3)
};

// An operand tile of the instruction (A: mma_m x mma_k, B: mma_k x mma_n, C: mma_m x mma_n),
// each element with the lanes that hold it (one for the mma.sync layouts).
struct OperandGrid {
  int rows = 0, cols = 0;
  std::vector<std::vector<Holder>> cells;  // rows x cols, row-major
  const std::vector<Holder>& at(int row, int col) const { return cells[static_cast<std::size_t>(row) * cols + col]; }
  bool held_by(int row, int col, int lane) const;
  // The element's colour: its first holder's lane_color (a grey for an element nobody holds).
  unsigned color(int row, int col) const;
};

OperandGrid operand_grid(const std::vector<LaneElement>& elements, int rows, int cols);

// What one lane holds of an operand: how many elements, in which registers (sorted, distinct).
struct LaneShare {
  int elements = 0;
  std::vector<int> registers;
};
LaneShare lane_share(const std::vector<LaneElement>& elements, int lane);

// "lane 5 (group 1, thread 1) feeds 8 elements of A (registers a0 a1 a2 a3) and 4 of B (b0 b1),
// and gets back 4 of C (c0 c1 c2 c3)".
std::string lane_summary(const FragmentPicture& pic, int lane);

// The block's warp tiling in words: "4 warps (2 x 2), each a 64 x 32 tile of C: 4 x 4 mma
// tiles of 16 x 8, so 16 mma per warp per k step of 16".
std::string warp_tiling_summary(const FragmentPicture& pic);

// Where accumulator `slot` of `lane` sits, for models numbering slots as ((mi * NI + ni) * R + r)
// (mma tile (mi, ni) of the warp tile, NI = warp_n / mma_n, R accumulator registers per lane and
// instruction, r the register c[r]); `known` false when the picture has no such register.
struct AccumulatorPlace {
  bool known = false;
  int mi = 0, ni = 0, reg = 0;
  int row = 0, col = 0;  // in the warp's tile of C
};
AccumulatorPlace accumulator_place(const FragmentPicture& pic, int lane, int slot);

// ---- shared-memory banks -----------------------------------------------------------------------

constexpr int kBanks = 32;

// A distinct 4-byte word asked of a bank, and the lanes that read (part of) it.
struct BankWord {
  std::int64_t word = 0;  // byte address / 4
  std::vector<int> lanes;
};

// One request as a row of the 32 banks: the distinct words each is asked for, in the order of
// the lanes. A bank with more than one word serialises them: one wavefront per word.
struct BankRow {
  std::array<std::vector<BankWord>, kBanks> banks;
  int wavefronts = 0;  // the most words of any bank: wavefronts() of the request
  int ideal = 0;       // the fewest any request of this many distinct words needs: ceil(words / 32)
  bool conflict(int bank) const { return banks[static_cast<std::size_t>(bank)].size() > 1; }
};
BankRow bank_row(const SharedRequest& request);

struct BankTotals {
  int requests = 0;
  int wavefronts = 0;  // summed over the requests
  int ideal = 0;       // summed over the requests
  int worst_way = 1;   // the worst request's wavefronts / ideal: 4 = "4-way conflicts"
  bool conflict_free() const { return wavefronts == ideal; }
};
BankTotals bank_totals(const std::vector<SharedRequest>& requests);

// "ldmatrix.sync.aligned.m8n8.x4.shared.b16" -> "ldmatrix x4" (".trans" kept); other
// instructions as they are.
std::string short_instruction(const std::string& ptx);

// "4 wavefronts, conflict-free", "16 wavefronts, 4-way conflicts".
std::string wavefront_words(const std::vector<SharedRequest>& requests);
// "ldmatrix x4: 4 wavefronts (conflict-free)", "ldmatrix x4: 16 wavefronts (4-way conflicts;
// 4 without them)".
std::string wavefront_summary(const std::string& instruction, const std::vector<SharedRequest>& requests);

// ---- the ring of shared-memory stages ----------------------------------------------------------

enum class StageState { Empty, Loading, Multiplying };

struct StageSlot {
  int tile = -1;  // the k tile in this buffer (-1: none)
  StageState state = StageState::Empty;
  std::int64_t k0 = 0, k1 = 0;  // its k range [k0, k1)
};

// The `stages` buffers while k tile `computing` (of `tiles`, each `bk` deep, K in all) is
// multiplied: it is in buffer computing % stages and tiles computing + 1 .. computing + in_flight
// are loading (cp.async) into theirs. computing = -1: before the loop, the prologue's tiles
// 0 .. stages - 2 are loading.
std::vector<StageSlot> stage_ring(int stages, int in_flight, int computing, int tiles, int bk, std::int64_t K);

}  // namespace tilescope
