// The Roofline view's traffic (kernels/models/traffic.h): for every variant and configuration with a
// mapping model, the closed-form totals equal the model's per-element read counts summed, and
// the loads its threads issue counted one by one (on small ragged sizes, so every edge case of
// the tiling is in play); a variant without a model is placed by the minimum traffic and says so.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/models/mapping_model.h"
#include "kernels/models/traffic.h"

namespace tilescope {
namespace {

const std::vector<Shape> kRaggedShapes = {{37, 45, 29}, {130, 67, 250}, {1, 5, 3}, {129, 129, 33}};

struct Counted {
  std::int64_t a = 0, b = 0;
};

// Every load of every thread of every active block, phase and piece.
Counted count_thread_loads(const MappingModel& m) {
  Counted c;
  std::vector<ElementRef> la, lb;
  const Dim2 g = m.grid(), blk = m.block();
  for (int by = 0; by < g.y; ++by)
    for (int bx = 0; bx < g.x; ++bx) {
      if (!m.block_active(bx, by)) continue;
      for (int p = 0; p < m.phases(); ++p)
        for (int q = 0; q < m.pieces(); ++q)
          for (int ty = 0; ty < blk.y; ++ty)
            for (int tx = 0; tx < blk.x; ++tx) {
              m.thread_loads(bx, by, tx, ty, p, q, &la, &lb);
              c.a += static_cast<std::int64_t>(la.size());
              c.b += static_cast<std::int64_t>(lb.size());
            }
    }
  return c;
}

std::int64_t sum_reads(const MappingModel& m, bool a, std::int64_t rows, std::int64_t cols) {
  std::int64_t total = 0;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) total += a ? m.a_reads(i, j) : m.b_reads(i, j);
  return total;
}

TEST(RooflineTraffic, ClosedFormTotalsEqualTheModelsCountedReads) {
  int checked = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (!v->model) continue;
    for (int c = 0; c < static_cast<int>(v->configs.size()); ++c)
      for (Problem problem : {Problem::Gemm, Problem::Ata})
        for (Precision precision : {Precision::F32, Precision::F64})
          for (const Shape& shape : kRaggedShapes) {
            std::string why;
            const auto m = make_mapping_model(v->id, c, problem, precision, shape, &why);
            if (!m) continue;  // refused for this problem or precision
            const Shape s = normalised(problem, shape);
            const bool gemm = problem == Problem::Gemm;
            const std::int64_t a_rows = gemm ? s.M : s.K, a_cols = gemm ? s.K : s.N;
            const std::string what = std::string(v->id) + ":" + v->configs[c].name + " " + to_string(problem) + " " +
                                     to_string(precision) + " " + shape_text(s);
            const std::int64_t a_total = m->a_reads_total(a_rows, a_cols);
            const std::int64_t b_total = gemm ? m->b_reads_total(s.K, s.N) : 0;
            EXPECT_EQ(a_total, sum_reads(*m, true, a_rows, a_cols)) << what;
            if (gemm) {
              EXPECT_EQ(b_total, sum_reads(*m, false, s.K, s.N)) << what;
            }
            const Counted loads = count_thread_loads(*m);
            // AᵀA: both operand roles are loads of A (b_reads() is 0).
            EXPECT_EQ(a_total + b_total, loads.a + loads.b) << what;
            if (gemm) {
              EXPECT_EQ(a_total, loads.a) << what;
            }

            const GlobalTraffic t = global_traffic(v->id, c, problem, precision, s);
            const double e = static_cast<double>(element_bytes(precision));
            EXPECT_TRUE(t.from_model) << what;
            EXPECT_DOUBLE_EQ(t.a_bytes + t.b_bytes, static_cast<double>(a_total + b_total) * e) << what;
            EXPECT_DOUBLE_EQ(t.c_bytes, static_cast<double>(c_elements(problem, s)) * e) << what;
            EXPECT_DOUBLE_EQ(t.flops, flop_count(problem, s)) << what;
            // No kernel moves less than the minimum.
            EXPECT_GE(t.bytes(), minimum_traffic(problem, precision, s).bytes()) << what;
            ++checked;
          }
  }
  EXPECT_GT(checked, 0) << "no variant with a mapping model in the registry";
}

TEST(RooflineTraffic, VariantsWithoutAModelArePlacedByTheMinimumAndSaySo) {
  int checked = 0;
  const Shape s{300, 200, 100};
  for (const VariantDescriptor* v : variant_registry()) {
    if (v->model) continue;
    const GlobalTraffic t = global_traffic(v->id, v->default_config, Problem::Gemm, Precision::F32, s);
    const GlobalTraffic min = minimum_traffic(Problem::Gemm, Precision::F32, s);
    EXPECT_FALSE(t.from_model) << v->id;
    EXPECT_FALSE(t.note.empty()) << v->id;
    EXPECT_DOUBLE_EQ(t.bytes(), min.bytes()) << v->id;
    ++checked;
  }
  EXPECT_GT(checked, 0) << "every variant has a model: this test has nothing to check";
}

TEST(RooflineTraffic, MinimumTrafficMovesEachOperandOnce) {
  const Shape g{300, 200, 100};
  const GlobalTraffic t = minimum_traffic(Problem::Gemm, Precision::F64, g);
  EXPECT_DOUBLE_EQ(t.a_bytes, 300.0 * 100 * 8);
  EXPECT_DOUBLE_EQ(t.b_bytes, 100.0 * 200 * 8);
  EXPECT_DOUBLE_EQ(t.c_bytes, 300.0 * 200 * 8);
  EXPECT_DOUBLE_EQ(t.intensity(), 2.0 * 300 * 200 * 100 / t.bytes());
  // AᵀA: A (K x N) read once, B is A, C is N x N.
  const GlobalTraffic a = minimum_traffic(Problem::Ata, Precision::F32, Shape{0, 64, 32});
  EXPECT_DOUBLE_EQ(a.a_bytes, 32.0 * 64 * 4);
  EXPECT_DOUBLE_EQ(a.b_bytes, 0.0);
  EXPECT_DOUBLE_EQ(a.c_bytes, 64.0 * 64 * 4);
}

TEST(RooflineTraffic, UnknownVariantFallsBackToTheMinimum) {
  const GlobalTraffic t = global_traffic("no_such_variant", 0, Problem::Gemm, Precision::F32, Shape{8, 8, 8});
  EXPECT_FALSE(t.from_model);
  EXPECT_NE(t.note.find("unknown"), std::string::npos) << t.note;
}

}  // namespace
}  // namespace tilescope
