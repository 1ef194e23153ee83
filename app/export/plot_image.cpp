#include "app/export/plot_image.h"

#include <GL/gl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>

#include "app/export/png_writer.h"
#include "app/platform/render_target.h"
#include "app/plot/roofline_render.h"

namespace tilescope {

namespace {

bool size_ok(int width, int height, std::string* error) {
  if (width < kMinPlotImageSide || height < kMinPlotImageSide || width > kMaxPlotImageSide ||
      height > kMaxPlotImageSide) {
    *error = "plot export: the size must be between " + std::to_string(kMinPlotImageSide) + " and " +
             std::to_string(kMaxPlotImageSide) + " pixels on each side";
    return false;
  }
  return true;
}

// One extra ImGui frame of the export's size, drawn by `draw(draw_list, size, scale)` and read
// back into *image. Everything is drawn into the background draw list, so no window
// of the UI takes part; sizes scale with the height so a 4K export looks like a larger 1080p one.
template <typename Draw>
bool render(int width, int height, const Draw& draw, Image* image, std::string* error) {
  RenderTarget target;
  if (!target.resize(width, height, error)) return false;
  ImGuiIO& io = ImGui::GetIO();
  const ImVec2 saved_size = io.DisplaySize;
  const ImVec2 saved_scale = io.DisplayFramebufferScale;
  io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  ImGui::NewFrame();
  const float scale = std::max(1.0f, height / 720.0f) * (17.0f / ImGui::GetFontSize());
  draw(ImGui::GetBackgroundDrawList(), io.DisplaySize, scale);
  ImGui::Render();
  target.bind();
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  const bool read = target.read(image, error);
  RenderTarget::unbind();
  io.DisplaySize = saved_size;
  io.DisplayFramebufferScale = saved_scale;
  return read;
}

}  // namespace

bool render_plot_image(int width, int height, const PlotImage& plot, Image* out, std::string* error) {
  if (!size_ok(width, height, error)) return false;
  if (plot.series.empty()) {
    *error = "plot export: nothing to plot yet (run something first)";
    return false;
  }
  return render(
      width, height,
      [&](ImDrawList* dl, ImVec2 size, float scale) {
        draw_plot(dl, ImVec2(0, 0), size, plot.style, plot.series, plot.refs, plot.x, plot.y, scale);
      },
      out, error);
}

bool render_roofline_image(int width, int height, const RooflineData& roofline, Image* out, std::string* error) {
  if (!size_ok(width, height, error)) return false;
  if (roofline.series.empty() && !roofline.has_roofs) {
    *error = "roofline export: no results and no roofs to plot yet";
    return false;
  }
  return render(
      width, height,
      [&](ImDrawList* dl, ImVec2 size, float scale) { draw_roofline(dl, ImVec2(0, 0), size, roofline, scale); }, out,
      error);
}

bool write_plot_png(const std::string& path, int width, int height, const PlotImage& plot, std::string* error) {
  Image image;
  return render_plot_image(width, height, plot, &image, error) && write_png(path, image, error);
}

bool write_roofline_png(const std::string& path, int width, int height, const RooflineData& roofline,
                        std::string* error) {
  Image image;
  return render_roofline_image(width, height, roofline, &image, error) && write_png(path, image, error);
}

}  // namespace tilescope
