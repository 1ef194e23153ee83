#include "app/ui/source/source_colours.h"

namespace tilescope {

namespace {

float luminance(const ImVec4& c) {
  return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
}

ImU32 rgb(float r, float g, float b, float a = 1.0f) {
  return ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, a));
}

// Syntax colours of common editors' light and dark palettes: distinct hues, each readable on its
// background at a projector's contrast. One row per kind: on a light background, on a dark one.
struct KindColours {
  TokenKind kind;
  ImVec4 on_light, on_dark;
};
const KindColours kSyntax[] = {
    {TokenKind::Keyword, {0.00f, 0.20f, 0.75f, 1}, {0.45f, 0.68f, 1.00f, 1}},
    {TokenKind::Type, {0.00f, 0.45f, 0.50f, 1}, {0.35f, 0.85f, 0.78f, 1}},
    {TokenKind::Cuda, {0.70f, 0.25f, 0.00f, 1}, {1.00f, 0.66f, 0.30f, 1}},
    {TokenKind::Preprocessor, {0.50f, 0.20f, 0.55f, 1}, {0.85f, 0.55f, 0.90f, 1}},
    {TokenKind::Comment, {0.15f, 0.45f, 0.10f, 1}, {0.50f, 0.75f, 0.45f, 1}},
    {TokenKind::String, {0.65f, 0.10f, 0.10f, 1}, {0.95f, 0.62f, 0.50f, 1}},
    {TokenKind::Number, {0.05f, 0.40f, 0.30f, 1}, {0.72f, 0.88f, 0.62f, 1}},
};

void syntax_colours(bool light, ImU32 text, SourceColours* c) {
  c->token[static_cast<int>(TokenKind::Plain)] = text;
  for (const KindColours& k : kSyntax)
    c->token[static_cast<int>(k.kind)] = ImGui::ColorConvertFloat4ToU32(light ? k.on_light : k.on_dark);
}

}  // namespace

SourceColours source_colours() {
  const ImGuiStyle& s = ImGui::GetStyle();
  const ImVec4 text = s.Colors[ImGuiCol_Text];
  const bool light = luminance(s.Colors[ImGuiCol_WindowBg]) > 0.5f;
  SourceColours c;
  syntax_colours(light, ImGui::ColorConvertFloat4ToU32(text), &c);
  // Line numbers quieter than the code, but not TextDisabled: the light theme's is too faint to
  // read from the back of a room.
  c.line_number = ImGui::ColorConvertFloat4ToU32(ImVec4(text.x, text.y, text.z, 0.5f));
  // Changed amber, new green, removed red, as diff tools mark them; the backgrounds faint enough
  // for the syntax colours to stay readable over them.
  c.changed_bar = light ? rgb(0.85f, 0.55f, 0.00f) : rgb(1.00f, 0.72f, 0.15f);
  c.added_bar = light ? rgb(0.10f, 0.60f, 0.20f) : rgb(0.30f, 0.85f, 0.40f);
  c.removed_bar = light ? rgb(0.85f, 0.10f, 0.10f) : rgb(1.00f, 0.35f, 0.35f);
  c.changed_bg = light ? rgb(1.00f, 0.75f, 0.20f, 0.22f) : rgb(1.00f, 0.72f, 0.15f, 0.16f);
  c.added_bg = light ? rgb(0.20f, 0.75f, 0.30f, 0.20f) : rgb(0.30f, 0.85f, 0.40f, 0.15f);
  c.hook_bg =
      ImGui::ColorConvertFloat4ToU32(ImVec4(s.Colors[ImGuiCol_HeaderHovered].x, s.Colors[ImGuiCol_HeaderHovered].y,
                                            s.Colors[ImGuiCol_HeaderHovered].z, 0.35f));
  c.current_change = ImGui::ColorConvertFloat4ToU32(text);
  // Blue for "these go together": apart from the change marks' amber, green and red.
  c.linked_bg = light ? rgb(0.20f, 0.45f, 1.00f, 0.22f) : rgb(0.35f, 0.60f, 1.00f, 0.28f);
  c.count = ImGui::ColorConvertFloat4ToU32(ImVec4(text.x, text.y, text.z, 0.55f));
  c.directive = c.line_number;
  c.error_bg = light ? rgb(0.90f, 0.15f, 0.15f, 0.22f) : rgb(1.00f, 0.35f, 0.35f, 0.22f);
  return c;
}

}  // namespace tilescope
