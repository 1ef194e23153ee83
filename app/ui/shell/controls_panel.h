// The controls column: the device line, problem, sizes, precision, the lesson's variants
// (tick, configuration, focus), Run / Sweep / Live / Cancel, and the progress of the work.
#pragma once

#include <optional>
#include <string>

#include "app/ui/shell/app_state.h"
#include "app/ui/shell/tab.h"
#include "app/ui/shell/tile_editor.h"
#include "kernels/core/variant.h"

namespace tilescope {

// Why a lesson row is drawn greyed: its variant cannot compute the chosen problem and input type
// (variant_refusal's reason); "" when it can.
std::string lesson_row_refusal(const AppState& state, const LessonEntry& e);
// Why a lesson row's variant cannot run at all here (a CUDA variant without a usable GPU): the
// row is unticked and greyed, with this on hover; "" when it can.
std::string lesson_row_unavailable(const TabContext& ctx, const VariantDescriptor& v);

class ControlsPanel : public Panel {
 public:
  // The column's width in a window `window_width` pixels wide, asked before draw(): the whole
  // column, or, where the tabs beside would be too narrow (presenter mode on a projector, big
  // text), a rail of the action buttons. The toggle at the column's top chooses otherwise until
  // the window crosses that width again.
  float column_width(const AppState& state, float window_width);
  // The buttons pinned at the top and the settings below them, which scroll; or the rail.
  void draw(TabContext& ctx) override;
  // What the toggle at the column's top does: the whole column (true) or the rail (false).
  void set_open(bool open) { user_open_ = open; }
  // The focused variant's tile editor (drawn under its story where the variant takes typed tiles).
  TileEditor& tile_editor() { return tile_editor_; }

 private:
  int gpu_count_ = -1;  // CUDA GPUs of the machine, asked once
  void draw_actions(TabContext& ctx);
  void draw_rail(TabContext& ctx);
  void draw_action_buttons(TabContext& ctx, bool stacked);
  void draw_settings(TabContext& ctx);
  void draw_focused_variant(TabContext& ctx);
  void draw_lesson_table(TabContext& ctx);
  void draw_gpus(TabContext& ctx);
  void draw_size_cap(TabContext& ctx);
  void draw_sweep_range(TabContext& ctx);
  void draw_progress(TabContext& ctx);

  bool collapsed_ = false;         // drawn as the rail
  bool wide_ = true;               // the window had room for the whole column
  std::optional<bool> user_open_;  // the toggle's choice, until the window crosses the line
  TileEditor tile_editor_;
};

}  // namespace tilescope
