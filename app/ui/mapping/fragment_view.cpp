#include "app/ui/mapping/fragment_view.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "app/ui/mapping/stage_ring_view.h"
#include "app/ui/mapping/warpgroup_view.h"
#include "app/ui/shell/widgets.h"
#include "app/viz/colors.h"
#include "app/viz/fragment_images.h"
#include "app/viz/warpgroup_images.h"

namespace tilescope {

namespace {

constexpr ImU32 kMagenta = 0xFFFF30FF;   // the tile being multiplied, as over the matrices
constexpr ImU32 kCyan = 0xFFFFFF40;      // tiles in flight
constexpr ImU32 kConflict = 0xFF3030E0;  // a bank asked for more than one word
constexpr ImU32 kWhite = 0xFFFFFFFF;

// Where one operand's grid is on screen.
struct GridPlace {
  const OperandGrid* grid = nullptr;
  const char* name = "";
  char reg_letter = 'a';
  ImVec2 origin;
  float cell = 1;
  bool hit(ImVec2 m, int* row, int* col) const {
    const float x = (m.x - origin.x) / cell, y = (m.y - origin.y) / cell;
    if (x < 0 || y < 0 || x >= grid->cols || y >= grid->rows) return false;
    *row = static_cast<int>(y), *col = static_cast<int>(x);
    return true;
  }
};

// The grid, every element in its lane's colour and numbered with it; with a lane active, the
// other lanes' elements fade and the active lane's are framed.
void draw_grid(ImDrawList* dl, const GridPlace& g, int active_lane) {
  const ImU32 bg = ImGui::GetColorU32(ImGuiCol_WindowBg);
  for (int r = 0; r < g.grid->rows; ++r)
    for (int c = 0; c < g.grid->cols; ++c) {
      const ImVec2 a(g.origin.x + c * g.cell, g.origin.y + r * g.cell), b(a.x + g.cell - 1, a.y + g.cell - 1);
      const bool mine = active_lane < 0 || g.grid->held_by(r, c, active_lane);
      const unsigned colour = mine ? g.grid->color(r, c) : mix_color(g.grid->color(r, c), bg, 0.22);
      dl->AddRectFilled(a, b, colour);
      if (!g.grid->at(r, c).empty() && mine) {
        char label[8];
        std::snprintf(label, sizeof label, "%d", g.grid->at(r, c).front().lane);
        cell_text(dl, a, b, colour, label);
      }
      if (active_lane >= 0 && mine) dl->AddRect(a, ImVec2(b.x + 1, b.y + 1), kWhite, 0, 0, 2);
    }
  dl->AddText(ImVec2(g.origin.x, g.origin.y - ImGui::GetFontSize() - 2), ImGui::GetColorU32(ImGuiCol_Text), g.name);
}

void grid_tooltip(const GridPlace& g, const std::vector<LaneElement>& elements, int row, int col) {
  ImGui::BeginTooltip();
  ImGui::Text("%c(%d, %d) of the instruction's tile", g.name[0], row, col);
  for (const Holder& h : g.grid->at(row, col)) {
    int in_register = 0;
    for (const LaneElement& e : elements) in_register += e.lane == h.lane && e.reg == h.reg;
    ImGui::Text("lane %d (group %d, thread %d), register %c%d%s", h.lane, h.lane / 4, h.lane % 4, g.reg_letter, h.reg,
                in_register > 1 ? " (a 32-bit register holding 2 elements)" : "");
  }
  if (g.grid->at(row, col).empty()) ImGui::TextUnformatted("held by no lane");
  ImGui::EndTooltip();
}

// The 32 lanes as a table: a row per group (g = lane / 4), a column per thread (t = lane % 4).
struct LaneTable {
  ImVec2 origin;
  float w = 1, h = 1;  // one lane's cell
  int hit(ImVec2 m) const {
    const float x = (m.x - origin.x) / w, y = (m.y - origin.y) / h;
    if (x < 0 || y < 0 || x >= 4 || y >= 8) return -1;
    return static_cast<int>(y) * 4 + static_cast<int>(x);
  }
};

void draw_lane_table(ImDrawList* dl, const LaneTable& t, int active_lane) {
  const ImU32 bg = ImGui::GetColorU32(ImGuiCol_WindowBg);
  for (int lane = 0; lane < 32; ++lane) {
    const ImVec2 a(t.origin.x + (lane % 4) * t.w, t.origin.y + (lane / 4) * t.h), b(a.x + t.w - 1, a.y + t.h - 1);
    const unsigned colour =
        active_lane < 0 || active_lane == lane ? lane_color(lane) : mix_color(lane_color(lane), bg, 0.22);
    dl->AddRectFilled(a, b, colour);
    char label[8];
    std::snprintf(label, sizeof label, "%d", lane);
    cell_text(dl, a, b, colour, label);
    if (lane == active_lane) dl->AddRect(a, ImVec2(b.x + 1, b.y + 1), kWhite, 0, 0, 2);
  }
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize() * 0.85f, ImVec2(t.origin.x, t.origin.y - ImGui::GetFontSize() - 2),
              ImGui::GetColorU32(ImGuiCol_TextDisabled), "lanes: row g, column t");
}

}  // namespace

void FragmentView::draw_fragments(const FragmentPicture& pic) {
  if (is_warpgroup_picture(pic)) {
    draw_warpgroup_accumulators(pic, &pinned_warp_, &pinned_lane_);
    return;
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextWrapped("One tensor-core instruction: %s", pic.instruction.c_str());
  ImGui::TextDisabled(
      "The 32 lanes of a warp multiply A (%d x %d) by B (%d x %d) and add into C (%d x %d) together. Each lane "
      "holds the elements of its colour in its own registers: lane l is group g = l / 4 and thread t = l %% 4. "
      "Hover or click a lane (a cell, or the lane table) to see what it feeds in and gets back.",
      pic.mma_m, pic.mma_k, pic.mma_k, pic.mma_n, pic.mma_m, pic.mma_n);
  ImGui::TextDisabled("This block: %s.", warp_tiling_summary(pic).c_str());
  ImGui::PopTextWrapPos();

  const OperandGrid a = operand_grid(pic.a, pic.mma_m, pic.mma_k), b = operand_grid(pic.b, pic.mma_k, pic.mma_n),
                    c = operand_grid(pic.c, pic.mma_m, pic.mma_n);
  // The highlight depends on the mouse over the canvas: the layout is computed first, the hit
  // test next, the drawing last; the active lane's line goes under the canvas.
  const float font = ImGui::GetFontSize(), gap = font * 1.6f;
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float line = ImGui::GetTextLineHeightWithSpacing() * 3.5f;  // kept free for that line
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float cols = static_cast<float>(pic.mma_k + pic.mma_n), rows = static_cast<float>(pic.mma_k + pic.mma_m);
  const float cell =
      std::clamp(std::min((avail.x - gap * 2) / cols, (avail.y - line - gap * 3) / rows), 6.0f, font * 2.4f);
  const ImVec2 o(p0.x + gap, p0.y + gap);
  const float ks = pic.mma_k * cell;
  GridPlace ga{&a, "A", 'a', ImVec2(o.x, o.y + ks + gap), cell};
  GridPlace gb{&b, "B", 'b', ImVec2(o.x + ks + gap, o.y), cell};
  GridPlace gc{&c, "C", 'c', ImVec2(o.x + ks + gap, o.y + ks + gap), cell};
  // The lane table sits in the empty corner above A and left of B.
  LaneTable table;
  table.h = std::min(ks / 9, font * 1.5f);
  table.w = std::min(ks / 4.5f, font * 2.6f);
  table.origin = ImVec2(o.x + ks - 4 * table.w, o.y + ks - 8 * table.h);

  const ImVec2 m = ImGui::GetIO().MousePos;
  int hovered_lane = -1, row = 0, col = 0;
  const GridPlace* hovered_grid = nullptr;
  const std::vector<LaneElement>* hovered_elements = nullptr;
  const bool over_canvas = ImGui::IsWindowHovered() && m.x >= p0.x && m.y >= p0.y;
  if (over_canvas) {
    for (auto [g, e] : {std::pair{&ga, &pic.a}, std::pair{&gb, &pic.b}, std::pair{&gc, &pic.c}})
      if (g->hit(m, &row, &col)) {
        hovered_grid = g;
        hovered_elements = e;
        if (!g->grid->at(row, col).empty()) hovered_lane = g->grid->at(row, col).front().lane;
      }
    if (!hovered_grid) hovered_lane = table.hit(m);
  }
  const int active = hovered_lane >= 0 ? hovered_lane : pinned_lane_;

  const float width = std::max(ks + gap + pic.mma_n * cell + gap * 2, 50.0f);
  const float height = std::max(ks + gap + pic.mma_m * cell + gap * 2, 50.0f);
  ImGui::InvisibleButton("fragments", ImVec2(width, height));
  if (ImGui::IsItemClicked(ImGuiMouseButton_Left) && hovered_lane >= 0)
    pinned_lane_ = pinned_lane_ == hovered_lane ? -1 : hovered_lane;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  draw_grid(dl, ga, active);
  draw_grid(dl, gb, active);
  draw_grid(dl, gc, active);
  draw_lane_table(dl, table, active);
  if (hovered_grid) grid_tooltip(*hovered_grid, *hovered_elements, row, col);
  ImGui::PushTextWrapPos(0);
  if (active >= 0)
    ImGui::TextWrapped("%s.", lane_summary(pic, active).c_str());
  else
    ImGui::TextDisabled("No lane highlighted: hover or click one.");
  ImGui::PopTextWrapPos();
}

namespace {

// One request: a column per bank, the distinct words asked of it stacked (one wavefront each),
// each in the colour of the first lane reading it and numbered with it; a bank asked for more
// than one word is framed in red.
// "request 3: 2 wavefronts" at `at`, red where the request has a bank conflict.
void draw_bank_row_name(ImDrawList* dl, const BankRow& row, int index, ImVec2 at) {
  char label[48];
  std::snprintf(label, sizeof label, "request %d: %d wavefront%s", index, row.wavefronts,
                row.wavefronts == 1 ? "" : "s");
  dl->AddText(at, row.wavefronts > row.ideal ? kConflict : ImGui::GetColorU32(ImGuiCol_Text), label);
}

// The row's banks from origin.x + label_w, its name before them when label_w leaves room.
void draw_bank_row(ImDrawList* dl, const BankRow& row, int index, ImVec2 origin, float label_w, float cw, float ch) {
  if (label_w > 0) draw_bank_row_name(dl, row, index, ImVec2(origin.x, origin.y + (ch - ImGui::GetFontSize()) * 0.5f));
  const ImU32 empty = ImGui::GetColorU32(ImGuiCol_FrameBg);
  const ImVec2 m = ImGui::GetIO().MousePos;
  for (int bank = 0; bank < kBanks; ++bank) {
    const std::vector<BankWord>& words = row.banks[static_cast<std::size_t>(bank)];
    const float x = origin.x + label_w + bank * cw;
    if (words.empty()) dl->AddRect(ImVec2(x, origin.y), ImVec2(x + cw - 1, origin.y + ch - 1), empty);
    for (std::size_t i = 0; i < words.size(); ++i) {
      const ImVec2 a(x, origin.y + i * ch), b(x + cw - 1, a.y + ch - 1);
      const unsigned colour = lane_color(words[i].lanes.front());
      dl->AddRectFilled(a, b, colour);
      char text[8];
      std::snprintf(text, sizeof text, words[i].lanes.size() > 1 ? "%d+" : "%d", words[i].lanes.front());
      cell_text(dl, a, b, colour, text);
      if (ImGui::IsWindowHovered() && m.x >= a.x && m.x < b.x + 1 && m.y >= a.y && m.y < b.y + 1) {
        ImGui::BeginTooltip();
        ImGui::Text("bank %d, word %lld (bytes %lld ... %lld of the stage buffer)", bank,
                    static_cast<long long>(words[i].word), static_cast<long long>(words[i].word * 4),
                    static_cast<long long>(words[i].word * 4 + 3));
        std::string lanes = "read by lane";
        if (words[i].lanes.size() > 1) lanes += "s";
        for (int l : words[i].lanes) lanes += " " + std::to_string(l);
        ImGui::TextUnformatted(lanes.c_str());
        if (words.size() > 1)
          ImGui::Text("this bank is asked for %zu different words: %zu wavefronts, one after the other", words.size(),
                      words.size());
        ImGui::EndTooltip();
      }
    }
    if (words.size() > 1)
      dl->AddRect(ImVec2(x - 1, origin.y - 1), ImVec2(x + cw, origin.y + words.size() * ch), kConflict, 0, 0, 2);
  }
}

void draw_bank_numbers(ImDrawList* dl, ImVec2 origin, float label_w, float cw) {
  const float small = ImGui::GetFontSize() * 0.75f;
  const int every = cw >= small * 1.3f ? 1 : (cw * 4 >= small * 1.3f ? 4 : 8);
  dl->AddText(ImGui::GetFont(), small, origin, ImGui::GetColorU32(ImGuiCol_TextDisabled), "bank");
  for (int bank = 0; bank < kBanks; bank += every) {
    char text[8];
    std::snprintf(text, sizeof text, "%d", bank);
    dl->AddText(ImGui::GetFont(), small, ImVec2(origin.x + label_w + bank * cw + 1, origin.y),
                ImGui::GetColorU32(ImGuiCol_TextDisabled), text);
  }
}

void draw_operand_banks(const char* name, const OperandReads& reads, bool swizzled) {
  const std::vector<SharedRequest>& requests = swizzled ? reads.swizzled : reads.unswizzled;
  section(name);
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s, a %d x %d tile of %d-byte elements", reads.instruction.c_str(), reads.tile_rows,
                      reads.tile_cols, reads.element_bytes);
  const BankTotals t = bank_totals(requests);
  ImGui::TextColored(t.conflict_free() ? ImVec4(0.5f, 0.95f, 0.5f, 1) : ImVec4(1, 0.45f, 0.4f, 1), "%s",
                     wavefront_summary(reads.instruction, requests).c_str());
  ImGui::PopTextWrapPos();
  if (requests.empty()) return;
  const float font = ImGui::GetFontSize();
  const float avail = ImGui::GetContentRegionAvail().x;
  // Each request's name beside its row of banks, or above it where the panel is too narrow for
  // both (the banks keep at least 6 pixels each).
  const float name_w = ImGui::CalcTextSize("request 00: 00 wavefronts  ").x;
  const bool names_beside = avail - name_w >= kBanks * 6.0f;
  const float label_w = names_beside ? name_w : 0;
  const float cw = std::clamp((avail - label_w) / kBanks, 3.0f, font * 2.2f);
  const float ch = font * 1.15f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImVec2 p = ImGui::GetCursorScreenPos();
  draw_bank_numbers(dl, p, label_w, cw);
  p.y += font;
  const float top = p.y;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const BankRow row = bank_row(requests[i]);
    if (!names_beside) {
      draw_bank_row_name(dl, row, static_cast<int>(i), p);
      p.y += font * 1.1f;
    }
    draw_bank_row(dl, row, static_cast<int>(i), p, label_w, cw, ch);
    p.y += std::max(row.wavefronts, 1) * ch + font * 0.4f;
  }
  ImGui::Dummy(ImVec2(label_w + kBanks * cw, p.y - top + font));
}

}  // namespace

void FragmentView::draw_banks(const FragmentPicture& pic) {
  if (!has_lane_reads(pic)) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextWrapped(pic.a.empty() ? "Shared memory: no lane reads to draw as banks"
                                     : "Shared memory: the lanes' reads are in the Memory view");
    if (pic.a.empty())
      ImGui::TextDisabled(
          "No lane of this kernel loads A or B from shared memory: the tensor cores read the operands themselves, "
          "through descriptors of the stage's layout, so there is no request per lane and no bank picture. What "
          "lands in shared memory, and where, is below.");
    else
      ImGui::TextDisabled(
          "The tensor cores read one operand from shared memory themselves, through a descriptor. The lanes load "
          "the instruction's A (here from B's stage) into registers with plain loads: the Memory view shows each "
          "of those loads of a warp, with its banks. What lands in shared memory, and where, is below.");
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    draw_stage_boxes(pic);
    return;
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextWrapped("Shared-memory banks: a warp's reads of one k step");
  ImGui::TextDisabled(
      "Shared memory is 32 banks of 4-byte words, and a bank serves one word per wavefront (lanes reading the "
      "same word share it). Each row is one request: the banks across, below each bank the different words it "
      "is asked for, in the colour and with the number of the lane that reads them. A bank asked for several "
      "words (framed red) serves them one after the other: a bank conflict, one more wavefront each. The "
      "kernel XORs each 16-byte chunk's column with its row (the swizzle), so the rows one request reads land "
      "in different banks.");
  ImGui::PopTextWrapPos();
  // The choice says what each layout is, in short where its words would not fit across.
  const bool brief = check_width("swizzled (as the kernel lays the tiles out)") > ImGui::GetContentRegionAvail().x;
  const char* swizzled = brief ? "swizzled##layout" : "swizzled (as the kernel lays the tiles out)##layout";
  const char* plain = brief ? "unswizzled##layout" : "unswizzled (a plain row-major tile)##layout";
  if (ImGui::RadioButton(swizzled, swizzled_)) swizzled_ = true;
  help_tooltip("The banks of the tiles as the kernel lays them out: each 16-byte chunk's column XORed with its row.");
  same_line_if_fits(check_width(plain));
  if (ImGui::RadioButton(plain, !swizzled_)) swizzled_ = false;
  help_tooltip("The banks the same reads would hit in a plain row-major tile.");
  ImGui::PushTextWrapPos(0);
  if (!pic.swizzled) ImGui::TextDisabled("This configuration does not swizzle: the kernel reads the plain layout.");
  // Both layouts' totals, whichever is drawn: the lesson in two lines (four where narrow).
  for (auto [name, reads] : {std::pair{"A", &pic.a_reads}, std::pair{"B", &pic.b_reads}}) {
    ImGui::Text("%s (%s): swizzled %s", name, short_instruction(reads->instruction).c_str(),
                wavefront_words(reads->swizzled).c_str());
    const std::string plain = "| unswizzled " + wavefront_words(reads->unswizzled);
    same_line_if_fits(text_width(plain.c_str()));
    ImGui::TextDisabled("%s", plain.c_str());
  }
  ImGui::PopTextWrapPos();
  draw_operand_banks(swizzled_ ? "A, swizzled" : "A, unswizzled", pic.a_reads, swizzled_);
  draw_operand_banks(swizzled_ ? "B, swizzled" : "B, unswizzled", pic.b_reads, swizzled_);
}

void FragmentView::draw_stage_ring(const FragmentPicture& pic, int computing, int tiles, int bk, std::int64_t K) {
  if (pic.stage_barriers) {
    draw_stage_handshake(pic, computing + 1, tiles, bk, K);
    return;
  }
  const std::vector<StageSlot> ring = stage_ring(pic.stages, pic.in_flight, computing, tiles, bk, K);
  const float font = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (std::size_t i = 0; i < ring.size(); ++i) {
    const StageSlot& s = ring[i];
    const ImVec2 a = ImGui::GetCursorScreenPos(), b(a.x + font * 4.5f, a.y + font * 1.3f);
    if (s.state == StageState::Multiplying) dl->AddRectFilled(a, b, (kMagenta & 0x00FFFFFF) | 0x90000000);
    dl->AddRect(a, b,
                s.state == StageState::Multiplying ? kMagenta
                : s.state == StageState::Loading   ? kCyan
                                                   : ImGui::GetColorU32(ImGuiCol_Border),
                0, 0, s.state == StageState::Empty ? 1.0f : 2.0f);
    char name[32];
    std::snprintf(name, sizeof name, "stage %zu", i);
    dl->AddText(ImVec2(a.x + font * 0.4f, a.y + font * 0.15f), ImGui::GetColorU32(ImGuiCol_Text), name);
    ImGui::Dummy(ImVec2(b.x - a.x, b.y - a.y));
    ImGui::SameLine();
    // Wrapped beside the box: its lines start where the first does.
    ImGui::PushTextWrapPos(0);
    if (s.state == StageState::Empty)
      ImGui::TextDisabled("empty");
    else
      ImGui::TextWrapped("k %lld ... %lld: %s", static_cast<long long>(s.k0), static_cast<long long>(s.k1 - 1),
                         s.state == StageState::Multiplying ? "multiplied now" : "loading (cp.async)");
    ImGui::PopTextWrapPos();
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled(
      "The buffers form a ring: k tile s lives in stage s %% %d. While one stage is multiplied, the next %d "
      "tile(s) are already on their way from global memory, so the loads hide behind the mma.",
      pic.stages, pic.in_flight);
  ImGui::PopTextWrapPos();
}

}  // namespace tilescope
