// The UI's TrueType font: found on the system (no font files in the repository), rasterized by
// ImGui at the presenter's size.
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "platform/host.h"
#include "platform/host_internal.h"

namespace tilescope {
namespace {

// Inter first (drawn for screens), DejaVu Sans as the one CI and every Debian machine has.
const char* const kFontCandidates[] = {
    "/usr/share/fonts/truetype/inter/Inter-Regular.ttf",
    "/usr/share/fonts/opentype/inter/Inter-Regular.otf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
};

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

bool readable(const char* path) {
  std::ifstream file(path, std::ios::binary);
  return static_cast<bool>(file);
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

}  // namespace

std::string find_ui_font() {
  if (const char* chosen = std::getenv("TILESCOPE_UI_FONT")) {
    if (*chosen && readable(chosen)) return chosen;
  }
  for (const char* path : kFontCandidates) {
    if (readable(path)) return path;
  }
  return "";
}

namespace detail {

bool add_ui_font_to_atlas(float pixels, std::string* error) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  // Whole pixel sizes keep the baseline on the pixel grid: crisper text.
  const float size = std::max(6.0f, std::round(pixels));

  std::string why;
  const std::string path = find_ui_font();
  if (path.empty()) {
    why = "no UI font found (install fonts-dejavu-core or fonts-inter, or set TILESCOPE_UI_FONT)";
  } else {
    std::ifstream file(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (!file.good() && !file.eof()) {
      why = "cannot read the UI font " + path;
    } else if (!looks_like_font(bytes)) {
      why = "the UI font " + path + " is not a TrueType/OpenType font";
    } else {
      ImFontConfig config;
      // 3x horizontal oversampling: glyphs land on sub-pixel positions without blurring, which
      // is what keeps text crisp on a projector. Vertically ImGui snaps text to pixels.
      config.OversampleH = 3;
      config.OversampleV = 1;
      config.GlyphRanges = kGlyphRanges;
      std::snprintf(config.Name, sizeof config.Name, "%s, %.0f px", path.substr(path.rfind('/') + 1).c_str(), size);
      // The atlas frees the data with IM_FREE, so it must come from ImGui's allocator.
      void* data = IM_ALLOC(bytes.size());
      std::memcpy(data, bytes.data(), bytes.size());
      config.FontDataOwnedByAtlas = true;
      if (io.Fonts->AddFontFromMemoryTTF(data, static_cast<int>(bytes.size()), size, &config) == nullptr) {
        IM_FREE(data);
        why = "ImGui could not add the UI font " + path;
      } else if (!io.Fonts->Build()) {
        io.Fonts->Clear();
        why = "ImGui could not rasterize the UI font " + path;
      }
    }
  }
  if (why.empty()) return true;

  // The built-in font is a 13 px bitmap; scale it so that sizes at least stay proportionate.
  io.Fonts->Clear();
  ImFontConfig fallback;
  fallback.SizePixels = size;
  io.Fonts->AddFontDefault(&fallback);
  io.Fonts->Build();
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
