// The History tab (history_panel.h), part 1: the passes drawn as the quads they are, the strip of passes and the
// controls to step through them.
#include "app/ui/history/history_panel.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key codes: ImGui 1.86 reports keys by the GLFW backend's codes
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "app/ui/history/history_panel_internal.h"
#include "app/ui/shell/key_presses.h"
#include "app/ui/shell/widgets.h"
#include "app/viz/colors.h"

namespace tilescope {

using namespace history_ui;

namespace {

// Where the passes canvas lies on the screen and at what scale (texels to pixels).
struct PassCanvas {
  ImVec2 o;         // target 0's top-left corner
  float scale = 1;  // pixels per texel
  float bw = 0;     // one target's width in pixels
  float bh = 0;     // one target's height in pixels
  float stack = 0;  // offset of each further target card
};

// The screen rectangle of texels [x, x + w) x [y, y + h) of the target whose corner is `org`.
std::pair<ImVec2, ImVec2> texel_rect(const PassCanvas& cv, const ImVec2& org, int x, int y, int w, int h) {
  return std::make_pair(ImVec2(org.x + x * cv.scale, org.y + y * cv.scale),
                        ImVec2(org.x + (x + w) * cv.scale, org.y + (y + h) * cv.scale));
}

// One target card at `org`: empty, the quads completed so far filled (merged into row strips),
// the quad being summed in its latest chunk's colour, and a border.
void draw_target_fills(ImDrawList* dl, const ShaderPlanSummary& L, const PassCanvas& cv, const ImVec2& org,
                       long long shown, int alpha) {
  const long long total = L.total();
  const long long chunks = static_cast<long long>(L.chunks.size());
  const long long quads = static_cast<long long>(L.quads.size());
  const long long full = std::min(quads, shown / chunks);        // quads with every chunk added
  const long long partial = shown < total ? shown % chunks : 0;  // chunks added to quad `full`
  dl->AddRectFilled(org, ImVec2(org.x + cv.bw, org.y + cv.bh), ImGui::GetColorU32(ImGuiCol_FrameBg));
  // Completed quads, merged into row strips (tiles of one row of tiles are contiguous).
  const ImU32 done = with_alpha(chunk_color(chunks - 1, chunks), alpha);
  for (long long i = 0; i < full;) {
    const ShaderPass& q = L.quads[static_cast<std::size_t>(i)];
    int x1 = q.x + q.w;
    long long j = i + 1;
    while (j < full) {
      const ShaderPass& n = L.quads[static_cast<std::size_t>(j)];
      if (n.y != q.y || n.h != q.h || n.x != x1) break;
      x1 = n.x + n.w;
      ++j;
    }
    const auto rc = texel_rect(cv, org, q.x, q.y, x1 - q.x, q.h);
    dl->AddRectFilled(rc.first, rc.second, done);
    i = j;
  }
  if (partial > 0 && full < quads) {
    const ShaderPass& q = L.quads[static_cast<std::size_t>(full)];
    const auto rc = texel_rect(cv, org, q.x, q.y, q.w, q.h);
    dl->AddRectFilled(rc.first, rc.second, with_alpha(chunk_color(partial - 1, chunks), alpha));
  }
  dl->AddRect(org, ImVec2(org.x + cv.bw + 1, org.y + cv.bh + 1), ImGui::GetColorU32(ImGuiCol_Border));
}

// Texel grid where texels are big enough to see; quad outlines where quads are.
void draw_grid_and_quad_outlines(ImDrawList* dl, const ShaderPlanSummary& L, const PassCanvas& cv) {
  const ImVec2 o = cv.o;
  const float scale = cv.scale;
  const long long quads = static_cast<long long>(L.quads.size());
  if (scale >= 10) {
    const ImU32 grid = with_alpha(ImGui::GetColorU32(ImGuiCol_Border), 70);
    for (int x = 1; x < L.target_width; ++x)
      dl->AddLine(ImVec2(o.x + x * scale, o.y), ImVec2(o.x + x * scale, o.y + cv.bh), grid);
    for (int y = 1; y < L.target_height; ++y)
      dl->AddLine(ImVec2(o.x, o.y + y * scale), ImVec2(o.x + cv.bw, o.y + y * scale), grid);
  }
  if (quads > 1 && quads <= kMaxQuads) {
    float min_side = 1e9f;
    for (const ShaderPass& q : L.quads) min_side = std::min(min_side, std::min(q.w, q.h) * scale);
    if (min_side >= 4) {
      const ImU32 line = with_alpha(ImGui::GetColorU32(ImGuiCol_Text), 90);
      for (const ShaderPass& q : L.quads) {
        const auto rc = texel_rect(cv, o, q.x, q.y, q.w, q.h);
        dl->AddRect(rc.first, rc.second, line);
      }
    }
  }
}

// The pass just drawn (thick white) and the next one (cyan).
void draw_pass_marks(ImDrawList* dl, const ShaderPlanSummary& L, const PassCanvas& cv, long long shown, float em) {
  const long long total = L.total();
  const long long chunks = static_cast<long long>(L.chunks.size());
  if (shown < total) {
    const ShaderPass& q = L.quads[static_cast<std::size_t>(shown / chunks)];
    const auto rc = texel_rect(cv, cv.o, q.x, q.y, q.w, q.h);
    dl->AddRect(ImVec2(rc.first.x + 1, rc.first.y + 1), ImVec2(rc.second.x - 1, rc.second.y - 1), 0xFFFFFF40, 0, 0,
                std::max(1.5f, em * 0.1f));
  }
  if (shown > 0) {
    const ShaderPass& q = L.quads[static_cast<std::size_t>((shown - 1) / chunks)];
    const auto rc = texel_rect(cv, cv.o, q.x, q.y, q.w, q.h);
    // Two tones: readable on the dark and the light themes.
    dl->AddRect(rc.first, rc.second, 0xFF000000u, 0, 0, std::max(4.0f, em * 0.26f));
    dl->AddRect(rc.first, rc.second, 0xFFFFFFFFu, 0, 0, std::max(2.0f, em * 0.12f));
  }
}

// "target: W x H texels" above the canvas, and the last target's name on its card.
void draw_canvas_labels(ImDrawList* dl, const ShaderPlanSummary& L, const PassCanvas& cv, const ImVec2& label_pos,
                        float em) {
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const float small = em * 0.72f;
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s%d x %d texels", L.targets > 1 ? "target 0 (front): " : "target: ", L.target_width,
                L.target_height);
  dl->AddText(ImGui::GetFont(), small, label_pos, text, buf);
  if (L.targets > 1) {
    std::snprintf(buf, sizeof buf, "target %d", L.targets - 1);
    const ImVec2 back(cv.o.x + cv.stack * (L.targets - 1), cv.o.y + cv.stack * (L.targets - 1));
    const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(small, 1e9f, 0, buf);
    dl->AddRectFilled(ImVec2(back.x + cv.bw - ts.x - 6, back.y + cv.bh - ts.y - 2),
                      ImVec2(back.x + cv.bw, back.y + cv.bh), with_alpha(0xFF000000u, 160));
    dl->AddText(ImGui::GetFont(), small, ImVec2(back.x + cv.bw - ts.x - 3, back.y + cv.bh - ts.y - 1), 0xFFFFFFFFu,
                buf);
  }
}

// Hover: what the texel under the mouse holds and how far its sum has got.
void pass_tooltip(const ShaderPlanSummary& L, const PassCanvas& cv, long long shown) {
  const long long chunks = static_cast<long long>(L.chunks.size());
  const long long quads = static_cast<long long>(L.quads.size());
  const int r = L.outputs_per_fragment_rows, c = L.outputs_per_fragment_cols;
  const ImVec2 o = cv.o;
  const float scale = cv.scale;
  {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    const int tx = static_cast<int>((mp.x - o.x) / scale), ty = static_cast<int>((mp.y - o.y) / scale);
    if (tx >= 0 && ty >= 0 && tx < L.target_width && ty < L.target_height) {
      long long qi = -1;
      for (long long i = 0; i < quads; ++i) {
        const ShaderPass& q = L.quads[static_cast<std::size_t>(i)];
        if (tx >= q.x && tx < q.x + q.w && ty >= q.y && ty < q.y + q.h) {
          qi = i;
          break;
        }
      }
      const long long added = qi < 0 ? 0 : std::clamp(shown - qi * chunks, 0LL, chunks);
      ImGui::BeginTooltip();
      ImGui::Text("texel (%d, %d): the fragment computing C rows %d..%d, columns %d..%d", tx, ty, ty * r,
                  ty * r + r - 1, tx * c, tx * c + c - 1);
      if (qi >= 0) ImGui::Text("quad %lld; k-chunks added so far: %lld of %lld", qi, added, chunks);
      ImGui::EndTooltip();
    }
  }
}

}  // namespace

// The facts a teacher reads out: sizes, targets, outputs per fragment, passes, textures.
void HistoryPanel::draw_pass_facts(const ModePlan& plan) {
  const ShaderPlanSummary& L = plan.layout;
  const long long total = L.total();
  const long long chunks = static_cast<long long>(L.chunks.size());
  const long long quads = static_cast<long long>(L.quads.size());
  const int r = L.outputs_per_fragment_rows, c = L.outputs_per_fragment_cols;
  // The facts wrap where the column is narrow (presenter mode, big text).
  ImGui::PushTextWrapPos(0);
  ImGui::Text("C = A·B with M = %d, N = %d, K = %d", plan.run_M, plan.run_N, plan.K);
  if (plan.smaller_example) {
    ImGui::PushStyleColor(ImGuiCol_Text, kAmber);
    ImGui::PushTextWrapPos(0);
    ImGui::Text(
        "At this size there are %s passes (%s tiles x %lld k-chunks): too many quads to draw. "
        "Drawn: the same mode at M = %d, N = %d.",
        format_thousands(static_cast<double>(plan.run_layout.total())).c_str(),
        format_thousands(static_cast<double>(plan.run_layout.total() / std::max(1LL, chunks))).c_str(), chunks, plan.M,
        plan.N);
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
  const ShaderPlanSummary& R = plan.run_layout;  // sizes at the run size (= L unless a smaller example is drawn)
  ImGui::Text("render target%s of C: %d x %d texels, %s%s", L.targets > 1 ? "s" : "", R.target_width, R.target_height,
              L.channels == 4 ? "GL_RGBA32F" : "GL_R32F", L.targets > 1 ? "" : " (one target)");
  if (L.targets > 1) {
    char times[32];
    std::snprintf(times, sizeof times, "x %d render targets", L.targets);
    same_line_if_fits(text_width(times));
    ImGui::TextColored(kAmber, "%s", times);
    help_tooltip(
        "One quad writes all the targets at once (multiple render targets): each fragment has 4 (or 8) "
        "RGBA outputs, 16 (or 32) floats of C.");
  }
  ImGui::Text("each fragment computes %d x %d of C", r, c);
  ImGui::Text(
      "%s: %s = %s quad%s per k-chunk x %lld k-chunk%s", plan.smaller_example ? "passes of the example" : "passes",
      format_thousands(static_cast<double>(total)).c_str(), format_thousands(static_cast<double>(quads)).c_str(),
      quads > 1 ? "s" : "", chunks, chunks > 1 ? "s" : "");
  help_tooltip(
      "A pass is one draw call: a quad (viewport and scissor = its rectangle) over the target, whose "
      "fragments each add one k-chunk's partial sums. The first chunk of each quad overwrites the cleared "
      "target, the later ones are added by the blender (GL_ONE, GL_ONE).");
  const int kpu = std::max(1, L.k_per_unit);
  ImGui::TextDisabled("textures: A %d x %d, B %d x %d texels (%s)%s", R.a_width, R.a_height, R.b_width, R.b_height,
                      L.a_channels == 4 ? "RGBA32F" : "R32F",
                      kpu > 1 ? (kpu == 2 ? "; k unit = 2 k" : "; k unit = 4 k") : "");
  ImGui::PopTextWrapPos();
}

// The canvas: the target(s) in texels, scaled to fit, the passes drawn so far filled.
void HistoryPanel::draw_pass_canvas(const ModePlan& plan, float width, float max_height, long long shown) {
  const float em = ImGui::GetFontSize();
  const ShaderPlanSummary& L = plan.layout;
  const float stack = L.targets > 1 ? 0.45f * em : 0.0f;  // offset of each further target card
  const float extra = stack * static_cast<float>(L.targets - 1);
  const float label_h = em * 1.2f;
  const float fit_w = std::max(4 * em, width - extra - em * 0.5f);
  const float fit_h = std::max(4 * em, max_height - extra - label_h);
  const float scale = std::min(fit_w / L.target_width, fit_h / L.target_height);
  const float bw = scale * L.target_width, bh = scale * L.target_height;
  ImGui::Dummy(ImVec2(1, label_h));
  const ImVec2 label_pos(ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y);
  ImGui::InvisibleButton("passes_canvas", ImVec2(bw + extra + 1, bh + extra + 1));
  const PassCanvas cv{ImGui::GetItemRectMin(), scale, bw, bh, stack};
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();

  // Back cards first (the last target furthest back), then target 0 in front.
  for (int t = L.targets - 1; t >= 1; --t)
    draw_target_fills(dl, L, cv, ImVec2(cv.o.x + stack * t, cv.o.y + stack * t), shown, 150);
  draw_target_fills(dl, L, cv, cv.o, shown, 255);
  draw_grid_and_quad_outlines(dl, L, cv);
  draw_pass_marks(dl, L, cv, shown, em);
  draw_canvas_labels(dl, L, cv, label_pos, em);

  if (hovered) pass_tooltip(L, cv, shown);
}

// The k-chunk legend: one cell per chunk (or a ramp when there are many), the latest marked.
void HistoryPanel::draw_chunk_legend(const ModePlan& plan, float width, long long shown) {
  const float em = ImGui::GetFontSize();
  const ShaderPlanSummary& L = plan.layout;
  const long long total = L.total();
  const long long chunks = static_cast<long long>(L.chunks.size());
  const long long partial = shown < total ? shown % chunks : 0;
  const int kpu = std::max(1, L.k_per_unit);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const float lw = std::min(width - em, 22 * em), lh = em * 0.8f;
  const ImVec2 lp = ImGui::GetCursorScreenPos();
  const int cells = static_cast<int>(std::min<long long>(chunks, 64));
  for (int i = 0; i < cells; ++i) {
    const long long ch = chunks <= 64 ? i : i * (chunks - 1) / std::max(1, cells - 1);
    dl->AddRectFilled(ImVec2(lp.x + lw * i / cells, lp.y),
                      ImVec2(lp.x + lw * (i + 1) / cells - (chunks <= 64 ? 1 : 0), lp.y + lh), chunk_color(ch, chunks));
  }
  const long long latest = shown == 0 ? -1 : (shown < total ? (partial > 0 ? partial - 1 : chunks - 1) : chunks - 1);
  if (latest >= 0) {
    const float x = lp.x + lw * (static_cast<float>(latest) + 0.5f) / static_cast<float>(chunks);
    dl->AddTriangleFilled(ImVec2(x, lp.y + lh + 1), ImVec2(x - em * 0.3f, lp.y + lh + em * 0.45f),
                          ImVec2(x + em * 0.3f, lp.y + lh + em * 0.45f), text);
  }
  ImGui::Dummy(ImVec2(lw, lh + em * 0.5f));
  const long long k_last =
      std::min<long long>(plan.K, static_cast<long long>(L.chunks.back().k0 + L.chunks.back().klen) * kpu) - 1;
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled(
      "colour = the latest k-chunk added: k = 0.. (dark) to ..%lld (yellow); plain background: not drawn yet", k_last);
  ImGui::PopTextWrapPos();
}

void HistoryPanel::draw_passes(const ModePlan& plan, float width, float max_height) {
  const ShaderPlanSummary& L = plan.layout;
  section("The passes, drawn as the quads they are");
  if (L.quads.empty() || L.chunks.empty() || L.target_width < 1 || L.target_height < 1) {
    ImGui::TextDisabled("nothing to draw at this size");
    return;
  }
  const long long total = L.total();
  if (pass_ > total) pass_ = -1;
  const long long shown = pass_ < 0 ? total : pass_;

  draw_pass_facts(plan);
  draw_pass_controls(plan);
  draw_pass_strip(plan, width);
  draw_pass_canvas(plan, width, max_height, shown);
  draw_chunk_legend(plan, width, shown);
}

// The passes in drawing order around the current one, each a thumbnail of the target with its
// quad lit: done ones filled in their k-chunk's colour, the one just drawn framed in white, the
// ones to come outlined. A click sets how many passes are drawn.
void HistoryPanel::draw_pass_strip(const ModePlan& plan, float width) {
  const float em = ImGui::GetFontSize();
  const ShaderPlanSummary& L = plan.layout;
  const long long total = L.total(), chunks = static_cast<long long>(L.chunks.size());
  const long long shown = pass_ < 0 ? total : std::min<long long>(pass_, total);
  const float aspect = std::clamp(static_cast<float>(L.target_width) / L.target_height, 0.5f, 3.0f);
  const float th = em * 1.6f, tw = th * aspect, gap = em * 0.3f;
  const int per_row = std::max(1, static_cast<int>((width - em * 0.5f + gap) / (tw + gap)));
  const long long count = std::min<long long>(total, per_row * 2LL);
  const long long first = std::clamp<long long>(shown - count / 2, 0, total - count);
  const int rows = count > per_row ? 2 : 1;
  if (count < total)
    ImGui::TextDisabled("passes %lld..%lld of %s, in drawing order (click one to stop there):", first + 1,
                        first + count, format_thousands(static_cast<double>(total)).c_str());
  else
    ImGui::TextDisabled("the %lld pass%s in drawing order (click one to stop there):", total, total > 1 ? "es" : "");
  const float strip_w = static_cast<float>(std::min<long long>(count, per_row)) * (tw + gap);
  ImGui::InvisibleButton("pass_strip", ImVec2(std::max(strip_w, 1.0f), rows * (th + gap)));
  const ImVec2 o = ImGui::GetItemRectMin();
  const bool hovered = ImGui::IsItemHovered(), clicked = ImGui::IsItemClicked();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), bg = ImGui::GetColorU32(ImGuiCol_FrameBg);
  const float sx = tw / L.target_width, sy = th / L.target_height;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (long long i = first; i < first + count; ++i) {
    const long long slot = i - first;
    const ImVec2 a(o.x + static_cast<float>(slot % per_row) * (tw + gap),
                   o.y + static_cast<float>(slot / per_row) * (th + gap));
    const ImVec2 b(a.x + tw, a.y + th);
    dl->AddRectFilled(a, b, bg);
    const ShaderPass p = L.pass(i);
    // At least 2 pixels, so a small tile stays visible on a thumbnail.
    ImVec2 qa(a.x + p.x * sx, a.y + p.y * sy), qb(a.x + (p.x + p.w) * sx, a.y + (p.y + p.h) * sy);
    qb.x = std::max(qb.x, qa.x + 2), qb.y = std::max(qb.y, qa.y + 2);
    if (i < shown)
      dl->AddRectFilled(qa, qb, chunk_color(i % chunks, chunks));
    else
      dl->AddRect(qa, qb, with_alpha(text, 160));
    dl->AddRect(a, b, i == shown - 1 ? 0xFFFFFFFFu : with_alpha(text, 70), 0, 0, i == shown - 1 ? 2.5f : 1.0f);
    if (hovered && mouse.x >= a.x && mouse.x < b.x + gap && mouse.y >= a.y && mouse.y < b.y + gap) {
      const int kpu = std::max(1, L.k_per_unit);
      ImGui::SetTooltip("pass %lld: quad at (%d, %d), %d x %d texels, k = %lld..%lld", i + 1, p.x, p.y, p.w, p.h,
                        static_cast<long long>(p.k0) * kpu,
                        std::min<long long>(plan.K, static_cast<long long>(p.k0 + p.klen) * kpu) - 1);
      if (clicked) pass_ = i + 1 >= total ? -1 : static_cast<int>(i + 1), playing_ = false;
    }
  }
}

void HistoryPanel::draw_pass_controls(const ModePlan& plan) {
  const float em = ImGui::GetFontSize();
  const ShaderPlanSummary& L = plan.layout;
  const long long total = L.total();
  const int total_i = static_cast<int>(std::min<long long>(total, 1 << 30));
  if (speed_for_mode_ != static_cast<int>(plan.mode) || speed_for_passes_ != total || speed_ <= 0) {
    speed_ = static_cast<float>(std::clamp(static_cast<double>(total) / 12.0, 1.0, 100000.0));  // ~12 s for all
    speed_for_mode_ = static_cast<int>(plan.mode);
    speed_for_passes_ = total;
  }
  // Keys while the tab is shown: space plays, arrows step.
  if (!ImGui::GetIO().WantTextInput) {
    if (key_tapped(GLFW_KEY_SPACE)) {
      if (!playing_ && (pass_ < 0 || pass_ >= total_i)) pass_ = 0;
      playing_ = !playing_;
    }
    if (key_tapped_or_repeated(GLFW_KEY_RIGHT))
      pass_ = pass_ < 0 ? -1 : (pass_ + 1 >= total_i ? -1 : pass_ + 1), playing_ = false;
    if (key_tapped_or_repeated(GLFW_KEY_LEFT)) pass_ = std::max(0, (pass_ < 0 ? total_i : pass_) - 1), playing_ = false;
  }
  if (playing_) {
    play_clock_ += ImGui::GetIO().DeltaTime * speed_;
    const int step = static_cast<int>(play_clock_);
    play_clock_ -= step;
    if (pass_ < 0) pass_ = 0;
    pass_ += step;
    if (pass_ >= total_i) pass_ = -1, playing_ = false;
  }
  int shown = pass_ < 0 ? total_i : pass_;
  if (ImGui::Button("|<")) pass_ = 0, playing_ = false;
  help_tooltip("Back to the cleared target: no pass drawn.");
  ImGui::SameLine();
  if (ImGui::Button("<")) pass_ = std::max(0, shown - 1), playing_ = false;
  help_tooltip("One pass back (left arrow).");
  ImGui::SameLine();
  if (ImGui::Button(playing_ ? "Pause" : "Play", ImVec2(em * 4, 0))) {
    if (!playing_ && shown >= total_i) pass_ = 0;
    playing_ = !playing_;
    play_clock_ = 0;
  }
  help_tooltip("Draw the passes one after another (space).");
  ImGui::SameLine();
  if (ImGui::Button(">")) pass_ = shown + 1 >= total_i ? -1 : shown + 1, playing_ = false;
  help_tooltip("One pass forward (right arrow).");
  ImGui::SameLine();
  if (ImGui::Button(">|")) pass_ = -1, playing_ = false;
  help_tooltip("All passes drawn: C is complete.");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(6 * em, ImGui::GetContentRegionAvail().x - 9 * em));
  shown = pass_ < 0 ? total_i : pass_;
  if (ImGui::SliderInt("##pass", &shown, 0, total_i, "passes drawn: %d"))
    pass_ = shown >= total_i ? -1 : shown, playing_ = false;
  help_tooltip("How many passes (draw calls) have been drawn. Drag to step through them.");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(7 * em);
  // The noun agrees with the number shown: "%.0f" rounds as nearbyint does (half to even).
  const char* speed_format = std::nearbyint(speed_) == 1 ? "%.0f pass/s" : "%.0f passes/s";
  ImGui::SliderFloat("##speed", &speed_, 1.0f, 100000.0f, speed_format, ImGuiSliderFlags_Logarithmic);
  help_tooltip("Play speed, in passes per second.");

  // What the last pass drawn did.
  const int kpu = std::max(1, plan.layout.k_per_unit);
  shown = pass_ < 0 ? total_i : pass_;
  ImGui::PushTextWrapPos(0);
  if (shown == 0) {
    ImGui::TextUnformatted(
        "Nothing drawn yet: the targets are cleared (to NaN, the poison a missed texel would keep).");
  } else {
    const ShaderPass p = L.pass(shown - 1);
    const long long k0 = static_cast<long long>(p.k0) * kpu;
    const long long k1 = std::min<long long>(plan.K, static_cast<long long>(p.k0 + p.klen) * kpu) - 1;
    const long long chunk_index = (shown - 1) % static_cast<long long>(L.chunks.size());
    const int outputs = plan.layout.outputs_per_fragment_rows * plan.layout.outputs_per_fragment_cols;
    ImGui::Text(
        "Pass %d of %lld: quad at (%d, %d), %d x %d texels, k = %lld..%lld (k-chunk %lld): every fragment in it "
        "adds %lld products to %s%s.",
        shown, total, p.x, p.y, p.w, p.h, k0, k1, chunk_index + 1, k1 - k0 + 1,
        outputs == 1 ? "its one output" : ("each of its " + std::to_string(outputs) + " outputs").c_str(),
        chunk_index == 0 ? " (the first chunk overwrites the cleared texels)" : " (the blender adds them)");
  }
  ImGui::PopTextWrapPos();
}

}  // namespace tilescope
