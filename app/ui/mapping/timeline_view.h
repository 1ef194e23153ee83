// The pipeline timeline of an instrumented run (kernels/instrument/timeline.h), drawn with ImGui's draw list:
// a row per block ("block b · SM s") with time across; in each row a thin lane per stage of the
// ring of shared-memory buffers holding the copies in flight into it (issued .. arrived) and a
// lane per consumer warpgroup holding its multiplications (started .. done), every bar in its
// stage's colour so that the ring shows; tile boundaries; the wheel zooms, a drag pans, Fit shows
// it all; hovering a bar names its block, slab, stage and tile with its times and durations; a
// legend, the summary line (viz/timeline_summary.h) and a caption saying what to look for.
#pragma once

#include <imgui.h>

#include <memory>
#include <string>
#include <vector>

#include "app/viz/timeline_summary.h"
#include "kernels/instrument/timeline.h"

namespace tilescope {

class TimelineView {
 public:
  // The result to draw (nullptr: none). A new one is summarised once and fitted.
  void show(std::shared_ptr<const TimelineResult> result);
  const std::shared_ptr<const TimelineResult>& shown() const { return result_; }
  const TimelineSummary& summary() const { return summary_; }
  // Controls, summary line, caption, legend and the bars, into the current window.
  void draw();
  // What the view shows and what to look for, in words; also shown where no recording could be
  // made (no GPU), so the learner knows what the picture would be.
  static void draw_explanation(int stages, int consumers);

  // The rows: blocks first .. first + count - 1 (clamped to the launch's blocks when drawn).
  void show_blocks(int first, int count) { first_ = first < 0 ? 0 : first, count_ = count < 1 ? 1 : count; }
  static constexpr int kMaxRows = 64;  // rows the control offers: beyond that a lane is a pixel high
  int first_block() const { return first_; }
  int block_count() const { return count_; }
  // The whole known span of the shown blocks, when the bars are drawn next (also after a new
  // result, which is fitted).
  void fit() { fit_pending_ = true, start_pending_ = false; }
  // The first three turns of the ring of the shown blocks (the "The start" button), likewise.
  void zoom_to_start() { start_pending_ = true; }

  // Where the last frame drew (the tests check pixels there): the screen x of a time in ns, and
  // the screen rows of a lane of the r-th shown row (lanes 0 .. stages - 1: the copies into that
  // stage; then one lane per consumer). A row that was not drawn has an empty span.
  float x_of(double ns) const;
  struct Span {
    float top = 0, bottom = 0;
  };
  Span lane_span(int row, int lane) const;
  int rows_drawn() const { return rows_drawn_; }

 private:
  // The shown rows' layout for one frame.
  struct Rows {
    int first = 0, count = 0;
    float top = 0;                             // screen y of the first row
    float height = 0;                          // one row, gap included
    std::vector<float> lane_top, lane_height;  // within a row
  };
  void draw_controls();
  void draw_summary_line() const;
  void draw_legend() const;
  void draw_canvas();
  Rows place_rows(float top, float height) const;
  void zoom_and_pan(bool hovered, bool active);
  void draw_axis(ImDrawList* dl, float top, float bottom) const;
  void draw_row(ImDrawList* dl, const Rows& rows, int r) const;
  void draw_tile_boundaries(ImDrawList* dl, const Rows& rows, int r) const;
  void hover(const Rows& rows) const;
  void fit_now();
  void zoom_to_start_now();

  std::shared_ptr<const TimelineResult> result_;
  TimelineSummary summary_;
  std::string first_violation_;  // timeline_order_violation of the first block that breaks one
  int first_ = 0, count_ = 8;
  double t0_ = 0, t1_ = 1;  // the time range across the bars, ns
  bool fit_pending_ = true;
  bool start_pending_ = false;
  // The last frame's geometry.
  float label_x_ = 0, bars_x0_ = 0, bars_x1_ = 1;
  Rows rows_;
  int rows_drawn_ = 0;
};

}  // namespace tilescope
