// The splits' model (kernels/multi/split_model.h) on numbers worked by hand: the pipeline of
// transfers and products, and each split's prediction where the answer is known: one GPU is the
// kernel alone, a free link halves the time on two GPUs, a slow link shows as transfer time not
// hidden, and the model beside measured rows (app/cli/split_predictions.h).
#include "kernels/multi/split_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "app/cli/split_predictions.h"
#include "kernels/core/registry.h"
#include "kernels/multi/split_registry.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

TEST(SplitModel, PipelineWaitsForTheSlowerOfTransferAndProduct) {
  // Products longer than transfers: the first transfer, then the products back to back.
  EXPECT_DOUBLE_EQ(pipelined_ms({1, 1, 1}, {5, 5, 5}), 16);
  // Transfers longer: each product waits for its panel.
  EXPECT_DOUBLE_EQ(pipelined_ms({4, 4, 4}, {1, 1, 1}), 13);
  EXPECT_DOUBLE_EQ(pipelined_ms({}, {2, 3}), 5);
  EXPECT_DOUBLE_EQ(collective_ms(1e9, 100, 10), 10.01);
  const SplitPrediction p = finish_prediction(SplitPrediction{50, 40}, 100, 2);
  EXPECT_DOUBLE_EQ(p.speedup, 2);
  EXPECT_DOUBLE_EQ(p.efficiency, 1);
  EXPECT_DOUBLE_EQ(p.exposed_transfer_ms, 10);
}

namespace {

SplitQuery query(const SplitDescriptor& s, int gpus) {
  SplitQuery q;
  q.problem = s.problems.front();
  q.precision = Precision::F32;
  q.shape = q.problem == Problem::Gemm ? Shape{16384, 16384, 16384} : Shape{16384, 16384, 65536};
  q.gpus = gpus;
  q.kernel = &tilescope::testing::baseline();
  q.kernel_config = q.kernel->default_config;
  return q;
}

}  // namespace

TEST(SplitModel, EveryModelGivesTheKernelAloneOnOneGpuAndScalesWithAFreeLink) {
  int checked = 0;
  for (const SplitDescriptor* s : split_registry()) {
    if (!s->predict) continue;
    for (int config = 0; config < static_cast<int>(s->configs.size()); ++config) {
      const std::string what = std::string(s->id) + ":" + s->configs[config].name;
      LinkFigures free_link{0, 1e12, 1e12};
      const SplitPrediction one = s->predict(query(*s, 1), config, MachineFigures{100, free_link});
      EXPECT_NEAR(one.ms, 100, 1e-6) << what;
      EXPECT_NEAR(one.speedup, 1, 1e-9) << what;
      for (int gpus : {2, 4, 8, 64}) {
        const SplitPrediction p = s->predict(query(*s, gpus), config, MachineFigures{100, free_link});
        EXPECT_NEAR(p.speedup, gpus, 0.02 * gpus) << what << " on " << gpus;
        // A real link costs time, more with more GPUs' share of it.
        const SplitPrediction slow = s->predict(query(*s, gpus), config, MachineFigures{100, {20, 50, 50}});
        EXPECT_GT(slow.ms, p.ms) << what << " on " << gpus;
        EXPECT_LE(slow.efficiency, 1.0 + 1e-9) << what;
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

// The 2-D split moves less than the 1-D one as the grid grows: at 64 GPUs over the same link, its
// time is the shorter (the lesson of SUMMA).
TEST(SplitModel, TheGridSplitMovesLessThanTheRowSplitOnManyGpus) {
  for (const SplitDescriptor* s : split_registry()) {
    if (!s->predict || s->configs.size() < 2 || s->problems.front() != Problem::Gemm) continue;
    const LinkFigures link{10, 40, 40};  // a slow link between machines
    const SplitPrediction rows = s->predict(query(*s, 64), 0, MachineFigures{2000, link});
    const SplitPrediction grid = s->predict(query(*s, 64), 1, MachineFigures{2000, link});
    EXPECT_LT(grid.ms, rows.ms) << s->id;
    return;
  }
  FAIL() << "no split of gemm with a 1-D and a 2-D configuration";
}

// AᵀA split along K moves C's triangle (N²/2 elements) after the products; split by bands of C's
// triangle, A's columns (about K·N) before and under them. On a link like NVLink's, with one GPU's
// time growing with K: the K split is the faster for a long K, the triangle for a short one.
TEST(SplitModel, TheKSplitWinsOnLongKAndTheTriangleOnShortK) {
  for (const SplitDescriptor* s : split_registry()) {
    if (!s->predict || s->problems.front() != Problem::Ata) continue;
    int k_split = -1, triangle = -1;
    for (int c = 0; c < static_cast<int>(s->configs.size()); ++c)
      (s->configs[c].upper_triangle_only ? triangle : k_split) = c;
    if (k_split < 0 || triangle < 0) continue;
    const LinkFigures nvlink{20, 350, 350};
    for (const auto& [k, faster] : {std::pair<std::int64_t, int>{65536, k_split}, {4096, triangle}}) {
      SplitQuery q = query(*s, 2);
      q.precision = Precision::F64;
      q.shape = {16384, 16384, k};
      const MachineFigures m{400.0 * static_cast<double>(k) / 65536, nvlink};
      const double by_k = s->predict(q, k_split, m).ms, by_triangle = s->predict(q, triangle, m).ms;
      const double winner = faster == k_split ? by_k : by_triangle, loser = faster == k_split ? by_triangle : by_k;
      EXPECT_LT(winner, loser) << "K = " << k << ": k split " << by_k << " ms, triangle " << by_triangle << " ms";
    }
    return;
  }
  FAIL() << "no split of AᵀA with a K split and a triangle configuration";
}

TEST(SplitPredictions, PredictTheMeasuredCountsAndThePowersOfTwoToSixtyFour) {
  const SplitDescriptor* split = nullptr;
  for (const SplitDescriptor* s : split_registry())
    if (s->predict && s->problems.front() == Problem::Gemm) split = s;
  ASSERT_NE(split, nullptr);
  const VariantDescriptor& kernel = tilescope::testing::baseline();
  RunResult one;
  one.variant_id = kernel.id;
  one.config_name = kernel.configs[kernel.default_config].name;
  one.problem = Problem::Gemm;
  one.shape = {8192, 8192, 8192};
  one.median_ms = 40;
  one.round = 1;
  RunResult two = one;
  two.split = split->id;
  two.split_config = split->configs[0].name;
  two.gpus = 2;
  two.median_ms = 21;
  std::vector<RunResult> rows = {one, two};
  const std::vector<PredictedSplit> predicted = predict_splits(rows, LinkFigures{10, 300, 300});
  ASSERT_EQ(predicted.size(), 1u);
  std::vector<int> counts;
  for (const PredictedPoint& p : predicted[0].points) counts.push_back(p.gpus);
  EXPECT_EQ(counts, (std::vector<int>{1, 2, 4, 8, 16, 32, 64}));
  EXPECT_DOUBLE_EQ(predicted[0].points[1].measured_ms, 21);
  EXPECT_GT(rows[1].predicted_ms, 20);  // half of 40 and a transfer that does not all hide
  EXPECT_LT(rows[1].predicted_ms, 22);
  EXPECT_EQ(rows[0].predicted_ms, 0);  // the one-GPU row is no split
  LinkBench link;
  link.figures = {10, 300, 300};
  const std::string text = format_predictions(predicted, link);
  EXPECT_NE(text.find("model of " + two.split + ":" + two.split_config), std::string::npos) << text;
  EXPECT_NE(text.find("64"), std::string::npos) << text;
}
