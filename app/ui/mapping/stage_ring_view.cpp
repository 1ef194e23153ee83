#include "app/ui/mapping/stage_ring_view.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <map>
#include <string>

#include "app/ui/shell/widgets.h"
#include "app/viz/colors.h"
#include "app/viz/fragment_images.h"
#include "app/viz/stage_handshake.h"
#include "app/viz/warpgroup_images.h"

namespace tilescope {

namespace {

// The tile animation's colours: magenta what is multiplied, cyan what is in flight, as over the
// matrices; green a landed stage waiting, a darker magenta the stage whose products finish.
constexpr ImU32 kMagenta = 0xFFFF30FF;
constexpr ImU32 kCyan = 0xFFFFFF40;
constexpr ImU32 kGreen = 0xFF60D050;
constexpr ImU32 kFinishing = 0xFFA050A0;

ImU32 state_color(BufferState s) {
  switch (s) {
    case BufferState::Multiplying:
      return kMagenta;
    case BufferState::Finishing:
      return kFinishing;
    case BufferState::Full:
      return kGreen;
    case BufferState::InFlight:
      return kCyan;
    default:
      return ImGui::GetColorU32(ImGuiCol_Border);
  }
}

// A's boxes blue, B's orange, neighbours in two shades so that the boxes of one operand part.
unsigned box_color(const StageCopy& c, int index) {
  const double shade = index % 2 == 0 ? 1.0 : 0.78;
  return c.operand == "A" ? pack_rgb(0.30 * shade, 0.58 * shade, 0.95 * shade)
                          : pack_rgb(0.95 * shade, 0.60 * shade, 0.22 * shade);
}

// Lines of text stacked in a box, each in its long form where that fits, else its short one, else
// left out (a narrow box in presenter mode).
struct BoxLine {
  std::string full, brief;
};
void box_lines(ImDrawList* dl, ImVec2 a, ImVec2 b, unsigned background, const BoxLine* lines, int n) {
  const float font = ImGui::GetFontSize();
  const float pad = 3;
  int fit = 0;
  while (fit < n && (fit + 1) * font + 2 * pad <= b.y - a.y) ++fit;
  float y = a.y + ((b.y - a.y) - fit * font) * 0.5f;
  for (int i = 0; i < fit; ++i, y += font)
    for (const std::string* text : {&lines[i].full, &lines[i].brief})
      if (ImGui::CalcTextSize(text->c_str()).x + 2 * pad <= b.x - a.x) {
        dl->AddText(ImVec2(a.x + pad, y), text_color_on(background), text->c_str());
        break;
      }
}

// A chip of text with a frame: "full[2]", or the sides' marks "C" and "P".
float chip(ImDrawList* dl, ImVec2 at, ImU32 colour, const char* text, bool filled) {
  const ImVec2 t = ImGui::CalcTextSize(text);
  const ImVec2 b(at.x + t.x + 8, at.y + t.y + 2);
  if (filled) dl->AddRectFilled(at, b, colour, 3);
  dl->AddRect(at, b, colour, 3);
  dl->AddText(ImVec2(at.x + 4, at.y + 1), filled ? text_color_on(colour) : colour, text);
  return b.x - at.x;
}

// The boxes of one stage laid across [x0, x0 + w) x [y0, y0 + h); the box under the mouse, if any.
int draw_stage_bar(ImDrawList* dl, const FragmentPicture& pic, ImVec2 origin, float w, float h, bool detailed) {
  const double bytes = std::max(pic.stage_bytes, 1);
  const ImVec2 m = ImGui::GetIO().MousePos;
  int hovered = -1;
  std::map<std::string, int> count, index;  // boxes per operand, to number them where there are several
  for (const StageCopy& c : pic.stage_copies) ++count[c.operand];
  for (std::size_t i = 0; i < pic.stage_copies.size(); ++i) {
    const StageCopy& c = pic.stage_copies[i];
    const ImVec2 a(origin.x + static_cast<float>(c.offset / bytes * w), origin.y);
    const ImVec2 b(origin.x + static_cast<float>((c.offset + c.bytes) / bytes * w), origin.y + h);
    const unsigned colour = box_color(c, static_cast<int>(i));
    dl->AddRectFilled(a, b, colour);
    dl->AddRect(a, b, ImGui::GetColorU32(ImGuiCol_WindowBg));
    const int n = index[c.operand]++;
    const std::string name = count[c.operand] > 1 ? c.operand + std::to_string(n) : c.operand;
    char size[48], at[48], offset[32];
    std::snprintf(size, sizeof size, "%d x %d", c.rows, c.cols);
    std::snprintf(at, sizeof at, "%d bytes @ %lld", c.bytes, static_cast<long long>(c.offset));
    std::snprintf(offset, sizeof offset, "@ %lld", static_cast<long long>(c.offset));
    const BoxLine lines[] = {{detailed ? name + " " + size : name, name}, {at, offset}};
    box_lines(dl, a, b, colour, lines, detailed ? 2 : 1);
    if (ImGui::IsWindowHovered() && m.x >= a.x && m.x < b.x && m.y >= a.y && m.y < b.y) hovered = static_cast<int>(i);
  }
  return hovered;
}

void copy_tooltip(const StageCopy& c) {
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(stage_copy_words(c).c_str());
  if (!c.origin.empty()) ImGui::TextDisabled("%s", c.origin.c_str());
  ImGui::EndTooltip();
}

}  // namespace

void draw_stage_boxes(const FragmentPicture& pic) {
  const float font = ImGui::GetFontSize();
  ImGui::TextWrapped("One stage: the boxes one thread hands the TMA for each slab");
  if (pic.stage_copies.empty() || pic.stage_bytes <= 0) {
    ImGui::TextDisabled("This kernel's threads copy the tiles themselves: no boxes to draw.");
    return;
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float w = std::max(ImGui::GetContentRegionAvail().x - font, 100.0f), h = font * 3.2f;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const int hovered = draw_stage_bar(dl, pic, p, w, h, true);
  ImGui::Dummy(ImVec2(w, h));
  char end[48];
  std::snprintf(end, sizeof end, "%d bytes", pic.stage_bytes);
  const ImU32 note = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  dl->AddText(ImVec2(p.x, p.y + h + 2), note, "byte 0");
  dl->AddText(ImVec2(p.x + w - ImGui::CalcTextSize(end).x, p.y + h + 2), note, end);
  ImGui::Dummy(ImVec2(w, font * 0.6f));
  ImGui::PushTextWrapPos(0);
  for (const StageCopy& c : pic.stage_copies) {
    ImGui::Bullet();
    ImGui::SameLine();
    ImGui::TextWrapped("%s%s%s", stage_copy_words(c).c_str(), c.origin.empty() ? "" : ": ", c.origin.c_str());
  }
  ImGui::PopTextWrapPos();
  if (hovered >= 0) copy_tooltip(pic.stage_copies[static_cast<std::size_t>(hovered)]);

  ImGui::Spacing();
  ImGui::TextUnformatted("The ring");
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s.", stage_ring_words(pic).c_str());
  ImGui::PopTextWrapPos();
  // A row per stage: its name, its boxes, its barriers; the name above the row where the panel
  // is too narrow for all three.
  const float name_w = ImGui::CalcTextSize("stage 0 @ 0000000").x + font;
  const float chips_w = ImGui::CalcTextSize("full[0]  empty[0]").x + font * 2;
  const bool names_beside = w - name_w - chips_w >= 6 * font;
  const float label_w = names_beside ? name_w : 0;
  const float ring_w = std::max(w - label_w - chips_w, 2 * font), row_h = font * 1.5f;
  int ring_hovered = -1;
  for (int s = 0; s < pic.stages; ++s) {
    char label[48], full[32], empty[32];
    std::snprintf(label, sizeof label, "stage %d @ %lld", s, static_cast<long long>(s) * pic.stage_bytes);
    std::snprintf(full, sizeof full, "full[%d]", s);
    std::snprintf(empty, sizeof empty, "empty[%d]", s);
    if (!names_beside) ImGui::TextUnformatted(label);
    const ImVec2 r = ImGui::GetCursorScreenPos();
    if (names_beside) dl->AddText(ImVec2(r.x, r.y + (row_h - font) * 0.5f), ImGui::GetColorU32(ImGuiCol_Text), label);
    const int over = draw_stage_bar(dl, pic, ImVec2(r.x + label_w, r.y), ring_w, row_h - 2, false);
    if (over >= 0) ring_hovered = over;
    const float x = r.x + label_w + ring_w + font;
    const float fw = chip(dl, ImVec2(x, r.y + 1), kGreen, full, false);
    chip(dl, ImVec2(x + fw + font * 0.5f, r.y + 1), kFinishing, empty, false);
    ImGui::Dummy(ImVec2(w, row_h));
  }
  if (ring_hovered >= 0) copy_tooltip(pic.stage_copies[static_cast<std::size_t>(ring_hovered)]);
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled(
      "For each slab the producer's thread waits on empty[s] (every consumer warp is done with the stage), "
      "announces the stage's %d bytes on full[s] and issues the boxes; the TMA writes them%s and full[s] "
      "completes when the last byte has landed. The consumers wait on full[s], %s, and each of their warps "
      "arrives on empty[s]. The tile animation beside shows the ring phase by phase.",
      pic.stage_bytes, pic.swizzled ? " (swizzled, as the descriptors say)" : "",
      pic.a.empty() ? "multiply straight out of the stage"
                    : "load their fragments of the instruction's A out of the stage into registers, multiply (B "
                      "straight out of the stage) and wait for the products");
  ImGui::PopTextWrapPos();
}

void draw_stage_handshake(const FragmentPicture& pic, int phase, int slabs, int bk, std::int64_t K) {
  const Handshake h = stage_handshake(phase, pic.stages, pic.in_flight, slabs);
  const float font = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 m = ImGui::GetIO().MousePos;
  for (int s = 0; s < h.stages; ++s) {
    const RingBuffer& b = h.buffers[static_cast<std::size_t>(s)];
    const ImVec2 a = ImGui::GetCursorScreenPos(), e(a.x + font * 4.2f, a.y + font * 1.35f);
    const ImU32 colour = state_color(b.state);
    if (b.state != BufferState::Free && b.state != BufferState::InFlight)
      dl->AddRectFilled(a, e, (colour & 0x00FFFFFF) | 0x90000000);
    dl->AddRect(a, e, colour, 0, 0, b.state == BufferState::Free ? 1.0f : 2.0f);
    char name[32];
    std::snprintf(name, sizeof name, "stage %d", s);
    dl->AddText(ImVec2(a.x + font * 0.4f, a.y + font * 0.15f), ImGui::GetColorU32(ImGuiCol_Text), name);
    // The sides' marks: C on the stage the consumers waited on (or wait on), P on the one the producer
    // waits to refill.
    float x = e.x + font * 0.3f;
    const bool c_here = h.consumers.waits && h.consumers.stage == s, p_here = h.producer.waits && h.producer.stage == s;
    ImGui::Dummy(ImVec2(font * 6.6f, font * 1.35f));
    if (c_here) x += chip(dl, ImVec2(x, a.y + 1), kMagenta, "C", true) + 2;
    if (p_here) chip(dl, ImVec2(x, a.y + 1), kCyan, "P", true);
    const bool hovered = ImGui::IsItemHovered() || (m.x >= a.x && m.x < e.x && m.y >= a.y && m.y < e.y);
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0);
    if (b.state == BufferState::Free)
      ImGui::TextDisabled("free");
    else
      ImGui::TextWrapped("%s", buffer_words(h, s).c_str());
    ImGui::PopTextWrapPos();
    if (hovered && b.slab >= 0 && ImGui::IsWindowHovered()) {
      const std::int64_t k0 = std::min<std::int64_t>(K, static_cast<std::int64_t>(b.slab) * bk),
                         k1 = std::min<std::int64_t>(K, static_cast<std::int64_t>(b.slab + 1) * bk);
      ImGui::SetTooltip("stage %d holds slab %d: k %lld ... %lld, %d bytes", s, b.slab, static_cast<long long>(k0),
                        static_cast<long long>(k1 - 1), pic.stage_bytes);
    }
  }
  // The colours, in one line (two where the panel is narrow).
  const BufferState legend[] = {BufferState::InFlight, BufferState::Full, BufferState::Multiplying,
                                BufferState::Finishing};
  for (std::size_t i = 0; i < std::size(legend); ++i) {
    if (i > 0) same_line_if_fits(text_width(buffer_state_name(legend[i])), font * 0.6f);
    const ImU32 c = state_color(legend[i]);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(c), "%s", buffer_state_name(legend[i]));
  }
  ImGui::PushTextWrapPos(0);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  chip(dl, p, kCyan, "P", true);
  ImGui::Indent(font * 1.6f);
  ImGui::TextWrapped("%s", producer_words(pic, h).c_str());
  ImGui::Unindent(font * 1.6f);
  const ImVec2 q = ImGui::GetCursorScreenPos();
  chip(dl, q, kMagenta, "C", true);
  ImGui::Indent(font * 1.6f);
  ImGui::TextWrapped("%s", consumer_words(pic, h).c_str());
  ImGui::Unindent(font * 1.6f);
  ImGui::TextDisabled(
      "The copies' times are not known here: a slab is drawn in flight in the phase its copy was issued and the "
      "next, full after that. The pipeline timeline shows the real times.");
  ImGui::PopTextWrapPos();
}

}  // namespace tilescope
