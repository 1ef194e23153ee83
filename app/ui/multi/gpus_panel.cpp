#include "app/ui/multi/gpus_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/runner/timing_history.h"
#include "app/ui/shell/app.h"
#include "app/ui/shell/widgets.h"
#include "app/viz/colors.h"
#include "app/viz/split_timeline.h"
#include "kernels/core/text_format.h"
#include "kernels/multi/split_forecast.h"
#include "kernels/multi/split_registry.h"

namespace tilescope {
namespace {

// One hue per GPU, far apart for the first few; products full, transfers lighter.
ImU32 gpu_colour(int gpu, SpanStream stream) {
  const double hue = std::fmod(0.58 + 0.382 * gpu, 1.0);
  return stream == SpanStream::Compute ? hsv_colour(hue, 0.65, 0.85) : hsv_colour(hue, 0.30, 1.0);
}

std::string run_words(const RunResult& r) {
  return r.split + ":" + r.split_config + " on " + std::to_string(r.gpus) + (r.gpus == 1 ? " GPU" : " GPUs") +
         ", each with " + r.variant_id + " " + r.config_name + " - " + to_string(r.problem) + " " +
         to_string(r.precision) + " " + shape_text(r.shape);
}

// 1-2-5 steps giving about `target` ticks over [0, end].
double tick_step(double end, int target) {
  const double raw = end / std::max(target, 1);
  const double decade = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-9))));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * decade >= raw) return m * decade;
  return 10 * decade;
}

}  // namespace

// The history's split runs, newest first, and each one's speed-up (bench's, or against the newest run
// of its kernel alone on one GPU before it): looked through once per change of the history, not
// every frame (a loaded history may hold hundreds of thousands of rows).
void GpusPanel::refresh(const TabContext& ctx) {
  if (ctx.history.version() == checked_version_) return;
  checked_version_ = ctx.history.version();
  split_rows_.clear();
  speedups_.clear();
  const auto rows = ctx.history.rows();
  for (std::size_t i = rows->size(); i-- > 0;) {
    const RunResult& r = (*rows)[i];
    if (!r.ok() || r.split.empty()) continue;
    double speedup = r.speedup_over_one_gpu;
    for (std::size_t j = i; speedup <= 0 && j-- > 0;) {
      const RunResult& one = (*rows)[j];
      if (one.ok() && one.split.empty() && same_product(one, r) && r.median_ms > 0)
        speedup = one.median_ms / r.median_ms;
    }
    split_rows_.push_back(i);
    speedups_.push_back(speedup);
  }
}

bool GpusPanel::in_tab_bar(const TabContext& ctx) {
  if (ctx.app.gpu_count() > 1) return true;
  refresh(ctx);
  return !split_rows_.empty();
}

void GpusPanel::draw(TabContext& ctx) {
  refresh(ctx);
  const auto rows = ctx.history.rows();
  std::vector<const RunResult*> splits;
  for (std::size_t i : split_rows_) splits.push_back(&(*rows)[i]);
  if (splits.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(
        "No run split across GPUs yet. On a machine with several GPUs, choose a split under \"Several GPUs\" in "
        "the controls and press Run; anywhere, File > Load a JSON that `tilescope bench --gpus 2 --split ... "
        "--json FILE` wrote on such a machine. This tab then draws when each GPU multiplied and when the pieces "
        "travelled between them.");
    ImGui::PopTextWrapPos();
    return;
  }
  shown_ = std::min(shown_, splits.size() - 1);
  scroll_here(Section::Top);
  const RunResult& r = *splits[shown_];
  // The list and its label inside the width (a projector's is narrow).
  const float label_w = text_width("run") + ImGui::GetStyle().ItemInnerSpacing.x;
  ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x - label_w, ImGui::GetFontSize() * 40));
  if (ImGui::BeginCombo("run", run_words(r).c_str())) {
    for (std::size_t i = 0; i < splits.size(); ++i)
      if (ImGui::Selectable((run_words(*splits[i]) + "##" + std::to_string(i)).c_str(), i == shown_)) shown_ = i;
    ImGui::EndCombo();
  }
  help_tooltip("The split runs of the history, newest first: Run with a split chosen, or a loaded bench JSON.");

  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  ImGui::PushTextWrapPos(0);
  std::string line = format("%s on %d GPUs (%s)", format_ms(r.median_ms).c_str(), r.gpus, r.gpu_names.c_str());
  const double speedup = speedups_[shown_];
  if (speedup > 0) line += format(": %.2fx the kernel alone on one GPU", speedup);
  if (r.predicted_ms > 0) line += format("; the model said %s", format_ms(r.predicted_ms).c_str());
  line += r.verified ? (r.passed ? "; checked: pass" : "; checked: FAIL") : "";
  ImGui::TextUnformatted(line.c_str());
  if (const SplitDescriptor* s = find_split(r.split)) ImGui::TextDisabled("%s", s->summary);
  ImGui::PopTextWrapPos();

  draw_timeline(ctx, r);
  draw_placement(r);
  scroll_here(Section::Model);
  section("The model: more GPUs");
  model_.draw(ctx.history, split_rows_[shown_], r, ctx.runner.link_error());

  const ImVec2 bottom_right(top_left.x + ImGui::GetContentRegionAvail().x, ImGui::GetCursorScreenPos().y);
  if (ImGui::Button("Export PNG")) ctx.app.export_region_png("tilescope-gpus", top_left, bottom_right);
  help_tooltip("This view (from the line above the timeline to the model) as a PNG, beside the screenshots.");
}

// A script's scroll lands where the section is drawn, the frame the tab is drawn.
void GpusPanel::scroll_here(Section s) {
  if (!scroll_pending_ || scroll_to_ != s) return;
  if (s == Section::Top)
    ImGui::SetScrollY(0);
  else  // the cursor's line at the top (SetScrollHereY would take the line of the item before it)
    ImGui::SetScrollFromPosY(ImGui::GetCursorScreenPos().y - ImGui::GetWindowPos().y, 0.0f);
  scroll_pending_ = false;
}

void GpusPanel::draw_timeline(TabContext&, const RunResult& r) {
  section("Timeline");
  if (r.spans.empty()) {
    ImGui::TextWrapped("%s",
                       r.timer == "wall_clock"
                           ? "The library ran this split on streams of its own: its timeline is not ours to record."
                           : "This run recorded no timeline.");
    return;
  }
  const SplitTimeline t = lay_out_split_timeline(r.spans);
  const float font = ImGui::GetFontSize();
  const float label_w = text_width("GPU 0 transfers") + font;
  const float row_h = font * 1.8f, axis_h = font * 1.6f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // Room on the right for the last tick's words.
  const float width = std::max(ImGui::GetContentRegionAvail().x - label_w - text_width("000 ms"), font * 10);
  const float height = row_h * static_cast<float>(t.rows.size()) + axis_h;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), faint = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const double end = t.end_ms > 0 ? t.end_ms : 1;
  auto x_of = [&](double ms) { return origin.x + label_w + static_cast<float>(ms / end) * width; };

  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const float y = origin.y + row_h * static_cast<float>(i);
    const std::string name =
        format("GPU %d %s", t.rows[i].gpu, t.rows[i].stream == SpanStream::Compute ? "products" : "transfers");
    dl->AddText(ImVec2(origin.x, y + (row_h - font) / 2), text, name.c_str());
    dl->AddLine(ImVec2(origin.x + label_w, y + row_h), ImVec2(origin.x + label_w + width, y + row_h), faint);
  }
  const double step = tick_step(end, 8);
  const float axis_y = origin.y + row_h * static_cast<float>(t.rows.size());
  for (double ms = 0; ms <= end + 1e-9; ms += step) {
    const float x = x_of(ms);
    dl->AddLine(ImVec2(x, origin.y), ImVec2(x, axis_y + font * 0.3f), faint);
    dl->AddText(ImVec2(x + 2, axis_y + font * 0.2f), faint, format("%g ms", ms).c_str());
  }

  ImGui::InvisibleButton("timeline", ImVec2(label_w + width, height));
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const RunSpan* under = nullptr;
  for (std::size_t i = 0; i < r.spans.size(); ++i) {
    const RunSpan& s = r.spans[i];
    const float y = origin.y + row_h * static_cast<float>(t.row_of_span[i]);
    const ImVec2 a(x_of(s.start_ms), y + row_h * 0.15f);
    const ImVec2 b(std::max(x_of(s.end_ms), a.x + 1.5f), y + row_h * 0.85f);
    const ImU32 fill = gpu_colour(s.gpu, s.stream);
    dl->AddRectFilled(a, b, fill);
    dl->AddRect(a, b, IM_COL32(0, 0, 0, 120));
    cell_text(dl, a, b, fill, s.what.c_str(), 0.6f);
    if (hovered && mouse.x >= a.x && mouse.x <= b.x && mouse.y >= a.y && mouse.y <= b.y) under = &s;
  }
  if (under) {
    ImGui::BeginTooltip();
    ImGui::Text("GPU %d, %s stream: %s", under->gpu, to_string(under->stream), under->what.c_str());
    ImGui::Text("%.3f to %.3f ms: %s", under->start_ms, under->end_ms,
                format_ms(under->end_ms - under->start_ms).c_str());
    ImGui::EndTooltip();
  }

  // How much of each GPU's transfers ran under its products: the point of the two streams. Wrapped:
  // a projector's width is narrower than these lines at its font size.
  ImGui::PushTextWrapPos(0);
  for (const GpuBusy& b : busy_of(r.spans)) {
    const double hidden = b.transfer_ms > 0 ? 100.0 * b.hidden_ms / b.transfer_ms : 100.0;
    ImGui::Text("GPU %d: products %s, transfers %s, %.0f%% of the transfers under a product", b.gpu,
                format_ms(b.compute_ms).c_str(), format_ms(b.transfer_ms).c_str(), hidden);
  }
  ImGui::TextDisabled("Each GPU's row starts at its own start event: the two clocks agree to a few microseconds.");
  ImGui::PopTextWrapPos();
}

// A and C drawn as rectangles of their shape, each block in its GPU's colour: the split's layout of
// this product (where A's blocks start, where C's end).
void GpusPanel::draw_placement(const RunResult& r) {
  section("Where the pieces lie");
  RowSplit known;
  if (!row_split(r, &known) || !known.split->layout) {
    ImGui::TextDisabled("This program does not know the split %s:%s.", r.split.c_str(), r.split_config.c_str());
    return;
  }
  const SplitDescriptor* split = known.split;
  const SplitLayout layout = split->layout(known.query, known.config);
  const bool upper_only = split->configs[known.config].upper_triangle_only;
  const std::int64_t a_rows = r.problem == Problem::Gemm ? r.shape.M : r.shape.K;
  const std::int64_t a_cols = r.problem == Problem::Gemm ? r.shape.K : r.shape.N;
  const float side = std::min(ImGui::GetFontSize() * 12, ImGui::GetContentRegionAvail().x * 0.3f);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  auto picture = [&](const char* title, std::int64_t rows, std::int64_t cols, bool of_c) {
    ImGui::BeginGroup();
    ImGui::TextUnformatted(title);
    const float scale = side / static_cast<float>(std::max(rows, cols));
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const ImVec2 size(static_cast<float>(cols) * scale, static_cast<float>(rows) * scale);
    dl->AddRectFilled(o, ImVec2(o.x + size.x, o.y + size.y), ImGui::GetColorU32(ImGuiCol_FrameBg));
    for (std::size_t g = 0; g < layout.gpus.size(); ++g)
      for (const Block& b : of_c ? layout.gpus[g].c : layout.gpus[g].a) {
        const ImVec2 a(o.x + static_cast<float>(b.col0) * scale, o.y + static_cast<float>(b.row0) * scale);
        const ImVec2 z(a.x + static_cast<float>(b.cols) * scale, a.y + static_cast<float>(b.rows) * scale);
        dl->AddRectFilled(a, z, gpu_colour(static_cast<int>(g), SpanStream::Compute));
        dl->AddRect(a, z, IM_COL32(0, 0, 0, 160));
      }
    // A split that delivers C's upper triangle alone: the lower one is no GPU's result, whatever its
    // diagonal blocks hold below the diagonal.
    if (of_c && upper_only)
      dl->AddTriangleFilled(ImVec2(o.x, o.y), ImVec2(o.x, o.y + size.y), ImVec2(o.x + size.x, o.y + size.y),
                            ImGui::GetColorU32(ImGuiCol_FrameBg));
    ImGui::Dummy(ImVec2(std::max(size.x, side * 0.5f), size.y));
    ImGui::EndGroup();
  };
  picture("A when the run starts", a_rows, a_cols, false);
  ImGui::SameLine(0, ImGui::GetFontSize() * 2);
  picture(upper_only ? "C's upper triangle when it ends" : "C when it ends", r.shape.M, r.shape.N, true);
  ImGui::SameLine(0, ImGui::GetFontSize() * 2);
  ImGui::BeginGroup();
  for (int g = 0; g < r.gpus; ++g) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float f = ImGui::GetFontSize();
    dl->AddRectFilled(p, ImVec2(p.x + f, p.y + f), gpu_colour(g, SpanStream::Compute));
    ImGui::Dummy(ImVec2(f, f));
    ImGui::SameLine();
    ImGui::Text("GPU %d", g);
  }
  ImGui::EndGroup();
  if (split->own_kernel)
    ImGui::TextDisabled("The library deals C's blocks out to the GPUs inside its call, and brings them back.");
}

}  // namespace tilescope
