// The left panel: what to run (the lesson's variants and their configurations), on which
// problem, precision and sizes, and the Run / Sweep / Live / Cancel buttons with progress.
#include "app/ui/shell/controls_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/export/count_text.h"
#include "app/gl_gemm/gl_shader_runner.h"
#include "app/ui/shell/app.h"
#include "app/ui/shell/typed_tile_names.h"
#include "app/ui/shell/widgets.h"
#include "kernels/core/registry.h"
#include "kernels/core/text_format.h"
#include "kernels/core/typed_configs.h"
#include "kernels/multi/gpu_group.h"
#include "kernels/multi/split_registry.h"

namespace tilescope {

namespace {

const ImVec4 kWarningColour(1, 0.6f, 0.3f, 1);  // what did not run as asked ("skipped", a lowered size)

// The action buttons' labels, also what the rail's width is measured from. The toggles are
// Latin-1 guillemets, which every font the UI may use has.
const char* const kHideLabel = "«";
const char* const kShowLabel = "»";
const char* const kRunLabel = "Run";
const char* const kSweepLabel = "Sweep";
const char* const kLiveLabel = "Live";
const char* const kCancelLabel = "Cancel";
const char* const kStopLabel = "Stop";

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
  // As wide as the longest type's name; its label beside it, or above it where the column is narrow.
  float widest = 0;
  for (Precision p : all_precisions()) widest = std::max(widest, text_width(precision_facts(p).label));
  const float combo_w = combo_width(widest);
  const char* label = "input type";
  if (ImGui::GetContentRegionAvail().x < combo_w + ImGui::GetStyle().ItemInnerSpacing.x + text_width(label)) {
    ImGui::TextUnformatted(label);
    label = "##input type";
  }
  ImGui::SetNextItemWidth(combo_w);
  if (ImGui::BeginCombo(label, precision_facts(state.precision).label)) {
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
      "The type of A and B. Every type but double accumulates in FP32 and writes C in float (or, in the "
      "configurations named _c16, in f16 or bf16 itself); double in FP64. The check's tolerance follows the "
      "type's unit roundoff, and % of cuBLAS compares runs of the same type that store C alike (Run times "
      "cuBLAS's gemm_c16 beside a ticked _c16 row).");
}

// Why the runner has no GPU: the probe's reason, or the session's choice.
std::string no_gpu_reason(const TabContext& ctx) {
  return ctx.device.ok() ? "the GPU is switched off for this session" : ctx.device.unavailable_reason;
}

// What the blocks of a configuration compute: one tile each, or what the variant says its blocks do
// (TileConfig::block_work: persistent blocks walking tiles, split K's parts).
std::string block_words(const TileConfig& cfg, const char* unit, int count) {
  if (cfg.block_work.empty())
    return format("each block of %d %s computes a %d x %d tile of C", count, unit, cfg.bm, cfg.bn);
  return format("blocks of %d %s, %s", count, unit, cfg.block_work.c_str());
}

}  // namespace

std::string lesson_row_unavailable(const TabContext& ctx, const VariantDescriptor& v) {
  if (ctx.runner.gpu() || !needs_cuda(v)) return "";
  const std::string why = no_gpu_reason(ctx);
  return "no usable GPU (" + why + "); Run times the CPU reference instead. The Mapping tab still draws it.";
}

std::string lesson_row_refusal(const AppState& state, const LessonEntry& e) {
  const VariantDescriptor* v = find_variant(e.variant_id);
  if (!v) return "no variant " + e.variant_id + " in this build";
  return variant_refusal(*v, e.config_index, state.problem, state.precision);
}

float ControlsPanel::column_width(const AppState& state, float window_width) {
  const float em = ImGui::GetFontSize();
  // Presenter mode gives the plot the room: the class reads the plot, the teacher the controls.
  const float column = std::min((state.presenter ? 22.0f : 30.0f) * em, window_width * 0.42f);
  // The tabs beside need about 40 characters' widths of text to show their labels whole.
  const bool wide = window_width >= column + 40 * em;
  if (wide != wide_) user_open_.reset();  // the window crossed the line: it decides again
  wide_ = wide;
  collapsed_ = !user_open_.value_or(wide);
  if (!collapsed_) return column;
  // The rail: as wide as its widest button.
  const ImGuiStyle& st = ImGui::GetStyle();
  float widest = 0;
  for (const char* label : {kShowLabel, kRunLabel, kSweepLabel, kLiveLabel, kCancelLabel, kStopLabel})
    widest = std::max(widest, button_width(label));
  return widest + 2 * st.WindowPadding.x + 2 * st.ChildBorderSize;
}

void ControlsPanel::draw(TabContext& ctx) {
  if (collapsed_) {
    draw_rail(ctx);
    return;
  }
  // The buttons stay at the top, whatever the settings below scroll to.
  draw_actions(ctx);
  ImGui::Separator();
  ImGui::BeginChild("settings");
  draw_settings(ctx);
  ImGui::EndChild();
}

void ControlsPanel::draw_settings(TabContext& ctx) {
  AppState& state = ctx.state;
  const Runner& runner = ctx.runner;
  const DeviceInfo& dev = ctx.device;
  if (!runner.gpu()) {
    banner("No usable GPU: " + no_gpu_reason(ctx) +
           ". The CUDA variants cannot run here. What still works: Run and Sweep time the CPU "
           "reference (double precision) for sizes up to " +
           std::to_string(Runner::kCpuMaxSize) +
           ", and the texture shaders (OpenGL) when ticked; the Mapping tab draws every variant from its model; "
           "the History tab runs.");
  } else {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s  |  %d SMs  |  FP32 peak %.1f TFLOP/s", dev.name.c_str(), dev.sm_count,
                        dev.peak_fp32_gflops / 1000);
    ImGui::PopTextWrapPos();
  }

  section("Problem");
  int problem = state.problem == Problem::Gemm ? 0 : 1;
  ImGui::RadioButton("C = A·B", &problem, 0);
  help_tooltip("The general matrix product: C (M x N) = A (M x K) times B (K x N).");
  const std::string ata = transpose_spelling("C = AᵀA");
  same_line_if_fits(check_width(ata.c_str()));
  ImGui::RadioButton(ata.c_str(), &problem, 1);
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
  // Typed values are kept within what any size can be; the App lowers them to what runs here
  // (without a GPU, the CPU reference's limit) and says so below the fields.
  if (state.problem == Problem::Ata) {
    int_input("N (columns of A)", &state.n, 1, kMaxMatrixSize, "C = AᵀA is N x N.");
    if (state.square) state.k = state.n;
    int_input("K (rows of A)", &state.k, 1, kMaxMatrixSize, "The length of every dot product.");
    state.square = state.k == state.n;
  } else if (state.square) {
    int_input("N", &state.n, 1, kMaxMatrixSize, "M = N = K: C is N x N and every dot product has N terms.");
  } else {
    int_input("M (rows of C)", &state.m, 1, kMaxMatrixSize, "Rows of A and of C.");
    int_input("N (columns of C)", &state.n, 1, kMaxMatrixSize, "Columns of B and of C.");
    int_input("K (inner size)", &state.k, 1, kMaxMatrixSize,
              "Columns of A, rows of B: the length of every dot product.");
  }
  draw_size_cap(ctx);
  draw_sweep_range(ctx);
  int_input("repetitions", &state.repetitions, 1, 1000,
            "How many timed runs the median is taken over; more runs, steadier numbers.");
  ImGui::Checkbox("verify", &state.verify);
  help_tooltip(
      "Check every result against a double-precision reference (relative error), and catch "
      "elements the kernel never wrote.");

  section("Variants");
  draw_lesson_table(ctx);
  draw_gpus(ctx);

  draw_focused_variant(ctx);
  tile_editor_.draw(ctx);
}

// Several GPUs, where the machine has them: the split Run adds after each ticked variant (none, or
// a split of the problem and one of its configurations) and on how many GPUs. The GPUs tab draws
// what each GPU did.
void ControlsPanel::draw_gpus(TabContext& ctx) {
  if (gpu_count_ < 0) gpu_count_ = ctx.runner.gpu() ? cuda_gpu_count() : 0;
  if (gpu_count_ < 2) return;
  AppState& state = ctx.state;
  section("Several GPUs");
  const SplitDescriptor* chosen = state.split.empty() ? nullptr : find_split(state.split);
  if (chosen && (!supports(*chosen, state.problem) || !split_config_error(*chosen, state.split_config).empty()))
    chosen = nullptr;
  const std::string preview = chosen ? state.split + ":" + chosen->configs[state.split_config].name : "none (one GPU)";
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.6f);
  if (ImGui::BeginCombo("split", preview.c_str())) {
    if (ImGui::Selectable("none (one GPU)", chosen == nullptr)) state.split.clear();
    for (const SplitDescriptor* s : split_registry()) {
      if (!supports(*s, state.problem)) continue;
      for (std::size_t i = 0; i < s->configs.size(); ++i) {
        const std::string name = std::string(s->id) + ":" + s->configs[i].name;
        if (ImGui::Selectable(name.c_str(), chosen == s && state.split_config == static_cast<int>(i))) {
          state.split = s->id;
          state.split_config = static_cast<int>(i);
        }
        help_tooltip((std::string(s->summary) + "\n\n" + s->configs[i].description).c_str());
      }
    }
    ImGui::EndCombo();
  }
  help_tooltip(
      "Run also runs each ticked variant split across several GPUs of this machine, each GPU multiplying its "
      "pieces with that variant; the GPUs tab draws when each GPU multiplied and when the pieces travelled.");
  state.gpus = std::clamp(state.gpus, 1, gpu_count_);
  int_input("GPUs", &state.gpus, 1, gpu_count_,
            ("How many of this machine's " + std::to_string(gpu_count_) + " GPUs the split uses.").c_str());
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
  const TileConfig& cfg = config_at(*v, e.config_index);
  if (v->backend == Backend::GlShader) {
    ImGui::TextDisabled(
        "%s: each fragment (one pixel of the render target) computes a %d x %d block of C. "
        "The History tab draws its passes and explains what bounds it.",
        cfg.name.c_str(), cfg.bm, cfg.bn);
  } else if (cfg.warp_m > 0 && cfg.group_warps > 1) {
    const int groups = (cfg.bm / cfg.warp_m) * (cfg.bn / cfg.warp_n);
    ImGui::TextDisabled(
        "%s: %s, %d k at a time; %d warpgroup(s) of %d warps multiply, each keeping a %d x %d tile in its "
        "registers, while the others copy (%d stages of shared memory)%s.",
        cfg.name.c_str(), block_words(cfg, "warps", cfg.threads_y).c_str(), cfg.bk, groups, cfg.group_warps, cfg.warp_m,
        cfg.warp_n, std::max(cfg.stages, 1),
        cfg.cluster_m > 1 ? "; blocks run in clusters that share each slab of B" : "");
  } else if (cfg.warp_m > 0) {
    ImGui::TextDisabled("%s: %s, %d k at a time; each warp keeps a %d x %d tile in tensor-core fragments (%s).",
                        cfg.name.c_str(), block_words(cfg, "warps", cfg.threads_y).c_str(), cfg.bk, cfg.warp_m,
                        cfg.warp_n,
                        cfg.stages > 1 ? format("%d stages of shared memory in flight", cfg.stages).c_str()
                                       : "one slab in shared memory at a time");
  } else if (cfg.bm > 0 && cfg.bk > 0 && cfg.tm * cfg.tn > 1) {
    ImGui::TextDisabled("%s: %s, %d k at a time; each thread keeps %d x %d results in registers.", cfg.name.c_str(),
                        block_words(cfg, "threads", cfg.threads()).c_str(), cfg.bk, cfg.tm, cfg.tn);
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
  // A row per variant: its tick, its name, its configuration beside the name where the column has
  // room for both whole, else under it.
  float name_w = 0, config_w = 0;
  for (const LessonEntry& e : state.lesson)
    if (const VariantDescriptor* v = find_variant(e.variant_id)) {
      name_w = std::max(name_w, text_width(v->label));
      for (int c = 0, n = config_count(*v); c < n; ++c)
        config_w = std::max(config_w, combo_width(text_width(config_short_name(*v, c).c_str())));
    }
  const float cell_pad = 2 * ImGui::GetStyle().CellPadding.x;
  const bool side_by_side =
      ImGui::GetFrameHeight() + name_w + config_w + 3 * cell_pad <= ImGui::GetContentRegionAvail().x;
  const ImGuiTableFlags flags = ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg;
  if (!ImGui::BeginTable(side_by_side ? "lesson" : "lesson_stacked", side_by_side ? 3 : 2, flags)) return;
  ImGui::TableSetupColumn("use", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("variant",
                          side_by_side ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch,
                          side_by_side ? name_w : 1.0f);
  if (side_by_side) ImGui::TableSetupColumn("configuration", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  for (std::size_t i = 0; i < state.lesson.size(); ++i) {
    LessonEntry& e = state.lesson[i];
    const VariantDescriptor* v = find_variant(e.variant_id);
    if (!v) continue;
    ImGui::PushID(static_cast<int>(i));
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    // Without a GPU a CUDA variant cannot take part: unticked and greyed, whatever it was ticked
    // for (the tick is kept for a session with a GPU), with the reason on hover.
    const std::string unavailable = lesson_row_unavailable(ctx, *v);
    bool ticked = unavailable.empty() && e.enabled;
    ImGui::BeginDisabled(!unavailable.empty());
    if (ImGui::Checkbox("##use", &ticked)) e.enabled = ticked;
    ImGui::EndDisabled();
    help_tooltip(unavailable.empty() ? "Take part in Run and Sweep." : ("Unavailable here: " + unavailable).c_str());
    ImGui::TableNextColumn();
    // Greyed while it cannot run here or compute the chosen problem and input type (still focusable).
    const std::string refused = unavailable.empty() ? lesson_row_refusal(state, e) : unavailable;
    if (!refused.empty()) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    if (ImGui::Selectable(v->label, state.focused == static_cast<int>(i),
                          ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap))
      state.focused = static_cast<int>(i);
    if (!refused.empty()) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
      ImGui::TextUnformatted(v->summary);
      if (!unavailable.empty())
        ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "unavailable here: %s", unavailable.c_str());
      else if (!refused.empty())
        ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "not with this choice: %s", refused.c_str());
      ImGui::TextDisabled("Click to focus it: Live re-runs the focused variant.");
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    if (side_by_side) ImGui::TableNextColumn();
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##config", config_short_name(*v, e.config_index).c_str())) {
      // The compiled set, then the tiles typed this session (tile_editor.h).
      for (int c = 0, n = config_count(*v); c < n; ++c) {
        const TileConfig& cfg = config_at(*v, c);
        const std::string why = unsupported_reason(*v, c, state.problem, state.precision, dev.limits);
        ImGui::BeginDisabled(!why.empty());
        ImGui::PushID(c);
        if (ImGui::Selectable(config_short_name(*v, c).c_str(), c == e.config_index)) e.config_index = c;
        ImGui::PopID();
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
          ImGui::BeginTooltip();
          if (!cfg.description.empty()) {
            // What the configuration changes, in words: its name alone (_mb, _c2) explains nothing.
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
            ImGui::TextUnformatted(cfg.description.c_str());
            if (is_typed_config(*v, c)) ImGui::Text("typed tile: %s", cfg.name.c_str());
            ImGui::PopTextWrapPos();
            ImGui::Separator();
          }
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
      ImGui::TextColored(kWarningColour, "skipped");
      help_tooltip(("This configuration cannot run: " + why).c_str());
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
}

// Under the size fields, where sizes are capped lower than kMaxMatrixSize: the cap, and once a
// value went above it, what was lowered and why.
void ControlsPanel::draw_size_cap(TabContext& ctx) {
  ctx.app.apply_size_cap();
  const std::string reason = ctx.app.size_cap_reason();
  if (reason.empty()) return;
  const std::string note = ctx.app.size_note();
  ImGui::PushTextWrapPos(0);
  if (note.empty())
    ImGui::TextDisabled("Sizes up to %d here: %s.", ctx.app.size_cap(), reason.c_str());
  else
    ImGui::TextColored(kWarningColour, "%s.", note.c_str());
  ImGui::PopTextWrapPos();
}

// At the top of the column: the toggle that folds it into the rail, then the buttons, in a row
// that wraps; the progress of the work under them.
void ControlsPanel::draw_actions(TabContext& ctx) {
  if (ImGui::Button(kHideLabel)) user_open_ = false;
  help_tooltip(
      "Fold the controls into a rail of these buttons: the tabs get the width (the rail's top button unfolds them).");
  draw_action_buttons(ctx, false);
  draw_progress(ctx);
}

// A narrow window: the toggle and the buttons stacked in a rail, the progress as a bare bar.
void ControlsPanel::draw_rail(TabContext& ctx) {
  if (ImGui::Button(kShowLabel, ImVec2(-1, 0))) user_open_ = true;
  help_tooltip("Show the controls: problem, sizes, variants (the tabs get narrower).");
  draw_action_buttons(ctx, true);
  const RunnerProgress p = ctx.runner.progress();
  if (p.busy && p.kind != JobKind::Live) {
    char overlay[32];
    std::snprintf(overlay, sizeof overlay, "%d/%d", p.done, p.total);
    ImGui::ProgressBar(static_cast<float>(p.fraction), ImVec2(-1, 0), overlay);
  }
}

// Run, Sweep, Live and Cancel (Stop while Live runs): after the toggle in a row that wraps, or
// stacked as wide as the rail.
void ControlsPanel::draw_action_buttons(TabContext& ctx, bool stacked) {
  const bool is_busy = ctx.app.busy();
  const float em = ImGui::GetFontSize();
  // Big enough to hit in a hurry, and as wide as their labels.
  auto button = [&](const char* label) {
    const float width = std::max(button_width(label), 4.5f * em);
    if (!stacked) same_line_if_fits(width);
    return ImGui::Button(label, ImVec2(stacked ? -1 : width, 0));
  };
  ImGui::BeginDisabled(is_busy);
  if (button(kRunLabel)) ctx.app.run();
  help_tooltip("Time every ticked variant once at the size set (shortcut R).");
  if (button(kSweepLabel)) ctx.app.sweep();
  help_tooltip("Time every ticked variant at each size of the sweep's range, doubling (shortcut S).");
  if (button(kLiveLabel)) ctx.app.live();
  help_tooltip(
      "Re-run the focused variant again and again and plot each time: change nothing and watch "
      "the noise, or watch the clock settle (shortcut L).");
  ImGui::EndDisabled();
  ImGui::BeginDisabled(!is_busy);
  if (button(ctx.runner.progress().kind == JobKind::Live ? kStopLabel : kCancelLabel)) ctx.app.cancel();
  help_tooltip("Stop after the kernel now running (shortcut Esc).");
  ImGui::EndDisabled();
}

// The sweep's sizes, under Run's: from, to, and how many sizes that makes.
void ControlsPanel::draw_sweep_range(TabContext& ctx) {
  AppState& state = ctx.state;
  const float em = ImGui::GetFontSize();
  ImGui::TextUnformatted("sweep");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 5);
  ImGui::InputInt("##from", &state.sweep_from, 0, 0);
  state.sweep_from = std::clamp(state.sweep_from, 1, kMaxMatrixSize);
  help_tooltip("The first size of a sweep.");
  ImGui::SameLine();
  ImGui::TextUnformatted("to");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 5);
  ImGui::InputInt("##to", &state.sweep_to, 0, 0);
  state.sweep_to = std::clamp(state.sweep_to, state.sweep_from, kMaxMatrixSize);
  help_tooltip("The last size of a sweep (sizes double from the first).");
  const std::string sizes = "(" + count_text(sweep_sizes(state).size(), "size", "sizes") + ")";
  same_line_if_fits(text_width(sizes.c_str()));
  ImGui::TextDisabled("%s", sizes.c_str());
  ctx.app.apply_size_cap();  // what it lowers is said under the sizes above, from the next frame
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
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s%s", p.cancelling ? "cancelling: " : "now: ", p.current.c_str());
    // One texture-shader row may draw for many seconds on a software renderer: how far it is.
    const GlShaderProgress shaders = gl_shader_progress();
    if (shaders.drawing)
      ImGui::TextDisabled("texture shaders: %s (%.0f%%)", shaders.what.c_str(), 100 * shaders.fraction);
    ImGui::PopTextWrapPos();
  }
  if (!error.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", error.c_str());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace tilescope
