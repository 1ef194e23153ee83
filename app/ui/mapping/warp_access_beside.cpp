// The Memory view's edited kernel beside the shipped one (WarpAccessView::draw_beside): where the
// edit moved an address, then the same access site, step and warp in two columns, two pictures,
// each with the counters that tell them apart and its sentence. A learner who took out the padding
// of a shared tile sees the second picture's banks turn red and its wavefronts exceed the ideal.
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <string>
#include <vector>

#include "app/ui/mapping/warp_access_view.h"
#include "app/ui/shell/widgets.h"
#include "kernels/core/text_format.h"

namespace tilescope {

namespace {

void widen(ImVec2* min, ImVec2* max, ImVec2 a, ImVec2 b) {
  *min = ImVec2(std::min(min->x, a.x), std::min(min->y, a.y));
  *max = ImVec2(std::max(max->x, b.x), std::max(max->y, b.y));
}

}  // namespace

namespace {

struct Counter {
  const char* name;
  std::string value;
  const char* tip;
};

// Sectors per request and bytes moved against used, or wavefronts against the ideal and the
// conflicts: what tells the two pictures apart.
std::vector<Counter> brief_counters(const AccessSite& site, const WarpAccessSummary& s) {
  if (site.space == MemorySpace::Global)
    return {{"sectors per request", format("%d (in %d lines)", s.sectors, s.lines),
             "32-byte pieces of memory this request moves: 4 when 32 lanes read neighbouring floats, 32 when each lane "
             "needs a sector of its own."},
            {"bytes moved / used",
             format("%s / %s", format_thousands(static_cast<double>(s.bytes_moved)).c_str(),
                    format_thousands(static_cast<double>(s.bytes_distinct)).c_str()) +
                 (s.active_lanes ? format(" (%.0f%%)", 100 * s.efficiency) : std::string()),
             "Sectors x 32 bytes against the distinct bytes the lanes use."}};
  return {{"wavefronts / ideal", format("%d / %d", s.wavefronts, s.ideal),
           "Passes through the banks, against one per phase (half as many where pairs of lanes share their "
           "addresses)."},
          {"conflicts", s.conflicts > 0 ? format("%d (%d-way)", s.conflicts, s.degree) : std::string("none"),
           "Extra wavefronts: lanes of one phase on different words of one bank, served one after the other."}};
}

// Whether the counters fit across `width` in one row of name, value, name, value.
bool brief_counters_across(const std::vector<Counter>& counters, float width) {
  float needed = 0;
  for (const Counter& c : counters) needed += text_width(c.name) + text_width(c.value.c_str());
  return needed + ImGui::GetStyle().CellPadding.x * 2 * 2 * static_cast<float>(counters.size()) +
             ImGui::GetFontSize() <=
         width;
}

}  // namespace

int WarpAccessView::brief_counter_rows(const AccessSite& site, const WarpAccessSummary& s, float width) {
  return brief_counters_across(brief_counters(site, s), width) ? 1 : 2;
}

void WarpAccessView::draw_brief_counters(const AccessSite& site, const WarpAccessSummary& s, float width) const {
  const std::vector<Counter> counters = brief_counters(site, s);
  // One row where they fit across, else a row each. As wide as the column: a table takes the rest
  // of the line otherwise, and the next column with it.
  const bool across = brief_counters_across(counters, width);
  if (!ImGui::BeginTable("brief counters", across ? 4 : 2, ImGuiTableFlags_SizingFixedFit, ImVec2(width, 0))) return;
  for (std::size_t i = 0; i < counters.size(); ++i) {
    const Counter& c = counters[i];
    if (!across || i == 0) ImGui::TableNextRow();
    const int first = across ? static_cast<int>(i) * 2 : 0;
    ImGui::TableSetColumnIndex(first);
    ImGui::TextDisabled("%s", c.name);
    help_tooltip(c.tip);
    ImGui::TableSetColumnIndex(first + 1);
    ImGui::TextUnformatted(c.value.c_str());
  }
  ImGui::EndTable();
}

void WarpAccessView::draw_beside(const AccessSite& site, const WarpAccess& shipped, const std::string& shipped_label,
                                 const WarpAccess& edit, const std::string& edit_label, const std::string& difference,
                                 const WarpAccess* shipped_global, const WarpAccess* edit_global) {
  shown_ = summarize(site, shipped, shipped_global);
  shown_edit_ = summarize(site, edit, edit_global);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float em = ImGui::GetFontSize();
  const float width = ImGui::GetContentRegionAvail().x, gap = em * 1.5f, column = (width - gap) / 2;
  // First what the edit moved, as the recorded view says whether a recording is the model's.
  std::string moved = difference.empty() ? std::string(
                                               "The edit moved no address of this warp: every access is the shipped "
                                               "kernel's model's")
                                         : difference;
  moved[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(moved[0])));
  moved += ".";
  ImGui::PushTextWrapPos(0);
  if (!difference.empty()) ImGui::PushStyleColor(ImGuiCol_Text, costly_colour());
  ImGui::TextWrapped("%s", moved.c_str());
  if (!difference.empty()) ImGui::PopStyleColor();
  ImGui::PopTextWrapPos();
  // Under each picture its two counters and its sentence: the pictures take the height they leave.
  auto text_h = [&](const std::string& t, float w) { return ImGui::CalcTextSize(t.c_str(), nullptr, false, w).y; };
  const float label_h = std::max(text_h(shipped_label, column), text_h(edit_label, column)) + style.ItemSpacing.y;
  const int rows = std::max(brief_counter_rows(site, shown_, column), brief_counter_rows(site, shown_edit_, column));
  const float counters_h =
      static_cast<float>(rows) * (ImGui::GetTextLineHeight() + 2 * style.CellPadding.y) + style.ItemSpacing.y;
  const float below = counters_h + std::max(sentence_height(shown_, column), sentence_height(shown_edit_, column));
  const bool global = site.space == MemorySpace::Global;
  const int phases = std::max({1, shared_instruction(shipped).phases, shared_instruction(edit).phases});
  const BankLayout banks = global ? BankLayout() : fit_banks(phases, below + label_h, false);
  layout_.counters_min = layout_.sentence_min = ImVec2(FLT_MAX, FLT_MAX);
  layout_.counters_max = layout_.sentence_max = ImVec2(-FLT_MAX, -FLT_MAX);
  for (int c = 0; c < 2; ++c) {
    if (c == 1) ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + column);
    ImGui::TextWrapped("%s", (c == 0 ? shipped_label : edit_label).c_str());
    const WarpAccess& w = c == 0 ? shipped : edit;
    ImGui::PushID(c);
    if (global)
      draw_global(w, column, below, false);
    else
      draw_shared(w, column, banks);
    ImGui::BeginGroup();
    draw_brief_counters(site, c == 0 ? shown_ : shown_edit_, column);
    ImGui::EndGroup();
    ImGui::PopID();
    widen(&layout_.counters_min, &layout_.counters_max, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    ImVec2 a, b;
    draw_sentence(site, c == 0 ? shown_ : shown_edit_, &a, &b);
    widen(&layout_.sentence_min, &layout_.sentence_max, a, b);
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
  }
  layout_.visible_min = ImGui::GetWindowPos();
  layout_.visible_max =
      ImVec2(layout_.visible_min.x + ImGui::GetWindowWidth(), layout_.visible_min.y + ImGui::GetWindowHeight());
}

}  // namespace tilescope
