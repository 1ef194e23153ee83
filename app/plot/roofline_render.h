// The Roofline view's drawing, from its layout (roofline_layout.h: where the legend and every
// label go, the same for the window and the PNG export): the timing plot's frame (plot_render:
// axes, grid, ticks, legend, the points, the compute roofs as dashed horizontal lines), then the
// bandwidth roofs as slanted lines up to the top compute roof, the ridge points, and the labels
// of the roofs and ridge points where the placement put them. The interactive widget adds legend
// toggling and a tooltip per point and per roof; the PNG export (export/plot_image.h) draws the
// same with title, footer and the notes as a caption.
#pragma once

#include <imgui.h>

#include "app/plot/roofline_model.h"

namespace tilescope {

// Interactive: fills `size` (0 = the available width / height). Clicking a legend entry hides
// or shows its series (in data.series). The caller shows data.notes (the export draws them
// under the plot).
void roofline_widget(const char* id, RooflineData& data, ImVec2 size);

// Non-interactive, with title, footer and the notes, into [min, max] (the export and tests).
void draw_roofline(ImDrawList* draw_list, ImVec2 min, ImVec2 max, const RooflineData& data, float scale = 1.0f);

}  // namespace tilescope
