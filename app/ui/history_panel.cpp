#include "ui/history_panel.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gl_gemm/gl_shader_runner.h"
#include "registry.h"
#include "ui/widgets.h"
#include "viz/colors.h"

namespace tilescope {

// ---- pure logic ------------------------------------------------------------------------------

ShaderPass PassSchedule::pass(long long p) const {
  const long long c = static_cast<long long>(chunks.size());
  const ShaderPass& q = quads[static_cast<std::size_t>(p / c)];
  const ShaderPass& k = chunks[static_cast<std::size_t>(p % c)];
  return {q.x, q.y, q.w, q.h, k.k0, k.klen};
}

PassSchedule shader_pass_schedule(ShaderMode mode, int M, int N, int K) {
  PassSchedule s;
  if (M < 1 || N < 1 || K < 1) return s;
  s.quads = describe_shader_plan(mode, M, N, 1).passes;   // K = 1: one chunk, one pass per quad
  s.chunks = describe_shader_plan(mode, 1, 1, K).passes;  // M = N = 1: one quad, one pass per chunk
  return s;
}

TexelSlot shader_texel_of(ShaderMode mode, char matrix, int row, int col) {
  TexelSlot t;
  switch (mode) {
    case ShaderMode::kMultipass:
    case ShaderMode::kBlocked:  // GL_R32F, the row-major array as it is: texel (col, row)
      t.x = col, t.y = row;
      break;
    case ShaderMode::kRgbaPacked:  // 2 x 2 blocks: (r, g, b, a) = (x00, x01, x10, x11)
      t.x = col / 2, t.y = row / 2, t.channel = (row % 2) * 2 + col % 2;
      break;
    case ShaderMode::kMrt:
    case ShaderMode::kMrt8: {
      if (matrix != 'C') {  // A: four consecutive k of a row; B: four consecutive columns of a row
        t.x = col / 4, t.y = row, t.channel = col % 4;
        break;
      }
      const int width = mode == ShaderMode::kMrt ? 4 : 8;  // columns of C per fragment
      t.target = (width / 4) * (row % 4) + (col % width) / 4;
      t.x = col / width, t.y = row / 4, t.channel = col % 4;
      break;
    }
  }
  return t;
}

const RunResult* best_shader_row(const std::vector<RunResult>& rows, const std::string& config_name) {
  const RunResult* best = nullptr;
  for (const RunResult& r : rows) {
    if (r.variant_id != "gl_shader" || r.config_name != config_name || !r.ok() || r.precision != Precision::F32)
      continue;
    if (r.verified && !r.passed) continue;  // a wrong answer is not a speed
    if (!(r.gflops > 0)) continue;
    if (!best || r.gflops > best->gflops) best = &r;
  }
  return best;
}

double fetch_bound_gflops(double fetches_per_fma, double clock_mhz, int sms, double fetches_per_clock) {
  if (!(fetches_per_fma > 0) || !(clock_mhz > 0)) return 0;
  const double flops_per_fetch = 2.0 / fetches_per_fma;
  return sms * fetches_per_clock * clock_mhz * 1e-3 * flops_per_fetch;
}

BoundClock fetch_bound_clock(const RunResult* row, const DeviceInfo& device) {
  BoundClock c;
  if (row && row->sm_clock_mhz > 0) {
    c.mhz = row->sm_clock_mhz;
    c.source = "measured";
  } else if (device.ok() && device.sm_clock_khz > 0) {
    c.mhz = device.sm_clock_khz / 1000.0;
    c.source = "this GPU";
  }
  return c;
}

// ---- the panel -------------------------------------------------------------------------------

namespace {

constexpr long long kMaxQuads = 16384;          // more quads than this: a smaller example is drawn
constexpr long long kMaxDescribedPasses = 1 << 18;  // fetch count from the full plan up to this

const ImVec4 kGreen(0.35f, 0.85f, 0.40f, 1.0f);
const ImVec4 kRed(1.0f, 0.40f, 0.35f, 1.0f);
const ImVec4 kAmber(1.0f, 0.75f, 0.30f, 1.0f);

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// Colour of k-chunk c of n: the ramp from dark (first chunk) to yellow (last).
ImU32 chunk_color(long long c, long long n) {
  const double t = n > 1 ? static_cast<double>(c) / static_cast<double>(n - 1) : 1.0;
  return heat_color(0.3 + 0.7 * t);
}

ImU32 with_alpha(ImU32 col, int alpha) { return (col & 0x00FFFFFFu) | (static_cast<ImU32>(alpha) << 24); }

const char* mode_year(ShaderMode m) {
  switch (m) {
    case ShaderMode::kMultipass: return "2001";
    case ShaderMode::kRgbaPacked: return "2003-04";
    case ShaderMode::kBlocked: return "2006";
    case ShaderMode::kMrt: return "GeForce 6 era";
    case ShaderMode::kMrt8: return "8 targets";
  }
  return "";
}

std::string mode_description(ShaderMode m) {
  char buf[400];
  switch (m) {
    case ShaderMode::kMultipass:
      std::snprintf(buf, sizeof buf,
                    "Larsen & McAllister 2001: one output of C per fragment; one pass over the whole target per "
                    "k-chunk (%d k each), the blender adding each pass's partial sums. 2 texels fetched per multiply-add.",
                    default_k_chunk(m));
      break;
    case ShaderMode::kRgbaPacked:
      std::snprintf(buf, sizeof buf,
                    "Hall, Carr & Hart 2003; Fatahalian et al. 2004: A, B and C packed as 2 x 2 blocks in RGBA "
                    "texels. A fragment computes a 2 x 2 block of C: 2 fetched texels feed 8 multiply-adds.");
      break;
    case ShaderMode::kBlocked:
      std::snprintf(buf, sizeof buf,
                    "Govindaraju et al. 2006: C cut into %d x %d tiles; per tile one quad per %d-long k-block, all "
                    "k-blocks of a tile before the next, so each pass reads strips of A and B that fit the texture cache.",
                    default_tile(), default_tile(), default_k_chunk(m));
      break;
    case ShaderMode::kMrt:
      std::snprintf(buf, sizeof buf,
                    "Four render targets: a 4 x 4 block of C per fragment, written into 4 RGBA targets (one row "
                    "each). 8 fetches feed 64 multiply-adds.");
      break;
    case ShaderMode::kMrt8:
      std::snprintf(buf, sizeof buf,
                    "Eight render targets: a 4 x 8 block of C per fragment, spread over 8 RGBA targets. 12 fetches "
                    "feed 128 multiply-adds: the fastest of the five.");
      break;
  }
  return buf;
}

std::string format_gflops(double g) {
  char buf[32];
  if (g >= 100) std::snprintf(buf, sizeof buf, "%.0f", g);
  else if (g >= 10) std::snprintf(buf, sizeof buf, "%.1f", g);
  else std::snprintf(buf, sizeof buf, "%.2f", g);
  return buf;
}

std::string size_text(const Shape& s) {
  char buf[64];
  if (s.M == s.N && s.N == s.K) std::snprintf(buf, sizeof buf, "N = %lld", static_cast<long long>(s.N));
  else
    std::snprintf(buf, sizeof buf, "%lld x %lld x %lld", static_cast<long long>(s.M), static_cast<long long>(s.N),
                  static_cast<long long>(s.K));
  return buf;
}

// Read-only, selectable (copyable) text in a box.
void copyable_text(const char* id, const std::string& text, float lines, ImU32 color) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  std::string buf = text;
  ImGui::InputTextMultiline(id, buf.data(), buf.size() + 1,
                            ImVec2(-1, ImGui::GetTextLineHeight() * lines + ImGui::GetStyle().FramePadding.y * 2),
                            ImGuiInputTextFlags_ReadOnly);
  ImGui::PopStyleColor();
}

}  // namespace

ShaderMode HistoryPanel::mode() const {
  const auto& modes = all_shader_modes();
  const int i = std::clamp(mode_, 0, static_cast<int>(modes.size()) - 1);
  // The configuration's name is the mode's name (kernels/04_gl_shader.cpp); match by name.
  if (const VariantDescriptor* v = find_variant("gl_shader"))
    if (i < static_cast<int>(v->configs.size()))
      for (ShaderMode m : modes)
        if (v->configs[i].name == shader_mode_name(m)) return m;
  return modes[i];
}

void HistoryPanel::update_plans(int M, int N, int K) {
  if (M == plans_M_ && N == plans_N_ && K == plans_K_ && !plans_.empty()) return;
  plans_M_ = M, plans_N_ = N, plans_K_ = K;
  plans_.clear();
  for (ShaderMode mode : all_shader_modes()) {
    ModePlan p;
    p.mode = mode;
    p.run_M = M, p.run_N = N, p.K = K;
    int md = M, nd = N;
    const int t = default_tile();
    auto tiles = [&](int m, int n) { return static_cast<long long>(ceil_div(m, t)) * ceil_div(n, t); };
    if (mode == ShaderMode::kBlocked)
      while (tiles(md, nd) > kMaxQuads) md = (md + 1) / 2, nd = (nd + 1) / 2;
    p.M = md, p.N = nd;
    p.smaller_example = md != M || nd != N;
    p.schedule = shader_pass_schedule(mode, md, nd, K);
    p.run_passes = p.smaller_example ? tiles(M, N) * static_cast<long long>(p.schedule.chunks.size()) : p.schedule.total();
    // Target and texture sizes: M and N set the target, A's height and B's width; K sets A's
    // width and B's height.
    p.layout = describe_shader_plan(mode, md, nd, 1);
    const ShaderPlanSummary along_k = describe_shader_plan(mode, 1, 1, K);
    p.layout.a_width = along_k.a_width;
    p.layout.b_height = along_k.b_height;
    p.layout.passes.clear();
    // The same at the run size, from plans one quad row or column wide (cheap at any size).
    p.run_layout = p.layout;
    if (p.smaller_example) {
      const ShaderPlanSummary rows_only = describe_shader_plan(mode, M, 1, 1), cols_only = describe_shader_plan(mode, 1, N, 1);
      p.run_layout.target_height = rows_only.target_height;
      p.run_layout.a_height = rows_only.a_height;
      p.run_layout.target_width = cols_only.target_width;
      p.run_layout.b_width = cols_only.b_width;
    }
    if (!p.smaller_example && p.schedule.total() <= kMaxDescribedPasses)
      p.fetches_per_fma = describe_shader_plan(mode, M, N, K).fetches_per_fma;
    else  // only blocked gets here: one scalar fetch of A and one of B per multiply-add at any M, N
      p.fetches_per_fma = describe_shader_plan(mode, std::min(M, 256), std::min(N, 256), K).fetches_per_fma;
    plans_.push_back(std::move(p));
  }
}

void HistoryPanel::draw(const AppState& state, const std::vector<RunResult>& rows, const DeviceInfo& device) {
  ImGui::BeginChild("history_scroll", ImVec2(0, 0), false);
  const float em = ImGui::GetFontSize();

  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(
      "Before CUDA (2001-2006) a GPU could only draw. A and B became float textures, C a float render target, and "
      "drawing a rectangle (a quad) over C ran a fragment shader once per texel, computing its element (or block) of C "
      "from texel fetches. Passes added partial sums by blending. This is that method, run on this machine.");
  ImGui::PopTextWrapPos();
  if (state.precision == Precision::F64)
    banner("Float only: the texture shaders run in float whatever the precision chosen (the variant refuses double: "
           "the fragment pipeline has no double textures and no double blending). Switch Precision to float to time them.");

  draw_mode_picker(state);

  const Shape shape = run_shape(state);
  auto clamp_size = [](std::int64_t v) { return static_cast<int>(std::clamp<std::int64_t>(v, 1, 65536)); };
  update_plans(clamp_size(shape.M), clamp_size(shape.N), clamp_size(shape.K));
  const ShaderMode m = mode();
  const ModePlan& plan = plans_[static_cast<std::size_t>(m)];

  const float avail = ImGui::GetContentRegionAvail().x;
  const bool wide = avail > 44 * em;
  const float max_height = std::max(10 * em, ImGui::GetIO().DisplaySize.y * 0.42f);
  if (wide && ImGui::BeginTable("history_top", 2, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("passes", ImGuiTableColumnFlags_WidthStretch, 1.35f);
    ImGui::TableSetupColumn("layout", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    draw_passes(plan, ImGui::GetContentRegionAvail().x, max_height);
    ImGui::TableSetColumnIndex(1);
    draw_texture_layout(m, ImGui::GetContentRegionAvail().x);
    ImGui::EndTable();
  } else {
    draw_passes(plan, avail, max_height);
    draw_texture_layout(m, avail);
  }

  draw_history_table(rows);
  draw_bound_table(rows, device);
  draw_reload();
  ImGui::Dummy(ImVec2(0, em));
  ImGui::EndChild();
}

void HistoryPanel::draw_mode_picker(const AppState& state) {
  (void)state;
  section("Mode: which way of drawing C");
  const VariantDescriptor* v = find_variant("gl_shader");
  const int count = v ? static_cast<int>(v->configs.size()) : kShaderModeCount;
  mode_ = std::clamp(mode_, 0, count - 1);
  for (int i = 0; i < count; ++i) {
    const std::string name = v ? v->configs[i].name : shader_mode_name(all_shader_modes()[i]);
    char label[96];
    std::snprintf(label, sizeof label, "%d %s", i + 1, name.c_str());
    if (i > 0) {
      // Wrap when the next button would not fit (presenter mode, narrow windows).
      const float gap = ImGui::GetFontSize() * 1.2f;
      const float w = ImGui::CalcTextSize(label).x + ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
      const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
      if (ImGui::GetItemRectMax().x + gap + w < right) ImGui::SameLine(0, gap);
    }
    if (ImGui::RadioButton(label, mode_ == i)) select_mode(i);
    ShaderMode m = all_shader_modes()[std::min(i, kShaderModeCount - 1)];
    for (ShaderMode c : all_shader_modes())
      if (name == shader_mode_name(c)) m = c;
    help_tooltip((std::string(mode_year(m)) + ": " + mode_description(m)).c_str());
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", mode_description(mode()).c_str());
  ImGui::PopTextWrapPos();
}

void HistoryPanel::draw_passes(const ModePlan& plan, float width, float max_height) {
  const float em = ImGui::GetFontSize();
  const ShaderPlanSummary& L = plan.layout;
  const PassSchedule& S = plan.schedule;
  section("The passes, drawn as the quads they are");
  if (S.quads.empty() || S.chunks.empty() || L.target_width < 1 || L.target_height < 1) {
    ImGui::TextDisabled("nothing to draw at this size");
    return;
  }
  const long long total = S.total();
  const long long chunks = static_cast<long long>(S.chunks.size());
  const long long quads = static_cast<long long>(S.quads.size());
  if (pass_ > total) pass_ = -1;
  const long long shown = pass_ < 0 ? total : pass_;

  // The facts a teacher reads out.
  const int r = L.outputs_per_fragment_rows, c = L.outputs_per_fragment_cols;
  ImGui::Text("C = A·B with M = %d, N = %d, K = %d", plan.run_M, plan.run_N, plan.K);
  if (plan.smaller_example) {
    ImGui::PushStyleColor(ImGuiCol_Text, kAmber);
    ImGui::PushTextWrapPos(0);
    ImGui::Text("At this size there are %s passes (%s tiles x %lld k-chunks): too many quads to draw. "
                "Drawn: the same mode at M = %d, N = %d.",
                format_thousands(static_cast<double>(plan.run_passes)).c_str(),
                format_thousands(static_cast<double>(plan.run_passes / std::max(1LL, chunks))).c_str(), chunks, plan.M,
                plan.N);
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
  const ShaderPlanSummary& R = plan.run_layout;  // sizes at the run size (= L unless a smaller example is drawn)
  ImGui::Text("render target%s of C: %d x %d texels, %s%s", L.targets > 1 ? "s" : "", R.target_width, R.target_height,
              L.channels == 4 ? "GL_RGBA32F" : "GL_R32F", L.targets > 1 ? "" : " (one target)");
  if (L.targets > 1) {
    ImGui::SameLine();
    ImGui::TextColored(kAmber, "x %d render targets", L.targets);
    help_tooltip("One quad writes all the targets at once (multiple render targets): each fragment has 4 (or 8) "
                 "RGBA outputs, 16 (or 32) floats of C.");
  }
  ImGui::Text("each fragment computes %d x %d of C", r, c);
  ImGui::Text("%s: %s = %s quad%s per k-chunk x %lld k-chunk%s", plan.smaller_example ? "passes of the example" : "passes",
              format_thousands(static_cast<double>(total)).c_str(),
              format_thousands(static_cast<double>(quads)).c_str(), quads > 1 ? "s" : "", chunks, chunks > 1 ? "s" : "");
  help_tooltip("A pass is one draw call: a quad (viewport and scissor = its rectangle) over the target, whose "
               "fragments each add one k-chunk's partial sums. The first chunk of each quad overwrites the cleared "
               "target, the later ones are added by the blender (GL_ONE, GL_ONE).");
  const int kpu = std::max(1, L.k_per_unit);
  ImGui::TextDisabled("textures: A %d x %d, B %d x %d texels (%s)%s", R.a_width, R.a_height, R.b_width, R.b_height,
                      L.a_channels == 4 ? "RGBA32F" : "R32F",
                      kpu > 1 ? (kpu == 2 ? "; k unit = 2 k" : "; k unit = 4 k") : "");

  draw_pass_controls(plan);

  draw_pass_strip(plan, width);

  // The canvas: the target(s) in texels, scaled to fit.
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
  const ImVec2 o = ImGui::GetItemRectMin();
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 empty = ImGui::GetColorU32(ImGuiCol_FrameBg);
  const ImU32 border = ImGui::GetColorU32(ImGuiCol_Border);
  const float small = em * 0.72f;

  const long long full = std::min(quads, shown / chunks);  // quads with every chunk added
  const long long partial = shown < total ? shown % chunks : 0;  // chunks added to quad `full`
  auto rect_of = [&](const ImVec2& org, int x, int y, int w, int h) {
    return std::make_pair(ImVec2(org.x + x * scale, org.y + y * scale),
                          ImVec2(org.x + (x + w) * scale, org.y + (y + h) * scale));
  };
  auto draw_fills = [&](const ImVec2& org, int alpha) {
    dl->AddRectFilled(org, ImVec2(org.x + bw, org.y + bh), empty);
    // Completed quads, merged into row strips (tiles of one row of tiles are contiguous).
    const ImU32 done = with_alpha(chunk_color(chunks - 1, chunks), alpha);
    for (long long i = 0; i < full;) {
      const ShaderPass& q = S.quads[static_cast<std::size_t>(i)];
      int x1 = q.x + q.w;
      long long j = i + 1;
      while (j < full) {
        const ShaderPass& n = S.quads[static_cast<std::size_t>(j)];
        if (n.y != q.y || n.h != q.h || n.x != x1) break;
        x1 = n.x + n.w;
        ++j;
      }
      const auto rc = rect_of(org, q.x, q.y, x1 - q.x, q.h);
      dl->AddRectFilled(rc.first, rc.second, done);
      i = j;
    }
    if (partial > 0 && full < quads) {
      const ShaderPass& q = S.quads[static_cast<std::size_t>(full)];
      const auto rc = rect_of(org, q.x, q.y, q.w, q.h);
      dl->AddRectFilled(rc.first, rc.second, with_alpha(chunk_color(partial - 1, chunks), alpha));
    }
    dl->AddRect(org, ImVec2(org.x + bw + 1, org.y + bh + 1), border);
  };
  // Back cards first (the last target furthest back), then target 0 in front.
  for (int t = L.targets - 1; t >= 1; --t) {
    const ImVec2 org(o.x + stack * t, o.y + stack * t);
    draw_fills(org, 150);
  }
  draw_fills(o, 255);
  // Texel grid where texels are big enough to see; quad outlines where quads are.
  if (scale >= 10) {
    const ImU32 grid = with_alpha(border, 70);
    for (int x = 1; x < L.target_width; ++x) dl->AddLine(ImVec2(o.x + x * scale, o.y), ImVec2(o.x + x * scale, o.y + bh), grid);
    for (int y = 1; y < L.target_height; ++y) dl->AddLine(ImVec2(o.x, o.y + y * scale), ImVec2(o.x + bw, o.y + y * scale), grid);
  }
  if (quads > 1 && quads <= kMaxQuads) {
    float min_side = 1e9f;
    for (const ShaderPass& q : S.quads) min_side = std::min(min_side, std::min(q.w, q.h) * scale);
    if (min_side >= 4) {
      const ImU32 line = with_alpha(text, 90);
      for (const ShaderPass& q : S.quads) {
        const auto rc = rect_of(o, q.x, q.y, q.w, q.h);
        dl->AddRect(rc.first, rc.second, line);
      }
    }
  }
  // The pass just drawn (thick white) and the next one (cyan).
  if (shown < total) {
    const ShaderPass& q = S.quads[static_cast<std::size_t>(shown / chunks)];
    const auto rc = rect_of(o, q.x, q.y, q.w, q.h);
    dl->AddRect(ImVec2(rc.first.x + 1, rc.first.y + 1), ImVec2(rc.second.x - 1, rc.second.y - 1), 0xFFFFFF40, 0, 0,
                std::max(1.5f, em * 0.1f));
  }
  if (shown > 0) {
    const ShaderPass& q = S.quads[static_cast<std::size_t>((shown - 1) / chunks)];
    const auto rc = rect_of(o, q.x, q.y, q.w, q.h);
    // Two tones: readable on the dark and the light themes.
    dl->AddRect(rc.first, rc.second, 0xFF000000u, 0, 0, std::max(4.0f, em * 0.26f));
    dl->AddRect(rc.first, rc.second, 0xFFFFFFFFu, 0, 0, std::max(2.0f, em * 0.12f));
  }
  // Labels.
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s%d x %d texels", L.targets > 1 ? "target 0 (front): " : "target: ", L.target_width,
                L.target_height);
  dl->AddText(ImGui::GetFont(), small, label_pos, text, buf);
  if (L.targets > 1) {
    std::snprintf(buf, sizeof buf, "target %d", L.targets - 1);
    const ImVec2 back(o.x + stack * (L.targets - 1), o.y + stack * (L.targets - 1));
    const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(small, 1e9f, 0, buf);
    dl->AddRectFilled(ImVec2(back.x + bw - ts.x - 6, back.y + bh - ts.y - 2), ImVec2(back.x + bw, back.y + bh),
                      with_alpha(0xFF000000u, 160));
    dl->AddText(ImGui::GetFont(), small, ImVec2(back.x + bw - ts.x - 3, back.y + bh - ts.y - 1), 0xFFFFFFFFu, buf);
  }

  // Hover: what the texel under the mouse holds and how far its sum has got.
  if (hovered) {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    const int tx = static_cast<int>((mp.x - o.x) / scale), ty = static_cast<int>((mp.y - o.y) / scale);
    if (tx >= 0 && ty >= 0 && tx < L.target_width && ty < L.target_height) {
      long long qi = -1;
      for (long long i = 0; i < quads; ++i) {
        const ShaderPass& q = S.quads[static_cast<std::size_t>(i)];
        if (tx >= q.x && tx < q.x + q.w && ty >= q.y && ty < q.y + q.h) {
          qi = i;
          break;
        }
      }
      const long long added = qi < 0 ? 0 : std::clamp(shown - qi * chunks, 0LL, chunks);
      ImGui::BeginTooltip();
      ImGui::Text("texel (%d, %d): the fragment computing C rows %d..%d, columns %d..%d", tx, ty, ty * r, ty * r + r - 1,
                  tx * c, tx * c + c - 1);
      if (qi >= 0) ImGui::Text("quad %lld; k-chunks added so far: %lld of %lld", qi, added, chunks);
      ImGui::EndTooltip();
    }
  }

  // The k-chunk legend: one cell per chunk (or a ramp when there are many), the latest marked.
  const float lw = std::min(width - em, 22 * em), lh = em * 0.8f;
  const ImVec2 lp = ImGui::GetCursorScreenPos();
  const int cells = static_cast<int>(std::min<long long>(chunks, 64));
  for (int i = 0; i < cells; ++i) {
    const long long ch = chunks <= 64 ? i : i * (chunks - 1) / std::max(1, cells - 1);
    dl->AddRectFilled(ImVec2(lp.x + lw * i / cells, lp.y), ImVec2(lp.x + lw * (i + 1) / cells - (chunks <= 64 ? 1 : 0), lp.y + lh),
                      chunk_color(ch, chunks));
  }
  const long long latest = shown == 0 ? -1 : (shown < total ? (partial > 0 ? partial - 1 : chunks - 1) : chunks - 1);
  if (latest >= 0) {
    const float x = lp.x + lw * (static_cast<float>(latest) + 0.5f) / static_cast<float>(chunks);
    dl->AddTriangleFilled(ImVec2(x, lp.y + lh + 1), ImVec2(x - em * 0.3f, lp.y + lh + em * 0.45f),
                          ImVec2(x + em * 0.3f, lp.y + lh + em * 0.45f), text);
  }
  ImGui::Dummy(ImVec2(lw, lh + em * 0.5f));
  const long long k_last = std::min<long long>(plan.K, static_cast<long long>(S.chunks.back().k0 + S.chunks.back().klen) * kpu) - 1;
  ImGui::TextDisabled("colour = the latest k-chunk added: k = 0.. (dark) to ..%lld (yellow); plain background: not drawn yet",
                      k_last);
}

// The passes in drawing order around the current one, each a thumbnail of the target with its
// quad lit: done ones filled in their k-chunk's colour, the one just drawn framed in white, the
// ones to come outlined. A click sets how many passes are drawn.
void HistoryPanel::draw_pass_strip(const ModePlan& plan, float width) {
  const float em = ImGui::GetFontSize();
  const ShaderPlanSummary& L = plan.layout;
  const PassSchedule& S = plan.schedule;
  const long long total = S.total(), chunks = static_cast<long long>(S.chunks.size());
  const long long shown = pass_ < 0 ? total : std::min<long long>(pass_, total);
  const float aspect = std::clamp(static_cast<float>(L.target_width) / L.target_height, 0.5f, 3.0f);
  const float th = em * 1.6f, tw = th * aspect, gap = em * 0.3f;
  const int per_row = std::max(1, static_cast<int>((width - em * 0.5f + gap) / (tw + gap)));
  const long long count = std::min<long long>(total, per_row * 2LL);
  const long long first = std::clamp<long long>(shown - count / 2, 0, total - count);
  const int rows = count > per_row ? 2 : 1;
  if (count < total)
    ImGui::TextDisabled("passes %lld..%lld of %s, in drawing order (click one to stop there):", first + 1, first + count,
                        format_thousands(static_cast<double>(total)).c_str());
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
    const ImVec2 a(o.x + static_cast<float>(slot % per_row) * (tw + gap), o.y + static_cast<float>(slot / per_row) * (th + gap));
    const ImVec2 b(a.x + tw, a.y + th);
    dl->AddRectFilled(a, b, bg);
    const ShaderPass p = S.pass(i);
    // At least 2 pixels, so a small tile stays visible on a thumbnail.
    ImVec2 qa(a.x + p.x * sx, a.y + p.y * sy), qb(a.x + (p.x + p.w) * sx, a.y + (p.y + p.h) * sy);
    qb.x = std::max(qb.x, qa.x + 2), qb.y = std::max(qb.y, qa.y + 2);
    if (i < shown) dl->AddRectFilled(qa, qb, chunk_color(i % chunks, chunks));
    else dl->AddRect(qa, qb, with_alpha(text, 160));
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
  const PassSchedule& S = plan.schedule;
  const long long total = S.total();
  const int total_i = static_cast<int>(std::min<long long>(total, 1 << 30));
  if (speed_for_mode_ != static_cast<int>(plan.mode) || speed_for_passes_ != total || speed_ <= 0) {
    speed_ = static_cast<float>(std::clamp(static_cast<double>(total) / 12.0, 1.0, 100000.0));  // ~12 s for all
    speed_for_mode_ = static_cast<int>(plan.mode);
    speed_for_passes_ = total;
  }
  // Keys while the tab is shown: space plays, arrows step.
  if (!ImGui::GetIO().WantTextInput) {
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) {
      if (!playing_ && (pass_ < 0 || pass_ >= total_i)) pass_ = 0;
      playing_ = !playing_;
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT)) pass_ = pass_ < 0 ? -1 : (pass_ + 1 >= total_i ? -1 : pass_ + 1), playing_ = false;
    if (ImGui::IsKeyPressed(GLFW_KEY_LEFT)) pass_ = std::max(0, (pass_ < 0 ? total_i : pass_) - 1), playing_ = false;
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
  if (ImGui::SliderInt("##pass", &shown, 0, total_i, "passes drawn: %d")) pass_ = shown >= total_i ? -1 : shown, playing_ = false;
  help_tooltip("How many passes (draw calls) have been drawn. Drag to step through them.");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(7 * em);
  ImGui::SliderFloat("##speed", &speed_, 1.0f, 100000.0f, "%.0f passes/s", ImGuiSliderFlags_Logarithmic);
  help_tooltip("Play speed, in passes per second.");

  // What the last pass drawn did.
  const int kpu = std::max(1, plan.layout.k_per_unit);
  shown = pass_ < 0 ? total_i : pass_;
  ImGui::PushTextWrapPos(0);
  if (shown == 0) {
    ImGui::TextUnformatted("Nothing drawn yet: the targets are cleared (to NaN, the poison a missed texel would keep).");
  } else {
    const ShaderPass p = S.pass(shown - 1);
    const long long k0 = static_cast<long long>(p.k0) * kpu;
    const long long k1 = std::min<long long>(plan.K, static_cast<long long>(p.k0 + p.klen) * kpu) - 1;
    const long long chunk_index = (shown - 1) % static_cast<long long>(S.chunks.size());
    const int outputs = plan.layout.outputs_per_fragment_rows * plan.layout.outputs_per_fragment_cols;
    ImGui::Text("Pass %d of %lld: quad at (%d, %d), %d x %d texels, k = %lld..%lld (k-chunk %lld): every fragment in it "
                "adds %lld products to %s%s.",
                shown, total, p.x, p.y, p.w, p.h, k0, k1, chunk_index + 1, k1 - k0 + 1,
                outputs == 1 ? "its one output" : ("each of its " + std::to_string(outputs) + " outputs").c_str(),
                chunk_index == 0 ? " (the first chunk overwrites the cleared texels)" : " (the blender adds them)");
  }
  ImGui::PopTextWrapPos();
}

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
  const ShaderPlanSummary ex = describe_shader_plan(mode, kSide, kSide, kSide);
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

void HistoryPanel::draw_history_table(const std::vector<RunResult>& rows) {
  const float em = ImGui::GetFontSize();
  section("Then and now: matrix multiplication by drawing");
  struct Row {
    std::string year, gpu, method, speed;
    double gflops;  // 0: no bar (not a float rate)
    bool ours;
    std::string note;
  };
  std::vector<Row> table = {
      {"2001", "GeForce3", "Larsen & McAllister: textures + blending, one pass per k", "\"4.4 GB ops\"", 0, false,
       "8-bit fixed point, not floats: no bar"},
      {"2004", "GeForce 6800 Ultra", "blocked passes (Govindaraju et al. 2006)", "8 GFLOP/s", 8, false, ""},
      {"2006", "GeForce 7900 GTX", "blocked passes (Govindaraju et al. 2006)", "17.6 GFLOP/s, 40 GB/s", 17.6, false, ""},
      {"2007", "CUDA (G80) / CTM (R580)", "shared memory (CUDA); fetch4 + deeper unrolling (CTM)", "~100 GFLOP/s", 100,
       false, ""},
  };
  int measured = 0;
  for (ShaderMode m : all_shader_modes()) {
    const RunResult* r = best_shader_row(rows, shader_mode_name(m));
    if (!r) continue;
    ++measured;
    table.push_back({"now", r->device_name.empty() ? "this machine" : r->device_name,
                     std::string("this app: ") + shader_mode_name(m) + ", " + size_text(r->shape),
                     format_gflops(r->gflops) + " GFLOP/s", r->gflops, true, ""});
  }
  double vmax = 100;
  for (const Row& r : table) vmax = std::max(vmax, r.gflops);
  const double log_max = std::log10(vmax * 1.3);
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  const float bar_w = std::min(11 * em, ImGui::GetContentRegionAvail().x * 0.2f);
  if (ImGui::BeginTable("history_figures", 5, flags)) {
    ImGui::TableSetupColumn("year", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("2001 ").x);
    ImGui::TableSetupColumn("GPU", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("how", ImGuiTableColumnFlags_WidthStretch, 1.6f);
    ImGui::TableSetupColumn("speed", ImGuiTableColumnFlags_WidthStretch, 0.8f);
    ImGui::TableSetupColumn("GFLOP/s", ImGuiTableColumnFlags_WidthFixed, bar_w);
    ImGui::TableHeadersRow();
    for (const Row& r : table) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      if (r.ours) ImGui::TextColored(kAmber, "%s", r.year.c_str());
      else ImGui::TextUnformatted(r.year.c_str());
      ImGui::PushTextWrapPos(0);
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(r.gpu.c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(r.method.c_str());
      ImGui::TableSetColumnIndex(3);
      ImGui::TextUnformatted(r.speed.c_str());
      ImGui::PopTextWrapPos();
      if (!r.note.empty()) help_tooltip(r.note.c_str());
      ImGui::TableSetColumnIndex(4);
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetTextLineHeight();
      if (r.gflops > 0) {
        const float len = static_cast<float>(std::max(0.02, std::log10(std::max(1.0, r.gflops)) / log_max)) * w;
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + h * 0.15f), ImVec2(p.x + len, p.y + h * 0.85f),
                                                  r.ours ? IM_COL32(240, 170, 60, 255) : IM_COL32(110, 150, 210, 255));
        ImGui::Dummy(ImVec2(w, h));
      } else {
        ImGui::TextDisabled("(8-bit)");
      }
    }
    if (measured == 0) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextColored(kAmber, "now");
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted("this machine");
      ImGui::TableSetColumnIndex(2);
      ImGui::PushTextWrapPos(0);
      ImGui::TextColored(kAmber, "not measured yet: tick Texture shaders and press Run");
      ImGui::PopTextWrapPos();
    }
    ImGui::EndTable();
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("Historical figures: course slides on GPU matrix multiplication (Larsen & McAllister 2001; "
                      "Govindaraju et al. 2006). Bars: 1 to %s GFLOP/s, logarithmic.",
                      format_gflops(std::pow(10.0, log_max)).c_str());
  ImGui::PopTextWrapPos();
}

void HistoryPanel::draw_bound_table(const std::vector<RunResult>& rows, const DeviceInfo& device) {
  const float em = ImGui::GetFontSize();
  section("Why fragment shaders are slow on a compute GPU, and what bounds them");
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(
      "On an H100 (132 SMs) the graphics pipeline ran the fragment work on 4 SMs only: a probe reading gl_SMIDNV in "
      "the fragment shader saw SMs 12, 13, 60 and 61, while GL compute shaders used all 132 (2 to 6.9 TFLOP/s, "
      "against 60 to 670 GFLOP/s for these fragment shaders). On those 4 SMs the fast modes are bound by texture "
      "fetches: each SM issues about 4 RGBA32F texel fetches per clock, so");
  ImGui::PopTextWrapPos();
  ImGui::Indent(em);
  ImGui::TextColored(kAmber, "speed = 4 SMs x 4 fetches/clock x clock x flops per fetched texel");
  ImGui::Unindent(em);
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(
      "the argument Fatahalian et al. made in 2004. A fragment shader's only lever is how many outputs it computes "
      "from what it fetched: 2 x 2 packing, then 4 x 4 and 4 x 8 blocks over several render targets. (The 4-of-132 "
      "and fetch-rate figures are from probes on an H100; other GPUs differ.)");
  ImGui::PopTextWrapPos();

  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  std::string clocks, other_renderer;
  bool any_r32 = false;
  if (ImGui::BeginTable("fetch_bound", 7, flags)) {
    // Short headers (presenter mode); each says more in its tooltip.
    static const char* kHeaders[7] = {"mode", "outputs per fragment", "texels per FMA", "flops per texel",
                                      "fetch bound GFLOP/s", "measured GFLOP/s", "% of bound"};
    static const char* kTips[7] = {
        "The gl_shader configuration.",
        "The block of C one fragment computes (rows x columns).",
        "Texels fetched per useful multiply-add: counted from the measured run's passes, or from the plan at the "
        "current size when nothing is measured yet.",
        "2 / (texels per FMA): the floating-point operations each fetched texel feeds.",
        "4 SMs x 4 RGBA32F fetches per clock x clock x flops per texel: what the texture units allow.",
        "The fastest measured run of this configuration (float, verified when checked), with its size.",
        "Measured / fetch bound."};
    const float weights[7] = {1.1f, 0.9f, 1.5f, 0.8f, 1.0f, 1.4f, 0.7f};
    for (int i = 0; i < 7; ++i) ImGui::TableSetupColumn(kHeaders[i], ImGuiTableColumnFlags_WidthStretch, weights[i]);
    // Headers that wrap instead of being cut.
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int i = 0; i < 7; ++i) {
      ImGui::TableSetColumnIndex(i);
      ImGui::PushTextWrapPos(0);
      ImGui::TextUnformatted(kHeaders[i]);
      ImGui::PopTextWrapPos();
      help_tooltip(kTips[i]);
    }
    for (std::size_t i = 0; i < plans_.size(); ++i) {
      const ModePlan& p = plans_[i];
      const RunResult* r = best_shader_row(rows, shader_mode_name(p.mode));
      const bool counted = r && r->fetches_per_fma > 0;
      const double fpf = counted ? r->fetches_per_fma : p.fetches_per_fma;
      const BoundClock clock = fetch_bound_clock(r, device);
      const double bound = fetch_bound_gflops(fpf, clock.mhz);
      const bool r32 = p.layout.a_channels == 1;
      any_r32 = any_r32 || r32;
      char cbuf[64];
      std::snprintf(cbuf, sizeof cbuf, "%.0f MHz (%s)", clock.mhz, clock.source);
      if (clocks.find(cbuf) == std::string::npos) clocks += (clocks.empty() ? "" : ", ") + std::string(cbuf);

      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      if (p.mode == mode()) ImGui::TextColored(kAmber, "%s", shader_mode_name(p.mode));
      else ImGui::TextUnformatted(shader_mode_name(p.mode));
      ImGui::TableSetColumnIndex(1);
      ImGui::Text("%d x %d", p.layout.outputs_per_fragment_rows, p.layout.outputs_per_fragment_cols);
      ImGui::TableSetColumnIndex(2);
      ImGui::Text("%.4g", fpf);
      ImGui::SameLine();
      ImGui::TextDisabled("%s", counted ? "counted" : "plan");
      help_tooltip(counted ? "Counted from the passes the measured run drew (its row's fetches per FMA)."
                           : "From the plan of this mode at the current size (describe_shader_plan): no measured row yet.");
      ImGui::TableSetColumnIndex(3);
      ImGui::Text("%.3g", fpf > 0 ? 2.0 / fpf : 0.0);
      ImGui::TableSetColumnIndex(4);
      ImGui::Text("%s%s", format_gflops(bound).c_str(), r32 ? " *" : "");
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::Text("%d SMs x %.0f fetches/clock x %.0f MHz (%s) x %.3g flops per fetch = %s GFLOP/s", kFragmentSms,
                    kFetchesPerClockPerSm, clock.mhz, clock.source, fpf > 0 ? 2.0 / fpf : 0.0,
                    format_gflops(bound).c_str());
        ImGui::EndTooltip();
      }
      ImGui::TableSetColumnIndex(5);
      if (r) {
        ImGui::Text("%s", format_gflops(r->gflops).c_str());
        ImGui::SameLine();
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled("%s", size_text(r->shape).c_str());
        ImGui::PopTextWrapPos();
      } else {
        ImGui::TextDisabled("not measured");
      }
      ImGui::TableSetColumnIndex(6);
      if (r && bound > 0) {
        // The bound is an NVIDIA figure (the H100 probe); on a CPU renderer (llvmpipe) or another
        // vendor's GPU it says nothing, so the ratio is shown greyed with the reason.
        const bool nvidia = r->device_name.find("NVIDIA") != std::string::npos;
        if (nvidia) {
          ImGui::Text("%.0f%%", 100.0 * r->gflops / bound);
        } else {
          ImGui::TextDisabled("(%.0f%%)", 100.0 * r->gflops / bound);
          other_renderer = r->device_name.empty() ? "an unnamed renderer" : r->device_name;
        }
      } else {
        ImGui::TextDisabled("-");
      }
    }
    ImGui::EndTable();
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("Clock: %s. \"counted\": from the measured run's passes; \"plan\": the passes this mode would "
                      "draw at the current size (nothing measured yet).",
                      clocks.c_str());
  if (!other_renderer.empty())
    ImGui::TextDisabled("(%%) in brackets: measured on %s, not an NVIDIA GPU: the H100 probe's fetch bound does not "
                        "apply to it.",
                        other_renderer.c_str());
  if (any_r32)
    ImGui::TextDisabled("* The 4-per-clock rate was measured for RGBA32F texels. The one-float (R32F) modes are not held to "
                        "it: the H100 probe measured 60 to 63 GFLOP/s for one scalar fetch pair per k, about twice this figure.");
  ImGui::PopTextWrapPos();
}

void HistoryPanel::draw_reload() {
  section("Edit a shader, then reload");
  if (ImGui::Button("Reload shaders")) reload_shaders();
  help_tooltip("Recompiles every shader in the folder below, here (errors show at once), and tells the timing thread "
               "to reload before its next run, so the next Run times your edited shader.");
  ImGui::SameLine();
  ImGui::TextDisabled("edit a .frag there and press Reload");
  const std::string dir = ShaderLibrary::default_directory();
  ImGui::TextUnformatted("Shader folder:");
  ImGui::SameLine();
  {
    std::string buf = dir;
    ImGui::SetNextItemWidth(-1);
    ImGui::InputText("##shader_dir", buf.data(), buf.size() + 1, ImGuiInputTextFlags_ReadOnly);
  }
  if (reloaded_) {
    if (reload_log_.empty()) {
      ImGui::TextColored(kGreen, "all %d shaders compiled (in %s)", kShaderModeCount, reload_dir_.c_str());
    } else {
      ImGui::TextColored(kRed, "some shaders failed to compile (the log can be selected and copied):");
      int lines = 1;
      for (char ch : reload_log_) lines += ch == '\n';
      copyable_text("##reload_log", reload_log_, static_cast<float>(std::clamp(lines, 3, 14)), IM_COL32(255, 110, 100, 255));
    }
  }
  const GlShaderThreadInfo info = gl_shader_thread_info();
  if (info.loads > 0) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("Timing context: %s; shaders loaded %d time%s from %s%s", info.renderer.c_str(), info.loads,
                        info.loads == 1 ? "" : "s", info.shader_dir.c_str(),
                        info.load_log.empty() ? " (all compiled)." : ".");
    ImGui::PopTextWrapPos();
    if (!info.load_log.empty()) {
      ImGui::TextColored(kRed, "the timing thread's last load failed:");
      copyable_text("##thread_log", info.load_log, 4, IM_COL32(255, 110, 100, 255));
    }
  }
}

std::string HistoryPanel::reload_shaders() {
  request_shader_reload();
  std::string log;
  reload_dir_ = ShaderLibrary::default_directory();
  {
    // Compiled in the current (window's) context and destroyed before returning, while it is current.
    ShaderLibrary library(reload_dir_);
    if (!library.reload(&log) && log.empty()) log = "the shaders in " + reload_dir_ + " failed to load";
  }
  reload_log_ = log;
  reloaded_ = true;
  return log;
}

}  // namespace tilescope
