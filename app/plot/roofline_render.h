// The Roofline view's drawing: the timing plot's frame (plot_render: axes, grid, ticks, legend,
// the points, the compute roofs as labelled horizontal lines), then the bandwidth roofs as
// slanted lines up to the top compute roof, the ridge points with their intensity, and the
// view's notes. The interactive widget adds legend toggling and a tooltip per point; the PNG
// export (export/plot_image.h) draws the same with title and footer.
#pragma once

#include <imgui.h>

#include "plot/roofline_model.h"

namespace tilescope {

// Interactive: fills `size` (0 = the available width / height). Clicking a legend entry hides
// or shows its series (in data.series). The caller shows data.notes (the export draws them in
// the plot).
void roofline_widget(const char* id, RooflineData& data, ImVec2 size);

// Non-interactive, with title and footer, into [min, max] (the export and tests).
void draw_roofline(ImDrawList* draw_list, ImVec2 min, ImVec2 max, const RooflineData& data, float scale = 1.0f);

}  // namespace tilescope
