// The splits' predictions beside measured rows (kernels/multi/split_forecast.h): the link the model
// used travels with the rows it predicted, and rows that carry a link are predicted again from it
// alone, the same as with the link given, through a CSV too (a loaded file needs no GPU); rows
// without a usable link, or with nonsense in it, are left unpredicted.
#include "kernels/multi/split_forecast.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "app/export/results_csv.h"
#include "kernels/multi/split_registry.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

const SplitDescriptor& gemm_split() {
  for (const SplitDescriptor* s : split_registry())
    if (s->predict && s->problems.front() == Problem::Gemm) return *s;
  ADD_FAILURE() << "no split of gemm with a model";
  return *split_registry().front();
}

// The kernel alone on one GPU (40 ms) and split on 2 and 4 GPUs.
std::vector<RunResult> measured_rows() {
  const VariantDescriptor& kernel = tilescope::testing::baseline();
  RunResult one;
  one.variant_id = kernel.id;
  one.config_name = kernel.configs[kernel.default_config].name;
  one.problem = Problem::Gemm;
  one.shape = {8192, 8192, 8192};
  one.median_ms = 40;
  std::vector<RunResult> rows = {one};
  for (const auto& [gpus, ms] : {std::pair<int, double>{2, 21}, {4, 11}}) {
    RunResult r = one;
    r.split = gemm_split().id;
    r.split_config = gemm_split().configs[0].name;
    r.gpus = gpus;
    r.median_ms = ms;
    rows.push_back(r);
  }
  return rows;
}

const LinkFigures kNvlink{20, 350, 355};

std::vector<double> predicted_ms(const std::vector<PredictedSplit>& splits) {
  std::vector<double> out;
  for (const PredictedSplit& s : splits)
    for (const PredictedPoint& p : s.points) out.push_back(p.prediction.ms);
  return out;
}

}  // namespace

TEST(SplitForecast, ThePredictedRowsCarryTheLinkTheirPredictionUsed) {
  std::vector<RunResult> rows = measured_rows();
  const std::vector<PredictedSplit> predicted = predict_splits(rows, kNvlink);
  ASSERT_EQ(predicted.size(), 1u);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_DOUBLE_EQ(rows[i].link_latency_us, 20);
    EXPECT_DOUBLE_EQ(rows[i].link_broadcast_gbs, 350);
    EXPECT_DOUBLE_EQ(rows[i].link_reduce_gbs, 355);
    EXPECT_GT(rows[i].predicted_ms, 0);
  }
  EXPECT_EQ(rows[0].link_broadcast_gbs, 0) << "the one-GPU row used no link";
  EXPECT_FALSE(link_of(rows[0]).known());
  // Measured speed-ups: the one-GPU time over the split's, where the row has none of its own.
  for (const PredictedPoint& p : predicted[0].points) {
    const double expected = p.gpus == 2 ? 40.0 / 21 : p.gpus == 4 ? 40.0 / 11 : 0;
    EXPECT_DOUBLE_EQ(p.measured_speedup, expected) << p.gpus << " GPUs";
  }
}

// A file written by bench (its rows carry the link) is predicted again, for every count, from the
// rows alone, through a CSV: the same times as with the link measured.
TEST(SplitForecast, RowsCarryingTheirLinkArePredictedAgainWithoutMeasuring) {
  std::vector<RunResult> rows = measured_rows();
  const std::vector<double> with_link = predicted_ms(predict_splits(rows, kNvlink));
  std::vector<RunResult> loaded;
  std::string error;
  ASSERT_TRUE(results_from_csv(results_to_csv(rows), &loaded, &error)) << error;
  const std::vector<PredictedSplit> again = predict_splits_from_rows(loaded);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(predicted_ms(again), with_link);
  EXPECT_DOUBLE_EQ(again[0].link.broadcast_gbs, 350);
  EXPECT_DOUBLE_EQ(again[0].one_gpu_ms, 40);

  // Without a link there is nothing to predict from.
  EXPECT_TRUE(predict_splits_from_rows(measured_rows()).empty());
  // Nor without the kernel's run alone on one GPU.
  loaded.erase(loaded.begin());
  EXPECT_TRUE(predict_splits_from_rows(loaded).empty());
}

// Rows on several counts may carry different links (the window measures one per count): the
// prediction takes that of the most GPUs, measured nearest the counts it reaches for.
TEST(SplitForecast, TheLinkOfTheRowOnTheMostGpusIsTheOneUsed) {
  std::vector<RunResult> rows = measured_rows();
  const LinkFigures slow{40, 50, 50};
  set_link(rows[1], slow);     // 2 GPUs
  set_link(rows[2], kNvlink);  // 4 GPUs
  const std::vector<PredictedSplit> p = predict_splits_from_rows(rows);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_DOUBLE_EQ(p[0].link.broadcast_gbs, kNvlink.broadcast_gbs);
  std::vector<RunResult> fresh = measured_rows();
  EXPECT_EQ(predicted_ms(p), predicted_ms(predict_splits(fresh, kNvlink)));
  EXPECT_NE(predicted_ms(p), predicted_ms(predict_splits(fresh, slow)));
}

// A hand-edited file's nonsense is no link and no GPU count: nothing is predicted from it, and
// nothing crashes.
TEST(SplitForecast, NonsenseInTheRowsIsLeftUnpredicted) {
  std::vector<RunResult> rows = measured_rows();
  for (RunResult& r : rows) set_link(r, kNvlink);
  rows[1].link_latency_us = -5;
  rows[2].link_broadcast_gbs = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(link_of(rows[1]).known());
  EXPECT_FALSE(link_of(rows[2]).known());
  EXPECT_TRUE(predict_splits_from_rows(rows).empty());

  rows = measured_rows();
  for (RunResult& r : rows) set_link(r, kNvlink);
  rows[2].gpus = 1000000000;
  const std::vector<PredictedSplit> p = predict_splits_from_rows(rows);
  ASSERT_EQ(p.size(), 1u);
  for (const PredictedPoint& point : p[0].points) {
    EXPECT_LE(point.gpus, 64);
    EXPECT_TRUE(std::isfinite(point.prediction.ms));
  }
  for (RunResult& r : rows) r.shape.K = 0;
  EXPECT_TRUE(predict_splits_from_rows(rows).empty()) << "no shape to cut";
}

TEST(SplitForecast, SameProductPairsASplitWithItsKernelAlone) {
  const std::vector<RunResult> rows = measured_rows();
  EXPECT_TRUE(same_product(rows[0], rows[1]));
  RunResult other = rows[0];
  other.shape.K = 4096;
  EXPECT_FALSE(same_product(other, rows[1]));
  other = rows[0];
  other.round = 2;
  EXPECT_FALSE(same_product(other, rows[1]));
}
