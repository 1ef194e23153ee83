#include "app/viz/warpgroup_images.h"

#include <algorithm>

#include "kernels/core/text_format.h"

namespace tilescope {

bool has_lane_reads(const FragmentPicture& pic) {
  for (const OperandReads* r : {&pic.a_reads, &pic.b_reads})
    if (!r->swizzled.empty() || !r->unswizzled.empty()) return true;
  return false;
}

bool held_by_thread(const OperandGrid& g, int row, int col, int warp, int lane) {
  for (const Holder& h : g.at(row, col))
    if (h.lane == lane && (warp < 0 || h.warp == warp)) return true;
  return false;
}

std::vector<WarpBand> warp_bands(const FragmentPicture& pic) {
  std::vector<WarpBand> bands(static_cast<std::size_t>(std::max(pic.group_warps, 1)));
  for (std::size_t q = 0; q < bands.size(); ++q) bands[q] = WarpBand{static_cast<int>(q), pic.mma_m, -1};
  for (const LaneElement& e : pic.c) {
    if (e.warp < 0 || e.warp >= static_cast<int>(bands.size())) continue;
    WarpBand& b = bands[static_cast<std::size_t>(e.warp)];
    b.row0 = std::min(b.row0, e.row);
    b.row1 = std::max(b.row1, e.row);
  }
  return bands;
}

bool follows_wgmma_layout(const FragmentPicture& pic) {
  if (pic.group_warps != 4 || pic.mma_m != 64 || pic.mma_n % 8 != 0) return false;
  if (pic.c.size() != static_cast<std::size_t>(pic.mma_m) * pic.mma_n) return false;
  for (const LaneElement& e : pic.c) {
    const int g = e.lane / 4, t = e.lane % 4, j = e.reg / 4, r = e.reg % 4;
    if (e.row != 16 * e.warp + g + 8 * (r / 2) || e.col != 8 * j + 2 * t + r % 2) return false;
  }
  return true;
}

namespace {

std::string number_word(int n) {
  static const char* const kWords[] = {"No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight"};
  return n >= 0 && n <= 8 ? kWords[n] : std::to_string(n);
}

// "1 slice", "2 slices".
std::string plural(int n, const char* noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace

std::string warpgroup_caption(const FragmentPicture& pic) {
  std::string out = number_word(pic.group_warps) + " warps issue one instruction together: the group multiplies " +
                    format("A (%d x %d) by B (%d x %d) and adds into C (%d x %d). ", pic.mma_m, pic.mma_k, pic.mma_k,
                           pic.mma_n, pic.mma_m, pic.mma_n);
  if (follows_wgmma_layout(pic)) {
    out += format(
        "Warp q holds rows 16q ... 16q + 15 of C; in its band, lane 4g + t holds rows g and g + 8, columns 8j + 2t "
        "and 8j + 2t + 1 for j = 0 ... %d, in registers 4j ... 4j + 3: %d accumulators per thread, the m16n8 "
        "pattern of mma.sync repeated %d times across. ",
        pic.mma_n / 8 - 1, pic.mma_n / 2, pic.mma_n / 8);
  } else {
    for (const WarpBand& b : warp_bands(pic))
      if (b.row0 <= b.row1) out += format("Warp %d holds rows %d ... %d. ", b.warp, b.row0, b.row1);
  }
  if (pic.a.empty() && pic.b.empty())
    out +=
        "A and B are not in registers: the tensor cores read them from shared memory through descriptors (the "
        "TMA boxes of the stage).";
  else if (pic.b.empty())
    out += format(
        "A is in registers, %d per thread (lane 4g + t of warp q: rows 16q + g and 16q + g + 8, columns t and t + 4), "
        "loaded by the threads themselves; the tensor cores read B from shared memory through a descriptor.",
        pic.mma_m * pic.mma_k / 128);
  if (pic.c_transposed)
    out +=
        " This instruction computes the block's C transposed: its A is 64 columns of B's slab, its B rows of A, so "
        "its rows are C's columns and its columns C's rows.";
  return out;
}

std::string warpgroup_block_summary(const FragmentPicture& pic) {
  const int gw = std::max(1, pic.group_warps);
  const int producers = pic.producer_warps / gw, consumers = std::max(1, pic.consumer_groups());
  const int first = pic.producer_warps, last = first + consumers * gw - 1;
  std::string out;
  if (producers == 1)
    out = format("warpgroup 0 (warps 0-%d) copies; ", pic.producer_warps - 1);
  else if (producers > 1)
    out = format("warpgroups 0-%d (warps 0-%d) copy; ", producers - 1, pic.producer_warps - 1);
  out += std::to_string(consumers) + (consumers == 1 ? " consumer warpgroup" : " consumer warpgroups") +
         format(" (warps %d-%d) ", first, last) + (consumers == 1 ? "multiplies " : "multiply, each ") +
         plural(pic.slices(), "slice") + format(" of %d x %d: ", pic.mma_m, pic.mma_n) +
         plural(pic.slices(), "instruction") + format(" per k step of %d", pic.mma_k);
  return out;
}

std::string warpgroup_lane_summary(const FragmentPicture& pic, int warp, int lane) {
  std::vector<int> rows, regs;
  int elements = 0;
  for (const LaneElement& e : pic.c) {
    if (e.lane != lane || (warp >= 0 && e.warp != warp)) continue;
    ++elements;
    if (std::find(rows.begin(), rows.end(), e.row) == rows.end()) rows.push_back(e.row);
    if (std::find(regs.begin(), regs.end(), e.reg) == regs.end()) regs.push_back(e.reg);
  }
  std::sort(rows.begin(), rows.end());
  std::sort(regs.begin(), regs.end());
  std::string out = warp < 0 ? "lane " + std::to_string(lane) + " of every warp"
                             : "warp " + std::to_string(warp) + ", lane " + std::to_string(lane);
  out += format(" (group %d, thread %d) holds ", lane / 4, lane % 4) + plural(elements, "element") +
         (pic.c_transposed ? " of Cᵀ" : " of C");
  if (elements == 0) return out;
  if (warp >= 0) out += format(" in registers c%d ... c%d", regs.front(), regs.back());
  out += rows.size() == 1 ? ": row " : ": rows ";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0) out += i + 1 == rows.size() ? " and " : ", ";
    out += std::to_string(rows[i]);
  }
  if (follows_wgmma_layout(pic)) out += format(", columns %d and %d of every 8", 2 * (lane % 4), 2 * (lane % 4) + 1);
  return out;
}

std::string stage_copy_words(const StageCopy& c) {
  return format("%s, %d x %d elements (%d bytes) at byte %lld of the stage", c.operand.c_str(), c.rows, c.cols, c.bytes,
                static_cast<long long>(c.offset));
}

std::string stage_ring_words(const FragmentPicture& pic) {
  return format(
      "%d stage%s of %d bytes = %lld bytes of shared memory; stage s starts at byte s x %d, and has "
      "two mbarriers: full[s] and empty[s]",
      pic.stages, pic.stages == 1 ? "" : "s", pic.stage_bytes, static_cast<long long>(pic.stages) * pic.stage_bytes,
      pic.stage_bytes);
}

}  // namespace tilescope
