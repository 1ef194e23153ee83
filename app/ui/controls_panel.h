// The controls column: the device line, problem, sizes, precision, the lesson's variants
// (tick, configuration, focus), Run / Sweep / Live / Cancel, and the progress of the work.
#pragma once

#include "ui/tab.h"

namespace tilescope {

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
