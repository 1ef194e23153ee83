// The History tab, part 2: what each texel of the textures and render targets holds.
#include "ui/history_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/history_panel_internal.h"
#include "ui/widgets.h"
#include "viz/colors.h"

namespace tilescope {

using namespace history_ui;

void HistoryPanel::draw_texture_layout(ShaderMode mode, float width) {
  const float em = ImGui::GetFontSize();
  section("What each texel holds");
  const char names[3] = {'A', 'B', 'C'};
  for (int i = 0; i < 3; ++i) {
    if (i > 0) ImGui::SameLine();
    char label[32];
    std::snprintf(label, sizeof label, "%c##layout", names[i]);
    if (ImGui::RadioButton(label, layout_matrix_ == names[i])) layout_matrix_ = names[i];
  }
  ImGui::SameLine();
  ImGui::TextDisabled("an 8 x 8 example (M = N = K = 8)");
  const char X = layout_matrix_;
  constexpr int kSide = 8;
  const ShaderPlanSummary ex = describe_shader_layout(mode, kSide, kSide, kSide);
  int targets = 1, tw = ex.target_width, th = ex.target_height, channels = ex.channels;
  if (X == 'C') targets = ex.targets;
  if (X == 'A') tw = ex.a_width, th = ex.a_height, channels = ex.a_channels;
  if (X == 'B') tw = ex.b_width, th = ex.b_height, channels = ex.b_channels;
  // Channels inside a texel: 2 x 2 for the packed blocks (the block's own shape), a row of 4
  // for the MRT layouts (4 consecutive values of a row).
  const int sub_w = channels == 1 ? 1 : (mode == ShaderMode::kRgbaPacked ? 2 : 4);
  const int sub_h = channels == 1 ? 1 : (mode == ShaderMode::kRgbaPacked ? 2 : 1);
  // Targets of C arranged as the rows of the block they hold: mrt 4 x 1, mrt8 4 rows x 2.
  const int tcols = targets == 8 ? 2 : 1, trows = (targets + tcols - 1) / tcols;
  const float tgap = em * 0.6f;
  const float tex_w_cells = static_cast<float>(tcols * tw * sub_w), tex_h_cells = static_cast<float>(trows * th * sub_h);
  const float arrow = em * 2.2f;
  // Side by side when it fits with readable cells, else the texture under the matrix.
  float cell = (width - arrow - tgap * (tcols - 1) - em) / (kSide + tex_w_cells);
  bool side = cell >= em * 1.35f;
  if (!side) cell = (width - em - tgap * (tcols - 1)) / std::max<float>(kSide, tex_w_cells);
  cell = std::clamp(cell, em * 0.9f, em * 2.4f);
  const float mat_w = kSide * cell, mat_h = kSide * cell;
  const float tex_w = tex_w_cells * cell + tgap * (tcols - 1);
  const float tex_h = tex_h_cells * cell + (tgap + em * 0.8f) * (trows - 1) + (targets > 1 ? em * 0.8f : 0);
  const float total_w = side ? mat_w + arrow + tex_w : std::max(mat_w, tex_w);
  const float total_h = em * 1.0f + (side ? std::max(mat_h, tex_h) : mat_h + em * 2.0f + tex_h);

  ImGui::InvisibleButton("layout_canvas", ImVec2(total_w + 2, total_h + 2));
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 o = ImGui::GetItemRectMin();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const float small = std::min(em * 0.62f, cell * 0.42f);
  const bool labels = ImGui::GetFont()->CalcTextSizeA(small, 1e9f, 0, "a00").x < cell - 2;
  const char lower = static_cast<char>(X - 'A' + 'a');
  const char* rows_name = X == 'B' ? "k" : "i";
  const char* cols_name = X == 'A' ? "k" : "j";

  const ImVec2 mo(o.x, o.y + em);
  const ImVec2 to = side ? ImVec2(o.x + mat_w + arrow, o.y + em) : ImVec2(o.x, o.y + em + mat_h + em * 2.0f);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%c (rows %s, columns %s)", X, rows_name, cols_name);
  dl->AddText(ImGui::GetFont(), em * 0.8f, o, text, buf);
  const char* tex_title = X == 'C' ? (targets > 1 ? "render targets" : "render target")
                                   : (channels == 4 ? "texture, RGBA32F" : "texture, R32F");
  std::snprintf(buf, sizeof buf, "%s: %d x %d texels", tex_title, tw, th);
  dl->AddText(ImGui::GetFont(), em * 0.8f, ImVec2(to.x, to.y - em), text, buf);
  if (side) {
    const float ay = mo.y + mat_h * 0.5f;
    dl->AddLine(ImVec2(mo.x + mat_w + em * 0.3f, ay), ImVec2(mo.x + mat_w + arrow - em * 0.4f, ay), text, 2);
    dl->AddTriangleFilled(ImVec2(mo.x + mat_w + arrow - em * 0.3f, ay), ImVec2(mo.x + mat_w + arrow - em * 0.8f, ay - em * 0.3f),
                          ImVec2(mo.x + mat_w + arrow - em * 0.8f, ay + em * 0.3f), text);
  }

  // Where each texture cell (target, texel, channel) is drawn.
  auto target_origin = [&](int t) {
    const int tr = t / tcols, tc = t % tcols;
    return ImVec2(to.x + tc * (tw * sub_w * cell + tgap),
                  to.y + (targets > 1 ? em * 0.8f : 0) + tr * (th * sub_h * cell + tgap + em * 0.8f));
  };
  auto slot_min = [&](const TexelSlot& s) {
    const ImVec2 t = target_origin(s.target);
    return ImVec2(t.x + (s.x * sub_w + s.channel % sub_w) * cell, t.y + (s.y * sub_h + s.channel / sub_w) * cell);
  };
  // Hover on either side picks an element.
  int hover_r = -1, hover_c = -1;
  if (hovered) {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    if (mp.x >= mo.x && mp.y >= mo.y && mp.x < mo.x + mat_w && mp.y < mo.y + mat_h) {
      hover_r = static_cast<int>((mp.y - mo.y) / cell), hover_c = static_cast<int>((mp.x - mo.x) / cell);
    } else {
      for (int i = 0; i < kSide && hover_r < 0; ++i)
        for (int j = 0; j < kSide; ++j) {
          const ImVec2 a = slot_min(shader_texel_of(mode, X, i, j));
          if (mp.x >= a.x && mp.y >= a.y && mp.x < a.x + cell && mp.y < a.y + cell) {
            hover_r = i, hover_c = j;
            break;
          }
        }
    }
  }

  // Target frames and texel frames (padding texels, if any, stay empty).
  for (int t = 0; t < targets; ++t) {
    const ImVec2 tp = target_origin(t);
    dl->AddRectFilled(tp, ImVec2(tp.x + tw * sub_w * cell, tp.y + th * sub_h * cell), ImGui::GetColorU32(ImGuiCol_FrameBg));
    if (targets > 1) {
      std::snprintf(buf, sizeof buf, "target %d", t);
      dl->AddText(ImGui::GetFont(), em * 0.7f, ImVec2(tp.x, tp.y - em * 0.8f), text, buf);
    }
  }
  for (int i = 0; i < kSide; ++i)
    for (int j = 0; j < kSide; ++j) {
      const TexelSlot s = shader_texel_of(mode, X, i, j);
      const ImU32 col = block_color((s.target * 64 + s.y * tw + s.x) * 3 + 1, false);
      char name[8];
      std::snprintf(name, sizeof name, "%c%d%d", lower, i, j);
      const ImVec2 a(mo.x + j * cell, mo.y + i * cell);
      dl->AddRectFilled(a, ImVec2(a.x + cell - 1, a.y + cell - 1), col);
      const ImVec2 b = slot_min(s);
      dl->AddRectFilled(b, ImVec2(b.x + cell - 1, b.y + cell - 1), col);
      if (labels) {
        const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(small, 1e9f, 0, name);
        dl->AddText(ImGui::GetFont(), small, ImVec2(a.x + (cell - ts.x) * 0.5f, a.y + (cell - ts.y) * 0.5f), 0xFF000000u, name);
        dl->AddText(ImGui::GetFont(), small, ImVec2(b.x + (cell - ts.x) * 0.5f, b.y + (cell - ts.y) * 0.5f), 0xFF000000u, name);
      }
    }
  // Texel outlines (thick) over the channel cells.
  for (int t = 0; t < targets; ++t) {
    const ImVec2 tp = target_origin(t);
    for (int y = 0; y < th; ++y)
      for (int x = 0; x < tw; ++x) {
        const ImVec2 a(tp.x + x * sub_w * cell, tp.y + y * sub_h * cell);
        dl->AddRect(a, ImVec2(a.x + sub_w * cell, a.y + sub_h * cell), text, 0, 0, channels > 1 ? 2.0f : 1.0f);
      }
  }
  if (hover_r >= 0) {
    const TexelSlot s = shader_texel_of(mode, X, hover_r, hover_c);
    const ImVec2 a(mo.x + hover_c * cell, mo.y + hover_r * cell), b = slot_min(s);
    dl->AddRect(a, ImVec2(a.x + cell, a.y + cell), 0xFFFFFFFF, 0, 0, 3);
    dl->AddRect(b, ImVec2(b.x + cell, b.y + cell), 0xFFFFFFFF, 0, 0, 3);
    static const char* kChannel[4] = {"r", "g", "b", "a"};
    ImGui::BeginTooltip();
    ImGui::Text("%c(%d, %d) -> %s%stexel (%d, %d)%s%s", X, hover_r, hover_c, targets > 1 ? "target " : "",
                targets > 1 ? (std::to_string(s.target) + ", ").c_str() : "", s.x, s.y, channels > 1 ? ", channel " : "",
                channels > 1 ? kChannel[s.channel] : "");
    ImGui::EndTooltip();
  }

  // The rule, in words.
  ImGui::PushTextWrapPos(0);
  if (channels == 1) {
    ImGui::TextWrapped("GL_R32F: one float per texel, the row-major array uploaded as it is: texel (x, y) holds %c(y, x). "
                       "A fragment fetches one texel of A and one of B per multiply-add.",
                       X);
  } else if (mode == ShaderMode::kRgbaPacked) {
    ImGui::TextWrapped("GL_RGBA32F, each texel a 2 x 2 block: (r, g, b, a) = (x00, x01, x10, x11); odd sizes are padded "
                       "with zeros. A fragment fetches a 2 x 2 block of A and one of B per 2 k and writes a 2 x 2 block "
                       "of C: 2 fetches feed 8 multiply-adds.");
  } else if (X == 'A') {
    ImGui::TextWrapped("GL_RGBA32F, each texel 4 consecutive k of one row of A: the row-major array with rows padded to "
                       "a multiple of 4 is exactly this layout, uploaded as it is.");
  } else if (X == 'B') {
    ImGui::TextWrapped("GL_RGBA32F, each texel 4 consecutive columns of one row of B (rows padded to a multiple of %d).",
                       mode == ShaderMode::kMrt ? 4 : 8);
  } else if (mode == ShaderMode::kMrt) {
    ImGui::TextWrapped("A fragment computes a 4 x 4 block of C: row i of the block goes to target i %% 4, its 4 columns "
                       "into r, g, b, a of one texel. Per 4 k: 4 texels of A and 4 of B feed 64 multiply-adds.");
  } else {
    ImGui::TextWrapped("A fragment computes a 4 x 8 block of C: row i, columns 0-3 go to target 2 (i %% 4), columns 4-7 "
                       "to target 2 (i %% 4) + 1. Per 4 k: 4 texels of A and 8 of B feed 128 multiply-adds.");
  }
  ImGui::PopTextWrapPos();
}

}  // namespace tilescope
