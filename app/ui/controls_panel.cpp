// The left panel: what to run (the lesson's variants and their configurations), on which
// problem, precision and sizes, and the Run / Sweep / Live / Cancel buttons with progress.
#include "ui/controls_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "registry.h"
#include "ui/app.h"
#include "ui/widgets.h"

namespace tilescope {

namespace {

bool int_input(const char* label, int* v, int lo, int hi, const char* help) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  const bool changed = ImGui::InputInt(label, v, 0, 0);
  *v = std::clamp(*v, lo, hi);
  help_tooltip(help);
  return changed;
}

// The variants of the registry that compute `p`, for the input type's tooltip.
std::string variants_running(Precision p) {
  std::string out;
  for (const VariantDescriptor* v : variant_registry())
    if (supports(*v, p)) out += (out.empty() ? "" : ", ") + std::string(v->label);
  return out.empty() ? "none" : out;
}

// The input type: a combo of every type of gemm_types.h's table, each with what it is, how it
// accumulates and which variants run it. Variants that do not are greyed in the lesson table.
void draw_precision_choice(AppState& state) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
  if (ImGui::BeginCombo("input type", precision_facts(state.precision).label)) {
    for (Precision p : all_precisions()) {
      const PrecisionFacts& f = precision_facts(p);
      if (ImGui::Selectable(f.label, p == state.precision)) state.precision = p;
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
        ImGui::Text("%s (%s)", f.label, f.name);
        ImGui::TextUnformatted(f.description);
        ImGui::TextDisabled("Runs it: %s", variants_running(p).c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
    }
    ImGui::EndCombo();
  }
  help_tooltip(
      "The type of A and B. Every type but double accumulates in FP32 and writes C in float; double in FP64. "
      "The check's tolerance follows the type's unit roundoff, and % of cuBLAS compares runs of the same type.");
}

}  // namespace

std::string lesson_row_refusal(const AppState& state, const LessonEntry& e) {
  const VariantDescriptor* v = find_variant(e.variant_id);
  if (!v) return "no variant " + e.variant_id + " in this build";
  return variant_refusal(*v, e.config_index, state.problem, state.precision);
}

void ControlsPanel::draw(TabContext& ctx) {
  AppState& state = ctx.state;
  const Runner& runner = ctx.runner;
  const DeviceInfo& dev = ctx.device;
  if (!runner.gpu()) {
    const std::string why = dev.ok() ? "the GPU is switched off for this session" : dev.unavailable_reason;
    banner("No usable GPU: " + why +
           ". The CUDA variants cannot run here. What still works: Run and Sweep time the CPU "
           "reference (double precision) for sizes up to 512, and the texture shaders (OpenGL) "
           "when ticked; the Mapping tab draws every variant from its model; the History tab runs.");
  } else {
    ImGui::TextDisabled("%s  |  %d SMs  |  FP32 peak %.1f TFLOP/s", dev.name.c_str(), dev.sm_count,
                        dev.peak_fp32_gflops / 1000);
  }

  section("Problem");
  int problem = state.problem == Problem::Gemm ? 0 : 1;
  ImGui::RadioButton("C = A·B", &problem, 0);
  help_tooltip("The general matrix product: C (M x N) = A (M x K) times B (K x N).");
  ImGui::SameLine();
  ImGui::RadioButton("C = AᵀA", &problem, 1);
  help_tooltip(
      "The seed project's problem: A transposed times A. C is symmetric, so a clever kernel "
      "computes only the upper triangle and mirrors it.");
  state.problem = problem == 0 ? Problem::Gemm : Problem::Ata;

  draw_precision_choice(state);

  section("Sizes");
  if (state.problem == Problem::Gemm) {
    ImGui::Checkbox("square (M = N = K)", &state.square);
    help_tooltip("One size for all three dimensions; untick to make A and B rectangular.");
  }
  const int max_size = runner.gpu() ? 65536 : static_cast<int>(Runner::kCpuMaxSize);
  if (state.problem == Problem::Ata) {
    int_input("N (columns of A)", &state.n, 1, max_size, "C = AᵀA is N x N.");
    if (state.square) state.k = state.n;
    int_input("K (rows of A)", &state.k, 1, max_size, "The length of every dot product.");
    state.square = state.k == state.n;
  } else if (state.square) {
    int_input("N", &state.n, 1, max_size, "M = N = K: C is N x N and every dot product has N terms.");
  } else {
    int_input("M (rows of C)", &state.m, 1, max_size, "Rows of A and of C.");
    int_input("N (columns of C)", &state.n, 1, max_size, "Columns of B and of C.");
    int_input("K (inner size)", &state.k, 1, max_size, "Columns of A, rows of B: the length of every dot product.");
  }
  int_input("repetitions", &state.repetitions, 1, 1000,
            "How many timed runs the median is taken over; more runs, steadier numbers.");
  ImGui::Checkbox("verify", &state.verify);
  help_tooltip(
      "Check every result against a double-precision reference (relative error), and catch "
      "elements the kernel never wrote.");

  section("Variants");
  draw_lesson_table(ctx);

  section("Run");
  draw_run_buttons(ctx);
  draw_progress(ctx);

  draw_focused_variant(ctx);
}

// Below the buttons, the story of the focused variant: what it does and what its chosen
// configuration means, so a student can predict before pressing Run.
void ControlsPanel::draw_focused_variant(TabContext& ctx) {
  AppState& state = ctx.state;
  if (state.focused < 0 || state.focused >= static_cast<int>(state.lesson.size())) return;
  const LessonEntry& e = state.lesson[state.focused];
  const VariantDescriptor* v = find_variant(e.variant_id);
  if (!v) return;
  section(v->label);
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(v->summary);
  const TileConfig& cfg = v->configs[e.config_index];
  if (v->backend == Backend::GlShader) {
    ImGui::TextDisabled(
        "%s: each fragment (one pixel of the render target) computes a %d x %d block of C. "
        "The History tab draws its passes and explains what bounds it.",
        cfg.name.c_str(), cfg.bm, cfg.bn);
  } else if (cfg.warp_m > 0 && cfg.group_warps > 1) {
    const int groups = (cfg.bm / cfg.warp_m) * (cfg.bn / cfg.warp_n);
    ImGui::TextDisabled(
        "%s: each block of %d warps computes a %d x %d tile of C, %d k at a time; %d warpgroup(s) of %d warps "
        "multiply, each keeping a %d x %d tile in its registers, while the others copy (%d stages of shared "
        "memory)%s.",
        cfg.name.c_str(), cfg.threads_y, cfg.bm, cfg.bn, cfg.bk, groups, cfg.group_warps, cfg.warp_m, cfg.warp_n,
        std::max(cfg.stages, 1), cfg.cluster_m > 1 ? "; blocks run in clusters that share each slab of B" : "");
  } else if (cfg.warp_m > 0) {
    ImGui::TextDisabled(
        "%s: each block of %d warps computes a %d x %d tile of C, %d k at a time; each warp keeps a %d x %d "
        "tile in tensor-core fragments (%d stages of shared memory in flight).",
        cfg.name.c_str(), cfg.threads_y, cfg.bm, cfg.bn, cfg.bk, cfg.warp_m, cfg.warp_n, std::max(cfg.stages, 1));
  } else if (cfg.bm > 0 && cfg.bk > 0 && cfg.tm * cfg.tn > 1) {
    ImGui::TextDisabled(
        "%s: each block of %d threads computes a %d x %d tile of C, %d k at a time; each thread "
        "keeps %d x %d results in registers.",
        cfg.name.c_str(), cfg.threads(), cfg.bm, cfg.bn, cfg.bk, cfg.tm, cfg.tn);
  } else if (cfg.bm > 0) {
    ImGui::TextDisabled("%s: blocks of %d x %d threads, one element of C each.", cfg.name.c_str(), cfg.threads_x,
                        cfg.threads_y);
  }
  ImGui::TextDisabled("arithmetic: %s", cfg.math);
  ImGui::PopTextWrapPos();
}

void ControlsPanel::draw_lesson_table(TabContext& ctx) {
  AppState& state = ctx.state;
  const Runner& runner = ctx.runner;
  const DeviceInfo& dev = ctx.device;
  const ImGuiTableFlags flags = ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg;
  if (!ImGui::BeginTable("lesson", 3, flags)) return;
  ImGui::TableSetupColumn("use", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("variant", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("configuration", ImGuiTableColumnFlags_WidthStretch, 1.3f);
  for (std::size_t i = 0; i < state.lesson.size(); ++i) {
    LessonEntry& e = state.lesson[i];
    const VariantDescriptor* v = find_variant(e.variant_id);
    if (!v) continue;
    ImGui::PushID(static_cast<int>(i));
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::BeginDisabled(!runner.gpu() && needs_cuda(*v));
    ImGui::Checkbox("##use", &e.enabled);
    ImGui::EndDisabled();
    help_tooltip("Take part in Run and Sweep.");
    ImGui::TableNextColumn();
    // Greyed while it cannot compute the chosen problem and input type (still focusable).
    const std::string refused = lesson_row_refusal(state, e);
    if (!refused.empty()) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    if (ImGui::Selectable(v->label, state.focused == static_cast<int>(i),
                          ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap))
      state.focused = static_cast<int>(i);
    if (!refused.empty()) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
      ImGui::TextUnformatted(v->summary);
      if (!refused.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "not with this choice: %s", refused.c_str());
      ImGui::TextDisabled("Click to focus it: Live re-runs the focused variant.");
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    ImGui::TableNextColumn();
    ImGui::SetNextItemWidth(-1);
    const TileConfig& current = v->configs[e.config_index];
    if (ImGui::BeginCombo("##config", current.name.c_str())) {
      for (std::size_t c = 0; c < v->configs.size(); ++c) {
        const TileConfig& cfg = v->configs[c];
        const std::string why = unsupported_reason(*v, static_cast<int>(c), state.problem, state.precision, dev.limits);
        ImGui::BeginDisabled(!why.empty());
        if (ImGui::Selectable(cfg.name.c_str(), static_cast<int>(c) == e.config_index))
          e.config_index = static_cast<int>(c);
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
          ImGui::BeginTooltip();
          if (v->backend == Backend::GlShader)
            ImGui::Text("each fragment computes a %d x %d block of C", cfg.bm, cfg.bn);
          else if (cfg.warp_m > 0)
            ImGui::Text("block tile %d x %d, slab depth %d, warp tile %d x %d, %d warps", cfg.bm, cfg.bn, cfg.bk,
                        cfg.warp_m, cfg.warp_n, cfg.threads_y);
          else if (cfg.bm > 0)
            ImGui::Text("block tile %d x %d, slab depth %d, %d x %d outputs per thread, %d threads", cfg.bm, cfg.bn,
                        cfg.bk, cfg.tm, cfg.tn, cfg.threads());
          ImGui::Text("arithmetic: %s", cfg.math);
          if (!why.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "cannot run here: %s", why.c_str());
          ImGui::EndTooltip();
        }
      }
      ImGui::EndCombo();
    }
    const std::string why = unsupported_reason(*v, e.config_index, state.problem, state.precision, dev.limits);
    if (!why.empty() && (runner.gpu() || !needs_cuda(*v))) {
      ImGui::TextColored(ImVec4(1, 0.6f, 0.3f, 1), "skipped");
      help_tooltip(("This configuration cannot run: " + why).c_str());
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
}

void ControlsPanel::draw_run_buttons(TabContext& ctx) {
  AppState& state = ctx.state;
  const Runner& runner = ctx.runner;
  const bool is_busy = ctx.app.busy();
  const float em = ImGui::GetFontSize();
  ImGui::BeginDisabled(is_busy);
  if (ImGui::Button("Run", ImVec2(6 * em, 0))) ctx.app.run();
  help_tooltip("Time every ticked variant once at the size above (shortcut R).");
  ImGui::SameLine();
  if (ImGui::Button("Sweep", ImVec2(6 * em, 0))) ctx.app.sweep();
  help_tooltip("Time every ticked variant at each size of the range below, doubling (shortcut S).");
  ImGui::SameLine();
  if (ImGui::Button("Live", ImVec2(6 * em, 0))) ctx.app.live();
  help_tooltip(
      "Re-run the focused variant again and again and plot each time: change nothing and watch "
      "the noise, or watch the clock settle (shortcut L).");
  ImGui::EndDisabled();
  ImGui::BeginDisabled(!is_busy);
  if (ImGui::Button(runner.progress().kind == JobKind::Live ? "Stop" : "Cancel", ImVec2(6 * em, 0))) ctx.app.cancel();
  help_tooltip("Stop after the kernel now running (shortcut Esc).");
  ImGui::EndDisabled();

  const int max_size = runner.gpu() ? 65536 : static_cast<int>(Runner::kCpuMaxSize);
  ImGui::SetNextItemWidth(em * 6);
  ImGui::InputInt("##from", &state.sweep_from, 0, 0);
  state.sweep_from = std::clamp(state.sweep_from, 1, max_size);
  help_tooltip("The first size of a sweep.");
  ImGui::SameLine();
  ImGui::TextUnformatted("to");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 6);
  ImGui::InputInt("##to", &state.sweep_to, 0, 0);
  state.sweep_to = std::clamp(state.sweep_to, state.sweep_from, max_size);
  help_tooltip("The last size of a sweep (sizes double from the first).");
  ImGui::SameLine();
  ImGui::TextDisabled("(%d sizes)", static_cast<int>(sweep_sizes(state).size()));
}

void ControlsPanel::draw_progress(TabContext& ctx) {
  const Runner& runner = ctx.runner;
  const RunnerProgress p = runner.progress();
  const std::string error = runner.last_error();
  if (p.busy) {
    char overlay[128];
    if (p.kind == JobKind::Live)
      std::snprintf(overlay, sizeof overlay, "live: %d runs, %.0f s", p.done, p.elapsed_s);
    else if (p.eta_s >= 0)
      std::snprintf(overlay, sizeof overlay, "%d / %d runs, about %.0f s left", p.done, p.total, p.eta_s + 0.5);
    else
      std::snprintf(overlay, sizeof overlay, "%d / %d runs", p.done, p.total);
    const float fraction = p.kind == JobKind::Live
                               ? static_cast<float>(ImGui::GetTime() * 0.5 - static_cast<int>(ImGui::GetTime() * 0.5))
                               : static_cast<float>(p.fraction);
    ImGui::ProgressBar(fraction, ImVec2(-1, 0), overlay);
    ImGui::TextDisabled("%s%s", p.cancelling ? "cancelling: " : "now: ", p.current.c_str());
  }
  if (!error.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", error.c_str());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace tilescope
