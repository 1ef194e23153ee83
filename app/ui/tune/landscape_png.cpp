#include "app/ui/tune/landscape_png.h"

#include <imgui.h>

#include <algorithm>
#include <memory>

#include "app/export/png_writer.h"
#include "app/platform/host.h"
#include "app/plot/landscape_render.h"
#include "app/ui/tune/tune_landscape.h"

namespace tilescope {

bool write_landscape_png(const std::string& path, int width, int height, const TuneTable& table,
                         const std::string& x_key, const std::string& y_key, std::string* error) {
  if (table.points.empty()) {
    *error = "the landscape has no points to draw";
    return false;
  }
  const LandscapeModel model = build_landscape(landscape_input(table, x_key, y_key));
  // A host of the picture's size: its one frame is the picture, nothing else drawn in it.
  HostOptions options;
  options.width = width;
  options.height = height;
  std::unique_ptr<Host> host = create_headless_host(options, error);
  if (!host) return false;
  host->begin_frame();
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  // Text grows with the picture, as the plot export's does: a 4K landscape reads like a larger 1080p one.
  const float scale = std::max(1.0f, size.y / 720.0f) * (17.0f / ImGui::GetFontSize());
  draw_landscape(ImGui::GetBackgroundDrawList(), ImVec2(0, 0), size, model, scale);
  host->request_capture();
  host->end_frame();
  Image image;
  return host->take_capture(&image, error) && write_png(path, image, error);
}

}  // namespace tilescope
