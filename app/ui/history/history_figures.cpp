// The History tab, part 3: the figures then and now, and the texture-fetch bound per mode.
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

// One row of the then-and-now table.
struct FigureRow {
  std::string year, gpu, method, speed;
  double gflops;  // 0: no bar (not a float rate)
  bool ours;
  std::string note;
};

// The historical figures, oldest first.
std::vector<FigureRow> historical_rows() {
  return {
      {"2001", "GeForce3", "Larsen & McAllister: textures + blending, one pass per k", "\"4.4 GB ops\"", 0, false,
       "8-bit fixed point, not floats: no bar"},
      {"2004", "GeForce 6800 Ultra", "blocked passes (Govindaraju et al. 2006)", "8 GFLOP/s", 8, false, ""},
      {"2006", "GeForce 7900 GTX", "blocked passes (Govindaraju et al. 2006)", "17.6 GFLOP/s, 40 GB/s", 17.6, false,
       ""},
      {"2007", "CUDA (G80) / CTM (R580)", "shared memory (CUDA); fetch4 + deeper unrolling (CTM)", "~100 GFLOP/s", 100,
       false, ""},
  };
}

void setup_figure_columns(float bar_w) {
  ImGui::TableSetupColumn("year", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("2001 ").x);
  ImGui::TableSetupColumn("GPU", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("how", ImGuiTableColumnFlags_WidthStretch, 1.6f);
  ImGui::TableSetupColumn("speed", ImGuiTableColumnFlags_WidthStretch, 0.8f);
  ImGui::TableSetupColumn("GFLOP/s", ImGuiTableColumnFlags_WidthFixed, bar_w);
  ImGui::TableHeadersRow();
}

// One row: the words, then a bar on a log scale up to 10^log_max (or "(8-bit)" where no float rate).
void draw_figure_row(const FigureRow& r, double log_max) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  if (r.ours)
    ImGui::TextColored(kAmber, "%s", r.year.c_str());
  else
    ImGui::TextUnformatted(r.year.c_str());
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

// The "now" row while this machine has no measured texture-shader run.
void draw_unmeasured_row() {
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

// The argument, in words, above the bound table.
void draw_bound_intro(float em) {
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
}

// The bound table's columns, with short headers (presenter mode) that wrap instead of being
// cut, each saying more in its tooltip.
void setup_bound_columns() {
  static const char* kHeaders[7] = {"mode",
                                    "outputs per fragment",
                                    "texels per FMA",
                                    "flops per texel",
                                    "fetch bound GFLOP/s",
                                    "measured GFLOP/s",
                                    "% of bound"};
  static const char* kTips[7] = {
      "The texture shaders' configuration.",
      "The block of C one fragment computes (rows x columns).",
      "Texels fetched per useful multiply-add: counted from the measured run's passes, or from the plan at the "
      "current size when nothing is measured yet.",
      "2 / (texels per FMA): the floating-point operations each fetched texel feeds.",
      "4 SMs x 4 RGBA32F fetches per clock x clock x flops per texel: what the texture units allow.",
      "The fastest measured run of this configuration (float, verified when checked), with its size.",
      "Measured / fetch bound."};
  const float weights[7] = {1.1f, 0.9f, 1.5f, 0.8f, 1.0f, 1.4f, 0.7f};
  for (int i = 0; i < 7; ++i) ImGui::TableSetupColumn(kHeaders[i], ImGuiTableColumnFlags_WidthStretch, weights[i]);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int i = 0; i < 7; ++i) {
    ImGui::TableSetColumnIndex(i);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(kHeaders[i]);
    ImGui::PopTextWrapPos();
    help_tooltip(kTips[i]);
  }
}

// What one mode's row of the bound table shows.
struct BoundRow {
  const std::string* name;
  bool current;            // the mode drawn above: its name in amber
  int out_rows, out_cols;  // outputs per fragment
  const RunResult* r;      // its fastest measured run, or null
  bool counted;            // fpf counted from r's passes (else from the plan)
  double fpf;              // texels fetched per FMA
  BoundClock clock;
  double bound;  // GFLOP/s
  bool r32;      // one float per texel: the bound marked *
};

// Columns 0-4: the mode, its block, its fetches and the bound they give.
void draw_bound_cells(const BoundRow& b) {
  ImGui::TableSetColumnIndex(0);
  if (b.current)
    ImGui::TextColored(kAmber, "%s", b.name->c_str());
  else
    ImGui::TextUnformatted(b.name->c_str());
  ImGui::TableSetColumnIndex(1);
  ImGui::Text("%d x %d", b.out_rows, b.out_cols);
  ImGui::TableSetColumnIndex(2);
  ImGui::Text("%.4g", b.fpf);
  ImGui::SameLine();
  ImGui::TextDisabled("%s", b.counted ? "counted" : "plan");
  help_tooltip(b.counted
                   ? "Counted from the passes the measured run drew (its row's fetches per FMA)."
                   : "From the plan of this mode at the current size (describe_shader_layout): no measured row yet.");
  ImGui::TableSetColumnIndex(3);
  ImGui::Text("%.3g", b.fpf > 0 ? 2.0 / b.fpf : 0.0);
  ImGui::TableSetColumnIndex(4);
  ImGui::Text("%s%s", format_gflops(b.bound).c_str(), b.r32 ? " *" : "");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::Text("%d SMs x %.0f fetches/clock x %.0f MHz (%s) x %.3g flops per fetch = %s GFLOP/s", kFragmentSms,
                kFetchesPerClockPerSm, b.clock.mhz, b.clock.source, b.fpf > 0 ? 2.0 / b.fpf : 0.0,
                format_gflops(b.bound).c_str());
    ImGui::EndTooltip();
  }
}

// Columns 5-6: the measured speed and its share of the bound. A run on another renderer than an
// NVIDIA GPU sets *other_renderer to its name.
void draw_measured_cells(const BoundRow& b, std::string* other_renderer) {
  const RunResult* r = b.r;
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
  if (r && b.bound > 0) {
    // The bound is an NVIDIA figure (the H100 probe); on a CPU renderer (llvmpipe) or another
    // vendor's GPU it says nothing, so the ratio is shown greyed with the reason.
    const bool nvidia = r->device_name.find("NVIDIA") != std::string::npos;
    if (nvidia) {
      ImGui::Text("%.0f%%", 100.0 * r->gflops / b.bound);
    } else {
      ImGui::TextDisabled("(%.0f%%)", 100.0 * r->gflops / b.bound);
      *other_renderer = r->device_name.empty() ? "an unnamed renderer" : r->device_name;
    }
  } else {
    ImGui::TextDisabled("-");
  }
}

// The notes under the bound table: the clocks used, and the caveats that apply.
void draw_bound_notes(const std::string& clocks, const std::string& other_renderer, bool any_r32) {
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled(
      "Clock: %s. \"counted\": from the measured run's passes; \"plan\": the passes this mode would "
      "draw at the current size (nothing measured yet).",
      clocks.c_str());
  if (!other_renderer.empty())
    ImGui::TextDisabled(
        "(%%) in brackets: measured on %s, not an NVIDIA GPU: the H100 probe's fetch bound does not "
        "apply to it.",
        other_renderer.c_str());
  if (any_r32)
    ImGui::TextDisabled(
        "* The 4-per-clock rate was measured for RGBA32F texels. The one-float (R32F) modes are not held to "
        "it: the H100 probe measured 60 to 63 GFLOP/s for one scalar fetch pair per k, about twice this figure.");
  ImGui::PopTextWrapPos();
}

// Adds "<MHz> MHz (<source>)" to the comma-separated list `clocks` unless it is there already.
void note_clock(const BoundClock& clock, std::string* clocks) {
  char cbuf[64];
  std::snprintf(cbuf, sizeof cbuf, "%.0f MHz (%s)", clock.mhz, clock.source);
  if (clocks->find(cbuf) == std::string::npos) *clocks += (clocks->empty() ? "" : ", ") + std::string(cbuf);
}

}  // namespace

void HistoryPanel::draw_history_table(const std::vector<RunResult>& rows) {
  const float em = ImGui::GetFontSize();
  section("Then and now: matrix multiplication by drawing");
  std::vector<FigureRow> table = historical_rows();
  int measured = 0;
  for (const ModePlan& p : plans_) {
    const RunResult* r = best_shader_row(rows, p.name);
    if (!r) continue;
    ++measured;
    table.push_back({"now", r->device_name.empty() ? "this machine" : r->device_name,
                     std::string("this app: ") + p.name + ", " + size_text(r->shape),
                     format_gflops(r->gflops) + " GFLOP/s", r->gflops, true, ""});
  }
  double vmax = 100;
  for (const FigureRow& r : table) vmax = std::max(vmax, r.gflops);
  const double log_max = std::log10(vmax * 1.3);
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  const float bar_w = std::min(11 * em, ImGui::GetContentRegionAvail().x * 0.2f);
  if (ImGui::BeginTable("history_figures", 5, flags)) {
    setup_figure_columns(bar_w);
    for (const FigureRow& r : table) draw_figure_row(r, log_max);
    if (measured == 0) draw_unmeasured_row();
    ImGui::EndTable();
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled(
      "Historical figures: course slides on GPU matrix multiplication (Larsen & McAllister 2001; "
      "Govindaraju et al. 2006). Bars: 1 to %s GFLOP/s, logarithmic.",
      format_gflops(std::pow(10.0, log_max)).c_str());
  ImGui::PopTextWrapPos();
}

void HistoryPanel::draw_bound_table(const std::vector<RunResult>& rows, const DeviceInfo& device) {
  section("Why fragment shaders are slow on a compute GPU, and what bounds them");
  draw_bound_intro(ImGui::GetFontSize());
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  std::string clocks, other_renderer;
  bool any_r32 = false;
  if (ImGui::BeginTable("fetch_bound", 7, flags)) {
    setup_bound_columns();
    for (const ModePlan& p : plans_) {
      BoundRow b;
      b.name = &p.name;
      b.current = p.mode == mode();
      b.out_rows = p.layout.outputs_per_fragment_rows, b.out_cols = p.layout.outputs_per_fragment_cols;
      b.r = best_shader_row(rows, p.name);
      b.counted = b.r && b.r->fetches_per_fma > 0;
      b.fpf = b.counted ? b.r->fetches_per_fma : p.run_layout.fetches_per_fma;
      b.clock = fetch_bound_clock(b.r, device);
      b.bound = fetch_bound_gflops(b.fpf, b.clock.mhz);
      b.r32 = p.layout.a_channels == 1;
      any_r32 = any_r32 || b.r32;
      note_clock(b.clock, &clocks);
      ImGui::TableNextRow();
      draw_bound_cells(b);
      draw_measured_cells(b, &other_renderer);
    }
    ImGui::EndTable();
  }
  draw_bound_notes(clocks, other_renderer, any_r32);
}

}  // namespace tilescope
