// The results table: every measured row (newest first) with the numbers a class discusses —
// median and min time, GFLOP/s, % of cuBLAS, % of peak, relative error, registers per thread,
// shared memory per block, occupancy — and the first (cold) run apart; where a row holds them
// (bench --profile, a loaded CSV), Nsight Compute's figures that say why.
#include <imgui.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "app/export/count_text.h"
#include "app/ui/shell/app.h"
#include "app/ui/shell/widgets.h"
#include "app/ui/timing/timing_panel.h"
#include "kernels/multi/split_words.h"

namespace tilescope {

namespace {

void cell(const char* fmt, ...) IM_FMTARGS(1);
void cell(const char* fmt, ...) {
  ImGui::TableNextColumn();
  va_list args;
  va_start(args, fmt);
  ImGui::TextV(fmt, args);
  va_end(args);
}

// A cell of a figure the row may lack (not verified, a library that hides its resources, no
// clock reading): "-" where it is not `known`.
void cell_if(bool known, const char* fmt, ...) IM_FMTARGS(2);
void cell_if(bool known, const char* fmt, ...) {
  ImGui::TableNextColumn();
  if (!known) {
    ImGui::TextUnformatted("-");
    return;
  }
  va_list args;
  va_start(args, fmt);
  ImGui::TextV(fmt, args);
  va_end(args);
}

void header_with_tooltip(const char* name, const char* help) {
  ImGui::TableNextColumn();
  ImGui::TableHeader(name);
  help_tooltip(help);
}

// "Results", the problem filter, the row count and Clear, on a line above the table that wraps
// where the tab is narrow.
void draw_results_toolbar(TabContext& ctx, std::size_t row_count) {
  AppState& state = ctx.state;
  ImGui::TextUnformatted("Results");
  const char* filter = "only this problem and precision";
  same_line_if_fits(check_width(filter));
  ImGui::Checkbox(filter, &state.only_current_problem);
  help_tooltip("Show only the rows of the problem and precision chosen on the left.");
  const std::string rows = "(" + count_text(row_count, "row", "rows") + ")";
  same_line_if_fits(text_width(rows.c_str()));
  ImGui::TextDisabled("%s", rows.c_str());
  same_line_if_fits(button_width("Clear"));
  if (ImGui::SmallButton("Clear")) ctx.history.clear();
  help_tooltip("Forget every result (export the CSV first if you want to keep them).");
}

// Rows of other problems and precisions are hidden when asked; the CPU reference always shows.
bool row_is_shown(const AppState& state, const RunResult& r) {
  return !state.only_current_problem ||
         (r.problem == state.problem && (r.precision == state.precision || r.variant_id == kCpuReferenceId));
}

// Nsight Compute's figures (RunResult::profile), in the order of their columns: the header, the
// figure, the cell's format and what the header's tooltip says.
struct ProfileColumn {
  const char* name;
  double ProfileFigures::*figure;
  const char* format;
  const char* help;
};
const ProfileColumn kProfileColumns[] = {
    {"FMA pipe", &ProfileFigures::fma_pipe_pct, "%.1f%%",
     "How busy the FP32 fused multiply-add pipe was (% of the active cycles, Nsight Compute): 80% = the float "
     "units were fed 4 cycles in 5. Near 100%, only fewer instructions or the tensor cores make a float kernel "
     "faster."},
    {"FP64 pipe", &ProfileFigures::fp64_pipe_pct, "%.1f%%",
     "How busy the FP64 pipe was (% of the active cycles): the double kernels' ceiling."},
    {"tensor pipe", &ProfileFigures::tensor_pipe_pct, "%.1f%%",
     "How busy the tensor pipe was (% of the active cycles): 16-bit and tf32 mma.sync, wmma and wgmma (HMMA, "
     "HGMMA), or double mma.sync and wmma (DMMA)."},
    {"issue", &ProfileFigures::issue_active_pct, "%.1f%%",
     "How often the warp schedulers issued an instruction (one a cycle at most). Low: the warps were waiting. High "
     "with a low FMA pipe: they issued other instructions than the math."},
    {"cycles/issue", &ProfileFigures::cycles_per_issue, "%.2f",
     "Cycles a warp spends per instruction it issues. With few warps (low occupancy) a kernel needs this small: "
     "independent instructions in flight instead of more warps."},
    {"FFMA share", &ProfileFigures::ffma_share_pct, "%.1f%%",
     "FFMA instructions per instruction issued (a warp's counted as its 32 lanes): how much of the work is the "
     "multiply-add itself."},
};
constexpr int kProfileColumnCount = static_cast<int>(sizeof kProfileColumns / sizeof kProfileColumns[0]);
constexpr const char* kProfileNote =
    " From tilescope bench --profile: the configuration run again alone under Nsight Compute, its kernels "
    "replayed with the clocks not locked (docs/PROFILER.md). '-': not profiled, or not measured on this GPU.";

// The indices of the shown rows, newest first, kept until the rows or the filter change: with
// a million rows, even the filter's comparisons cost more than the frame should. It refers to
// the rows by a weak pointer, which does not hold them (a held pointer would make every append
// copy them, timing_history.h) and whose owner cannot be mistaken for a later one.
struct ShownRows {
  std::weak_ptr<const std::vector<RunResult>> rows;
  std::uint64_t version = ~0ull;
  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  bool only_current = false;
  std::vector<std::size_t> indices;
  // The longest words of the shown rows' text columns, and their largest size, which the
  // columns are made wide enough for.
  std::string longest_variant, longest_config, longest_device;
  std::int64_t largest_size = 0;
  // Whether a shown row holds profiler figures: the table then has their columns.
  bool any_profiled = false;
  // Per profiler column: whether a shown row has its figure, and not 0 (presenter mode leaves out
  // the others: a float lesson's idle FP64 and tensor pipes).
  bool profile_figure_used[kProfileColumnCount] = {};

  void update(const std::shared_ptr<const std::vector<RunResult>>& now, std::uint64_t now_version,
              const AppState& state) {
    const bool same_rows = !rows.owner_before(now) && !now.owner_before(rows) && !rows.expired();
    if (same_rows && version == now_version && problem == state.problem && precision == state.precision &&
        only_current == state.only_current_problem)
      return;
    rows = now;
    version = now_version;
    problem = state.problem;
    precision = state.precision;
    only_current = state.only_current_problem;
    indices.clear();
    longest_variant = longest_config = longest_device = "";
    largest_size = 0;
    any_profiled = false;
    std::fill(std::begin(profile_figure_used), std::end(profile_figure_used), false);
    auto keep_longest = [](std::string& longest, const std::string& s) {
      if (s.size() > longest.size()) longest = s;
    };
    for (std::size_t i = now->size(); i > 0; --i) {
      const RunResult& r = (*now)[i - 1];
      if (!row_is_shown(state, r)) continue;
      indices.push_back(i - 1);
      keep_longest(longest_variant, variant_column_words(r));
      keep_longest(longest_config, r.config_name);
      keep_longest(longest_device, r.device_name);
      largest_size = std::max({largest_size, r.shape.M, r.shape.N, r.shape.K});
      any_profiled = any_profiled || r.profile.any();
      for (int c = 0; c < kProfileColumnCount; ++c) {
        const double v = r.profile.*kProfileColumns[c].figure;
        profile_figure_used[c] = profile_figure_used[c] || (!std::isnan(v) && v != 0);
      }
    }
  }
};

ShownRows g_shown;  // UI thread only

// The columns of the fixed set (setup_results_columns' names) that the code names, and what
// presenter mode's compact table (where profiler figures are shown) does with them: it leaves out
// the first and the fastest run and the share of the FMA peak, so a failed run's error, written
// from the first column after the shape, starts at the median there.
constexpr int kFirstColumn = 3, kMedianColumn = 4, kMinColumn = 5, kPeakColumn = 8, kRelErrorColumn = 9;
bool left_out_when_compact(int column) {
  return column == kFirstColumn || column == kMinColumn || column == kPeakColumn;
}
int error_column(bool compact) {
  return compact ? kMedianColumn : kFirstColumn;
}

// The table's columns: 18 always, and the profiler's where a shown row has them, beside the speed.
int results_column_count(const ShownRows& shown) {
  return 18 + (shown.any_profiled ? kProfileColumnCount : 0);
}

// The columns (results_column_count), with the header row and the variant frozen (the config too
// where the table has room), and a tooltip on every header. Each column is as wide as its header
// and the widest value it shows or can show, at the font of the frame: widths follow presenter mode
// and Ctrl+=. In presenter mode, where the profiler's figures are shown, the first and the fastest
// run, the share of the FMA peak (which the FMA pipe's figure says better) and the profiler's
// columns no shown row uses are left out (compact), so that the why stands in view at the
// projector's font.
void setup_results_columns(const ShownRows& shown, bool compact) {
  const char* names[] = {"variant", "config",    "M x N x K",   "first",          "median", "min",
                         "GFLOP/s", "% cuBLAS",  "% peak",      "rel. error",     "check",  "regs",
                         "smem",    "occupancy", "sectors/req", "bank conflicts", "MHz",    "device"};
  char shape[96];
  std::snprintf(shape, sizeof shape, "%lld x %lld x %lld", static_cast<long long>(shown.largest_size),
                static_cast<long long>(shown.largest_size), static_cast<long long>(shown.largest_size));
  // The widest value of each column: the longest shown, or the widest its format writes.
  const std::string widest[] = {shown.longest_variant,
                                shown.longest_config,
                                shape,
                                "99.9 ms*",
                                "99.9 ms",
                                "99.9 ms",
                                "999,999",
                                "100.0%",
                                "100.0%",
                                "1.0e-10",
                                "FAIL",
                                "255",
                                "227.0 KB",
                                "100%",
                                "32.0 / 32.0",
                                "0.00",
                                "9999",
                                shown.longest_device};
  float frozen = 0;
  for (int i = 0; i < 18; ++i) {
    const float width = std::max(text_width(names[i]), text_width(widest[i].c_str()));
    if (i < 2) frozen += width;
    // The error of a failed run is written across the empty columns after its own.
    const ImGuiTableColumnFlags no_clip = i == error_column(compact) ? ImGuiTableColumnFlags_NoClip : 0;
    const ImGuiTableColumnFlags fixed = ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_NoResize;
    // The profiler's columns stand beside the speed (after % peak), where the why is read with the how fast.
    if (i == kRelErrorColumn && shown.any_profiled)
      for (int c = 0; c < kProfileColumnCount; ++c)
        ImGui::TableSetupColumn(kProfileColumns[c].name,
                                fixed | (compact && !shown.profile_figure_used[c] ? ImGuiTableColumnFlags_Disabled : 0),
                                std::max(text_width(kProfileColumns[c].name), text_width("100.0%")));
    const bool left_out = compact && left_out_when_compact(i);
    ImGui::TableSetupColumn(names[i], fixed | no_clip | (left_out ? ImGuiTableColumnFlags_Disabled : 0), width);
  }
  ImGui::TableSetupScrollFreeze(frozen < ImGui::GetContentRegionAvail().x * 0.45f ? 2 : 1, 1);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  header_with_tooltip(names[0], "The kernel.");
  header_with_tooltip(names[1], "Its tile configuration (cuBLAS: which routine).");
  header_with_tooltip(names[2], "C is M x N; every element is a dot product of length K.");
  header_with_tooltip(names[3],
                      "The first run, without warm-up; * = the first use of this kernel in the program, "
                      "including loading it (cuBLAS: its start-up, ~100 ms).");
  header_with_tooltip(
      names[4],
      "The median of the timed runs (CUDA events; GL_TIME_ELAPSED for the texture shaders): the number to compare.");
  header_with_tooltip(names[5], "The fastest timed run.");
  header_with_tooltip(names[6],
                      "2·M·N·K floating-point operations / median time. For AᵀA every variant is "
                      "credited with the full product, even those that skip half of it.");
  header_with_tooltip(names[7], "Speed relative to the fastest cuBLAS routine measured on the same problem and size.");
  header_with_tooltip(names[8],
                      "Speed relative to what the GPU's FMA units can do at most (tensor cores not counted).");
  if (shown.any_profiled)
    for (const ProfileColumn& c : kProfileColumns)
      header_with_tooltip(c.name, (std::string(c.help) + kProfileNote).c_str());
  header_with_tooltip(names[9], "||C - C_ref|| / ||C_ref|| against a double-precision reference.");
  header_with_tooltip(names[10],
                      "pass: the error is within the tolerance for this K and arithmetic, and every "
                      "element was written.");
  header_with_tooltip(names[11],
                      "Registers per thread. More registers per thread means fewer threads fit on a multiprocessor.");
  header_with_tooltip(names[12], "Shared memory per block (static + dynamic).");
  header_with_tooltip(names[13], "Active warps per multiprocessor / the most it can hold.");
  header_with_tooltip(names[14],
                      "32-byte sectors per global load request / per store request: 4 when a warp's 32 lanes read "
                      "neighbouring floats (coalesced), 32 when every lane needs a sector of its own. Counted from the "
                      "kernel's model (Mapping tab, memory view; tilescope memory).");
  header_with_tooltip(names[15],
                      "Shared-memory bank conflicts: the wavefronts beyond the ideal per shared-memory instruction "
                      "(0 = none; 1 = every instruction served twice). Counted from the kernel's model, as Nsight "
                      "Compute's per-instruction counts do; its hardware counter can find more for stores, as other "
                      "warps' loads fill the L1 beside them. Copies by the TMA are not counted.");
  header_with_tooltip(names[16],
                      "The SM clock while the timed runs ran (the median of the driver's readings). A GPU at its "
                      "power limit runs slower than its maximum clock: compare speeds at one clock.");
  header_with_tooltip(names[17], "Where it ran.");
}

// One result: its numbers (the profiler's where the table has their columns), or its error across
// the remaining columns, from the first one shown.
void draw_result_row(const RunResult& r, bool profile_columns, bool compact) {
  ImGui::TableNextRow();
  cell("%s", variant_column_words(r).c_str());
  cell("%s", r.config_name.c_str());
  cell("%lld x %lld x %lld", static_cast<long long>(r.shape.M), static_cast<long long>(r.shape.N),
       static_cast<long long>(r.shape.K));
  if (!r.ok()) {
    for (int column = kFirstColumn; column <= error_column(compact); ++column) ImGui::TableNextColumn();
    ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", r.error.c_str());
    return;
  }
  cell("%s%s", format_ms(r.first_ms).c_str(), r.first_was_cold ? "*" : "");
  cell("%s", format_ms(r.median_ms).c_str());
  cell("%s", format_ms(r.min_ms).c_str());
  cell("%s", format_gflops(r.gflops).c_str());
  cell_if(r.pct_of_cublas >= 0, "%.1f%%", r.pct_of_cublas);
  cell_if(r.pct_of_peak > 0, "%.1f%%", r.pct_of_peak);
  if (profile_columns)
    for (const ProfileColumn& c : kProfileColumns) {
      const double v = r.profile.*c.figure;
      cell_if(!std::isnan(v), c.format, v);
    }
  cell_if(r.verified, "%.1e", r.rel_error);
  ImGui::TableNextColumn();
  if (!r.verified)
    ImGui::TextDisabled("-");
  else if (r.passed)
    ImGui::TextColored(ImVec4(0.35f, 0.85f, 0.45f, 1), "pass");
  else
    ImGui::TextColored(ImVec4(1, 0.35f, 0.3f, 1), "FAIL");
  cell_if(r.registers_per_thread > 0, "%d", r.registers_per_thread);
  cell_if(r.threads_per_block > 0, "%.1f KB", (r.static_shared_bytes + r.dynamic_shared_bytes) / 1024.0);
  cell_if(r.occupancy >= 0, "%.0f%%", r.occupancy * 100);
  cell_if(r.load_sectors_per_request >= 0, "%.1f / %.1f", r.load_sectors_per_request,
          std::max(0.0, r.store_sectors_per_request));
  cell_if(r.shared_conflicts_per_instruction >= 0, "%.2f", r.shared_conflicts_per_instruction);
  cell_if(r.run_clock_mhz > 0, "%.0f", r.run_clock_mhz);
  cell("%s", r.device_name.c_str());
}

}  // namespace

// Only the rows in view are drawn (ImGuiListClipper): a loaded history of 100,000 rows costs a
// frame what 40 cost. The rows are shared with the history, not copied (rows()).
void TimingPanel::draw_results_table(TabContext& ctx) {
  const std::uint64_t version = ctx.history.version();  // before rows(): a newer one only rebuilds again
  const std::shared_ptr<const std::vector<RunResult>> shared = ctx.history.rows();
  const std::vector<RunResult>& rows = *shared;
  draw_results_toolbar(ctx, rows.size());

  // Wider than the tab, it scrolls across, the variant column staying in view.
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
  g_shown.update(shared, version, ctx.state);
  // A table of each shape keeps its own state (scroll, widths): the profiler's columns come and go.
  const bool profiled = g_shown.any_profiled;
  if (!ImGui::BeginTable(profiled ? "results with profile" : "results", results_column_count(g_shown), flags)) return;
  const bool compact = ctx.state.presenter && profiled;
  setup_results_columns(g_shown, compact);
  const std::vector<std::size_t>& shown = g_shown.indices;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(std::min<std::size_t>(shown.size(), static_cast<std::size_t>(INT_MAX))));
  while (clipper.Step())
    for (int d = clipper.DisplayStart; d < clipper.DisplayEnd; ++d) draw_result_row(rows[shown[d]], profiled, compact);
  ImGui::EndTable();
}

}  // namespace tilescope
