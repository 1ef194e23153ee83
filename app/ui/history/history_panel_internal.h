// What the History tab's drawing files share (history_panel.cpp, history_passes.cpp,
// history_texels.cpp, history_figures.cpp): limits, colours and small text helpers.
#pragma once

#include <imgui.h>

#include <cstdio>
#include <string>

#include "app/gl_gemm/shader_gemm.h"
#include "app/viz/colors.h"
#include "kernels/core/gemm_types.h"
#include "kernels/core/text_format.h"

namespace tilescope::history_ui {

inline constexpr long long kMaxQuads = 16384;  // more quads than this: a smaller example is drawn

inline const ImVec4 kGreen(0.35f, 0.85f, 0.40f, 1.0f);
inline const ImVec4 kRed(1.0f, 0.40f, 0.35f, 1.0f);
inline const ImVec4 kAmber(1.0f, 0.75f, 0.30f, 1.0f);

// Colour of k-chunk c of n: the ramp from dark (first chunk) to yellow (last).
inline ImU32 chunk_color(long long c, long long n) {
  const double t = n > 1 ? static_cast<double>(c) / static_cast<double>(n - 1) : 1.0;
  return heat_color(0.3 + 0.7 * t);
}

inline ImU32 with_alpha(ImU32 col, int alpha) {
  return (col & 0x00FFFFFFu) | (static_cast<ImU32>(alpha) << 24);
}

// What a mode re-enacts: its era, and how it multiplies (the numbers are its defaults).
struct ModeStory {
  const char* year;
  std::string description;
};
inline ModeStory mode_story(ShaderMode m) {
  const int k = default_k_chunk(m), tile = default_tile();
  switch (m) {
    case ShaderMode::kMultipass:
      return {"2001", format("Larsen & McAllister 2001: one output of C per fragment; one pass over the whole target "
                             "per k-chunk (%d k each), the blender adding each pass's partial sums. 2 texels fetched "
                             "per multiply-add.",
                             k)};
    case ShaderMode::kRgbaPacked:
      return {"2003-04",
              "Hall, Carr & Hart 2003; Fatahalian et al. 2004: A, B and C packed as 2 x 2 blocks in RGBA texels. A "
              "fragment computes a 2 x 2 block of C: 2 fetched texels feed 8 multiply-adds."};
    case ShaderMode::kBlocked:
      return {"2006", format("Govindaraju et al. 2006: C cut into %d x %d tiles; per tile one quad per %d-long "
                             "k-block, all k-blocks of a tile before the next, so each pass reads strips of A and B "
                             "that fit the texture cache.",
                             tile, tile, k)};
    case ShaderMode::kMrt:
      return {"GeForce 6 era",
              "Four render targets: a 4 x 4 block of C per fragment, written into 4 RGBA targets (one row each). 8 "
              "fetches feed 64 multiply-adds."};
    case ShaderMode::kMrt8:
      return {"8 targets",
              "Eight render targets: a 4 x 8 block of C per fragment, spread over 8 RGBA targets. 12 fetches feed 128 "
              "multiply-adds: the fastest of the five."};
  }
  return {"", ""};
}

inline std::string size_text(const Shape& s) {
  char buf[64];
  if (s.M == s.N && s.N == s.K)
    std::snprintf(buf, sizeof buf, "N = %lld", static_cast<long long>(s.N));
  else
    std::snprintf(buf, sizeof buf, "%lld x %lld x %lld", static_cast<long long>(s.M), static_cast<long long>(s.N),
                  static_cast<long long>(s.K));
  return buf;
}

// Read-only, selectable (copyable) text in a box.
inline void copyable_text(const char* id, const std::string& text, float lines, ImU32 color) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  std::string buf = text;
  ImGui::InputTextMultiline(id, buf.data(), buf.size() + 1,
                            ImVec2(-1, ImGui::GetTextLineHeight() * lines + ImGui::GetStyle().FramePadding.y * 2),
                            ImGuiInputTextFlags_ReadOnly);
  ImGui::PopStyleColor();
}

}  // namespace tilescope::history_ui
