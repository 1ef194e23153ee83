// The timing plot as a PNG at a chosen resolution, rendered offscreen: one extra ImGui frame
// whose display is a framebuffer object of that size, holding nothing but the plot (title,
// axes, legend, device and date). What overlaps the window on screen never ends up in the file.
// Used by the window's Export menu and by `tilescope plot` (headless).
#pragma once

#include <string>
#include <vector>

#include "app/platform/image.h"
#include "app/plot/plot_widget.h"
#include "app/plot/roofline_model.h"

namespace tilescope {

// What to draw: the series, reference lines and style the window's plot shows, and its axes.
struct PlotImage {
  PlotStyle style;
  std::vector<PlotSeriesData> series;
  std::vector<ReferenceLine> refs;
  Axis x, y;
};

// The sides a plot PNG may have, in pixels: what the writers check and the commands promise.
constexpr int kMinPlotImageSide = 64, kMaxPlotImageSide = 8192;

// Needs a current GL context with an ImGui context and its OpenGL3 backend (a Host), between
// frames. False and *error on a bad size (kMinPlotImageSide to kMaxPlotImageSide on each side),
// an empty plot, or a failed render or write; nothing is left behind then.
bool write_plot_png(const std::string& path, int width, int height, const PlotImage& plot, std::string* error);

// The Roofline view (plot/roofline_render.h) the same way: its points, roofs, ridge points and
// notes, title and footer. Unlike the timing plot it renders without points too (the roofs
// alone, or the note that no roofs are known), but not with neither.
bool write_roofline_png(const std::string& path, int width, int height, const RooflineData& roofline,
                        std::string* error);

// The same two pictures rendered into *out without writing them, for a caller that writes the
// PNG elsewhere (the window: export/png_write_queue.h). The same checks and errors.
bool render_plot_image(int width, int height, const PlotImage& plot, Image* out, std::string* error);
bool render_roofline_image(int width, int height, const RooflineData& roofline, Image* out, std::string* error);

}  // namespace tilescope
