// The tuning landscape drawn with ImDrawList, the same for the Tune tab and its PNG: a heatmap of
// GFLOP/s over two tile parameters (a sequential colour scale that reads on the dark, light and
// presenter themes), refused cells grey and hatched, failed cells crossed, the best cell starred
// with its value, shipped configurations outlined, both axes labelled with the parameters' names
// and values, a colour bar in GFLOP/s and a key.
#pragma once

#include <imgui.h>

#include "app/plot/landscape_model.h"

namespace tilescope {

struct LandscapeLayout {
  ImVec2 grid_min, grid_max;  // the cells
  float cell_w = 0, cell_h = 0;
  int nx = 0, ny = 0;
};

// Where the cells go inside [min, max] at this text size; `with_title` keeps room for the title.
LandscapeLayout layout_landscape(ImVec2 min, ImVec2 max, const LandscapeModel& m, float font_px, bool with_title);

// The cell under `p` (an index into m.cells), -1 when none.
int landscape_cell_at(const LandscapeLayout& l, ImVec2 p);

// Draws everything into [min, max]; `hovered` and `selected` cells (-1: none) get a frame.
// `fill_background`: paint the rectangle first (a PNG has no window behind it). Sizes grow with
// `scale` (an export at 4K). Returns the layout for hit tests.
LandscapeLayout draw_landscape(ImDrawList* dl, ImVec2 min, ImVec2 max, const LandscapeModel& m, float scale = 1.0f,
                               int hovered = -1, int selected = -1, bool fill_background = true);

// The colour scale at `level` in [0, 1]: dark blue-violet (slow) to yellow (fast).
ImU32 landscape_color(float level);
// The fill of a refused cell: grey, between the theme's background and its text.
ImU32 landscape_refused_color();

}  // namespace tilescope
