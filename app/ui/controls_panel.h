// The controls column: the device line, problem, sizes, precision, the lesson's variants
// (tick, configuration, focus), Run / Sweep / Live / Cancel, and the progress of the work.
#pragma once

#include <string>

#include "ui/app_state.h"
#include "ui/tab.h"

namespace tilescope {

// Why a lesson row is drawn greyed: its variant cannot compute the chosen problem and input type
// (variant_refusal's reason); "" when it can.
std::string lesson_row_refusal(const AppState& state, const LessonEntry& e);

class ControlsPanel : public Panel {
 public:
  void draw(TabContext& ctx) override;

 private:
  void draw_focused_variant(TabContext& ctx);
  void draw_lesson_table(TabContext& ctx);
  void draw_run_buttons(TabContext& ctx);
  void draw_progress(TabContext& ctx);
};

}  // namespace tilescope
