#include "ui/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "viz/fragment_images.h"

namespace tilescope {

void help_tooltip(const char* text) {
  if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void banner(const std::string& text) {
  const ImVec4 bg(0.55f, 0.30f, 0.05f, 1.0f);
  ImGui::PushStyleColor(ImGuiCol_ChildBg, bg);
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
  const float wrap = ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().WindowPadding.x;
  const ImVec2 size = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap);
  ImGui::BeginChild("banner", ImVec2(0, size.y + 2 * ImGui::GetStyle().WindowPadding.y), false,
                    ImGuiWindowFlags_NoScrollbar);
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
  ImGui::PopStyleColor(2);
}

void section(const char* title) {
  ImGui::Spacing();
  ImGui::TextUnformatted(title);
  ImGui::Separator();
}

std::string format_ms(double ms) {
  char buf[32];
  if (ms < 1.0)
    std::snprintf(buf, sizeof buf, "%.0f us", ms * 1000);
  else if (ms < 1000)
    std::snprintf(buf, sizeof buf, "%.3g ms", ms);
  else
    std::snprintf(buf, sizeof buf, "%.2f s", ms / 1000);
  return buf;
}

std::string format_thousands(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", std::round(v));
  std::string s = buf, out;
  const bool neg = !s.empty() && s[0] == '-';
  if (neg) s.erase(0, 1);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i > 0 && (s.size() - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return neg ? "-" + out : out;
}

void cell_text(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 background, const char* text, float fill, float min_size) {
  const float size = std::min(ImGui::GetFontSize(), (b.y - a.y) * fill);
  if (size < min_size) return;
  const float scale = size / ImGui::GetFontSize();
  const ImVec2 t = ImGui::CalcTextSize(text);
  if (t.x * scale > (b.x - a.x) - 1) return;
  dl->AddText(ImGui::GetFont(), size, ImVec2((a.x + b.x - t.x * scale) * 0.5f, (a.y + b.y - t.y * scale) * 0.5f),
              text_color_on(background), text);
}

}  // namespace tilescope
