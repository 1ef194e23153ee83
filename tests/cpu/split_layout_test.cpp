// The splits' layouts and cuts, without a GPU: balanced cuts cover their range in order and in
// near-equal pieces, the triangle's bands hold near-equal work, and every registered split's
// layout puts A's and B's blocks inside their matrices, fits every GPU's blocks in its buffers and
// ends with C's blocks covering C exactly once, for ragged sizes and 1 to 8 GPUs.
#include "kernels/multi/split_layout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/multi/split_registry.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

TEST(SplitLayout, BalancedCutsCoverTheRangeInNearEqualMultiples) {
  for (std::int64_t total : {1, 7, 128, 1000, 4500, 16384, 32769})
    for (int parts : {1, 2, 3, 4, 8})
      for (std::int64_t multiple : {1, 64, 128}) {
        const std::vector<std::int64_t> cuts = balanced_cuts(total, parts, multiple);
        ASSERT_EQ(cuts.size(), static_cast<std::size_t>(parts + 1));
        EXPECT_EQ(cuts.front(), 0);
        EXPECT_EQ(cuts.back(), total);
        std::int64_t widest = 0, narrowest = total;
        for (int p = 0; p < parts; ++p) {
          EXPECT_LE(cuts[p], cuts[p + 1]);
          if (p + 1 < parts) {
            EXPECT_EQ(cuts[p + 1] % multiple, 0) << total << " " << parts << " " << multiple;
          }
          widest = std::max(widest, cuts[p + 1] - cuts[p]);
          narrowest = std::min(narrowest, cuts[p + 1] - cuts[p]);
        }
        // Pieces differ by at most one multiple, and none is empty while there is a multiple for each.
        if (total >= parts * multiple) {
          EXPECT_LE(widest - narrowest, multiple) << total << " " << parts << " " << multiple;
          EXPECT_GT(narrowest, 0);
        }
      }
}

TEST(SplitLayout, TriangleBandsHoldNearEqualWork) {
  for (std::int64_t n : {10, 700, 4096, 16384})
    for (int parts : {1, 2, 3, 8}) {
      const std::vector<std::int64_t> cuts = triangle_row_cuts(n, parts);
      ASSERT_EQ(cuts.size(), static_cast<std::size_t>(parts + 1));
      EXPECT_EQ(cuts.front(), 0);
      EXPECT_EQ(cuts.back(), n);
      const double whole = static_cast<double>(n) * (n + 1) / 2.0;
      for (int p = 0; p < parts; ++p) {
        double work = 0;  // elements of the upper triangle in rows [cuts[p], cuts[p + 1])
        for (std::int64_t i = cuts[p]; i < cuts[p + 1]; ++i) work += static_cast<double>(n - i);
        EXPECT_NEAR(work / whole, 1.0 / parts, static_cast<double>(n) / whole + 1e-12) << n << " " << parts;
      }
      // Thinner bands first: the first rows are the longest.
      if (parts > 1 && n >= 700) {
        EXPECT_LT(cuts[1] - cuts[0], cuts[parts] - cuts[parts - 1]);
      }
    }
}

TEST(SplitLayout, TriangleBandsRoundedToAMultipleStayWithinAPercentOfTheirWork) {
  for (std::int64_t n : {4500, 16384, 32768})
    for (int parts : {2, 3, 4, 8, 64}) {
      const std::vector<std::int64_t> cuts = triangle_row_cuts(n, parts, 128);
      ASSERT_EQ(cuts.size(), static_cast<std::size_t>(parts + 1));
      EXPECT_EQ(cuts.front(), 0);
      EXPECT_EQ(cuts.back(), n);
      const double whole = static_cast<double>(n) * (n + 1) / 2.0;
      for (int p = 0; p < parts; ++p) {
        EXPECT_LE(cuts[p], cuts[p + 1]);
        double work = 0;
        for (std::int64_t i = cuts[p]; i < cuts[p + 1]; ++i) work += static_cast<double>(n - i);
        // Each of its two ends may be 1% of a share off, plus the exact cut's one row.
        EXPECT_NEAR(work / whole * parts, 1.0, 0.02 + parts * static_cast<double>(n) / whole) << n << " " << parts;
      }
    }
  // Wide bands keep whole multiples: two or four bands of 16384 rows cut at multiples of 32.
  for (int parts : {2, 4})
    for (std::int64_t cut : triangle_row_cuts(16384, parts, 128)) EXPECT_EQ(cut % 32, 0) << parts;
}

TEST(SplitLayout, PanelCountKeepsPanelsWideAndFew) {
  EXPECT_EQ(panel_count(1000, 2048, 8), 1);
  EXPECT_EQ(panel_count(4500, 2048, 8), 2);
  EXPECT_EQ(panel_count(32768, 2048, 8), 8);
}

namespace {

// Blocks placed where they say, after the one before them otherwise; a buffer's extent is its
// furthest block's end.
TEST(SplitLayout, BlocksArePackedInOrderOrWhereTheySay) {
  const std::vector<Block> packed = {{0, 0, 2, 3}, {2, 0, 4, 3}, {6, 0, 1, 3}};
  EXPECT_EQ(packed_offset(packed, 0), 0);
  EXPECT_EQ(packed_offset(packed, 1), 6);
  EXPECT_EQ(packed_offset(packed, 2), 18);
  EXPECT_EQ(packed_elements(packed), 21);
  const std::vector<Block> placed = {{0, 4, 2, 3, 12}, {0, 10, 2, 3, 30}, {0, 13, 2, 2}};
  EXPECT_EQ(packed_offset(placed, 0), 12);
  EXPECT_EQ(packed_offset(placed, 1), 30);
  EXPECT_EQ(packed_offset(placed, 2), 36);
  EXPECT_EQ(packed_elements(placed), 40);
}

// How many C blocks of a layout cover element (i, j).
int coverage(const SplitLayout& l, std::int64_t i, std::int64_t j) {
  int n = 0;
  for (const GpuLayout& g : l.gpus)
    for (const Block& b : g.c) n += i >= b.row0 && i < b.row0 + b.rows && j >= b.col0 && j < b.col0 + b.cols;
  return n;
}

bool inside(const Block& b, std::int64_t rows, std::int64_t cols) {
  return b.row0 >= 0 && b.col0 >= 0 && b.rows > 0 && b.cols > 0 && b.row0 + b.rows <= rows && b.col0 + b.cols <= cols;
}

}  // namespace

TEST(SplitLayout, EverySplitPlacesItsBlocksInsideAndCoversCOnce) {
  const VariantDescriptor& kernel = tilescope::testing::baseline();
  int checked = 0;
  for (const SplitDescriptor* s : split_registry())
    for (Problem p : s->problems)
      for (const Shape& asked : {Shape{1000, 4500, 300}, Shape{7, 9, 11}, Shape{700, 700, 1000}, Shape{5000, 257, 64}})
        for (int gpus = 1; gpus <= 8; ++gpus)
          for (int config = 0; config < static_cast<int>(s->configs.size()); ++config) {
            SplitQuery q;
            q.problem = p;
            q.shape = normalised(p, asked);
            q.gpus = gpus;
            q.kernel = &kernel;
            q.kernel_config = kernel.default_config;
            if (s->refuses && !s->refuses(q, config).empty()) continue;
            const SplitLayout l = s->layout(q, config);
            const Shape& sh = q.shape;
            const std::string what = std::string(s->id) + " " + shape_text(sh) + " on " + std::to_string(gpus);
            ASSERT_EQ(l.gpus.size(), static_cast<std::size_t>(gpus)) << what;
            const std::int64_t a_rows = p == Problem::Gemm ? sh.M : sh.K, a_cols = p == Problem::Gemm ? sh.K : sh.N;
            std::int64_t a_held = 0;
            for (const GpuLayout& g : l.gpus) {
              for (const Block& b : g.a) EXPECT_TRUE(inside(b, a_rows, a_cols)) << what;
              for (const Block& b : g.b) EXPECT_TRUE(inside(b, sh.K, sh.N)) << what;
              for (const Block& b : g.c) EXPECT_TRUE(inside(b, sh.M, sh.N)) << what;
              EXPECT_GE(g.a_elements, packed_elements(g.a)) << what;
              EXPECT_GE(g.b_elements, packed_elements(g.b)) << what;
              EXPECT_GE(g.c_elements, packed_elements(g.c)) << what;
              for (const Block& b : g.a) a_held += b.elements();
            }
            // A is placed whole, once (no split sends a piece of A twice at the start).
            EXPECT_EQ(a_held, a_rows * a_cols) << what;
            // C whole, or its upper triangle where the split delivers that alone (nothing below it
            // counted twice).
            const bool upper_only = s->configs[config].upper_triangle_only;
            for (std::int64_t i = 0; i < sh.M; i += std::max<std::int64_t>(1, sh.M / 97))
              for (std::int64_t j = 0; j < sh.N; j += std::max<std::int64_t>(1, sh.N / 89)) {
                if (upper_only && j < i)
                  ASSERT_LE(coverage(l, i, j), 1) << what << ": C(" << i << ", " << j << ")";
                else
                  ASSERT_EQ(coverage(l, i, j), 1) << what << ": C(" << i << ", " << j << ")";
              }
            ++checked;
          }
  EXPECT_GT(checked, 0);
}
