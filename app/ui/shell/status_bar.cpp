// The status bar: the last message on the left (an error in red with an x that dismisses it),
// the frame time and renderer on the right. The frame time is always on screen: a long message
// is shortened with "..." (the whole of it on hover) instead of pushing it off the line.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/ui/shell/app.h"
#include "app/ui/shell/text_fit.h"
#include "kernels/core/gemm_types.h"

namespace tilescope {

void App::draw_status_bar() {
  ImGui::Separator();
  if (csv_loader_.busy()) draw_csv_load_progress();  // ends on the same line
  const float em = ImGui::GetFontSize();
  const float spacing = ImGui::GetStyle().ItemSpacing.x;

  double median = 0;
  if (!frame_times_.empty()) {
    // The last 60 frames; an even count takes the mean of the two middle ones (median_of's rule).
    median = median_of(
        std::vector<double>(frame_times_.end() - std::min<std::size_t>(frame_times_.size(), 60), frame_times_.end()));
  }
  char frame_time[64], right[320];
  std::snprintf(frame_time, sizeof frame_time, "%.1f ms/frame", median);
  std::snprintf(right, sizeof right, "%s  |  %s", frame_time, host_.renderer().c_str());
  // The renderer gives way first, so that the message keeps at least half of the line.
  const float line_start = ImGui::GetCursorPosX();
  const float line_end = ImGui::GetWindowContentRegionMax().x;
  const char* shown_right = ImGui::CalcTextSize(right).x <= (line_end - line_start) * 0.5f ? right : frame_time;
  const float right_x = line_end - ImGui::CalcTextSize(shown_right).x;

  const bool dismissable = status_error_ && !status_.empty();
  const float dismiss_width =
      dismissable ? ImGui::CalcTextSize("x").x + ImGui::GetStyle().FramePadding.x * 2 + spacing : 0;
  const float message_width = std::max(0.0f, right_x - line_start - dismiss_width - em);
  if (status_.empty()) {
    fitted_text("Ready. R: run, S: sweep, L: live, Esc: cancel, F11: presenter mode, F12: screenshot.", message_width,
                ImGui::GetColorU32(ImGuiCol_TextDisabled));
  } else {
    fitted_text(status_, message_width, status_error_ ? IM_COL32(255, 115, 89, 255) : 0);
  }
  if (dismissable) {
    ImGui::SameLine();
    if (ImGui::SmallButton("x##dismiss_status")) dismiss_status();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Dismiss this message");
  }
  ImGui::SameLine(right_x);
  ImGui::TextDisabled("%s", shown_right);
}

}  // namespace tilescope
