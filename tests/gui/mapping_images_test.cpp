// The mapping view's host path: images computed from the model, uploaded with glTexSubImage2D
// and drawn by ImGui under Mesa (EGL surfaceless in CI), checked pixel by pixel at known cells.
#include "app/viz/mapping_images.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include "app/platform/host.h"
#include "app/viz/gl_texture.h"
#include "kernels/core/registry.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

unsigned pixel(const Image& img, int x, int y) {
  const std::uint8_t* p = &img.rgba[(static_cast<std::size_t>(y) * img.width + x) * 4];
  return p[0] | (p[1] << 8) | (p[2] << 16) | 0xFF000000u;
}

std::unique_ptr<MappingModel> model_for(const VariantDescriptor& v, int config, Problem p, const Shape& s) {
  std::string why;
  auto m = make_mapping_model(v.id, config, p, s, &why);
  EXPECT_TRUE(m) << v.id << ":" << v.configs[static_cast<std::size_t>(config)].name << ": " << why;
  return m;
}

// A configuration whose block tile of C is side x side.
int square_tile(const VariantDescriptor& v, int side) {
  return tilescope::testing::config_where(
      v, [side](const TileConfig& c) { return c.bm == side && c.bn == side; }, "a square block tile of that side");
}

}  // namespace

TEST(MappingImages, CIsColouredByTheOwningBlockAndTheSelectedBlocksThreads) {
  const Shape s{40, 50, 30};  // ragged for 16 x 16 tiles
  // A shared-memory tiled kernel with 16 x 16 tiles, one thread per element, x along the row.
  const VariantDescriptor& v = tilescope::testing::tiled_kernel();
  ASSERT_EQ(tilescope::testing::facts_of(v).at("thread_to_c"), "x_along_row");
  const int config = square_tile(v, 16);
  ASSERT_EQ(v.configs[static_cast<std::size_t>(config)].threads_x, 16);
  auto m = model_for(v, config, Problem::Gemm, s);
  ASSERT_TRUE(m);
  const MappingImages img = render_mapping_images(*m, Problem::Gemm, s, 1, 0, 1024);
  ASSERT_EQ(img.c.width, 50);
  ASSERT_EQ(img.c.height, 40);
  const Dim2 grid = m->grid();
  // (5, 3) is in block (0, 0): a block colour, dimmed because another block is selected.
  EXPECT_EQ(pixel(img.c, 3, 5), block_color(0, true));
  // (20, 45) is in block (2, 1).
  EXPECT_EQ(pixel(img.c, 45, 20), block_color(1 * grid.x + 2, true));
  // (2, 17) is in the selected block (1, 0): thread (1, 2) of 16 x 16 -> thread colour 2 * 16 + 1.
  EXPECT_EQ(pixel(img.c, 17, 2), thread_color(2 * 16 + 1));
  // Heatmaps: every element of A read ceil(N / 16) = 4 times, the maximum, so the top colour.
  EXPECT_EQ(img.max_reads, 4);  // ceil(40 / 16) = 3 for B, ceil(50 / 16) = 4 for A
  EXPECT_EQ(pixel(img.a, 7, 7), heat_color(1.0));
  EXPECT_EQ(pixel(img.b, 7, 7), heat_color(3.0 / 4.0));
}

TEST(MappingImages, BigMatricesAreSampledNotSkipped) {
  const Shape s{3000, 2500, 100};
  const VariantDescriptor& v = tilescope::testing::prefetch_kernel();
  auto m = model_for(v, tilescope::testing::fact_config(v, tilescope::testing::facts_of(v).at("large_config")),
                     Problem::Gemm, s);
  ASSERT_TRUE(m);
  const MappingImages img = render_mapping_images(*m, Problem::Gemm, s, -1, -1, 512);
  EXPECT_EQ(img.c.width, 512);
  EXPECT_EQ(img.c.height, 512);
  EXPECT_EQ(img.c_rows, 3000);
  // The last pixel shows the block of the element it samples: row 2994, col 2495.
  const Owner o = m->owner(511LL * 3000 / 512, 511LL * 2500 / 512);
  EXPECT_EQ(pixel(img.c, 511, 511), block_color(o.block_linear(m->grid()), false));
}

TEST(MappingImages, UploadedTextureIsDrawnPixelForPixel) {
  HostOptions o;
  o.width = 200;
  o.height = 120;
  std::string error;
  auto host = create_headless_host(o, &error);
  ASSERT_TRUE(host) << error;
  const Shape s{48, 64, 20};
  const VariantDescriptor& v = tilescope::testing::one_phase_kernel();
  auto m = model_for(v, square_tile(v, 16), Problem::Gemm, s);
  ASSERT_TRUE(m);
  const MappingImages img = render_mapping_images(*m, Problem::Gemm, s, -1, -1, 1024);
  GlTexture tex;
  tex.upload(img.c);
  ASSERT_TRUE(tex.valid());
  host->begin_frame();
  // One element per pixel at (10, 20): pixel (10 + j, 20 + i) shows C(i, j)'s block.
  ImGui::GetForegroundDrawList()->AddImage(tex.imgui_id(), ImVec2(10, 20), ImVec2(10 + 64, 20 + 48));
  host->request_capture();
  host->end_frame();
  Image shot;
  ASSERT_TRUE(host->take_capture(&shot, &error)) << error;
  const int grid_x = m->grid().x;
  for (int i : {0, 15, 16, 31, 47})
    for (int j : {0, 15, 16, 40, 63}) {
      const int block = (i / 16) * grid_x + (j / 16);
      EXPECT_EQ(pixel(shot, 10 + j, 20 + i), block_color(block, false)) << "C(" << i << ", " << j << ")";
    }
}

TEST(MappingImages, CublasHasNoModelAndSaysWhy) {
  const VariantDescriptor& v = tilescope::testing::baseline();
  ASSERT_EQ(v.model, nullptr) << "the library's mapping is not known";
  ASSERT_STRNE(v.no_model_reason, "");
  std::string why;
  EXPECT_EQ(make_mapping_model(v.id, v.default_config, Problem::Gemm, Shape{8, 8, 8}, &why), nullptr);
  EXPECT_EQ(why, v.no_model_reason);
  EXPECT_NE(why.find("cuBLAS"), std::string::npos) << why;
}
