// The tuning landscape (app/plot/landscape_model.h, landscape_render.h): a cell is the best point
// over the other parameters, refusals keep their reason, the best cell and the shipped
// configurations are found; drawn under Mesa, the best cell has the top colour of the scale and a
// refused cell is grey.
#include "app/plot/landscape_model.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <string>
#include <vector>

#include "app/plot/landscape_render.h"
#include "app/ui/tune/tune_landscape.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/image_checks.h"

namespace tilescope {
namespace {

LandscapePoint point(int x, int y, int z, LandscapeStatus s, double gflops, const std::string& reason = "") {
  return {{{"x", x}, {"y", y}, {"z", z}}, s, reason, gflops, gflops / 10};
}

// 3 x 2 cells over x and y, two points per cell (z = 1, 2).
LandscapeInput sample() {
  LandscapeInput in;
  in.x_key = "x";
  in.y_key = "y";
  in.points = {
      point(8, 1, 1, LandscapeStatus::Ok, 100),
      point(8, 1, 2, LandscapeStatus::Ok, 300),
      point(16, 1, 1, LandscapeStatus::Ok, 900),
      point(16, 1, 2, LandscapeStatus::Failed, 5000, "wrong"),
      point(32, 1, 1, LandscapeStatus::Refused, 0, "too many threads"),
      point(32, 1, 2, LandscapeStatus::Refused, 0, "too much shared memory"),
      point(8, 2, 1, LandscapeStatus::Error, 0, "does not compile"),
      point(8, 2, 2, LandscapeStatus::Refused, 0, "too many threads"),
      point(16, 2, 1, LandscapeStatus::Pending, 0),
      point(16, 2, 2, LandscapeStatus::Refused, 0, "r"),
      point(32, 2, 1, LandscapeStatus::Ok, 500),
      point(32, 2, 2, LandscapeStatus::Ok, 200),
  };
  in.shipped = {{"a shipped one", {{"x", 32}, {"y", 2}, {"z", 1}}}, {"off the grid", {{"x", 64}, {"y", 2}, {"z", 1}}}};
  in.title = "a landscape";
  return in;
}

TEST(LandscapeModel, ACellIsTheBestPointOverTheOtherParameters) {
  const LandscapeModel m = build_landscape(sample());
  ASSERT_EQ(m.x_values, (std::vector<int>{8, 16, 32}));
  ASSERT_EQ(m.y_values, (std::vector<int>{1, 2}));
  EXPECT_EQ(m.at(0, 0).status, LandscapeStatus::Ok);
  EXPECT_DOUBLE_EQ(m.at(0, 0).gflops, 300);
  EXPECT_EQ(m.at(0, 0).point, 1);  // which point it was
  EXPECT_EQ(m.at(0, 0).ok_points, 2);
  // A failed point never counts as fast, but the cell says one failed.
  EXPECT_DOUBLE_EQ(m.at(1, 0).gflops, 900);
  EXPECT_EQ(m.at(1, 0).failed_points, 1);
  EXPECT_NE(landscape_cell_text(m, m.at(1, 0)).find("FAILED"), std::string::npos);
  // Refused everywhere: the reason stays.
  EXPECT_EQ(m.at(2, 0).status, LandscapeStatus::Refused);
  EXPECT_EQ(m.at(2, 0).reason, "too many threads");
  EXPECT_NE(landscape_cell_text(m, m.at(2, 0)).find("refused: too many threads"), std::string::npos);
  // An error outranks a refusal; a point still to run outranks a refusal.
  EXPECT_EQ(m.at(0, 1).status, LandscapeStatus::Error);
  EXPECT_EQ(m.at(1, 1).status, LandscapeStatus::Pending);
}

TEST(LandscapeModel, TheBestCellAndTheShippedConfigurationsOnTheGrid) {
  const LandscapeModel m = build_landscape(sample());
  ASSERT_GE(m.best, 0);
  EXPECT_EQ(m.cells[m.best].x, 1);
  EXPECT_EQ(m.cells[m.best].y, 0);
  EXPECT_DOUBLE_EQ(m.min_gflops, 300);
  EXPECT_DOUBLE_EQ(m.max_gflops, 900);
  EXPECT_FLOAT_EQ(landscape_level(m, 900), 1.0f);
  EXPECT_EQ(m.at(2, 1).shipped, "a shipped one");
  for (const LandscapeCell& c : m.cells) {
    // "off the grid" is flagged nowhere.
    if (&c != &m.at(2, 1)) {
      EXPECT_EQ(c.shipped, "") << c.x << "," << c.y;
    }
  }
  EXPECT_NE(landscape_cell_text(m, m.at(2, 1)).find("shipped configuration: a shipped one"), std::string::npos);
}

TEST(LandscapeModel, OneSweptParameterIsOneRowAndNoPointsNoCells) {
  LandscapeInput in = sample();
  in.y_key = "";
  const LandscapeModel m = build_landscape(in);
  EXPECT_EQ(m.y_values.size(), 1u);
  EXPECT_DOUBLE_EQ(m.at(0, 0).gflops, 300);
  EXPECT_DOUBLE_EQ(m.at(2, 0).gflops, 500);
  in.points.clear();
  EXPECT_TRUE(build_landscape(in).empty());
}

TEST(LandscapeModel, ATuneTableBecomesTheInputWithItsOutcomes) {
  TuneTable t;
  t.variant = "not a variant of this program";
  t.keys = {"x"};
  TunePoint p;
  p.values = {{"x", 4}};
  p.status = TuneStatus::Failed;
  p.reason = "wrong";
  t.points = {p};
  const LandscapeInput in = landscape_input(t, "x", "");
  ASSERT_EQ(in.points.size(), 1u);
  EXPECT_EQ(in.points[0].status, LandscapeStatus::Failed);
  EXPECT_EQ(in.points[0].reason, "wrong");
  EXPECT_NE(in.title.find("not a variant"), std::string::npos);
}

// The drawn landscape: the best cell in the scale's top colour, a refused cell grey.
TEST(LandscapeRender, TheBestCellIsTheTopColourAndARefusedCellIsGrey) {
  const int w = 900, h = 600;
  auto host = testing::make_host(w, h);
  ASSERT_TRUE(host);
  const LandscapeModel m = build_landscape(sample());
  host->begin_frame();
  const LandscapeLayout l = draw_landscape(ImGui::GetBackgroundDrawList(), ImVec2(0, 0), ImVec2(w, h), m);
  host->request_capture();
  host->end_frame();
  Image image;
  std::string error;
  ASSERT_TRUE(host->take_capture(&image, &error)) << error;
  ASSERT_TRUE(testing::has_size(image, w, h));
  ASSERT_EQ(l.nx, 3);
  // A point inside a cell, away from its text, star and frames: a quarter in from its lower right.
  auto inside = [&](int x, int y) {
    const int px = static_cast<int>(l.grid_min.x + (x + 0.75f) * l.cell_w);
    const int py = static_cast<int>(l.grid_min.y + (l.ny - 1 - y + 0.8f) * l.cell_h);
    EXPECT_EQ(landscape_cell_at(l, ImVec2(static_cast<float>(px), static_cast<float>(py))), y * l.nx + x);
    return testing::rgba_at(image, px, py);
  };
  const ImVec4 top = ImGui::ColorConvertU32ToFloat4(landscape_color(1.0f));
  const testing::Rgba best = inside(1, 0);
  EXPECT_NEAR(best.r, top.x * 255, 2);
  EXPECT_NEAR(best.g, top.y * 255, 2);
  EXPECT_NEAR(best.b, top.z * 255, 2);
  // The refused cell: grey (hatched), nothing like any colour of the scale.
  const testing::Rgba refused = inside(2, 0);
  EXPECT_NEAR(refused.r, refused.g, 3);
  EXPECT_NEAR(refused.g, refused.b, 3);
  EXPECT_GT(std::abs(refused.r - best.r) + std::abs(refused.g - best.g) + std::abs(refused.b - best.b), 150);
  // The slowest timed cell is the bottom of the scale, a different colour from the best.
  const testing::Rgba slow = inside(0, 0);
  EXPECT_GT(std::abs(slow.r - best.r) + std::abs(slow.g - best.g) + std::abs(slow.b - best.b), 150);
}

}  // namespace
}  // namespace tilescope
