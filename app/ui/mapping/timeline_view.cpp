#include "app/ui/mapping/timeline_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "app/plot/plot_model.h"
#include "app/ui/shell/widgets.h"
#include "app/viz/colors.h"

namespace tilescope {

namespace {

constexpr float kCopyLaneWeight = 0.5f;  // a stage's copy lane, against a consumer's lane of 1
constexpr float kRowGapWeight = 0.8f;    // the gap under a row, in the same unit
constexpr float kMinLaneUnit = 6.0f;     // pixels: a copy lane of 3 still shows its colour
constexpr double kMinSpanNs = 20.0;      // the deepest zoom: 20 ns across the bars

int consumers_of(const TimelineLayout& l) {
  return std::clamp(l.consumers, 0, kTimelineMaxConsumers);
}

int stages_of(const TimelineLayout& l) {
  return std::max(1, l.stages);
}

ImU32 with_alpha(ImU32 c, int alpha) {
  return (c & 0x00FFFFFFu) | (static_cast<ImU32>(alpha) << 24);
}

bool stamped(double t) {
  return t >= 0;
}

// Text with a dark shadow, readable over bars of any colour.
void shadowed_text(ImDrawList* dl, float size, ImVec2 at, const char* text) {
  dl->AddText(ImGui::GetFont(), size, ImVec2(at.x + 1, at.y + 1), 0xC0000000u, text);
  dl->AddText(ImGui::GetFont(), size, at, 0xFFFFFFFFu, text);
}

// "tile 1, its slab 3 of 16 (k 192 ... 255 of the tile's K)".
std::string slab_place(const TimelineSlab& s, const TimelineLayout& l) {
  char buf[160];
  const int spt = std::max(1, l.slabs_per_tile);
  const int in_tile = s.in_tile;
  if (l.slab_depth > 0)
    std::snprintf(buf, sizeof buf, "tile %d, its slab %d of %d (k %d ... %d)", s.tile, in_tile, spt,
                  in_tile * l.slab_depth, (in_tile + 1) * l.slab_depth - 1);
  else
    std::snprintf(buf, sizeof buf, "tile %d, its slab %d of %d", s.tile, in_tile, spt);
  return buf;
}

// The consumer's previous slab's end: where its lane was free before this bar (-1: none).
double previous_done(const TimelineBlock& b, std::size_t n, int c) {
  for (std::size_t i = n; i-- > 0;)
    if (stamped(b.slabs[i].done[c])) return b.slabs[i].done[c];
  return -1;
}

}  // namespace

void TimelineView::show(std::shared_ptr<const TimelineResult> result) {
  result_ = std::move(result);
  summary_ = result_ ? summarize_timeline(*result_) : TimelineSummary{};
  first_violation_.clear();
  if (result_ && result_->ok())
    for (const TimelineBlock& b : result_->blocks) {
      first_violation_ = timeline_order_violation(b, result_->layout);
      if (!first_violation_.empty()) break;
    }
  fit_pending_ = true;
}

float TimelineView::x_of(double ns) const {
  const double span = t1_ > t0_ ? t1_ - t0_ : 1.0;
  return bars_x0_ + static_cast<float>((ns - t0_) / span * (bars_x1_ - bars_x0_));
}

TimelineView::Span TimelineView::lane_span(int row, int lane) const {
  if (row < 0 || row >= rows_drawn_ || lane < 0 || lane >= static_cast<int>(rows_.lane_top.size())) return {};
  const float y = rows_.top + row * rows_.height + rows_.lane_top[static_cast<std::size_t>(lane)];
  return {y, y + rows_.lane_height[static_cast<std::size_t>(lane)]};
}

void TimelineView::draw_explanation(int stages, int consumers) {
  char ring[96], who[64];
  if (stages > 0)
    std::snprintf(ring, sizeof ring, "a ring of %d shared-memory stages: slab n goes into stage n mod %d", stages,
                  stages);
  else
    std::snprintf(ring, sizeof ring, "a ring of shared-memory stages: slab n goes into stage n mod stages");
  if (consumers > 0)
    std::snprintf(who, sizeof who, "the %d consumer warpgroup%s", consumers, consumers == 1 ? "" : "s");
  else
    std::snprintf(who, sizeof who, "the consumer warpgroups");
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled(
      "A row per block, time across. Each block moves its k slabs through %s, the colour of its bars. The upper, "
      "thin lanes of a row are the stages: a darker bar is a copy in flight, from the producer issuing it to its "
      "last byte landing. The lower lanes are %s: a solid bar is one of them multiplying that slab (its MMAs).",
      ring, who);
  ImGui::TextWrapped(
      "What to look for: while the consumers multiply one stage, the copies of the next stages are already in "
      "flight above them. That overlap hides the memory's latency and makes the kernel fast. A gap in a "
      "consumer's lane is time it waited: for bytes still on their way (a copy ending just where the MMA "
      "begins), or at a tile boundary (white line), where it writes its tile of C before the next one.");
  ImGui::PopTextWrapPos();
}

void TimelineView::draw() {
  rows_drawn_ = 0;
  if (!result_ || !result_->ok() || result_->blocks.empty()) {
    ImGui::TextDisabled("No timeline to draw.");
    return;
  }
  draw_controls();
  draw_summary_line();
  // Open at first; a teacher who has said it once closes it and the bars get its room.
  if (ImGui::CollapsingHeader("What the picture shows", ImGuiTreeNodeFlags_DefaultOpen)) {
    draw_explanation(result_->layout.stages, consumers_of(result_->layout));
    if (!result_->layout.runs.empty()) {
      ImGui::PushTextWrapPos(0);
      ImGui::TextWrapped(
          "Stream-K: after its whole tiles each block takes an equal run of the last wave's slabs, which may begin "
          "or end inside a tile; a white line marks where each run begins. There the block left its partial sums "
          "for the block holding the tile's first slab, or waited for the others' and added them, before its C.");
      ImGui::PopTextWrapPos();
    }
  }
  if (!first_violation_.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(ImVec4(1, 0.6f, 0.25f, 1),
                       "These stamps break an order the barriers impose (%s): read the picture with care.",
                       first_violation_.c_str());
    ImGui::PopTextWrapPos();
  }
  draw_legend();
  draw_canvas();
}

void TimelineView::draw_controls() {
  const int blocks = static_cast<int>(result_->blocks.size());
  const float font = ImGui::GetFontSize();
  if (ImGui::Button("Fit")) fit();
  help_tooltip("Show the whole time of the blocks shown (or double-click the bars). The wheel zooms, a drag pans.");
  same_line_if_fits(ImGui::CalcTextSize("The start").x + font);
  if (ImGui::Button("The start")) zoom_to_start();
  help_tooltip(
      "Zoom in on the first slabs of the blocks shown: the producer filling the ring, the consumers' first "
      "slabs, the first stages refilled.");
  same_line_if_fits(font * 7 + ImGui::CalcTextSize("first block").x + font);
  ImGui::SetNextItemWidth(font * 7);
  int first = std::clamp(first_, 0, blocks - 1);
  if (ImGui::InputInt("first block", &first)) first_ = std::clamp(first, 0, blocks - 1);
  help_tooltip(
      "The block in the top row. A persistent kernel launches one block per SM; each walks its own tiles of C, "
      "so the rows differ in their tiles, not in what they do.");
  char of[32];
  std::snprintf(of, sizeof of, "of %d", blocks);
  same_line_if_fits(font * 8 + ImGui::CalcTextSize("blocks shown ").x + ImGui::CalcTextSize(of).x + font);
  ImGui::SetNextItemWidth(font * 8);
  int count = std::clamp(count_, 1, std::min(blocks, kMaxRows));
  if (ImGui::SliderInt("blocks shown", &count, 1, std::min(blocks, kMaxRows))) count_ = count;
  help_tooltip("How many rows (blocks) to draw, from the first block on.");
  ImGui::SameLine();
  ImGui::TextDisabled("%s", of);
}

void TimelineView::draw_summary_line() const {
  const TimelineResult& r = *result_;
  char part[4][96];
  std::snprintf(part[0], sizeof part[0], "kernel %s", format_ns(summary_.kernel_ns).c_str());
  std::snprintf(part[1], sizeof part[1], "average copy latency %s", format_ns(summary_.copy_latency_ns).c_str());
  std::snprintf(part[2], sizeof part[2], "consumers busy %.0f%%", summary_.busy_fraction * 100);
  std::snprintf(part[3], sizeof part[3], "copy time hidden behind MMAs %.0f%%", summary_.hidden_copy_fraction * 100);
  const char* help =
      "kernel: the first block's start to the last block's end. Copy latency: from the producer issuing a slab's "
      "copy to its last byte landing, averaged over every slab. Consumers busy: the time the consumers had MMAs "
      "in flight over the time they had (consumers x each block's span). Hidden: the part of the copies' time "
      "during which a consumer of the same block was multiplying.";
  for (int i = 0; i < 4; ++i) {
    if (i > 0) same_line_if_fits(ImGui::CalcTextSize(part[i]).x, ImGui::GetFontSize() * 1.5f);
    ImGui::TextUnformatted(part[i]);
    help_tooltip(help);
  }
  const int spt = std::max(1, r.layout.slabs_per_tile);
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%d blocks, %lld tiles of C, %d slabs of k per tile (%d each), %d slabs stamped%s",
                      static_cast<int>(r.blocks.size()), static_cast<long long>(r.layout.tiles), spt,
                      r.layout.slab_depth, summary_.slabs,
                      summary_.all_slabs_stamped ? "" : " (blocks moved more: the figures cover the stamped ones)");
  ImGui::PopTextWrapPos();
}

void TimelineView::draw_legend() const {
  const float font = ImGui::GetFontSize(), sw = font * 0.9f, line = ImGui::GetTextLineHeight();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const int stages = stages_of(result_->layout);
  // A swatch of `w` pixels drawn by `paint` at the cursor, then its words; on the next line when
  // the words would not fit on this one (presenter mode's big font).
  auto entry = [&](bool first, float w, auto paint, const char* words, bool disabled) {
    if (!first) same_line_if_fits(w + 4 + ImGui::CalcTextSize(words).x, font);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    paint(p, p.y + (line - sw) * 0.5f);
    ImGui::Dummy(ImVec2(w, line));
    ImGui::SameLine(0, 4);
    if (disabled)
      ImGui::TextDisabled("%s", words);
    else
      ImGui::TextUnformatted(words);
  };
  for (int s = 0; s < stages; ++s) {
    char name[24];
    std::snprintf(name, sizeof name, "stage %d", s);
    entry(
        s == 0, 2 * sw + 2,
        [&](ImVec2 p, float y) {
          dl->AddRectFilled(ImVec2(p.x, y + sw * 0.25f), ImVec2(p.x + sw, y + sw * 0.75f), stage_copy_color(s));
          dl->AddRectFilled(ImVec2(p.x + sw + 2, y), ImVec2(p.x + 2 * sw + 2, y + sw), stage_color(s));
        },
        name, false);
  }
  entry(
      false, 0, [](ImVec2, float) {}, "darker: a copy in flight; solid: a consumer's MMAs;", true);
  entry(
      false, 6,
      [&](ImVec2 p, float) { dl->AddLine(ImVec2(p.x + 2, p.y), ImVec2(p.x + 2, p.y + line), 0xFFFFFFFFu, 2); },
      result_->layout.runs.empty() ? "a new tile;" : "a new tile, or a run of a tile's slabs;", true);
  entry(
      false, 2 * sw,
      [&](ImVec2 p, float y) {
        dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + 2 * sw, y + sw), ImGui::GetColorU32(ImGuiCol_FrameBg));
      },
      "the block on its SM (setting up before its first copy, storing C after its last MMA)", true);
}

TimelineView::Rows TimelineView::place_rows(float top, float height) const {
  const TimelineLayout& l = result_->layout;
  const int stages = stages_of(l), consumers = consumers_of(l);
  const int blocks = static_cast<int>(result_->blocks.size());
  const float font = ImGui::GetFontSize();
  Rows r;
  r.first = std::clamp(first_, 0, blocks - 1);
  r.top = top;
  int want = std::min({count_, blocks - r.first, kMaxRows});
  const int lanes = stages + consumers;
  const float weight = stages * kCopyLaneWeight + consumers + kRowGapWeight;
  // One unit u: a copy lane is u / 2, a consumer lane u, one pixel between lanes, 0.8 u under a row.
  float u = std::min((height / want - (lanes - 1)) / weight, font * 1.2f);
  if (u < kMinLaneUnit) {
    u = kMinLaneUnit;
    want = std::max(1, static_cast<int>(height / (u * weight + (lanes - 1))));
  }
  r.count = want;
  r.height = u * weight + (lanes - 1);
  float y = 0;
  for (int lane = 0; lane < lanes; ++lane) {
    const float h = lane < stages ? u * kCopyLaneWeight : u;
    r.lane_top.push_back(y);
    r.lane_height.push_back(h);
    y += h + 1;
  }
  return r;
}

void TimelineView::fit_now() {
  fit_pending_ = false;
  const int blocks = static_cast<int>(result_->blocks.size());
  const int first = std::clamp(first_, 0, blocks - 1), last = std::min(blocks, first + count_);
  double lo = 0, hi = 0;
  bool any = false;
  for (int b = first; b < last; ++b) {
    const TimelineBlock& block = result_->blocks[static_cast<std::size_t>(b)];
    lo = any ? std::min(lo, block.begin) : block.begin;
    hi = any ? std::max(hi, block_known_end_ns(block)) : block_known_end_ns(block);
    any = true;
  }
  lo = std::min(lo, 0.0);
  if (hi - lo < kMinSpanNs) hi = lo + kMinSpanNs;
  const double margin = (hi - lo) * 0.02;
  t0_ = lo - margin;
  t1_ = hi + margin;
}

void TimelineView::zoom_to_start_now() {
  start_pending_ = false;
  const int blocks = static_cast<int>(result_->blocks.size());
  const int first = std::clamp(first_, 0, blocks - 1), last = std::min(blocks, first + count_);
  // Three turns of the ring: its filling and two refills of every stage.
  const int slabs = 3 * stages_of(result_->layout);
  double lo = 0, hi = 0;
  for (int i = first; i < last; ++i) {
    const TimelineBlock& b = result_->blocks[static_cast<std::size_t>(i)];
    lo = std::min(lo, b.begin);
    for (int n = 0; n < std::min(slabs, static_cast<int>(b.slabs.size())); ++n) {
      const TimelineSlab& s = b.slabs[static_cast<std::size_t>(n)];
      hi = std::max({hi, s.issued, s.arrived});
      for (int c = 0; c < kTimelineMaxConsumers; ++c) hi = std::max(hi, s.done[c]);
    }
  }
  if (hi - lo < kMinSpanNs) return;
  fit_pending_ = false;
  t0_ = lo - (hi - lo) * 0.02;
  t1_ = hi + (hi - lo) * 0.02;
}

void TimelineView::zoom_and_pan(bool hovered, bool active) {
  ImGuiIO& io = ImGui::GetIO();
  const double width = std::max(1.0f, bars_x1_ - bars_x0_), span = t1_ - t0_;
  if (hovered && io.MouseWheel != 0) {
    // Around the time under the mouse, which stays where it is.
    const double mx =
        std::clamp(static_cast<double>(io.MousePos.x), static_cast<double>(bars_x0_), static_cast<double>(bars_x1_));
    const double at = t0_ + (mx - bars_x0_) / width * span;
    const double widest = std::max(result_->kernel_ns * 4, 1000.0);
    const double next = std::clamp(span * std::pow(1.25, -io.MouseWheel), kMinSpanNs, widest);
    t0_ = at - (at - t0_) * next / span;
    t1_ = t0_ + next;
  }
  if (active && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    const double shift = io.MouseDelta.x / width * span;
    t0_ -= shift;
    t1_ -= shift;
  }
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) fit_now();
}

void TimelineView::draw_canvas() {
  const float font = ImGui::GetFontSize();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 size(std::max(avail.x, font * 20), std::max(avail.y, font * 8));
  ImGui::InvisibleButton("timeline bars", size);
  const bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
  label_x_ = p0.x + font * 0.3f;
  bars_x0_ = p0.x + ImGui::CalcTextSize("block 000 · SM 000").x + font * 0.9f;
  bars_x1_ = std::max(bars_x0_ + 10, p0.x + size.x - font * 0.8f);
  if (fit_pending_) fit_now();
  if (start_pending_) zoom_to_start_now();
  zoom_and_pan(hovered, active);

  const float axis_h = font * 1.5f;
  rows_ = place_rows(p0.y + axis_h, size.y - axis_h);
  rows_drawn_ = rows_.count;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(p0, ImVec2(p0.x + size.x, p0.y + size.y), true);
  draw_axis(dl, p0.y, rows_.top + rows_.count * rows_.height);
  for (int r = 0; r < rows_.count; ++r) draw_row(dl, rows_, r);
  dl->PopClipRect();
  if (rows_.count < std::min(count_, static_cast<int>(result_->blocks.size()) - rows_.first))
    dl->AddText(ImVec2(label_x_, p0.y + size.y - font * 1.2f), ImGui::GetColorU32(ImGuiCol_TextDisabled),
                "(more rows do not fit)");
  if (hovered && !ImGui::IsMouseDragging(ImGuiMouseButton_Left)) hover(rows_);
}

void TimelineView::draw_axis(ImDrawList* dl, float top, float bottom) const {
  const float font = ImGui::GetFontSize();
  const float axis_bottom = top + font * 1.4f;
  Axis axis;
  axis.lo = t0_;
  axis.hi = t1_;
  const int target = std::max(2, static_cast<int>((bars_x1_ - bars_x0_) / (font * 8)));
  std::vector<double> values;
  for (const Tick& t : make_ticks(axis, target))
    if (t.major && t.value >= t0_ && t.value <= t1_) values.push_back(t.value);
  const double step = values.size() > 1 ? values[1] - values[0] : 0;
  const std::vector<std::string> labels = time_tick_labels(values, step);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled), grid = with_alpha(text, 50);
  dl->AddText(ImVec2(label_x_, top + font * 0.15f), text, "time since the start");
  dl->AddLine(ImVec2(bars_x0_, axis_bottom), ImVec2(bars_x1_, axis_bottom), text);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const float x = x_of(values[i]);
    dl->AddLine(ImVec2(x, axis_bottom - font * 0.3f), ImVec2(x, axis_bottom), text);
    dl->AddLine(ImVec2(x, axis_bottom), ImVec2(x, bottom), grid);
    const float w = ImGui::CalcTextSize(labels[i].c_str()).x;
    dl->AddText(ImVec2(std::min(x - w * 0.5f, bars_x1_ - w), top + font * 0.1f), text, labels[i].c_str());
  }
}

void TimelineView::draw_row(ImDrawList* dl, const Rows& rows, int r) const {
  const TimelineLayout& l = result_->layout;
  const int stages = stages_of(l), consumers = consumers_of(l);
  const TimelineBlock& b = result_->blocks[static_cast<std::size_t>(rows.first + r)];
  const float y0 = rows.top + r * rows.height;
  const float body = rows.lane_top.back() + rows.lane_height.back();
  const float font = ImGui::GetFontSize();

  // The block's name beside its stage lanes; each consumer lane named where it is tall enough.
  char label[64];
  std::snprintf(label, sizeof label, "block %d · SM %d", b.block, b.sm);
  const float copies = rows.lane_top[static_cast<std::size_t>(stages)];
  const float small = std::min(font * 0.75f, rows.lane_height.back());
  const bool named_lanes = small >= 8 && consumers > 0;
  const float around = named_lanes ? copies : body;
  const float size = std::min(font, std::max(around, font * 0.6f));
  dl->AddText(ImGui::GetFont(), size, ImVec2(label_x_, y0 + (around - size) * 0.5f), ImGui::GetColorU32(ImGuiCol_Text),
              label);
  for (int c = 0; named_lanes && c < consumers; ++c) {
    char name[32];
    std::snprintf(name, sizeof name, "consumer %d", c);
    const float w = ImGui::CalcTextSize(name).x * small / font;
    const float top = y0 + rows.lane_top[static_cast<std::size_t>(stages + c)];
    dl->AddText(ImGui::GetFont(), small,
                ImVec2(bars_x0_ - w - font * 0.4f, top + (rows.lane_height.back() - small) * 0.5f),
                ImGui::GetColorU32(ImGuiCol_TextDisabled), name);
  }

  dl->PushClipRect(ImVec2(bars_x0_, y0 - 1), ImVec2(bars_x1_, y0 + rows.height), true);
  // Where the block was resident: its setup before the first copy and its last tile's store after
  // the last MMA show as the faint band beyond the bars.
  dl->AddRectFilled(ImVec2(x_of(b.begin), y0), ImVec2(x_of(b.end), y0 + body), ImGui::GetColorU32(ImGuiCol_FrameBg));
  auto bar = [&](double from, double to, int lane, ImU32 fill, ImU32 frame) {
    if (!stamped(from) || to < from) return;
    float x0 = x_of(from), x1 = x_of(to);
    if (x1 < bars_x0_ || x0 > bars_x1_) return;
    x1 = std::max(x1, x0 + 1);  // a bar shorter than a pixel still shows
    const float top = y0 + rows.lane_top[static_cast<std::size_t>(lane)];
    const float bottom = top + rows.lane_height[static_cast<std::size_t>(lane)];
    dl->AddRectFilled(ImVec2(x0, top), ImVec2(x1, bottom), fill);
    if (frame && x1 - x0 >= 4 && bottom - top >= 5) dl->AddRect(ImVec2(x0, top), ImVec2(x1, bottom), frame);
  };
  for (const TimelineSlab& s : b.slabs) {
    const int stage = std::clamp(s.stage, 0, stages - 1);
    bar(s.issued, s.arrived, stage, stage_copy_color(stage), stage_color(stage));
    for (int c = 0; c < consumers; ++c) bar(s.started[c], s.done[c], stages + c, stage_color(stage), 0);
  }
  draw_tile_boundaries(dl, rows, r);
  dl->PopClipRect();
}

// Where a block's tile t > 0 begins: a white line across the consumer lanes where they start its
// first slab, and a thinner one across the stage lanes where its first copy was issued (the
// producer runs ahead of the consumers, across the boundary).
void TimelineView::draw_tile_boundaries(ImDrawList* dl, const Rows& rows, int r) const {
  const TimelineLayout& l = result_->layout;
  const int stages = stages_of(l), consumers = consumers_of(l);
  if (l.slabs_per_tile < 1 || consumers < 1) return;
  const TimelineBlock& b = result_->blocks[static_cast<std::size_t>(rows.first + r)];
  const float y0 = rows.top + r * rows.height;
  const float copy_top = y0, copy_bottom = y0 + rows.lane_top[static_cast<std::size_t>(stages)] - 1;
  const float mma_top = copy_bottom + 1, mma_bottom = y0 + rows.lane_top.back() + rows.lane_height.back();
  const float small = std::min(ImGui::GetFontSize() * 0.75f, rows.lane_height.back());
  float last_label_end = -1e9f;
  for (const TimelineSlab& s : b.slabs) {
    if (!s.run_start || s.index == 0) continue;
    double start = -1;
    for (int c = 0; c < consumers; ++c)
      if (stamped(s.started[c])) start = start < 0 ? s.started[c] : std::min(start, s.started[c]);
    if (stamped(s.issued)) {
      const float x = x_of(s.issued);
      dl->AddLine(ImVec2(x, copy_top), ImVec2(x, copy_bottom), 0xB0FFFFFFu, 1);
    }
    if (start < 0) continue;
    const float x = x_of(start);
    dl->AddLine(ImVec2(x, mma_top), ImVec2(x, mma_bottom), 0xFFFFFFFFu, 2);
    char text[24];
    std::snprintf(text, sizeof text, "tile %d", s.tile);
    // Labelled where there is room: lanes tall enough and no label just before it.
    if (small >= 8 && x + 3 > last_label_end) {
      shadowed_text(dl, small, ImVec2(x + 3, mma_top), text);
      last_label_end = x + 3 + ImGui::CalcTextSize(text).x * small / ImGui::GetFontSize() + 4;
    }
  }
}

void TimelineView::hover(const Rows& rows) const {
  const ImVec2 m = ImGui::GetIO().MousePos;
  const int r = static_cast<int>(std::floor((m.y - rows.top) / rows.height));
  if (r < 0 || r >= rows.count) return;
  const TimelineLayout& l = result_->layout;
  const int stages = stages_of(l), consumers = consumers_of(l);
  const TimelineBlock& b = result_->blocks[static_cast<std::size_t>(rows.first + r)];
  if (m.x < bars_x0_) {
    const double span = block_span_ns(b);
    ImGui::SetTooltip(
        "block %d, resident on SM %d from %s to %s\n%d slabs moved (%d stamped), consumers busy %.0f%% of its time",
        b.block, b.sm, format_ns(b.begin).c_str(), format_ns(b.end).c_str(), b.slabs_total,
        static_cast<int>(b.slabs.size()),
        span > 0 && consumers > 0 ? 100 * block_busy_ns(b, consumers) / (consumers * span) : 0.0);
    return;
  }
  const float y = m.y - (rows.top + r * rows.height);
  int lane = -1;
  for (std::size_t i = 0; i < rows.lane_top.size(); ++i)
    if (y >= rows.lane_top[i] - 0.5f && y <= rows.lane_top[i] + rows.lane_height[i] + 0.5f) lane = static_cast<int>(i);
  if (lane < 0) return;
  // The bar under the mouse, or the nearest within 3 pixels (short bars are thin).
  const double ns_per_px = (t1_ - t0_) / std::max(1.0f, bars_x1_ - bars_x0_);
  const double t = t0_ + (m.x - bars_x0_) * ns_per_px, reach = 3 * ns_per_px;
  const bool copy = lane < stages;
  const int c = copy ? -1 : lane - stages;
  std::size_t best = b.slabs.size();
  double best_distance = reach;
  for (std::size_t n = 0; n < b.slabs.size(); ++n) {
    const TimelineSlab& s = b.slabs[n];
    if (copy && s.stage != lane) continue;
    const double from = copy ? s.issued : s.started[c], to = copy ? s.arrived : s.done[c];
    if (!stamped(from) || to < from) continue;
    const double distance = t < from ? from - t : (t > to ? t - to : 0);
    if (distance <= best_distance) best = n, best_distance = distance;
    if (distance == 0) break;
  }
  if (best == b.slabs.size()) return;
  const TimelineSlab& s = b.slabs[best];
  ImGui::BeginTooltip();
  ImGui::Text("block %d · SM %d, slab %d: %s", b.block, b.sm, s.index, slab_place(s, l).c_str());
  ImGui::Text("stage %d of %d (slab n goes into stage n mod %d)", s.stage, stages, stages);
  if (copy) {
    ImGui::Text("copy issued at %s, all its bytes arrived at %s: %s in flight", format_ns(s.issued).c_str(),
                format_ns(s.arrived).c_str(), format_ns(s.arrived - s.issued).c_str());
    double first_start = -1;
    for (int k = 0; k < consumers; ++k)
      if (stamped(s.started[k])) first_start = first_start < 0 ? s.started[k] : std::min(first_start, s.started[k]);
    if (first_start >= 0)
      ImGui::TextDisabled("the first consumer began multiplying it at %s", format_ns(first_start).c_str());
  } else {
    ImGui::Text("consumer %d multiplied it from %s to %s: %s", c, format_ns(s.started[c]).c_str(),
                format_ns(s.done[c]).c_str(), format_ns(s.done[c] - s.started[c]).c_str());
    if (best + 1 < b.slabs.size() && stamped(b.slabs[best + 1].started[c]) && b.slabs[best + 1].started[c] < s.done[c])
      ImGui::TextDisabled(
          "it began the next slab at %s, before these products were done: one group of MMAs stays in flight, so "
          "the bars overlap (the next one is drawn over this one's end)",
          format_ns(b.slabs[best + 1].started[c]).c_str());
    if (stamped(s.arrived)) ImGui::TextDisabled("its bytes had arrived at %s", format_ns(s.arrived).c_str());
    const double before = previous_done(b, best, c);
    if (before >= 0 && s.started[c] - before > 0) {
      const bool new_tile = s.run_start;
      const char* boundary = l.runs.empty() ? "at the tile boundary: it wrote its tile of C first"
                                            : "at a run's boundary: it stored C, or left or added partial sums, first";
      const char* why = new_tile             ? boundary
                        : s.arrived > before ? "for the bytes, which had not arrived when it was ready"
                                             : "with the bytes already there";
      ImGui::TextDisabled("it waited %s since its previous slab, %s", format_ns(s.started[c] - before).c_str(), why);
    }
  }
  ImGui::EndTooltip();
}

}  // namespace tilescope
