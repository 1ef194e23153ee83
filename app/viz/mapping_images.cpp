#include "app/viz/mapping_images.h"

#include <algorithm>
#include <cmath>

#include "app/viz/colors.h"

namespace tilescope {

namespace {

void put(Image& img, int x, int y, unsigned c) {
  std::uint8_t* p = &img.rgba[(static_cast<std::size_t>(y) * img.width + x) * 4];
  p[0] = c & 0xFF;
  p[1] = (c >> 8) & 0xFF;
  p[2] = (c >> 16) & 0xFF;
  p[3] = 0xFF;
}

// The image side for a matrix side: one element per pixel up to max_side, sampled beyond.
int side_for(std::int64_t n, int max_side) {
  return static_cast<int>(std::min<std::int64_t>(n, max_side));
}
std::int64_t sample(int pixel, int pixels, std::int64_t n) {
  return static_cast<std::int64_t>(pixel) * n / pixels;
}

Image heatmap(const MappingModel& model, bool of_a, std::int64_t rows, std::int64_t cols, std::int64_t max_reads,
              int max_side) {
  Image img;
  if (rows <= 0 || cols <= 0) return img;
  img.width = side_for(cols, max_side);
  img.height = side_for(rows, max_side);
  img.rgba.assign(static_cast<std::size_t>(img.width) * img.height * 4, 0);
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const std::int64_t r = sample(y, img.height, rows), c = sample(x, img.width, cols);
      const std::int64_t n = of_a ? model.a_reads(r, c) : model.b_reads(r, c);
      put(img, x, y, heat_color(max_reads > 0 ? static_cast<double>(n) / max_reads : 0));
    }
  return img;
}

}  // namespace

MappingImages render_mapping_images(const MappingModel& model, Problem problem, const Shape& shape_in,
                                    int selected_block_x, int selected_block_y, int max_side,
                                    ThreadColouring colouring) {
  const Shape s = normalised(problem, shape_in);
  MappingImages out;
  out.c_rows = s.M;
  out.c_cols = s.N;
  out.a_rows = problem == Problem::Gemm ? s.M : s.K;
  out.a_cols = problem == Problem::Gemm ? s.K : s.N;
  out.b_rows = problem == Problem::Gemm ? s.K : 0;
  out.b_cols = problem == Problem::Gemm ? s.N : 0;

  const Dim2 grid = model.grid(), block = model.block();
  Image& c = out.c;
  c.width = side_for(s.N, max_side);
  c.height = side_for(s.M, max_side);
  c.rgba.assign(static_cast<std::size_t>(c.width) * c.height * 4, 0);
  for (int y = 0; y < c.height; ++y)
    for (int x = 0; x < c.width; ++x) {
      const Owner o = model.owner(sample(y, c.height, s.M), sample(x, c.width, s.N));
      unsigned col = 0xFF000000u;
      if (o.block_x >= 0) {
        const bool selected = o.block_x == selected_block_x && o.block_y == selected_block_y;
        col = selected ? selected_block_color(colouring, o.thread_linear(block), block.x, o.slot)
                       : block_color(o.block_linear(grid), selected_block_x >= 0 || o.mirrored);
      }
      put(c, x, y, col);
    }

  // The heatmaps share one scale, so A and B compare at a glance.
  auto max_over = [&](bool of_a, std::int64_t rows, std::int64_t cols) {
    std::int64_t m = 0;
    for (int y = 0; y < side_for(rows, max_side); ++y)
      for (int x = 0; x < side_for(cols, max_side); ++x) {
        const std::int64_t r = sample(y, side_for(rows, max_side), rows),
                           cc = sample(x, side_for(cols, max_side), cols);
        m = std::max(m, of_a ? model.a_reads(r, cc) : model.b_reads(r, cc));
      }
    return m;
  };
  out.max_reads =
      std::max(max_over(true, out.a_rows, out.a_cols), out.b_rows > 0 ? max_over(false, out.b_rows, out.b_cols) : 0);
  out.a = heatmap(model, true, out.a_rows, out.a_cols, out.max_reads, max_side);
  if (out.b_rows > 0) out.b = heatmap(model, false, out.b_rows, out.b_cols, out.max_reads, max_side);
  return out;
}

}  // namespace tilescope
