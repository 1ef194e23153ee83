#include "app/ui/shell/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "app/viz/fragment_images.h"

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
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(title);
  ImGui::PopTextWrapPos();
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

std::string format_gflops(double v) {
  const double a = std::fabs(v);
  if (a >= 1000) return format_thousands(v);
  char buf[32];
  if (a >= 100 || a == 0)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (a >= 10)
    std::snprintf(buf, sizeof buf, "%.1f", v);
  else if (a >= 1)
    std::snprintf(buf, sizeof buf, "%.2f", v);
  else
    std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string transpose_spelling(const std::string& text) {
  static const std::string kGlyph = "ᵀ", kAscii = "^T";
  const bool has_glyph = ImGui::GetFont() && ImGui::GetFont()->FindGlyphNoFallback(0x1D40) != nullptr;
  const std::string& from = has_glyph ? kAscii : kGlyph;
  const std::string& to = has_glyph ? kGlyph : kAscii;
  std::string out;
  std::size_t at = 0;
  for (std::size_t hit; (hit = text.find(from, at)) != std::string::npos; at = hit + from.size()) {
    out.append(text, at, hit - at);
    out += to;
    // "A^TA" would read as one word: "A^T A".
    const std::size_t next = hit + from.size();
    if (!has_glyph && next < text.size() && std::isalnum(static_cast<unsigned char>(text[next]))) out += ' ';
  }
  return out + text.substr(at);
}

void same_line_if_fits(float width, float gap) {
  ImGui::SameLine(0, gap);
  if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

float text_width(const char* text) {
  return ImGui::CalcTextSize(text, nullptr, true).x;
}

float button_width(const char* label) {
  return text_width(label) + ImGui::GetStyle().FramePadding.x * 2;
}

float combo_width(float text_w) {
  return text_w + ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetFrameHeight();
}

float check_width(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + text_width(label);
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
