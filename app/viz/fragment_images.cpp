#include "app/viz/fragment_images.h"

#include <algorithm>
#include <cstdio>

#include "app/viz/colors.h"

namespace tilescope {

unsigned mix_color(unsigned color, unsigned background, double keep) {
  unsigned out = 0xFF000000u;
  for (int shift = 0; shift < 24; shift += 8) {
    const double a = (color >> shift) & 0xFF, b = (background >> shift) & 0xFF;
    out |= static_cast<unsigned>(a * keep + b * (1 - keep) + 0.5) << shift;
  }
  return out;
}

unsigned text_color_on(unsigned background) {
  const double r = background & 0xFF, g = (background >> 8) & 0xFF, b = (background >> 16) & 0xFF;
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? 0xFF000000u : 0xFFFFFFFFu;
}

bool OperandGrid::held_by(int row, int col, int lane) const {
  for (const Holder& h : at(row, col))
    if (h.lane == lane) return true;
  return false;
}

unsigned OperandGrid::color(int row, int col) const {
  const std::vector<Holder>& h = at(row, col);
  return h.empty() ? pack_rgb(0.3, 0.3, 0.3) : lane_color(h.front().lane);
}

OperandGrid operand_grid(const std::vector<LaneElement>& elements, int rows, int cols) {
  OperandGrid g;
  g.rows = std::max(rows, 0);
  g.cols = std::max(cols, 0);
  g.cells.resize(static_cast<std::size_t>(g.rows) * g.cols);
  for (const LaneElement& e : elements)
    if (e.row >= 0 && e.row < g.rows && e.col >= 0 && e.col < g.cols)
      g.cells[static_cast<std::size_t>(e.row) * g.cols + e.col].push_back(Holder{e.lane, e.reg, e.warp});
  return g;
}

LaneShare lane_share(const std::vector<LaneElement>& elements, int lane) {
  LaneShare s;
  for (const LaneElement& e : elements) {
    if (e.lane != lane) continue;
    ++s.elements;
    if (std::find(s.registers.begin(), s.registers.end(), e.reg) == s.registers.end()) s.registers.push_back(e.reg);
  }
  std::sort(s.registers.begin(), s.registers.end());
  return s;
}

namespace {

// "8 elements of A (registers a0 a1 a2 a3)"
std::string share_words(const LaneShare& s, const char* operand, char reg_letter) {
  std::string out = std::to_string(s.elements) + (s.elements == 1 ? " element of " : " elements of ") + operand;
  if (s.registers.empty()) return out;
  out += s.registers.size() == 1 ? " (register" : " (registers";
  for (int r : s.registers) out += std::string(" ") + reg_letter + std::to_string(r);
  return out + ")";
}

int ceil_div(std::int64_t a, std::int64_t b) {
  return static_cast<int>((a + b - 1) / b);
}

}  // namespace

std::string lane_summary(const FragmentPicture& pic, int lane) {
  char head[64];
  std::snprintf(head, sizeof head, "lane %d (group %d, thread %d) ", lane, lane / 4, lane % 4);
  return std::string(head) + "feeds " + share_words(lane_share(pic.a, lane), "A", 'a') + " and " +
         share_words(lane_share(pic.b, lane), "B", 'b') + " into the mma, and gets back " +
         share_words(lane_share(pic.c, lane), "C", 'c');
}

std::string warp_tiling_summary(const FragmentPicture& pic) {
  const int mi = std::max(1, pic.warp_m / std::max(1, pic.mma_m)),
            ni = std::max(1, pic.warp_n / std::max(1, pic.mma_n));
  const int warps = pic.warps_m * pic.warps_n;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%d warp%s (%d x %d), each a %d x %d tile of C: %d x %d mma tiles of %d x %d, so %d mma per warp "
                "per k step of %d",
                warps, warps == 1 ? "" : "s", pic.warps_m, pic.warps_n, pic.warp_m, pic.warp_n, mi, ni, pic.mma_m,
                pic.mma_n, mi * ni, pic.mma_k);
  return buf;
}

AccumulatorPlace accumulator_place(const FragmentPicture& pic, int lane, int slot) {
  AccumulatorPlace p;
  const int regs = static_cast<int>(lane_share(pic.c, lane).registers.size());
  const int tiles_m = pic.warp_m / std::max(1, pic.mma_m), tiles_n = pic.warp_n / std::max(1, pic.mma_n);
  if (regs == 0 || tiles_n <= 0 || slot < 0 || slot >= regs * tiles_m * tiles_n) return p;
  const int tile = slot / regs;
  p.reg = slot % regs;
  p.mi = tile / tiles_n;
  p.ni = tile % tiles_n;
  for (const LaneElement& e : pic.c)
    if (e.lane == lane && e.reg == p.reg) {
      p.row = p.mi * pic.mma_m + e.row;
      p.col = p.ni * pic.mma_n + e.col;
      p.known = true;
      return p;
    }
  return p;
}

BankRow bank_row(const SharedRequest& request) {
  BankRow row;
  std::int64_t distinct = 0;
  for (const LaneRead& read : request.reads)
    for (std::int64_t w = read.address / 4; w < (read.address + read.bytes + 3) / 4; ++w) {
      std::vector<BankWord>& bank = row.banks[static_cast<std::size_t>(w % kBanks)];
      auto it = std::find_if(bank.begin(), bank.end(), [w](const BankWord& b) { return b.word == w; });
      if (it == bank.end()) {
        bank.push_back(BankWord{w, {}});
        it = bank.end() - 1;
        ++distinct;
      }
      if (std::find(it->lanes.begin(), it->lanes.end(), read.lane) == it->lanes.end()) it->lanes.push_back(read.lane);
    }
  for (const std::vector<BankWord>& bank : row.banks)
    row.wavefronts = std::max(row.wavefronts, static_cast<int>(bank.size()));
  row.ideal = ceil_div(distinct, kBanks);
  return row;
}

BankTotals bank_totals(const std::vector<SharedRequest>& requests) {
  BankTotals t;
  for (const SharedRequest& r : requests) {
    const BankRow row = bank_row(r);
    ++t.requests;
    t.wavefronts += row.wavefronts;
    t.ideal += row.ideal;
    if (row.ideal > 0) t.worst_way = std::max(t.worst_way, ceil_div(row.wavefronts, row.ideal));
  }
  return t;
}

std::string short_instruction(const std::string& ptx) {
  if (ptx.rfind("ldmatrix", 0) != 0) return ptx;
  std::string out = "ldmatrix";
  for (const char* part : {".x1", ".x2", ".x4"})
    if (ptx.find(part) != std::string::npos) out += std::string(" ") + (part + 1);
  if (ptx.find(".trans") != std::string::npos) out += " trans";
  return out;
}

std::string wavefront_words(const std::vector<SharedRequest>& requests) {
  const BankTotals t = bank_totals(requests);
  char buf[96];
  if (t.conflict_free())
    std::snprintf(buf, sizeof buf, "%d wavefront%s, conflict-free", t.wavefronts, t.wavefronts == 1 ? "" : "s");
  else
    std::snprintf(buf, sizeof buf, "%d wavefronts, %d-way conflicts", t.wavefronts, t.worst_way);
  return buf;
}

std::string wavefront_summary(const std::string& instruction, const std::vector<SharedRequest>& requests) {
  const BankTotals t = bank_totals(requests);
  char buf[192];
  if (t.conflict_free())
    std::snprintf(buf, sizeof buf, "%s: %d wavefront%s (conflict-free)", short_instruction(instruction).c_str(),
                  t.wavefronts, t.wavefronts == 1 ? "" : "s");
  else
    std::snprintf(buf, sizeof buf, "%s: %d wavefronts (%d-way conflicts; %d without them)",
                  short_instruction(instruction).c_str(), t.wavefronts, t.worst_way, t.ideal);
  return buf;
}

std::vector<StageSlot> stage_ring(int stages, int in_flight, int computing, int tiles, int bk, std::int64_t K) {
  std::vector<StageSlot> ring(static_cast<std::size_t>(std::max(stages, 1)));
  const int n = static_cast<int>(ring.size());
  const int last = computing < 0 ? n - 2 : computing + std::min(in_flight, n - 1);
  for (int tile = std::max(computing, 0); tile < std::min(tiles, last + 1); ++tile) {
    StageSlot& s = ring[static_cast<std::size_t>(tile % n)];
    s.tile = tile;
    s.state = tile == computing ? StageState::Multiplying : StageState::Loading;
    s.k0 = std::min<std::int64_t>(K, static_cast<std::int64_t>(tile) * bk);
    s.k1 = std::min<std::int64_t>(K, static_cast<std::int64_t>(tile + 1) * bk);
  }
  return ring;
}

}  // namespace tilescope
