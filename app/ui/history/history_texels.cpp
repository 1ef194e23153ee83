// The History tab, part 2: what each texel of the textures and render targets holds.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/ui/history/history_panel.h"
#include "app/ui/history/history_panel_internal.h"
#include "app/ui/shell/widgets.h"
#include "app/viz/colors.h"

namespace tilescope {

using namespace history_ui;

namespace {

constexpr int kSide = 8;  // the example is 8 x 8 (M = N = K = 8)

// Where everything of the texel-layout picture goes: the 8 x 8 matrix, an arrow, and the
// texture (or the render targets of C) that holds it, each texel split into its channels.
struct TexelPicture {
  ShaderMode mode = ShaderMode::kMultipass;
  char X = 'C';  // the matrix shown
  int targets = 1, tw = 0, th = 0, channels = 1;
  int sub_w = 1, sub_h = 1;  // channel cells across and down a texel
  int tcols = 1, trows = 1;  // how the targets are arranged
  float em = 0, tgap = 0, arrow = 0, cell = 0;
  bool side = false;  // texture beside the matrix (else under it)
  float mat_w = 0, mat_h = 0, total_w = 0, total_h = 0;
  ImVec2 mo, to;  // top left of the matrix and of the texture

  // Where each texture cell (target, texel, channel) is drawn.
  ImVec2 target_origin(int t) const {
    const int tr = t / tcols, tc = t % tcols;
    return ImVec2(to.x + tc * (tw * sub_w * cell + tgap),
                  to.y + (targets > 1 ? em * 0.8f : 0) + tr * (th * sub_h * cell + tgap + em * 0.8f));
  }
  ImVec2 slot_min(const TexelSlot& s) const {
    const ImVec2 t = target_origin(s.target);
    return ImVec2(t.x + (s.x * sub_w + s.channel % sub_w) * cell, t.y + (s.y * sub_h + s.channel / sub_w) * cell);
  }
};

// The texture's size and channels for matrix X, and the cell size that fits `width`.
TexelPicture measure_picture(ShaderMode mode, char X, float width) {
  TexelPicture P;
  P.mode = mode, P.X = X;
  P.em = ImGui::GetFontSize();
  const float em = P.em;
  const ShaderPlanSummary ex = describe_shader_layout(mode, kSide, kSide, kSide);
  P.tw = ex.target_width, P.th = ex.target_height, P.channels = ex.channels;
  if (X == 'C') P.targets = ex.targets;
  if (X == 'A') P.tw = ex.a_width, P.th = ex.a_height, P.channels = ex.a_channels;
  if (X == 'B') P.tw = ex.b_width, P.th = ex.b_height, P.channels = ex.b_channels;
  // Channels inside a texel: 2 x 2 for the packed blocks (the block's own shape), a row of 4
  // for the MRT layouts (4 consecutive values of a row).
  P.sub_w = P.channels == 1 ? 1 : (mode == ShaderMode::kRgbaPacked ? 2 : 4);
  P.sub_h = P.channels == 1 ? 1 : (mode == ShaderMode::kRgbaPacked ? 2 : 1);
  // Targets of C arranged as the rows of the block they hold: 4 x 1 for four, 4 rows x 2 for eight.
  P.tcols = P.targets == 8 ? 2 : 1, P.trows = (P.targets + P.tcols - 1) / P.tcols;
  P.tgap = em * 0.6f;
  const float tex_w_cells = static_cast<float>(P.tcols * P.tw * P.sub_w);
  const float tex_h_cells = static_cast<float>(P.trows * P.th * P.sub_h);
  P.arrow = em * 2.2f;
  // Side by side when it fits with readable cells, else the texture under the matrix.
  float cell = (width - P.arrow - P.tgap * (P.tcols - 1) - em) / (kSide + tex_w_cells);
  P.side = cell >= em * 1.35f;
  if (!P.side) cell = (width - em - P.tgap * (P.tcols - 1)) / std::max<float>(kSide, tex_w_cells);
  // As small as it takes to fit the width (the numbers in the cells give way first).
  P.cell = std::clamp(cell, 3.0f, em * 2.4f);
  P.mat_w = kSide * P.cell, P.mat_h = kSide * P.cell;
  const float tex_w = tex_w_cells * P.cell + P.tgap * (P.tcols - 1);
  const float tex_h = tex_h_cells * P.cell + (P.tgap + em * 0.8f) * (P.trows - 1) + (P.targets > 1 ? em * 0.8f : 0);
  P.total_w = P.side ? P.mat_w + P.arrow + tex_w : std::max(P.mat_w, tex_w);
  P.total_h = em * 1.0f + (P.side ? std::max(P.mat_h, tex_h) : P.mat_h + em * 2.0f + tex_h);
  return P;
}

// Sets where the matrix and the texture go, with `o` the canvas's top left.
void place_picture(TexelPicture& P, ImVec2 o) {
  const float em = P.em;
  P.mo = ImVec2(o.x, o.y + em);
  P.to = P.side ? ImVec2(o.x + P.mat_w + P.arrow, o.y + em) : ImVec2(o.x, o.y + em + P.mat_h + em * 2.0f);
}

// The two titles and, side by side, the arrow from the matrix to the texture.
void draw_picture_titles(ImDrawList* dl, const TexelPicture& P, ImVec2 o) {
  const float em = P.em;
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const char* rows_name = P.X == 'B' ? "k" : "i";
  const char* cols_name = P.X == 'A' ? "k" : "j";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%c (rows %s, columns %s)", P.X, rows_name, cols_name);
  dl->AddText(ImGui::GetFont(), em * 0.8f, o, text, buf);
  const char* tex_title = P.X == 'C' ? (P.targets > 1 ? "render targets" : "render target")
                                     : (P.channels == 4 ? "texture, RGBA32F" : "texture, R32F");
  std::snprintf(buf, sizeof buf, "%s: %d x %d texels", tex_title, P.tw, P.th);
  dl->AddText(ImGui::GetFont(), em * 0.8f, ImVec2(P.to.x, P.to.y - em), text, buf);
  if (P.side) {
    const ImVec2 mo = P.mo;
    const float mat_w = P.mat_w, arrow = P.arrow;
    const float ay = mo.y + P.mat_h * 0.5f;
    dl->AddLine(ImVec2(mo.x + mat_w + em * 0.3f, ay), ImVec2(mo.x + mat_w + arrow - em * 0.4f, ay), text, 2);
    dl->AddTriangleFilled(ImVec2(mo.x + mat_w + arrow - em * 0.3f, ay),
                          ImVec2(mo.x + mat_w + arrow - em * 0.8f, ay - em * 0.3f),
                          ImVec2(mo.x + mat_w + arrow - em * 0.8f, ay + em * 0.3f), text);
  }
}

// The element under the mouse, on either side; false (and *hover_r, *hover_c untouched) when none.
bool hovered_element(const TexelPicture& P, int* hover_r, int* hover_c) {
  const ImVec2 mp = ImGui::GetIO().MousePos;
  const ImVec2 mo = P.mo;
  if (mp.x >= mo.x && mp.y >= mo.y && mp.x < mo.x + P.mat_w && mp.y < mo.y + P.mat_h) {
    *hover_r = static_cast<int>((mp.y - mo.y) / P.cell), *hover_c = static_cast<int>((mp.x - mo.x) / P.cell);
    return true;
  }
  for (int i = 0; i < kSide; ++i)
    for (int j = 0; j < kSide; ++j) {
      const ImVec2 a = P.slot_min(shader_texel_of(P.mode, P.X, i, j));
      if (mp.x >= a.x && mp.y >= a.y && mp.x < a.x + P.cell && mp.y < a.y + P.cell) {
        *hover_r = i, *hover_c = j;
        return true;
      }
    }
  return false;
}

// Target frames (padding texels, if any, stay empty) and their names.
void draw_target_frames(ImDrawList* dl, const TexelPicture& P) {
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  char buf[64];
  for (int t = 0; t < P.targets; ++t) {
    const ImVec2 tp = P.target_origin(t);
    dl->AddRectFilled(tp, ImVec2(tp.x + P.tw * P.sub_w * P.cell, tp.y + P.th * P.sub_h * P.cell),
                      ImGui::GetColorU32(ImGuiCol_FrameBg));
    if (P.targets > 1) {
      std::snprintf(buf, sizeof buf, "target %d", t);
      dl->AddText(ImGui::GetFont(), P.em * 0.7f, ImVec2(tp.x, tp.y - P.em * 0.8f), text, buf);
    }
  }
}

// Each element twice, in the matrix and in its texel's channel, in its texel's colour.
void draw_element_cells(ImDrawList* dl, const TexelPicture& P) {
  const float cell = P.cell;
  const float small = std::min(P.em * 0.62f, cell * 0.42f);
  const bool labels = ImGui::GetFont()->CalcTextSizeA(small, 1e9f, 0, "a00").x < cell - 2;
  const char lower = static_cast<char>(P.X - 'A' + 'a');
  for (int i = 0; i < kSide; ++i)
    for (int j = 0; j < kSide; ++j) {
      const TexelSlot s = shader_texel_of(P.mode, P.X, i, j);
      const ImU32 col = block_color((s.target * 64 + s.y * P.tw + s.x) * 3 + 1, false);
      char name[8];
      std::snprintf(name, sizeof name, "%c%d%d", lower, i, j);
      const ImVec2 a(P.mo.x + j * cell, P.mo.y + i * cell);
      dl->AddRectFilled(a, ImVec2(a.x + cell - 1, a.y + cell - 1), col);
      const ImVec2 b = P.slot_min(s);
      dl->AddRectFilled(b, ImVec2(b.x + cell - 1, b.y + cell - 1), col);
      if (labels) {
        const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(small, 1e9f, 0, name);
        dl->AddText(ImGui::GetFont(), small, ImVec2(a.x + (cell - ts.x) * 0.5f, a.y + (cell - ts.y) * 0.5f),
                    0xFF000000u, name);
        dl->AddText(ImGui::GetFont(), small, ImVec2(b.x + (cell - ts.x) * 0.5f, b.y + (cell - ts.y) * 0.5f),
                    0xFF000000u, name);
      }
    }
}

// Texel outlines (thick) over the channel cells.
void draw_texel_outlines(ImDrawList* dl, const TexelPicture& P) {
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  for (int t = 0; t < P.targets; ++t) {
    const ImVec2 tp = P.target_origin(t);
    for (int y = 0; y < P.th; ++y)
      for (int x = 0; x < P.tw; ++x) {
        const ImVec2 a(tp.x + x * P.sub_w * P.cell, tp.y + y * P.sub_h * P.cell);
        dl->AddRect(a, ImVec2(a.x + P.sub_w * P.cell, a.y + P.sub_h * P.cell), text, 0, 0,
                    P.channels > 1 ? 2.0f : 1.0f);
      }
  }
}

// The hovered element outlined on both sides, and where it lives in a tooltip.
void draw_hovered_element(ImDrawList* dl, const TexelPicture& P, int hover_r, int hover_c) {
  const float cell = P.cell;
  const TexelSlot s = shader_texel_of(P.mode, P.X, hover_r, hover_c);
  const ImVec2 a(P.mo.x + hover_c * cell, P.mo.y + hover_r * cell), b = P.slot_min(s);
  dl->AddRect(a, ImVec2(a.x + cell, a.y + cell), 0xFFFFFFFF, 0, 0, 3);
  dl->AddRect(b, ImVec2(b.x + cell, b.y + cell), 0xFFFFFFFF, 0, 0, 3);
  static const char* kChannel[4] = {"r", "g", "b", "a"};
  const int targets = P.targets, channels = P.channels;
  ImGui::BeginTooltip();
  ImGui::Text("%c(%d, %d) -> %s%stexel (%d, %d)%s%s", P.X, hover_r, hover_c, targets > 1 ? "target " : "",
              targets > 1 ? (std::to_string(s.target) + ", ").c_str() : "", s.x, s.y, channels > 1 ? ", channel " : "",
              channels > 1 ? kChannel[s.channel] : "");
  ImGui::EndTooltip();
}

// The rule, in words.
void draw_layout_rule(ShaderMode mode, char X, int channels) {
  ImGui::PushTextWrapPos(0);
  if (channels == 1) {
    ImGui::TextWrapped(
        "GL_R32F: one float per texel, the row-major array uploaded as it is: texel (x, y) holds %c(y, x). "
        "A fragment fetches one texel of A and one of B per multiply-add.",
        X);
  } else if (mode == ShaderMode::kRgbaPacked) {
    ImGui::TextWrapped(
        "GL_RGBA32F, each texel a 2 x 2 block: (r, g, b, a) = (x00, x01, x10, x11); odd sizes are padded "
        "with zeros. A fragment fetches a 2 x 2 block of A and one of B per 2 k and writes a 2 x 2 block "
        "of C: 2 fetches feed 8 multiply-adds.");
  } else if (X == 'A') {
    ImGui::TextWrapped(
        "GL_RGBA32F, each texel 4 consecutive k of one row of A: the row-major array with rows padded to "
        "a multiple of 4 is exactly this layout, uploaded as it is.");
  } else if (X == 'B') {
    ImGui::TextWrapped(
        "GL_RGBA32F, each texel 4 consecutive columns of one row of B (rows padded to a multiple of %d).",
        mode == ShaderMode::kMrt ? 4 : 8);
  } else if (mode == ShaderMode::kMrt) {
    ImGui::TextWrapped(
        "A fragment computes a 4 x 4 block of C: row i of the block goes to target i %% 4, its 4 columns "
        "into r, g, b, a of one texel. Per 4 k: 4 texels of A and 4 of B feed 64 multiply-adds.");
  } else {
    ImGui::TextWrapped(
        "A fragment computes a 4 x 8 block of C: row i, columns 0-3 go to target 2 (i %% 4), columns 4-7 "
        "to target 2 (i %% 4) + 1. Per 4 k: 4 texels of A and 8 of B feed 128 multiply-adds.");
  }
  ImGui::PopTextWrapPos();
}

// Radio buttons A, B, C: which matrix the picture shows.
void draw_matrix_picker(char* layout_matrix) {
  const char names[3] = {'A', 'B', 'C'};
  for (int i = 0; i < 3; ++i) {
    if (i > 0) ImGui::SameLine();
    char label[32];
    std::snprintf(label, sizeof label, "%c##layout", names[i]);
    if (ImGui::RadioButton(label, *layout_matrix == names[i])) *layout_matrix = names[i];
  }
  const char* example = "an 8 x 8 example (M = N = K = 8)";
  same_line_if_fits(text_width(example));
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", example);
  ImGui::PopTextWrapPos();
}

}  // namespace

void HistoryPanel::draw_texture_layout(ShaderMode mode, float width) {
  section("What each texel holds");
  draw_matrix_picker(&layout_matrix_);
  TexelPicture P = measure_picture(mode, layout_matrix_, width);
  ImGui::InvisibleButton("layout_canvas", ImVec2(P.total_w + 2, P.total_h + 2));
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 o = ImGui::GetItemRectMin();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  place_picture(P, o);
  draw_picture_titles(dl, P, o);
  // Hover on either side picks an element.
  int hover_r = -1, hover_c = -1;
  if (hovered) hovered_element(P, &hover_r, &hover_c);
  draw_target_frames(dl, P);
  draw_element_cells(dl, P);
  draw_texel_outlines(dl, P);
  if (hover_r >= 0) draw_hovered_element(dl, P, hover_r, hover_c);
  draw_layout_rule(mode, P.X, P.channels);
}

}  // namespace tilescope
