#include "app/ui/mapping/warp_access_view.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <initializer_list>

#include "app/ui/shell/widgets.h"
#include "app/viz/colors.h"
#include "app/viz/fragment_images.h"
#include "kernels/core/text_format.h"

namespace tilescope {

namespace {

// Colours that stay apart on a projector, in both themes: touched sectors and banks in blue, the
// bytes the lanes use in their lane's colour, a bank conflict in red.
constexpr ImU32 kTouched = 0xFFB07830;   // a sector moved, a bank in use
constexpr ImU32 kConflict = 0xFF3030E0;  // a bank asked for more than one word (as the Banks view)
constexpr ImU32 kWhite = 0xFFFFFFFF;
const ImVec4 kCostlyText(1.0f, 0.42f, 0.36f, 1.0f);  // the sentence of a costly access

ImU32 frame_colour() {
  return ImGui::GetColorU32(ImGuiCol_Border);
}
ImU32 empty_colour() {
  return ImGui::GetColorU32(ImGuiCol_FrameBg);
}

// The first of `texts` that fits centred in the cell a..b at the font size, or smaller down to 60%
// of it where the cell is narrow; nothing where none fits.
void fitted_text(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 background, std::initializer_list<std::string> texts) {
  const float font = ImGui::GetFontSize();
  for (const std::string& t : texts) {
    const ImVec2 size = ImGui::CalcTextSize(t.c_str());
    const float scale = std::min({1.0f, (b.x - a.x - 2) / size.x, (b.y - a.y) / size.y});
    if (scale < 0.6f) continue;
    dl->AddText(ImGui::GetFont(), font * scale,
                ImVec2((a.x + b.x - size.x * scale) * 0.5f, (a.y + b.y - size.y * scale) * 0.5f),
                background == 0 ? ImGui::GetColorU32(ImGuiCol_Text) : text_color_on(background), t.c_str());
    return;
  }
}

// The lanes on a sector or a bank, shorter where the cell is narrow.
void lanes_in_cell(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 background, const std::vector<int>& lanes) {
  const std::string list = lane_ranges(lanes);
  if (lanes.size() == 1)
    fitted_text(dl, a, b, background, {"lane " + list, list});
  else
    fitted_text(dl, a, b, background,
                {"lanes " + list, list, std::to_string(lanes.size()) + " lanes", "×" + std::to_string(lanes.size())});
}

// A label right-aligned so that it ends at x, at `size` pixels (0: the font's).
void text_ending_at(ImDrawList* dl, float x, float y, ImU32 colour, const std::string& text, float size = 0) {
  const float font = ImGui::GetFontSize();
  if (size <= 0) size = font;
  dl->AddText(ImGui::GetFont(), size, ImVec2(x - ImGui::CalcTextSize(text.c_str()).x * size / font, y), colour,
              text.c_str());
}

std::string number(std::int64_t v) {
  return format_thousands(static_cast<double>(v));
}

constexpr const char* kModelTip =
    "The 32 lanes' byte addresses are computed from the variant's mapping model, line for line what the kernel's "
    "code computes (a GPU test compares them with addresses recorded from the kernel; Record on the GPU records "
    "them here).";
constexpr const char* kRecordedTip =
    "The 32 lanes' byte addresses as the instrumented kernel recorded them on the GPU, in a worker process, at "
    "every step of every access of this warp (shared memory counted from where the kernel's own starts). They are "
    "drawn while the view shows this configuration, size, block and warp.";
// The bank picture's legend.
constexpr const char* kOneWord = "one word for the bank's lanes (lanes on the same word share it)";
constexpr const char* kManyWords = "N words: one wavefront each, one after the other (a conflict)";

// The summary's sentence as the view writes it: a capital, a full stop.
std::string sentence_of(const WarpAccessSummary& s) {
  std::string sentence = s.sentence + ".";
  sentence[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(sentence[0])));
  return sentence;
}

}  // namespace

float WarpAccessView::sentence_height(const WarpAccessSummary& s, float width) {
  const ImGuiStyle& style = ImGui::GetStyle();
  // Spacing() and the item's own spacing above it, and a little to spare under it.
  return ImGui::CalcTextSize(sentence_of(s).c_str(), nullptr, false, width).y + style.ItemSpacing.y * 4;
}

ImVec4 WarpAccessView::costly_colour() {
  return kCostlyText;
}

int WarpAccessView::site_index(const std::vector<AccessSite>& sites) const {
  for (std::size_t i = 0; i < sites.size(); ++i)
    if (sites[i].name == site_name_) return static_cast<int>(i);
  return 0;
}

bool WarpAccessView::draw(const MappingModel& model, int* block_x, int* block_y, const MemoryViewContext& context) {
  const std::vector<AccessSite> sites = model.access_sites();
  if (sites.empty()) {
    ImGui::Dummy(ImVec2(0, ImGui::GetFontSize() * 0.5f));
    ImGui::TextUnformatted("This variant's model does not list its memory accesses yet.");
    // Why not, where the model says: the TMA and the tensor cores' own reads have no lane addresses.
    if (const std::string why = model.memory_note(); !why.empty()) {
      ImGui::PushTextWrapPos(0);
      ImGui::TextDisabled("%s", why.c_str());
      ImGui::PopTextWrapPos();
    }
    return false;
  }
  int site = site_index(sites);
  bool block_changed = false;
  draw_controls(model, sites, &site, block_x, block_y, &block_changed);
  const AccessSite& s = sites[static_cast<std::size_t>(site)];
  site_name_ = s.name;
  // The addresses of one warp at one step: 32 numbers, and their analysis, made again each frame.
  access_ = WarpAccess();
  if (step_ < model.site_steps(site, *block_x, *block_y))
    model.warp_access(site, *block_x, *block_y, warp_, step_, &access_);
  else
    access_.bytes = s.bytes;
  // A cp.async's shared side is written as its global side's lines arrive: that side too.
  WarpAccess model_global;
  const bool async = s.async_copy_of >= 0 && step_ < model.site_steps(s.async_copy_of, *block_x, *block_y);
  if (async) model.warp_access(s.async_copy_of, *block_x, *block_y, warp_, step_, &model_global);
  const float width = ImGui::GetContentRegionAvail().x;
  if (!context.variant) {
    source_ = Source::Model;
    draw_source_line("addresses: from the variant's mapping model", kModelTip, nullptr, {});
    draw_one(s, access_, ImGui::GetContentRegionAvail().x, async ? &model_global : nullptr);
    return block_changed;
  }
  // A recording is drawn while the view shows what it was made of.
  ShownWarp shown = context.shown;
  shown.block = *block_y * model.grid().x + *block_x;
  shown.warp = warp_;
  recorder_.follow(shown, model);
  // An access the kernel cannot record (wmma's fragments: the compiler chooses their lanes inside
  // load_matrix_sync) is the model's whatever was recorded, and the line says so; the model's note
  // says why, and what the sites leave out.
  const std::string note = model.memory_note();
  const std::string model_tip = note.empty() ? std::string(kModelTip) : std::string(kModelTip) + "\n\n" + note;
  if (s.recorded < 0) {
    source_ = Source::Model;
    draw_source_line("addresses: from the model (the kernel cannot record this access)",
                     note.empty() ? kModelTip : note.c_str(), &shown, context);
    draw_one(s, access_, width, async ? &model_global : nullptr);
    return block_changed;
  }
  const RecordedAccesses* recorded = recorder_.shipped();
  const RecordedAccesses* edit = recorder_.edited();
  WarpAccess none;  // a step the recording does not reach
  none.bytes = s.bytes;
  auto recorded_at = [&](const RecordedAccesses& r) {
    const WarpAccess* w = r.at(site, step_);
    return w ? *w : none;
  };
  // The global side of a cp.async as recorded (the model's where the recording has none).
  auto recorded_global = [&](const RecordedAccesses& r) -> const WarpAccess* {
    if (!async) return nullptr;
    const WarpAccess* w = r.at(s.async_copy_of, step_);
    return w ? w : &model_global;
  };
  if (edit) {
    source_ = Source::EditBeside;
    // The device once, above both pictures: the columns are narrow.
    draw_source_line(
        std::string("addresses: ") + (recorded ? "both recorded on " : "the edit's recorded on ") + edit->device,
        kRecordedTip, &shown, context);
    const WarpAccess shipped = recorded ? recorded_at(*recorded) : access_;
    draw_beside(s, shipped, recorded ? "the shipped kernel" : "the shipped kernel (its model)", recorded_at(*edit),
                "the edit " + edit->edit, edit->difference,
                recorded ? recorded_global(*recorded) : (async ? &model_global : nullptr), recorded_global(*edit));
    access_ = shipped;
    return block_changed;
  }
  if (recorded) {
    source_ = Source::Recorded;
    draw_source_line("addresses: recorded from the kernel on " + recorded->device, kRecordedTip, &shown, context);
    ImGui::PushTextWrapPos(0);
    if (recorded->difference.empty())
      ImGui::TextDisabled("Every address of this warp, at every step of every access, is the model's.");
    else
      ImGui::TextColored(kCostlyText, "Not every address is the model's: %s.", recorded->difference.c_str());
    ImGui::PopTextWrapPos();
    access_ = recorded_at(*recorded);
    draw_one(s, access_, width, recorded_global(*recorded));
    return block_changed;
  }
  source_ = Source::Model;
  draw_source_line("addresses: from the variant's mapping model", model_tip.c_str(), &shown, context);
  draw_one(s, access_, width, async ? &model_global : nullptr);
  return block_changed;
}

void WarpAccessView::draw_controls(const MappingModel& model, const std::vector<AccessSite>& sites, int* site,
                                   int* block_x, int* block_y, bool* block_changed) {
  const float em = ImGui::GetFontSize();
  const Dim2 grid = model.grid(), block = model.block();
  const int warps = std::max(1, (block.x * block.y + kWarpLanes - 1) / kWarpLanes);
  // The block: the one picked in C (the Matrices view), or typed here.
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("block");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 6);
  int bx = *block_x, by = *block_y;
  ImGui::InputInt("##block x", &bx);
  help_tooltip("The block's column in the grid (click C in the Matrices view to pick a block).");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 6);
  ImGui::InputInt("##block y", &by);
  help_tooltip("The block's row in the grid.");
  bx = std::clamp(bx, 0, grid.x - 1), by = std::clamp(by, 0, grid.y - 1);
  if (bx != *block_x || by != *block_y) *block_x = bx, *block_y = by, *block_changed = true;
  ImGui::SameLine();
  ImGui::TextDisabled("of %d x %d", grid.x, grid.y);
  // The warp: 32 threads of the block, numbered as the hardware groups them (x fastest).
  warp_ = std::clamp(warp_, 0, warps - 1);
  const std::string warp_label = format("warp %d: threads %d-%d", warp_, warp_ * kWarpLanes,
                                        std::min(block.x * block.y, (warp_ + 1) * kWarpLanes) - 1);
  same_line_if_fits(em * 16, em * 1.5f);
  ImGui::SetNextItemWidth(em * 16);
  if (warps > 1)
    ImGui::SliderInt("##warp", &warp_, 0, warps - 1, warp_label.c_str());
  else
    ImGui::TextUnformatted(warp_label.c_str());
  help_tooltip(
      "A warp is 32 threads of the block that issue each instruction together (threads numbered x first, then "
      "y). Clicking an element of C in the Matrices view picks the warp of the thread that computes it.");

  // The access site: one memory instruction of the kernel.
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("access");
  ImGui::SameLine();
  float widest = 0;
  for (const AccessSite& s : sites) widest = std::max(widest, text_width(s.name.c_str()));
  ImGui::SetNextItemWidth(combo_width(widest));
  if (ImGui::BeginCombo("##site", sites[static_cast<std::size_t>(*site)].name.c_str())) {
    for (std::size_t i = 0; i < sites.size(); ++i)
      if (ImGui::Selectable(sites[i].name.c_str(), static_cast<int>(i) == *site)) *site = static_cast<int>(i);
    ImGui::EndCombo();
  }
  const AccessSite& s = sites[static_cast<std::size_t>(*site)];
  ImGui::SameLine();
  ImGui::TextDisabled("%s %s, %d bytes per lane", to_string(s.space), to_string(s.kind), s.bytes);
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", transpose_spelling(s.what).c_str());
  ImGui::PopTextWrapPos();

  // The step: which execution of the instruction (a loop's iteration, an unrolled copy).
  const int steps = model.site_steps(*site, *block_x, *block_y);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("step");
  ImGui::SameLine();
  if (steps <= 0) {
    ImGui::TextDisabled("this block does not execute it (it takes another path, or exits at once)");
    step_ = 0;
    return;
  }
  step_ = std::clamp(step_, 0, steps - 1);
  if (ImGui::ArrowButton("##step down", ImGuiDir_Left)) step_ = std::max(0, step_ - 1);
  ImGui::SameLine(0, 2);
  ImGui::SetNextItemWidth(std::min(em * 22, std::max(em * 8, ImGui::GetContentRegionAvail().x - em * 20)));
  const std::string step_label = format("%s %d of %d", s.step_unit.c_str(), step_, steps);
  ImGui::SliderInt("##step", &step_, 0, steps - 1, step_label.c_str());
  ImGui::SameLine(0, 2);
  if (ImGui::ArrowButton("##step up", ImGuiDir_Right)) step_ = std::min(steps - 1, step_ + 1);
  same_line_if_fits(text_width("one step: ") + text_width(s.step_unit.c_str()));
  ImGui::TextDisabled("one step: %s", s.step_unit.c_str());
}

void WarpAccessView::draw_access(const AccessSite& site, const WarpAccess& w, const char* source) {
  draw_source_line(std::string("addresses: from ") + source, kModelTip, nullptr, {});
  draw_one(site, w, ImGui::GetContentRegionAvail().x);
}

void WarpAccessView::draw_source_line(const std::string& source, const char* tip, const ShownWarp* shown,
                                      const MemoryViewContext& context) {
  ImGui::Spacing();
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%s", source.c_str());
  help_tooltip(tip);
  if (shown && context.variant) recorder_.draw_buttons(*shown, *context.variant, context.inputs);
  if (recorder_.note().empty()) return;
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", recorder_.note().c_str());
  ImGui::PopTextWrapPos();
}

void WarpAccessView::draw_one(const AccessSite& site, const WarpAccess& w, float width,
                              const WarpAccess* async_global) {
  shown_ = summarize(site, w, async_global);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float em = ImGui::GetFontSize();
  // A global access: the lines, the counters beside them where they fit. A shared one: the 32
  // banks take the whole width, the counters go under them in a row. The picture takes the height
  // the counters and the sentence leave.
  const bool global = site.space == MemorySpace::Global;
  const float counters_w = text_width("sectors (this request)") + text_width("1,024 (1,024 distinct)") + em * 2;
  const bool beside = global && width > counters_w + em * 30;
  const float across_h = 2 * (ImGui::GetTextLineHeight() + 2 * style.CellPadding.y) + style.ItemSpacing.y;
  const float below = (beside ? 0 : across_h) + sentence_height(shown_, width);
  ImGui::BeginGroup();
  if (global)
    draw_global(w, beside ? width - counters_w - em : width, below);
  else
    draw_shared(w, width, fit_banks(std::max(1, shared_instruction(w).phases), below, true));
  ImGui::EndGroup();
  if (beside) ImGui::SameLine(0, em);
  ImGui::BeginGroup();
  draw_counters(site, shown_, !beside);
  ImGui::EndGroup();
  layout_.counters_min = ImGui::GetItemRectMin();
  layout_.counters_max = ImGui::GetItemRectMax();
  draw_sentence(site, shown_, &layout_.sentence_min, &layout_.sentence_max);
  layout_.visible_min = ImGui::GetWindowPos();
  layout_.visible_max =
      ImVec2(layout_.visible_min.x + ImGui::GetWindowWidth(), layout_.visible_min.y + ImGui::GetWindowHeight());
}

void WarpAccessView::draw_sentence(const AccessSite& site, const WarpAccessSummary& s, ImVec2* min, ImVec2* max) const {
  // Where the eye lands after the picture; in red where the access costs extra.
  ImGui::Spacing();
  const bool costly = site.space == MemorySpace::Global ? s.active_lanes > 0 && !s.coalesced : s.conflicts > 0;
  if (costly) ImGui::PushStyleColor(ImGuiCol_Text, kCostlyText);
  ImGui::TextWrapped("%s", sentence_of(s).c_str());
  if (costly) ImGui::PopStyleColor();
  *min = ImGui::GetItemRectMin();
  *max = ImGui::GetItemRectMax();
}

WarpAccessView::BankLayout WarpAccessView::fit_banks(int phases, float below, bool captions) const {
  const float em = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  // The legend: a line, or two where its halves do not fit across.
  const bool legend_across = text_width(kOneWord) + text_width(kManyWords) + em * 4 <= ImGui::GetContentRegionAvail().x;
  const float numbers = em * 1.3f + style.ItemSpacing.y, gap = em * 0.3f, least = em * 0.7f, most = em * 2.3f;
  BankLayout l;
  l.caption = l.legend = captions;
  for (;;) {
    const float fixed = numbers + (l.caption ? line : 0) + (l.legend ? line * (legend_across ? 1 : 2) : 0);
    l.band_h = (ImGui::GetContentRegionAvail().y - fixed - below) / static_cast<float>(phases) - gap;
    if (l.band_h >= least || (!l.legend && !l.caption)) break;
    (l.legend ? l.legend : l.caption) = false;
  }
  l.band_h = std::clamp(l.band_h, least, most);
  return l;
}

// A row per 128-byte line touched, four sector boxes in it: filled when the request moves the
// sector, the bytes the lanes use drawn in their lanes' colours along its foot, the lanes written in.
void WarpAccessView::draw_global(const WarpAccess& w, float width, float below, bool caption) {
  const std::vector<LineRow> rows = touched_lines(w);
  const float em = ImGui::GetFontSize();
  // Tall rows where there are few; where every lane has a line of its own (32 rows) they shrink
  // to leave what is `below` them (counters, the sentence) on screen, the lanes' marks still there
  // (on a small screen with big text the caption gives its line to them first).
  const float head_h = em * 1.4f, thin = em * 0.45f;
  const float lines = static_cast<float>(std::max<std::size_t>(1, rows.size()));
  if (caption &&
      (ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing() - head_h - below) / lines >= thin)
    ImGui::TextUnformatted("a row per 128-byte line the warp touches, 4 sectors of 32 bytes each");
  if (rows.empty()) return;
  const float label_w = text_width(format("byte %s", number(rows.back().line * kLineBytes).c_str()).c_str()) + em;
  const float gap = em * 0.3f;
  const float box_w = std::clamp((width - label_w) / 4 - gap, em * 3, em * 16);
  const float room = ImGui::GetContentRegionAvail().y - head_h - below;
  const float row_h = std::clamp(room / lines, 3.0f, em * 2.6f);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  for (int s = 0; s < 4; ++s) {
    const float x = p0.x + label_w + s * (box_w + gap);
    fitted_text(dl, ImVec2(x, p0.y), ImVec2(x + box_w, p0.y + em * 1.2f), 0,
                {format("sector %d: bytes %d-%d", s, s * kSectorBytes, s * kSectorBytes + kSectorBytes - 1),
                 format("sector %d", s)});
  }
  const float top = p0.y + head_h;
  // Thin rows keep thin gaps, and label every n-th line where a label per line would be unreadable.
  const float row_gap = std::min(gap, row_h * 0.2f);
  const float label_h = std::clamp(row_h - row_gap, em * 0.6f, em);
  const std::size_t label_every = static_cast<std::size_t>(std::ceil(label_h / row_h));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const float y = top + static_cast<float>(r) * row_h;
    if (r % label_every == 0)
      text_ending_at(dl, p0.x + label_w - em * 0.5f, y + (row_h - row_gap - label_h) * 0.5f, dim,
                     format("byte %s", number(rows[r].line * kLineBytes).c_str()), label_h);
    for (int s = 0; s < 4; ++s) {
      const std::vector<int>& lanes = rows[r].lanes[static_cast<std::size_t>(s)];
      const ImVec2 a(p0.x + label_w + s * (box_w + gap), y), b(a.x + box_w, y + row_h - row_gap);
      if (lanes.empty()) {
        dl->AddRect(a, b, frame_colour());
        continue;
      }
      dl->AddRectFilled(a, b, kTouched);
      // The bytes each lane uses, along the foot of the box: the rest of the sector moves unused.
      const float foot = std::max(3.0f, (b.y - a.y) * 0.22f);
      const std::int64_t sector_start = rows[r].line * kLineBytes + s * kSectorBytes;
      for (int lane : lanes) {
        const std::int64_t from = std::max<std::int64_t>(w.address[lane], sector_start);
        const std::int64_t to = std::min<std::int64_t>(w.address[lane] + w.bytes, sector_start + kSectorBytes);
        const float x0 = a.x + box_w * static_cast<float>(from - sector_start) / kSectorBytes;
        const float x1 = a.x + box_w * static_cast<float>(to - sector_start) / kSectorBytes;
        dl->AddRectFilled(ImVec2(x0, b.y - foot), ImVec2(std::max(x0 + 2, x1 - 1), b.y), lane_color(lane));
      }
      lanes_in_cell(dl, a, ImVec2(b.x, b.y - foot), kTouched, lanes);
      if (ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(a, b)) {
        dl->AddRect(a, b, kWhite, 0, 0, 2);
        ImGui::BeginTooltip();
        ImGui::Text("bytes %s-%s: a 32-byte sector, moved whole", number(sector_start).c_str(),
                    number(sector_start + kSectorBytes - 1).c_str());
        ImGui::Text("lanes %s (the coloured marks: the bytes they use)", lane_ranges(lanes).c_str());
        ImGui::EndTooltip();
      }
    }
  }
  ImGui::Dummy(ImVec2(label_w + 4 * (box_w + gap), head_h + static_cast<float>(rows.size()) * row_h));
}

// The 32 banks across, a band per phase: each cell names the lanes on its bank; red where they need
// more than one word of it (served one after the other: a bank conflict).
void WarpAccessView::draw_shared(const WarpAccess& w, float width, const BankLayout& layout) {
  const SharedInstruction in = shared_instruction(w, true);
  const float band_h = layout.band_h;
  if (layout.caption)
    ImGui::TextUnformatted("the 32 banks of 4-byte words (word n is in bank n mod 32), a band per phase");
  const float em = ImGui::GetFontSize();
  const float label_w = text_width("lanes 24-31") + em * 0.6f;
  // All 32 banks within the width, however narrow (presenter mode on a small screen): where a
  // bank's number does not fit its column, every fourth is written.
  const float cell_w = (width - label_w) / kSharedBanks;
  const bool every_number = text_width("31") + em * 0.2f <= cell_w;
  const float gap = em * 0.3f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  text_ending_at(dl, p0.x + label_w - em * 0.4f, p0.y, dim, "bank");
  for (int b = 0; b < kSharedBanks; b += every_number ? 1 : 4)
    dl->AddText(ImVec2(p0.x + label_w + b * cell_w, p0.y), ImGui::GetColorU32(ImGuiCol_Text),
                std::to_string(b).c_str());
  const float top = p0.y + em * 1.3f;
  for (int p = 0; p < static_cast<int>(in.banks.size()); ++p) {
    const float y = top + static_cast<float>(p) * (band_h + gap);
    text_ending_at(dl, p0.x + label_w - em * 0.4f, y + (band_h - em) * 0.5f, dim, phase_lanes(p, in.phases));
    for (int b = 0; b < kSharedBanks; ++b) {
      const SharedInstruction::Bank& bank = in.banks[static_cast<std::size_t>(p)][static_cast<std::size_t>(b)];
      const ImVec2 a(p0.x + label_w + b * cell_w, y), c(a.x + cell_w - 1, y + band_h);
      if (bank.lanes.empty()) {
        dl->AddRectFilled(a, c, empty_colour());
        continue;
      }
      const bool conflict = bank.words.size() > 1;
      const ImU32 fill = conflict ? kConflict : kTouched;
      dl->AddRectFilled(a, c, fill);
      const float mid = conflict ? a.y + band_h * 0.5f : c.y;
      lanes_in_cell(dl, a, ImVec2(c.x, mid), fill, bank.lanes);
      if (conflict) {
        const std::string n = std::to_string(bank.words.size());
        fitted_text(dl, ImVec2(a.x, mid), c, fill, {n + " words", "×" + n});
      }
      if (ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(a, c)) {
        dl->AddRect(a, c, kWhite, 0, 0, 2);
        ImGui::BeginTooltip();
        ImGui::Text("bank %d, %s", b, phase_lanes(p, in.phases).c_str());
        ImGui::Text("lanes %s", lane_ranges(bank.lanes).c_str());
        std::string words;
        for (std::int64_t word : bank.words) words += (words.empty() ? "" : ", ") + number(word * kBankBytes);
        ImGui::Text("%zu word%s, at bytes %s%s", bank.words.size(), bank.words.size() == 1 ? "" : "s", words.c_str(),
                    conflict ? ": served one after the other" : "");
        ImGui::EndTooltip();
      }
    }
  }
  const float bands_h = static_cast<float>(in.banks.size()) * (band_h + gap);
  ImGui::Dummy(ImVec2(label_w + kSharedBanks * cell_w, top - p0.y + bands_h));
  if (!layout.legend) return;
  // What the colours mean.
  const float sw = em * 0.9f;
  auto swatch = [&](ImU32 colour, const char* words) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float y = at.y + (ImGui::GetTextLineHeight() - sw) * 0.5f;
    dl->AddRectFilled(ImVec2(at.x, y), ImVec2(at.x + sw, y + sw), colour);
    ImGui::Dummy(ImVec2(sw, ImGui::GetTextLineHeight()));
    ImGui::SameLine();
    ImGui::TextDisabled("%s", words);
  };
  swatch(kTouched, kOneWord);
  same_line_if_fits(sw + text_width(kManyWords), em);
  swatch(kConflict, kManyWords);
}

// The counters: a name and its value a line each, or (across) the names over their values.
void WarpAccessView::draw_counters(const AccessSite& site, const WarpAccessSummary& s, bool across) const {
  struct Counter {
    const char* name;
    std::string value;
    const char* tip;
  };
  std::vector<Counter> counters = {
      {"active lanes", format("%d of 32", s.active_lanes), "Lanes that take part in this instruction."}};
  if (site.space == MemorySpace::Global) {
    counters.push_back({"sectors (this request)", std::to_string(s.sectors),
                        "32-byte pieces of memory the request moves: 4 when 32 lanes read neighbouring floats, 32 "
                        "when each lane needs a sector of its own."});
    counters.push_back({"128-byte lines", std::to_string(s.lines), "Cache lines the sectors lie in."});
    counters.push_back({"bytes moved", number(s.bytes_moved), "sectors x 32 bytes"});
    counters.push_back({"bytes used",
                        s.bytes_distinct == s.bytes_asked ? number(s.bytes_asked)
                                                          : format("%s (%s distinct)", number(s.bytes_asked).c_str(),
                                                                   number(s.bytes_distinct).c_str()),
                        "active lanes x bytes per lane (lanes on the same address share its bytes)"});
    counters.push_back({"efficiency", s.active_lanes ? format("%.0f%%", 100 * s.efficiency) : "-",
                        "The distinct bytes used over the bytes moved."});
  } else {
    counters.push_back({"phases", std::to_string(s.phases),
                        "Shared memory serves 128 bytes a pass: 4-byte accesses in one phase of 32 lanes, 8-byte "
                        "ones in two half-warps, 16-byte ones in four quarter-warps."});
    counters.push_back({"wavefronts", std::to_string(s.wavefronts),
                        "Passes through the banks: in each phase, as many as its busiest bank has different words."});
    counters.push_back({"ideal", std::to_string(s.ideal),
                        "One wavefront per phase (half as many where pairs of lanes share their addresses)."});
    counters.push_back({"conflicts", std::to_string(s.conflicts), "Extra wavefronts: wavefronts - ideal."});
    counters.push_back({"conflict degree", s.degree > 1 ? format("%d-way", s.degree) : std::string("none"),
                        "The most different words one bank must give in one phase."});
  }
  const int columns = across ? static_cast<int>(counters.size()) : 2;
  const ImGuiTableFlags flags = ImGuiTableFlags_SizingFixedFit | (across ? ImGuiTableFlags_BordersInnerV : 0);
  if (!ImGui::BeginTable("counters", columns, flags)) return;
  if (across) ImGui::TableNextRow();
  for (std::size_t i = 0; i < counters.size(); ++i) {
    const Counter& c = counters[i];
    if (!across) ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(across ? static_cast<int>(i) : 0);
    ImGui::TextDisabled("%s", c.name);
    help_tooltip(c.tip);
    if (across) continue;
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(c.value.c_str());
  }
  if (across) {
    ImGui::TableNextRow();
    for (std::size_t i = 0; i < counters.size(); ++i) {
      ImGui::TableSetColumnIndex(static_cast<int>(i));
      ImGui::TextUnformatted(counters[i].value.c_str());
    }
  }
  ImGui::EndTable();
}

}  // namespace tilescope
