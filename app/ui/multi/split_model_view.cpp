#include "app/ui/multi/split_model_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/runner/timing_history.h"
#include "app/ui/shell/widgets.h"
#include "app/viz/colors.h"
#include "app/viz/speedup_plot.h"
#include "kernels/core/text_format.h"

namespace tilescope {
namespace {

// One colour per split, far from each other and from the GPUs' blues and reds.
ImU32 split_colour(std::size_t i) {
  return hsv_colour(std::fmod(0.08 + 0.382 * static_cast<double>(i), 1.0), 0.8, 0.82);
}

// A line of dashes from a to b (the ideal: drawn, but fainter than any measurement).
void dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour, float dash, float thickness) {
  const float dx = b.x - a.x, dy = b.y - a.y, length = std::sqrt(dx * dx + dy * dy);
  if (length <= 0) return;
  for (float t = 0; t < length; t += 2 * dash) {
    const float u = std::min(t + dash, length);
    dl->AddLine(ImVec2(a.x + dx * t / length, a.y + dy * t / length),
                ImVec2(a.x + dx * u / length, a.y + dy * u / length), colour, thickness);
  }
}

}  // namespace

// The shown product's rows, copied once per change of the history or of the run shown (the history
// may hold a million rows; the product, a handful), and their predictions.
void SplitModelView::refresh(const TimingHistory& history, std::size_t shown_row, const RunResult& shown) {
  if (history.version() == version_ && shown_row == row_) return;
  version_ = history.version();
  row_ = shown_row;
  rows_.clear();
  model_.clear();
  bool one_gpu = false, link = false;
  const auto all = history.rows();
  for (const RunResult& r : *all)
    if (r.ok() && same_product(r, shown)) {
      rows_.push_back(r);
      one_gpu = one_gpu || r.split.empty();
      link = link || (!r.split.empty() && link_of(r).known());
    }
  model_ = predict_splits_from_rows(rows_);
  if (!one_gpu)
    missing_ =
        "The model predicts from the kernel's time alone on one GPU: the history holds no run of this product on "
        "one GPU (bench and Run run it before the splits).";
  else if (!link)
    missing_ =
        "These runs carry no measured link between the GPUs, which the model needs: `tilescope bench --gpus 1,2 "
        "--split ...` on a machine with two GPUs or more measures it and writes it into its CSV and JSON, and Run "
        "in the window measures it after the first split run on that many GPUs.";
  else
    missing_ = "This program has no model of these splits (a library's schedule is its own).";
}

void SplitModelView::draw(const TimingHistory& history, std::size_t shown_row, const RunResult& shown,
                          const std::string& link_error) {
  refresh(history, shown_row, shown);
  if (model_.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", missing_.c_str());
    if (!link_error.empty()) ImGui::TextDisabled("The window's last try: %s.", link_error.c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  const LinkFigures& link = model_.front().link;
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(
      format("Measured (dots) and as the model predicts it (lines) from the kernel's time alone on one GPU and "
             "the link measured between the GPUs: %.1f us a collective, %.0f GB/s broadcast, %.0f GB/s reduce.",
             link.latency_us, link.broadcast_gbs, link.reduce_gbs)
          .c_str());
  ImGui::PopTextWrapPos();
  if (ImGui::RadioButton("speed-up", shows_ == ModelAxis::Speedup)) shows_ = ModelAxis::Speedup;
  help_tooltip("How many times as fast as the kernel alone on one GPU. The diagonal: N GPUs, N times as fast.");
  ImGui::SameLine();
  if (ImGui::RadioButton("efficiency", shows_ == ModelAxis::Efficiency)) shows_ = ModelAxis::Efficiency;
  help_tooltip("The speed-up over the number of GPUs: how much of each GPU the split puts to use (100%: all).");
  draw_plot(shown);
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled(
      "The model assumes a piece runs at the whole product's rate and a link as fast for 64 GPUs as for 2: "
      "optimistic at high counts (docs/MULTI_GPU.md).");
  ImGui::PopTextWrapPos();
}

void SplitModelView::draw_plot(const RunResult& shown) {
  const float f = ImGui::GetFontSize();
  const std::vector<std::string> names = split_names(model_);
  // The legend: each split's name and what it comes to on the most GPUs predicted.
  std::vector<std::string> legend;
  const char* ideal = shows_ == ModelAxis::Speedup ? "ideal: N GPUs, N times as fast" : "ideal: every GPU in use";
  float legend_w = std::max(text_width(ideal), text_width("dot: measured; line: model"));
  for (std::size_t i = 0; i < model_.size(); ++i) {
    const PredictedPoint& last = model_[i].points.back();
    legend.push_back(
        format("%d GPUs: %.1fx (%.0f%%)", last.gpus, last.prediction.speedup, 100.0 * last.prediction.efficiency));
    legend_w = std::max({legend_w, text_width(names[i].c_str()), text_width(legend.back().c_str())});
  }
  legend_w += f * 2.5f;

  const float y_labels_w = text_width("1/64x") + f * 0.5f;
  const float avail = ImGui::GetContentRegionAvail().x;
  const bool legend_beside = avail >= legend_w + f * 18;
  const float visible_h = ImGui::GetWindowHeight();
  // The section whole on a projector's screen once scrolled to: its heading, words and axes' labels
  // take about ten lines.
  const float plot_h = std::clamp(visible_h - f * 10.5f, f * 8, f * 16);
  const float plot_w =
      std::max(f * 12, std::min(avail - y_labels_w - (legend_beside ? legend_w + f * 1.5f : 0) - f, plot_h * 2.4f));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float x0 = origin.x + y_labels_w, y0 = origin.y + f * 1.5f, x1 = x0 + plot_w, y1 = y0 + plot_h;
  const SpeedupPlot plot = lay_out_speedup_plot(model_, shows_, x0, y0, x1, y1);

  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), faint = ImGui::GetColorU32(ImGuiCol_TextDisabled),
              grid = ImGui::GetColorU32(ImGuiCol_Border);
  const float line_w = std::max(1.5f, f * 0.12f);
  dl->AddText(ImVec2(origin.x, origin.y), text,
              shows_ == ModelAxis::Speedup ? "speed-up over one GPU" : "efficiency: speed-up / GPUs");
  for (double v : plot.y_ticks()) {
    const float y = plot.tick_y(v);
    dl->AddLine(ImVec2(x0, y), ImVec2(x1, y), grid);
    const std::string label = plot.y_label(v);
    dl->AddText(ImVec2(x0 - f * 0.3f - text_width(label.c_str()), y - f * 0.5f), text, label.c_str());
  }
  for (double v : plot.gpus.ticks()) {
    const float x = plot.gpus.at(v);
    dl->AddLine(ImVec2(x, y0), ImVec2(x, y1), grid);
    const std::string label = format("%g", v);
    dl->AddText(ImVec2(x - text_width(label.c_str()) / 2, y1 + f * 0.2f), text, label.c_str());
  }
  dl->AddRect(ImVec2(x0, y0), ImVec2(x1, y1), faint);
  const char* x_title = "GPUs";
  dl->AddText(ImVec2((x0 + x1) / 2 - text_width(x_title) / 2, y1 + f * 1.3f), text, x_title);

  dl->PushClipRect(ImVec2(x0, y0), ImVec2(x1 + 1, y1 + 1), true);
  const int most = static_cast<int>(plot.gpus.hi);
  dashed_line(dl, ImVec2(plot.gpus.at(1), plot.y_of(1, 1)), ImVec2(plot.gpus.at(most), plot.y_of(most, most)), faint,
              f * 0.4f, line_w);
  const float dot = f * 0.32f;
  for (std::size_t s = 0; s < model_.size(); ++s) {
    const ImU32 colour = split_colour(s);
    std::vector<ImVec2> line;
    for (const PredictedPoint& p : model_[s].points)
      line.push_back(ImVec2(plot.gpus.at(p.gpus), plot.y_of(p.prediction.speedup, p.gpus)));
    dl->AddPolyline(line.data(), static_cast<int>(line.size()), colour, 0, line_w);
    for (const ImVec2& at : line) dl->AddCircleFilled(at, dot * 0.55f, colour);
    for (const PredictedPoint& p : model_[s].points) {
      if (p.measured_speedup <= 0) continue;
      const ImVec2 at(plot.gpus.at(p.gpus), plot.y_of(p.measured_speedup, p.gpus));
      dl->AddCircleFilled(at, dot, colour);
      dl->AddCircle(at, dot, IM_COL32(0, 0, 0, 200), 0, f * 0.08f);
      const RunResult& r = *model_[s].example;
      if (r.split == shown.split && r.split_config == shown.split_config && p.gpus == shown.gpus)
        dl->AddCircle(at, dot * 1.8f, text, 0, line_w);  // the run the tab shows above
    }
  }
  dl->PopClipRect();

  ImGui::SetCursorScreenPos(ImVec2(x0, y0));
  ImGui::InvisibleButton("model plot", ImVec2(plot_w, plot_h));
  if (ImGui::IsItemHovered()) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const PointHit hit = point_at(plot, model_, mouse.x, mouse.y, f * 0.7f);
    if (hit.found()) {
      // The point's figures, then the other splits' at the same count (their points may lie on it).
      const int gpus = model_[static_cast<std::size_t>(hit.split)].points[hit.point].gpus;
      ImGui::BeginTooltip();
      for (std::size_t k = 0; k < model_.size(); ++k) {
        const std::size_t s = (static_cast<std::size_t>(hit.split) + k) % model_.size();
        for (const PredictedPoint& p : model_[s].points) {
          if (p.gpus != gpus) continue;
          if (k > 0) ImGui::Separator();
          ImGui::TextUnformatted(point_words(names[s], p).c_str());
          std::string times =
              "one GPU " + format_ms(model_[s].one_gpu_ms) + "; predicted " + format_ms(p.prediction.ms);
          if (p.measured_ms > 0) times += ", measured " + format_ms(p.measured_ms);
          if (p.prediction.exposed_transfer_ms > 0)
            times += "; transfers not hidden " + format_ms(p.prediction.exposed_transfer_ms);
          ImGui::TextDisabled("%s", times.c_str());
        }
      }
      ImGui::EndTooltip();
    }
  }
  const float below = y1 + f * 2.6f;

  // The legend: beside the plot where the width allows, else under it.
  ImVec2 at = legend_beside ? ImVec2(x1 + f * 1.5f, y0) : ImVec2(origin.x, below);
  for (std::size_t s = 0; s < model_.size(); ++s) {
    const ImU32 colour = split_colour(s);
    dl->AddLine(ImVec2(at.x, at.y + f * 0.55f), ImVec2(at.x + f * 1.6f, at.y + f * 0.55f), colour, line_w);
    dl->AddCircleFilled(ImVec2(at.x + f * 0.8f, at.y + f * 0.55f), dot, colour);
    dl->AddText(ImVec2(at.x + f * 2.2f, at.y), text, names[s].c_str());
    dl->AddText(ImVec2(at.x + f * 2.2f, at.y + f * 1.15f), faint, legend[s].c_str());
    at.y += f * 2.6f;
  }
  dashed_line(dl, ImVec2(at.x, at.y + f * 0.55f), ImVec2(at.x + f * 1.6f, at.y + f * 0.55f), faint, f * 0.3f, line_w);
  dl->AddText(ImVec2(at.x + f * 2.2f, at.y), faint, ideal);
  at.y += f * 1.3f;
  dl->AddText(ImVec2(at.x + f * 2.2f, at.y), faint, "dot: measured; line: model");
  at.y += f * 1.3f;

  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(ImVec2(avail, std::max(below, at.y) - origin.y));
}

}  // namespace tilescope
