#include "app/ui/mapping/warpgroup_view.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/ui/shell/widgets.h"
#include "app/viz/colors.h"
#include "app/viz/fragment_images.h"
#include "app/viz/warpgroup_images.h"

namespace tilescope {

namespace {

constexpr ImU32 kWhite = 0xFFFFFFFF;
constexpr float kFade = 0.22f;  // what the elements of the threads not lit up keep of their colour
constexpr const char* kTableTitle = "lanes: row g, column t";
constexpr const char* kPieceWords =
    "Each warp's band is this 16 x 8 piece repeated across: lane 4g + t holds rows g and g + 8 and columns 2t and "
    "2t + 1 of every 8 columns, four registers per piece (c0 ... c3 here, c4 ... c7 in the next 8 columns, and so "
    "on). The same pattern as one m16n8 mma.sync, four warps stacked.";
constexpr const char* kPieceTitleWidest = "warp 0, rows 000-000, columns 0-0:";  // the widest a piece's title gets

// The thread lit up: a (warp, lane) pair; warp -1 lights the lane in every warp.
struct Thread {
  int warp = -1, lane = -1;
  bool any() const { return lane >= 0; }
  bool holds(const OperandGrid& g, int row, int col) const { return held_by_thread(g, row, col, warp, lane); }
};

// A grid of cells on screen: `rows` x `cols` from `origin`, cells cw x ch.
struct Cells {
  ImVec2 origin;
  float cw = 1, ch = 1;
  int rows = 0, cols = 0;
  bool hit(ImVec2 m, int* row, int* col) const {
    const float x = (m.x - origin.x) / cw, y = (m.y - origin.y) / ch;
    if (x < 0 || y < 0 || x >= cols || y >= rows) return false;
    *row = static_cast<int>(y), *col = static_cast<int>(x);
    return true;
  }
  ImVec2 at(int row, int col) const { return ImVec2(origin.x + col * cw, origin.y + row * ch); }
};

// The whole C tile, a row at a time in runs of equal colour (a 64 x 256 tile is 16384 cells: one
// rectangle each would overflow a draw list's 16-bit indices), the threads lit up framed.
void draw_tile(ImDrawList* dl, const OperandGrid& c, const Cells& at, Thread lit) {
  const ImU32 bg = ImGui::GetColorU32(ImGuiCol_WindowBg);
  auto colour = [&](int r, int col, bool* mine) {
    const std::vector<Holder>& h = c.at(r, col);
    *mine = !lit.any() || lit.holds(c, r, col);
    const unsigned base = h.empty() ? pack_rgb(0.3, 0.3, 0.3) : warp_color(h.front().warp);
    return *mine ? base : mix_color(base, bg, kFade);
  };
  for (int r = 0; r < c.rows; ++r)
    for (int col0 = 0; col0 < c.cols;) {
      bool mine = false, next_mine = false;
      const unsigned run = colour(r, col0, &mine);
      int col1 = col0 + 1;
      while (col1 < c.cols && colour(r, col1, &next_mine) == run && next_mine == mine) ++col1;
      const ImVec2 a = at.at(r, col0), b = at.at(r + 1, col1);
      dl->AddRectFilled(a, b, run);
      if (lit.any() && mine) dl->AddRect(a, b, kWhite, 0, 0, std::min(2.0f, std::max(1.0f, at.cw * 0.3f)));
      col0 = col1;
    }
  // The 8-column pieces (one m16n8 pattern each), every cell where cells are big enough, and the
  // warps' bands, in the background colour.
  const bool every = at.cw >= 7;
  for (int col = 1; col < c.cols; ++col)
    if (every || col % 8 == 0)
      dl->AddLine(at.at(0, col), at.at(c.rows, col), bg, col % 8 == 0 && at.cw * 8 >= 24 ? 1.5f : 1.0f);
  if (at.ch >= 7)
    for (int r = 1; r < c.rows; ++r) dl->AddLine(at.at(r, 0), at.at(r, c.cols), bg);
}

void draw_band_labels(ImDrawList* dl, const std::vector<WarpBand>& bands, const Cells& at, float x) {
  const float font = ImGui::GetFontSize();
  for (const WarpBand& b : bands) {
    if (b.row0 > b.row1) continue;
    const float top = at.at(b.row0, 0).y, bottom = at.at(b.row1 + 1, 0).y, mid = (top + bottom) * 0.5f;
    char name[32], rows[48];
    std::snprintf(name, sizeof name, "warp %d", b.warp);
    std::snprintf(rows, sizeof rows, "rows %d-%d", b.row0, b.row1);
    const bool two = bottom - top >= font * 2.1f;
    dl->AddRectFilled(ImVec2(x, top + 1), ImVec2(x + font * 0.5f, bottom - 1), warp_color(b.warp));
    // A band lower than a line (a small tile, presenter mode) takes its name smaller, so that the
    // names of neighbouring bands never overlap; none where it would be unreadable.
    const float name_size = std::min(font, bottom - top);
    if (name_size >= font * 0.6f)
      dl->AddText(ImGui::GetFont(), name_size, ImVec2(x + font * 0.8f, two ? mid - font : mid - name_size * 0.5f),
                  warp_color(b.warp), name);
    if (two)
      dl->AddText(ImGui::GetFont(), font * 0.85f, ImVec2(x + font * 0.8f, mid + font * 0.05f),
                  ImGui::GetColorU32(ImGuiCol_TextDisabled), rows);
    if (b.row0 > 0) dl->AddLine(ImVec2(at.origin.x, top), ImVec2(at.at(0, at.cols).x, top), kWhite, 1.5f);
  }
}

void draw_column_ticks(ImDrawList* dl, const Cells& at) {
  const float small = ImGui::GetFontSize() * 0.75f;
  const float need = ImGui::CalcTextSize("000").x * 0.75f + 6;
  int every = 8;
  while (every * at.cw < need && every < at.cols) every *= 2;
  // The last number ends at the tile's right edge rather than past it; a number it would touch is left out.
  char last[16];
  std::snprintf(last, sizeof last, "%d", at.cols);
  const float last_x = at.at(0, at.cols).x - ImGui::CalcTextSize(last).x * 0.75f;
  for (int col = 0; col <= at.cols; col += every) {
    char text[16];
    std::snprintf(text, sizeof text, "%d", col);
    const float w = ImGui::CalcTextSize(text).x * 0.75f;
    const ImVec2 p = at.at(0, col);
    const bool is_last = col == at.cols;
    if (!is_last && at.cols % every == 0 && p.x + w + 4 > last_x) continue;
    dl->AddText(ImGui::GetFont(), small, ImVec2(is_last ? last_x : p.x + 1, p.y - small - 2),
                ImGui::GetColorU32(ImGuiCol_TextDisabled), text);
  }
}

// The 32 lanes as a table: a row per group (g = lane / 4), a column per thread (t = lane % 4).
void draw_lane_table(ImDrawList* dl, const Cells& t, int lit_lane) {
  const ImU32 bg = ImGui::GetColorU32(ImGuiCol_WindowBg);
  for (int lane = 0; lane < 32; ++lane) {
    const ImVec2 a = t.at(lane / 4, lane % 4), b(a.x + t.cw - 1, a.y + t.ch - 1);
    const unsigned colour =
        lit_lane < 0 || lit_lane == lane ? lane_color(lane) : mix_color(lane_color(lane), bg, kFade);
    dl->AddRectFilled(a, b, colour);
    char label[16];
    std::snprintf(label, sizeof label, "%d", lane);
    cell_text(dl, a, b, colour, label, 0.85f, 8);
    if (lane == lit_lane) dl->AddRect(a, ImVec2(b.x + 1, b.y + 1), kWhite, 0, 0, 2);
  }
}

// One m16n8 piece of a warp's band (16 rows x 8 columns from `row0`), by lane, numbered.
void draw_piece(ImDrawList* dl, const OperandGrid& c, const Cells& at, int row0, int warp, int lit_lane) {
  const ImU32 bg = ImGui::GetColorU32(ImGuiCol_WindowBg);
  for (int r = 0; r < at.rows; ++r)
    for (int col = 0; col < at.cols; ++col) {
      if (row0 + r >= c.rows || col >= c.cols) continue;
      const ImVec2 a = at.at(r, col), b(a.x + at.cw - 1, a.y + at.ch - 1);
      int lane = -1;
      for (const Holder& h : c.at(row0 + r, col))
        if (h.warp == warp) lane = h.lane;
      const bool mine = lit_lane < 0 || lane == lit_lane;
      const unsigned base = lane < 0 ? pack_rgb(0.3, 0.3, 0.3) : lane_color(lane);
      const unsigned colour = mine ? base : mix_color(base, bg, kFade);
      dl->AddRectFilled(a, b, colour);
      char label[16];
      std::snprintf(label, sizeof label, "%d", lane);
      if (lane >= 0 && mine) cell_text(dl, a, b, colour, label, 0.85f, 8);
      if (lit_lane >= 0 && mine) dl->AddRect(a, ImVec2(b.x + 1, b.y + 1), kWhite, 0, 0, 2);
    }
}

void element_tooltip(const OperandGrid& c, int row, int col) {
  ImGui::BeginTooltip();
  ImGui::Text("C(%d, %d) of the instruction's tile", row, col);
  for (const Holder& h : c.at(row, col))
    ImGui::Text("warp %d of the group, lane %d (group %d, thread %d), accumulator register c%d", h.warp, h.lane,
                h.lane / 4, h.lane % 4, h.reg);
  if (c.at(row, col).empty()) ImGui::TextUnformatted("held by no lane");
  ImGui::EndTooltip();
}

}  // namespace

void draw_warpgroup_accumulators(const FragmentPicture& pic, int* warp, int* lane) {
  ImGui::PushTextWrapPos(0);
  ImGui::TextWrapped("One warpgroup instruction: %s", pic.instruction.c_str());
  ImGui::TextDisabled("%s", warpgroup_caption(pic).c_str());
  ImGui::TextDisabled("This block: %s.", warpgroup_block_summary(pic).c_str());
  ImGui::PopTextWrapPos();
  // The buttons wrap onto the next line where the view is narrow (presenter mode).
  ImGui::TextUnformatted("light up:");
  same_line_if_fits(check_width("every warp"));
  if (ImGui::RadioButton("every warp", *warp < 0)) *warp = -1;
  for (int q = 0; q < pic.group_warps; ++q) {
    char name[32];
    std::snprintf(name, sizeof name, "warp %d", q);
    same_line_if_fits(check_width(name));
    ImGui::PushStyleColor(ImGuiCol_Text, warp_color(q));
    if (ImGui::RadioButton(name, *warp == q)) *warp = q;
    ImGui::PopStyleColor();
  }
  const char* then = "then a lane: hover or click one";
  same_line_if_fits(text_width(then));
  ImGui::TextDisabled("%s", then);

  const OperandGrid c = operand_grid(pic.c, pic.mma_m, pic.mma_n);
  const std::vector<WarpBand> bands = warp_bands(pic);
  // The layout first, the hit test next, the drawing last: what is lit up depends on the mouse.
  const float font = ImGui::GetFontSize(), line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 p0 = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  const float label_w = ImGui::CalcTextSize("rows 48-63").x + font * 1.6f;
  // Room for the lit thread's share in words, as wrapped at the view's width (four lines and more
  // where the view is narrow, as in presenter mode): the longest of a lane of one warp or of every warp.
  const float wrap_w = std::max(avail.x - label_w, font * 8);
  float summary_h = 0;
  for (int w : {0, -1})
    summary_h = std::max(
        summary_h, ImGui::CalcTextSize((warpgroup_lane_summary(pic, w, 0) + ".").c_str(), nullptr, false, wrap_w).y);
  const float strip_h = font * 16, words_h = std::max(line * 2.6f, summary_h + line * 0.6f), ticks_h = font;
  const float cell = std::clamp(std::min((avail.x - label_w - font) / std::max(pic.mma_n, 1),
                                         (avail.y - strip_h - words_h - ticks_h - line * 3) / std::max(pic.mma_m, 1)),
                                1.0f, font * 1.5f);
  Cells tile{ImVec2(p0.x + label_w, p0.y + ticks_h), cell, cell, c.rows, c.cols};
  const float tile_bottom = tile.at(c.rows, 0).y;
  const float strip_top = tile_bottom + words_h + line;
  // The lane table and the piece side by side, narrower where the view is (presenter mode).
  const float strip_cw = std::clamp((avail.x - font * 4) / 12, font * 1.2f, font * 1.8f);
  Cells table{ImVec2(p0.x, strip_top), strip_cw, strip_h / 8, 8, 4};
  const int piece_rows = std::min(16, c.rows), piece_cols = std::min(8, c.cols);
  // The piece beside the table, after its title so that the two titles never touch; under the
  // table where the view is too narrow for both.
  const float piece_x =
      std::max(table.at(0, 4).x + font * 1.5f, table.origin.x + ImGui::CalcTextSize(kTableTitle).x + font);
  const float piece_w = std::max(piece_cols * strip_cw, ImGui::CalcTextSize(kPieceTitleWidest).x);
  const bool piece_beside = piece_x + piece_w <= p0.x + avail.x;
  const ImVec2 piece_at = piece_beside ? ImVec2(piece_x, strip_top) : ImVec2(p0.x, strip_top + strip_h + line * 1.5f);
  Cells piece{piece_at, strip_cw, strip_h / 16, piece_rows, piece_cols};

  const ImVec2 m = ImGui::GetIO().MousePos;
  const bool over = ImGui::IsWindowHovered() && m.x >= p0.x && m.y >= p0.y;
  Thread hovered;
  int row = 0, col = 0, table_lane = -1;
  bool on_tile = false, on_piece = false;
  const Thread pinned{*warp, *lane};
  // The piece shows the band of the warp lit up (the first where every warp is).
  int piece_warp = pinned.warp >= 0 ? pinned.warp : 0;
  if (over) {
    if (tile.hit(m, &row, &col) && !c.at(row, col).empty()) {
      on_tile = true;
      hovered = Thread{c.at(row, col).front().warp, c.at(row, col).front().lane};
      piece_warp = hovered.warp;
    } else if (piece.hit(m, &row, &col)) {
      on_piece = true;
      const int r = bands[static_cast<std::size_t>(piece_warp)].row0 + row;
      for (const Holder& h : c.at(std::min(r, c.rows - 1), col))
        if (h.warp == piece_warp) hovered = Thread{pinned.warp, h.lane};
      row = r;
    } else {
      int r = 0, t = 0;
      if (table.hit(m, &r, &t)) table_lane = r * 4 + t, hovered = Thread{pinned.warp, table_lane};
    }
  }
  const Thread lit = hovered.any() ? hovered : pinned;
  const int piece_row0 = std::max(0, bands[static_cast<std::size_t>(piece_warp)].row0);

  const float height = piece.origin.y + strip_h + line - p0.y;
  ImGui::InvisibleButton("accumulators", ImVec2(std::max(avail.x, 50.0f), std::max(height, 50.0f)));
  if (ImGui::IsItemClicked(ImGuiMouseButton_Left) && hovered.any()) {
    const bool same = *lane == hovered.lane && *warp == hovered.warp;
    *lane = same ? -1 : hovered.lane;
    if (on_tile && !same) *warp = hovered.warp;
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  draw_column_ticks(dl, tile);
  draw_tile(dl, c, tile, lit);
  draw_band_labels(dl, bands, tile, p0.x);
  // The thread's share in words, a text item over the space kept for it (so it wraps, and is logged).
  const ImVec2 after = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(ImVec2(tile.origin.x, tile_bottom + line * 0.4f));
  ImGui::PushTextWrapPos(ImGui::GetCursorPos().x + avail.x - label_w);
  if (lit.any())
    ImGui::TextWrapped("%s.", warpgroup_lane_summary(pic, lit.warp, lit.lane).c_str());
  else
    ImGui::TextDisabled("No thread lit up: hover or click one.");
  ImGui::PopTextWrapPos();
  ImGui::SetCursorScreenPos(after);
  ImGui::Dummy(ImVec2(0, 0));
  const ImU32 note = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  dl->AddText(ImVec2(table.origin.x, strip_top - line), note, kTableTitle);
  draw_lane_table(dl, table, lit.lane);
  char title[96];
  std::snprintf(title, sizeof title, "warp %d, rows %d-%d, columns 0-%d:", piece_warp, piece_row0,
                piece_row0 + piece_rows - 1, piece_cols - 1);
  dl->AddText(ImVec2(piece.origin.x, piece.origin.y - line), note, title);
  draw_piece(dl, c, piece, piece_row0, piece_warp, lit.lane);
  // What the piece shows, beside it where there is room, else under it: wrapped text, part of
  // the panel's content (which scrolls down to it).
  if (follows_wgmma_layout(pic)) {
    const float beside_x = piece.at(0, piece_cols).x + font * 2;
    const bool beside = beside_x < p0.x + avail.x - font * 10;
    const ImVec2 at = beside ? ImVec2(beside_x, piece.origin.y) : ImVec2(p0.x, piece.at(piece_rows, 0).y + line * 0.5f);
    const ImVec2 resume = ImGui::GetCursorScreenPos();
    ImGui::SetCursorScreenPos(at);
    ImGui::PushTextWrapPos(ImGui::GetCursorPos().x + (p0.x + avail.x - at.x - font));
    ImGui::TextDisabled("%s", kPieceWords);
    ImGui::PopTextWrapPos();
    const float bottom = ImGui::GetItemRectMax().y;
    ImGui::SetCursorScreenPos(resume);
    ImGui::Dummy(ImVec2(0, std::max(0.0f, bottom - resume.y)));
  }
  if (on_tile || on_piece) element_tooltip(c, row, col);
}

}  // namespace tilescope
