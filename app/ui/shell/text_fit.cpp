#include "app/ui/shell/text_fit.h"

#include <imgui.h>

namespace tilescope {
namespace {

bool is_continuation_byte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

float width_of(const std::string& text) {
  return ImGui::CalcTextSize(text.c_str(), text.c_str() + text.size()).x;
}

}  // namespace

std::string fit_text(const std::string& text, float max_width) {
  if (width_of(text) <= max_width) return text;
  // The longest start that fits with the ellipsis: binary search over byte counts, each moved
  // back to a character boundary (widths grow with the count).
  std::size_t lo = 0, hi = text.size();
  while (lo < hi) {
    std::size_t mid = (lo + hi + 1) / 2;
    while (mid > 0 && mid < text.size() && is_continuation_byte(text[mid])) --mid;
    if (mid <= lo) {
      hi = lo;
      break;
    }
    if (width_of(text.substr(0, mid) + "...") <= max_width)
      lo = mid;
    else
      hi = mid - 1;
  }
  while (lo > 0 && lo < text.size() && is_continuation_byte(text[lo])) --lo;
  return text.substr(0, lo) + "...";
}

bool fitted_text(const std::string& text, float max_width, unsigned int color) {
  const std::string shown = fit_text(text, max_width);
  const bool cut = shown.size() != text.size();
  if (color & IM_COL32_A_MASK) ImGui::PushStyleColor(ImGuiCol_Text, color);
  ImGui::TextUnformatted(shown.c_str(), shown.c_str() + shown.size());
  if (color & IM_COL32_A_MASK) ImGui::PopStyleColor();
  if (cut && ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40);
    ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  return cut;
}

}  // namespace tilescope
