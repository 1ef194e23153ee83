// The UI's TrueType font: found on the system (no font files in the repository), rasterized by
// ImGui at the presenter's size. Every character the UI writes beyond ASCII (ui_font_symbols())
// is drawn: by that font, else by another system font merged into it, else made from the
// font's own glyphs (a small raised T for ᵀ, stretched hyphens for the dashes, three dots for
// the ellipsis) — also in ImGui's built-in font, which is all there is without a system font.
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>  // ImTextCharToUtf8

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "app/platform/host.h"
#include "app/platform/host_internal.h"

namespace tilescope {
namespace {

// Inter first (drawn for screens), DejaVu Sans as the one CI and every Debian machine has.
const char* const kFontCandidates[] = {
    "/usr/share/fonts/truetype/inter/Inter-Regular.ttf",
    "/usr/share/fonts/opentype/inter/Inter-Regular.otf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
};

// $TILESCOPE_UI_FONT's value that asks for ImGui's built-in font and no system font at all.
const char* const kBuiltInName = "builtin";

// ImGui rasterizes only the glyphs listed here (Latin-1 by default, which lacks the ᵀ of AᵀA,
// ≤, ×-like operators, arrows, Greek). ImGui keeps the pointer: the array must be static.
const ImWchar kGlyphRanges[] = {
    0x0020, 0x00FF,  // Basic Latin + Latin-1 (×, ±, µ, ², ³, ·)
    0x0100, 0x017F,  // Latin Extended-A
    0x0370, 0x03FF,  // Greek (α, Σ)
    0x1D2C, 0x1D6A,  // modifier letters: superscript capitals, ᵀ = U+1D40
    0x2000, 0x206F,  // general punctuation (– — … ‰)
    0x2070, 0x209F,  // superscripts and subscripts (⁰..⁹, ₀..₉)
    0x2190, 0x21FF,  // arrows
    0x2200, 0x22FF,  // mathematical operators (≤ ≥ ≈ ∑ √)
    0x25A0, 0x25FF,  // geometric shapes (legend markers ■ ● ▲)
    0,
};

// A character the UI writes, and how to make it from the font's own glyphs when no font has it:
// the glyphs of `from` side by side, scaled across and down, and raised to the capitals' top.
struct Symbol {
  unsigned codepoint;
  const char* from;
  float scale_x, scale_y;
  bool raised;
};
const Symbol kSymbols[] = {
    {0x00AB, "<", 1, 1, false},         // « (the controls' fold button)
    {0x00B2, "2", 0.6f, 0.6f, true},    // ²
    {0x00B5, "u", 1, 1, false},         // µ
    {0x00B7, ".", 1, 1, false},         // · (C = A·B)
    {0x00BB, ">", 1, 1, false},         // »
    {0x00D7, "x", 1, 1, false},         // ×
    {0x1D40, "T", 0.62f, 0.62f, true},  // ᵀ (AᵀA)
    {0x2013, "-", 1.5f, 1, false},      // –
    {0x2014, "-", 2.6f, 1, false},      // —
    {0x2026, "...", 1, 1, false},       // …
};

bool readable(const char* path) {
  std::ifstream file(path, std::ios::binary);
  return static_cast<bool>(file);
}

std::string file_name(const std::string& path) {
  return path.substr(path.rfind('/') + 1);
}

// stb_truetype asserts on data that is not a font at all; check the file's signature first.
bool looks_like_font(const std::string& bytes) {
  if (bytes.size() < 12) return false;
  static const char* const kMagics[] = {"\x00\x01\x00\x00", "true", "OTTO", "typ1"};
  for (const char* magic : kMagics) {
    if (std::memcmp(bytes.data(), magic, 4) == 0) return true;
  }
  return false;  // "ttcf" collections need a face index; we don't pick one
}

// The file's bytes in ImGui's allocator (the atlas frees them), or "" and *why.
std::string read_font(const std::string& path, std::string* why) {
  std::ifstream file(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (!file.good() && !file.eof()) {
    *why = "cannot read the UI font " + path;
    return "";
  }
  if (!looks_like_font(bytes)) {
    *why = "the UI font " + path + " is not a TrueType/OpenType font";
    return "";
  }
  return bytes;
}

ImFont* add_ttf(const std::string& bytes, const std::string& name, float size, const ImWchar* ranges, bool merge) {
  ImFontConfig config;
  // 3x horizontal oversampling: glyphs land on sub-pixel positions without blurring, which
  // is what keeps text crisp on a projector. Vertically ImGui snaps text to pixels.
  config.OversampleH = 3;
  config.OversampleV = 1;
  config.GlyphRanges = ranges;
  config.MergeMode = merge;
  std::snprintf(config.Name, sizeof config.Name, "%s, %.0f px", name.c_str(), size);
  void* data = IM_ALLOC(bytes.size());
  std::memcpy(data, bytes.data(), bytes.size());
  config.FontDataOwnedByAtlas = true;
  ImFont* font = ImGui::GetIO().Fonts->AddFontFromMemoryTTF(data, static_cast<int>(bytes.size()), size, &config);
  if (!font) IM_FREE(data);
  return font;
}

// What an atlas is made of: the first font, and a system font merged in for the symbols it lacks.
struct AtlasPlan {
  std::string path;  // "" = ImGui's built-in font
  std::string path_bytes;
  std::string merge_path, merge_bytes;
  std::vector<ImWchar> merge_ranges;  // pairs, 0-terminated; ImGui keeps the pointer until Build()
};

// A cleared atlas with the plan's fonts, not yet built; the first font, or null.
ImFont* add_fonts(const AtlasPlan& plan, float size) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  atlas->Clear();
  ImFont* font = nullptr;
  if (plan.path.empty()) {
    // The built-in font is a 13 px bitmap; scale it so that sizes at least stay proportionate.
    ImFontConfig fallback;
    fallback.SizePixels = size;
    font = atlas->AddFontDefault(&fallback);
  } else {
    font = add_ttf(plan.path_bytes, file_name(plan.path), size, kGlyphRanges, false);
  }
  if (font && !plan.merge_path.empty() &&
      !add_ttf(plan.merge_bytes, file_name(plan.merge_path), size, plan.merge_ranges.data(), true))
    return nullptr;
  return font;
}

bool build_atlas(const AtlasPlan& plan, float size) {
  return add_fonts(plan, size) && ImGui::GetIO().Fonts->Build();
}

// The box of `s` made from the font's glyphs, in pixels from the pen and the line's top.
struct MadeBox {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0, advance = 0;
};
MadeBox made_box(const ImFont* font, const Symbol& s) {
  MadeBox b;
  float pen = 0;
  bool first = true;
  for (const char* c = s.from; *c; ++c) {
    const ImFontGlyph* g = font->FindGlyphNoFallback(static_cast<ImWchar>(*c));
    if (!g) continue;
    const float x0 = pen + g->X0 * s.scale_x, x1 = pen + g->X1 * s.scale_x;
    b.x0 = first ? x0 : std::min(b.x0, x0);
    b.x1 = first ? x1 : std::max(b.x1, x1);
    b.y0 = first ? g->Y0 : std::min(b.y0, g->Y0);
    b.y1 = first ? g->Y1 : std::max(b.y1, g->Y1);
    pen += g->AdvanceX * s.scale_x;
    first = false;
  }
  // Scaled down, anchored at the top (raised, a superscript) or at the baseline's side (bottom).
  const float h = (b.y1 - b.y0) * s.scale_y;
  if (s.raised)
    b.y1 = b.y0 + h;
  else
    b.y0 = b.y1 - h;
  b.advance = pen;
  return b;
}

// Copies the source glyphs of `s`, resampled, into the atlas rectangle `r` (Alpha8 pixels).
void draw_made(ImFontAtlas* atlas, const ImFont* font, const Symbol& s, const MadeBox& box,
               const ImFontAtlasCustomRect& r) {
  unsigned char* pixels = nullptr;
  int tex_w = 0, tex_h = 0;
  atlas->GetTexDataAsAlpha8(&pixels, &tex_w, &tex_h);
  if (!pixels) return;
  float pen = 0;
  for (const char* c = s.from; *c; ++c) {
    const ImFontGlyph* g = font->FindGlyphNoFallback(static_cast<ImWchar>(*c));
    if (!g) continue;
    const float sx0 = g->U0 * tex_w, sy0 = g->V0 * tex_h, sw = (g->U1 - g->U0) * tex_w, sh = (g->V1 - g->V0) * tex_h;
    const float gx0 = pen + g->X0 * s.scale_x, gw = (g->X1 - g->X0) * s.scale_x;
    const float gy0 = s.raised ? box.y0 : box.y1 - (g->Y1 - g->Y0) * s.scale_y;
    const float gh = (g->Y1 - g->Y0) * s.scale_y;
    for (int y = 0; y < r.Height; ++y)
      for (int x = 0; x < r.Width; ++x) {
        // The pixel's centre in the glyph's box, then in its bitmap.
        const float u = (box.x0 + x + 0.5f - gx0) / gw, v = (box.y0 + y + 0.5f - gy0) / gh;
        if (u < 0 || u >= 1 || v < 0 || v >= 1) continue;
        const int px = static_cast<int>(sx0 + u * sw), py = static_cast<int>(sy0 + v * sh);
        unsigned char& out = pixels[(r.Y + y) * tex_w + r.X + x];
        out = std::max(out, pixels[py * tex_w + px]);
      }
    pen += g->AdvanceX * s.scale_x;
  }
}

// The symbols no font of the atlas has.
std::vector<const Symbol*> missing_symbols() {
  std::vector<const Symbol*> out;
  const ImFont* font = ImGui::GetIO().Fonts->Fonts.empty() ? nullptr : ImGui::GetIO().Fonts->Fonts[0];
  for (const Symbol& s : kSymbols)
    if (!font || !font->FindGlyphNoFallback(static_cast<ImWchar>(s.codepoint))) out.push_back(&s);
  return out;
}

std::string symbols_text(const std::vector<const Symbol*>& symbols) {
  std::string out;
  for (const Symbol* s : symbols) {
    char utf8[5];
    out += (out.empty() ? "" : " ") + std::string(ImTextCharToUtf8(utf8, s->codepoint));
  }
  return out;
}

std::string g_summary = "no UI font loaded yet";

}  // namespace

std::string find_ui_font() {
  if (const char* chosen = std::getenv("TILESCOPE_UI_FONT")) {
    if (std::strcmp(chosen, kBuiltInName) == 0) return "";
    if (*chosen && readable(chosen)) return chosen;
  }
  for (const char* path : kFontCandidates) {
    if (readable(path)) return path;
  }
  return "";
}

std::vector<unsigned> ui_font_symbols() {
  std::vector<unsigned> out;
  for (const Symbol& s : kSymbols) out.push_back(s.codepoint);
  return out;
}

std::string ui_font_summary() {
  return g_summary;
}

namespace detail {

bool add_ui_font_to_atlas(float pixels, std::string* error) {
  ImGuiIO& io = ImGui::GetIO();
  // Whole pixel sizes keep the baseline on the pixel grid: crisper text.
  const float size = std::max(6.0f, std::round(pixels));
  const char* chosen = std::getenv("TILESCOPE_UI_FONT");
  const bool builtin_asked = chosen && std::strcmp(chosen, kBuiltInName) == 0;

  AtlasPlan plan;
  std::string why;
  plan.path = find_ui_font();
  if (plan.path.empty()) {
    why = builtin_asked ? "TILESCOPE_UI_FONT=builtin"
                        : "no UI font found (install fonts-dejavu-core or fonts-inter, or set TILESCOPE_UI_FONT)";
  } else {
    plan.path_bytes = read_font(plan.path, &why);
    if (plan.path_bytes.empty()) plan.path.clear();
  }
  if (!build_atlas(plan, size)) {
    why = "ImGui could not rasterize the UI font " + plan.path;
    plan = AtlasPlan{};
    build_atlas(plan, size);
  }
  const std::string first = plan.path.empty() ? "ImGui's built-in font" : file_name(plan.path);

  // What the first font lacks: from another system font (not when the built-in font was asked
  // for, as on a machine without fonts) ...
  std::vector<const Symbol*> missing = missing_symbols();
  std::string merged;
  if (!missing.empty() && !builtin_asked) {
    for (const char* path : kFontCandidates) {
      if (path == plan.path || !readable(path)) continue;
      std::string ignored;
      plan.merge_bytes = read_font(path, &ignored);
      if (plan.merge_bytes.empty()) continue;
      plan.merge_path = path;
      for (const Symbol* s : missing) {
        plan.merge_ranges.push_back(static_cast<ImWchar>(s->codepoint));
        plan.merge_ranges.push_back(static_cast<ImWchar>(s->codepoint));
      }
      plan.merge_ranges.push_back(0);
      break;
    }
    if (!plan.merge_path.empty() && build_atlas(plan, size)) {
      const std::vector<const Symbol*> still = missing_symbols();
      std::vector<const Symbol*> found;
      for (const Symbol* s : missing)
        if (std::find(still.begin(), still.end(), s) == still.end()) found.push_back(s);
      if (!found.empty()) merged = symbols_text(found) + " from " + file_name(plan.merge_path);
      missing = still;
    }
  }
  // ... and the rest made from its own glyphs, measured in the build just made, drawn into
  // rectangles of the next.
  std::string made;
  if (!missing.empty()) {
    std::vector<MadeBox> boxes;
    for (const Symbol* s : missing) boxes.push_back(made_box(io.Fonts->Fonts[0], *s));
    ImFont* font = add_fonts(plan, size);
    std::vector<int> rects;
    for (std::size_t i = 0; i < missing.size(); ++i) {
      const MadeBox& b = boxes[i];
      const int w = std::max(1, static_cast<int>(std::ceil(b.x1 - b.x0)));
      const int h = std::max(1, static_cast<int>(std::ceil(b.y1 - b.y0)));
      rects.push_back(io.Fonts->AddCustomRectFontGlyph(font, static_cast<ImWchar>(missing[i]->codepoint), w, h,
                                                       b.advance, ImVec2(b.x0, b.y0)));
    }
    io.Fonts->Build();
    for (std::size_t i = 0; i < missing.size(); ++i)
      draw_made(io.Fonts, font, *missing[i], boxes[i], *io.Fonts->GetCustomRectByIndex(rects[i]));
    made = symbols_text(missing) + " made from its own glyphs";
  }

  char px[32];
  std::snprintf(px, sizeof px, " (%.0f px)", size);
  g_summary = first + px;
  for (const std::string& part : {merged, made})
    if (!part.empty()) g_summary += "; " + part;
  if (!why.empty()) g_summary += "; " + why;
  if (why.empty()) return true;
  if (error) *error = why;
  return false;
}

}  // namespace detail

bool load_ui_font(float pixels, std::string* error) {
  if (ImGui::GetCurrentContext() == nullptr || ImGui::GetIO().BackendRendererUserData == nullptr) {
    if (error) *error = "load_ui_font needs a host (an ImGui context with its OpenGL renderer)";
    return false;
  }
  const bool loaded = detail::add_ui_font_to_atlas(pixels, error);
  // The backend uploads the atlas once; a new atlas needs a new texture.
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  return loaded;
}

}  // namespace tilescope
