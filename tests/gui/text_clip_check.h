// Text a frame drew cut, found in what ImGui handed the renderer (ImGui::GetDrawData()), for
// any window, widget or drawing: the glyph quads of the font atlas are read back into lines of
// text, and a line is cut where
//   - a glyph crosses its draw command's clip rectangle (ImGui::Text, labels and ImDrawList text
//     are clipped by the GPU), unless that edge is the visible edge of a window that scrolls
//     that way (rows below the fold of a scrolling panel are not cut);
//   - a glyph was clipped on the CPU (RenderTextClipped: buttons, combo previews, slider
//     formats, selectables): its quad shows less of the glyph than the atlas holds;
//   - ImGui ellipsised it (tabs, table headers): every font draws kEllipsisMark, a glyph the UI
//     never writes, as its ellipsis;
//   - a character had no glyph: kMissingMark is every font's replacement glyph.
// ImGui leaves out the glyphs that lie wholly beyond the clip rectangle, so a cut that fell
// between two glyphs, or in a space, would leave no trace: for the check every glyph's quad
// covers its whole cell (its advance across and the line's height down, a little more on each
// side) and spaces get a quad too, so that any edge crossing a text crosses a quad. The text no
// longer looks right, which no check here minds. And a panel whose content is larger than itself
// and cannot scroll hides what lies beyond: hidden_content() names it.
// prepare_fonts() before each frame (the App rebuilds the atlas in after_frame()); the checks
// after Host::end_frame() and before the next atlas rebuild.
#pragma once

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::testing {

// Latin-1 glyphs that every font has and the UI never writes (a test checks the sources).
constexpr ImWchar kEllipsisMark = 0x00A4;  // '¤'
constexpr ImWchar kMissingMark = 0x00A6;   // '¦'

// The marks above as every font's ellipsis and replacement glyph; every glyph's quad its whole
// cell; a quad for the space. Again after each atlas build; harmless when repeated.
inline void prepare_fonts() {
  for (ImFont* font : ImGui::GetIO().Fonts->Fonts) {
    if (font->FindGlyphNoFallback(kEllipsisMark)) font->EllipsisChar = kEllipsisMark;
    if (const ImFontGlyph* mark = font->FindGlyphNoFallback(kMissingMark)) {
      font->FallbackChar = kMissingMark;
      font->FallbackGlyph = mark;
    }
    const ImFontGlyph* any = font->FindGlyphNoFallback('x');
    for (ImFontGlyph& g : font->Glyphs) {
      if (!g.Visible && g.Codepoint == ' ' && any) {
        // A texel-sized quad at a corner no glyph starts at: drawn transparent, found by the reader.
        g.U0 = g.U1 = any->U1;
        g.V0 = g.V1 = any->V1;
        g.Visible = 1;
      }
      if (!g.Visible) continue;
      g.X0 = -0.5f;
      g.X1 = g.AdvanceX + 0.5f;
      // Down, a quarter pixel more each way: lines still overlap, and a label in a frame its own
      // height (a small button) loses less than the pixel the check forgives.
      g.Y0 = -0.25f;
      g.Y1 = font->FontSize + 0.25f;
    }
  }
}

struct CutText {
  std::string text;    // the line the cut belongs to, as far as it was drawn
  std::string window;  // the ImGui window that drew it
  std::string how;     // "crosses the right edge of its clip rectangle at x 812", "ellipsised", ...
  ImVec2 at;           // where the line starts, in pixels
};

inline std::string describe(const CutText& c) {
  char where[96];
  std::snprintf(where, sizeof where, " at (%.0f, %.0f) in ", c.at.x, c.at.y);
  return "\"" + c.text + "\": " + c.how + where + c.window;
}

namespace clip_detail {

struct GlyphRef {
  const ImFontGlyph* glyph = nullptr;
  const ImFont* font = nullptr;
};

using UvKey = std::pair<std::uint32_t, std::uint32_t>;

inline UvKey uv_key(float u, float v) {
  std::uint32_t a = 0, b = 0;
  std::memcpy(&a, &u, sizeof a);
  std::memcpy(&b, &v, sizeof b);
  return {a, b};
}

// Every glyph of the atlas, found by a texture position inside it (a quad clipped on the CPU
// shows part of its glyph's texels); spaces, which have one texel, by that texel.
class GlyphIndex {
 public:
  GlyphIndex() {
    for (const ImFont* font : ImGui::GetIO().Fonts->Fonts)
      for (const ImFontGlyph& g : font->Glyphs) {
        if (!g.Visible) continue;
        if (g.U1 <= g.U0) {
          single_texel_.emplace(uv_key(g.U0, g.V0), GlyphRef{&g, font});
          continue;
        }
        for (int cy = cell(g.V0, 1); cy <= cell(g.V1, 1); ++cy)
          for (int cx = cell(g.U0, 0); cx <= cell(g.U1, 0); ++cx) cells_[{cx, cy}].push_back(GlyphRef{&g, font});
      }
  }
  // The glyph whose texels the quad from uv0 to uv1 shows, if any.
  const GlyphRef* find(ImVec2 uv0, ImVec2 uv1) const {
    if (uv0.x == uv1.x && uv0.y == uv1.y) {
      auto it = single_texel_.find(uv_key(uv0.x, uv0.y));
      return it == single_texel_.end() ? nullptr : &it->second;
    }
    const ImVec2 mid((uv0.x + uv1.x) * 0.5f, (uv0.y + uv1.y) * 0.5f);
    auto it = cells_.find({cell(mid.x, 0), cell(mid.y, 1)});
    if (it == cells_.end()) return nullptr;
    for (const GlyphRef& r : it->second) {
      const ImFontGlyph& g = *r.glyph;
      if (uv0.x >= g.U0 && uv1.x <= g.U1 && uv0.y >= g.V0 && uv1.y <= g.V1) return &r;
    }
    return nullptr;
  }

 private:
  static int cell(float uv, int axis) {
    const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
    return static_cast<int>(uv * static_cast<float>(axis == 0 ? atlas->TexWidth : atlas->TexHeight)) / 16;
  }
  std::map<UvKey, GlyphRef> single_texel_;
  std::map<std::pair<int, int>, std::vector<GlyphRef>> cells_;
};

// One glyph as drawn: its quad, the clip rectangle of its draw command, what it shows.
struct DrawnGlyph {
  const ImDrawList* list = nullptr;
  ImVec4 clip;
  ImVec2 min, max;
  ImWchar codepoint = 0;
  float scale = 1;           // pixels per font unit
  float pen_x = 0, top = 0;  // where the text's pen was, and the line's top
  float advance = 0;
  float font_px = 13;
  std::string cut;     // why this glyph is cut ("" when whole)
  bool inside = true;  // within its clip rectangle (scrolled out of view counts as outside)
};

inline void append_utf8(std::string& s, unsigned c) {
  char buf[5];
  s += ImTextCharToUtf8(buf, c);
}

inline ImGuiWindow* window_of(const ImDrawList* list) {
  for (ImGuiWindow* w : GImGui->Windows)
    if (w->DrawList == list) return w;
  return nullptr;
}

// Whether the clip edge `side` (0 left, 1 top, 2 right, 3 bottom) at `edge` is the visible edge
// of the window or of a window it sits in that scrolls across it: what lies beyond is
// scrolled out of view, not cut.
inline bool edge_scrolls(const ImGuiWindow* w, int side, float edge) {
  for (; w; w = (w->Flags & ImGuiWindowFlags_ChildWindow) ? w->ParentWindow : nullptr) {
    const ImRect& r = w->InnerClipRect;
    const float own = side == 0 ? r.Min.x : side == 1 ? r.Min.y : side == 2 ? r.Max.x : r.Max.y;
    const bool scrolls = side % 2 == 0 ? w->ScrollbarX : w->ScrollbarY;
    if (scrolls && std::fabs(own - edge) <= 1.0f) return true;
  }
  return false;
}

// Why a glyph cut at the sides given (left, top, right, bottom) of its clip rectangle is cut,
// where no scrolling explains it, or "".
inline std::string edge_cut(const DrawnGlyph& g, bool left, bool top, bool right, bool bottom) {
  const bool cut[4] = {left, top, right, bottom};
  const float edges[4] = {g.clip.x, g.clip.y, g.clip.z, g.clip.w};
  static const char* const kSides[4] = {"left", "top", "right", "bottom"};
  for (int side = 0; side < 4; ++side) {
    if (!cut[side] || edge_scrolls(window_of(g.list), side, edges[side])) continue;
    char buf[96];
    std::snprintf(buf, sizeof buf, "crosses the %s edge of its clip rectangle at %s %.0f", kSides[side],
                  side % 2 == 0 ? "x" : "y", edges[side]);
    return buf;
  }
  return "";
}

// Why the glyph crosses its clip rectangle where no scrolling explains it, or "".
inline std::string gpu_cut(const DrawnGlyph& g) {
  constexpr float kTolerance = 1.0f;  // pixels of a glyph's box beyond the edge, anti-aliasing
  return edge_cut(g, g.clip.x - g.min.x > kTolerance, g.clip.y - g.min.y > kTolerance, g.max.x - g.clip.z > kTolerance,
                  g.max.y - g.clip.w > kTolerance);
}

// Whether a glyph the CPU clipped ends on its clip rectangle's edge (the window's, not its frame's).
inline bool cpu_cut_at_window_edge(const DrawnGlyph& g) {
  return std::fabs(g.min.x - g.clip.x) <= 1 || std::fabs(g.min.y - g.clip.y) <= 1 ||
         std::fabs(g.max.x - g.clip.z) <= 1 || std::fabs(g.max.y - g.clip.w) <= 1;
}

// The glyph quads of one draw list's commands on the font atlas, in drawing order.
inline void read_glyphs(const ImDrawList* list, const GlyphIndex& index, std::vector<DrawnGlyph>* out) {
  const ImTextureID atlas = ImGui::GetIO().Fonts->TexID;
  const ImDrawIdx* idx = list->IdxBuffer.Data;
  for (const ImDrawCmd& cmd : list->CmdBuffer) {
    if (cmd.UserCallback || cmd.TextureId != atlas) continue;
    const unsigned end = cmd.IdxOffset + cmd.ElemCount;
    for (unsigned k = cmd.IdxOffset; k + 6 <= end;) {
      const unsigned a = idx[k];
      // A text glyph is one quad: (a, a+1, a+2), (a, a+2, a+3), corners clockwise from top left.
      const bool quad =
          idx[k + 1] == a + 1 && idx[k + 2] == a + 2 && idx[k + 3] == a && idx[k + 4] == a + 2 && idx[k + 5] == a + 3;
      if (!quad) {
        k += 3;
        continue;
      }
      k += 6;
      const ImDrawVert& tl = list->VtxBuffer[static_cast<int>(cmd.VtxOffset + a)];
      const ImDrawVert& br = list->VtxBuffer[static_cast<int>(cmd.VtxOffset + a + 2)];
      const GlyphRef* found = index.find(tl.uv, br.uv);
      if (!found) continue;  // a filled rectangle or a line: not a glyph
      const ImFontGlyph& gl = *found->glyph;
      DrawnGlyph g;
      g.list = list;
      g.clip = cmd.ClipRect;
      g.min = tl.pos;
      g.max = br.pos;
      g.codepoint = static_cast<ImWchar>(gl.Codepoint);
      // prepare_fonts() made every quad its glyph's whole cell: the part of the glyph's texels a
      // quad shows says what the CPU clipped off each side (a space, one texel: its shape says).
      const float full_w = gl.X1 - gl.X0, full_h = gl.Y1 - gl.Y0;
      const float drawn_w = br.pos.x - tl.pos.x, drawn_h = br.pos.y - tl.pos.y;
      if (full_w <= 0 || full_h <= 0 || drawn_w <= 0 || drawn_h <= 0) continue;
      float left = 0, top = 0, shown_w = 1, shown_h = 1;  // fractions of the cell
      if (gl.U1 > gl.U0) {
        left = (tl.uv.x - gl.U0) / (gl.U1 - gl.U0);
        top = (tl.uv.y - gl.V0) / (gl.V1 - gl.V0);
        shown_w = (br.uv.x - tl.uv.x) / (gl.U1 - gl.U0);
        shown_h = (br.uv.y - tl.uv.y) / (gl.V1 - gl.V0);
      } else {
        shown_w = std::min(1.0f, (drawn_w / drawn_h) / (full_w / full_h));
      }
      g.scale = drawn_h / (full_h * shown_h);
      g.font_px = found->font->FontSize * g.scale;
      g.pen_x = tl.pos.x - (gl.X0 + left * full_w) * g.scale;
      g.top = tl.pos.y - (gl.Y0 + top * full_h) * g.scale;
      g.advance = gl.AdvanceX * g.scale;
      // A pixel less than the cell is rounding; more is a cut.
      const bool cpu_clipped = (1 - shown_w) * full_w * g.scale > 1.0f || (1 - shown_h) * full_h * g.scale > 1.0f;
      g.inside = !cpu_clipped && g.min.x >= g.clip.x - 1 && g.min.y >= g.clip.y - 1 && g.max.x <= g.clip.z + 1 &&
                 g.max.y <= g.clip.w + 1;
      // The CPU clips to the label's frame and to the window's clip rectangle: cut at the latter,
      // the glyph may only be scrolled out of view, as the GPU's cuts may.
      if (cpu_clipped && !cpu_cut_at_window_edge(g))
        g.cut = "clipped on the CPU at its frame (RenderTextClipped)";
      else if (cpu_clipped)
        g.cut = edge_cut(g, g.min.x <= g.clip.x + 1, g.min.y <= g.clip.y + 1, g.max.x >= g.clip.z - 1,
                         g.max.y >= g.clip.w - 1);
      else if (g.codepoint == kEllipsisMark)
        g.cut = "ellipsised";
      else if (g.codepoint == kMissingMark)
        g.cut = "has a character the font has no glyph for";
      else
        g.cut = gpu_cut(g);
      out->push_back(g);
    }
  }
}

}  // namespace clip_detail

// The lines of text the last frame drew, and which of them are cut (see the top of this file).
struct DrawnText {
  std::string text, window, cut;
  ImVec2 at, min, max;  // the line's start; the box of its glyphs
  bool visible = true;  // every glyph inside its clip rectangle: on screen now, no scrolling needed
  bool whole() const { return cut.empty(); }
};

inline std::vector<DrawnText> drawn_text() {
  using namespace clip_detail;
  std::vector<DrawnText> lines;
  const ImDrawData* data = ImGui::GetDrawData();
  if (!data || !data->Valid) return lines;
  const GlyphIndex index;
  for (int l = 0; l < data->CmdListsCount; ++l) {
    const ImDrawList* list = data->CmdLists[l];
    std::vector<DrawnGlyph> glyphs;
    read_glyphs(list, index, &glyphs);
    const ImGuiWindow* w = window_of(list);
    const std::string window = w ? w->Name : "(a draw list of no window)";
    const DrawnGlyph* prev = nullptr;
    for (const DrawnGlyph& g : glyphs) {
      // The next glyph of the same text: same line, the pen where the last glyph left it (spaces
      // have quads now), and no ellipsis before it (which ends a text).
      const bool same_text =
          prev && std::fabs(g.top - prev->top) < 0.5f && std::fabs(g.font_px - prev->font_px) < 0.5f &&
          std::fabs(g.pen_x - (prev->pen_x + prev->advance)) < 1.0f && prev->codepoint != kEllipsisMark;
      if (!same_text) lines.push_back(DrawnText{"", window, "", ImVec2(g.pen_x, g.top), g.min, g.max, true});
      DrawnText& line = lines.back();
      append_utf8(line.text, g.codepoint);
      line.min = ImVec2(std::min(line.min.x, g.min.x), std::min(line.min.y, g.min.y));
      line.max = ImVec2(std::max(line.max.x, g.max.x), std::max(line.max.y, g.max.y));
      if (line.cut.empty() && !g.cut.empty()) line.cut = g.cut;
      line.visible = line.visible && g.inside;
      prev = &g;
    }
  }
  return lines;
}

// The windows of the last frame whose content is larger than they are, across or down, where
// they cannot scroll: what lies beyond is hidden (ImGui does not even draw it). Content within
// the half of the window's padding that is still drawn, or half a character beyond (a wrapped
// line measured with the blank it broke at), hides nothing: cut text there the glyphs show.
inline std::vector<CutText> hidden_content() {
  std::vector<CutText> out;
  for (const ImGuiWindow* w : GImGui->Windows) {
    if (!w->Active || w->Hidden || (w->Flags & (ImGuiWindowFlags_Popup | ImGuiWindowFlags_Tooltip))) continue;
    for (int axis = 0; axis < 2; ++axis) {
      const float beyond = axis == 0 ? w->ScrollMax.x : w->ScrollMax.y;
      const bool scrolls = axis == 0 ? w->ScrollbarX : w->ScrollbarY;
      const float drawn =
          (axis == 0 ? w->WindowPadding.x : w->WindowPadding.y) * 0.5f + w->FontWindowScale * GImGui->FontSize * 0.5f;
      if (beyond <= drawn || scrolls) continue;
      char how[128];
      std::snprintf(how, sizeof how, "its content reaches %.0f px beyond the %s edge of a panel that cannot scroll",
                    beyond, axis == 0 ? "right" : "bottom");
      out.push_back(CutText{"(the panel's content)", w->Name, how, w->Pos});
    }
  }
  return out;
}

// Every cut line of `lines` (drawn_text() of the last frame), and every panel hiding content.
inline std::vector<CutText> find_cut_text(const std::vector<DrawnText>& lines) {
  std::vector<CutText> cuts = hidden_content();
  for (const DrawnText& line : lines)
    if (!line.whole()) cuts.push_back(CutText{line.text, line.window, line.cut, line.at});
  return cuts;
}

inline std::vector<CutText> find_cut_text() {
  return find_cut_text(drawn_text());
}

}  // namespace tilescope::testing
