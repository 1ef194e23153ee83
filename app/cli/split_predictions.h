// The splits' model beside their measurements (kernels/multi/split_model.h): for every split row of
// a sweep whose kernel also ran alone on one GPU, the time its split predicts for the GPU counts
// measured and for 4, 8 and 64, from that one-GPU time and the link measured between the GPUs.
// Pure: the command measures the link and prints.
#pragma once

#include <string>
#include <vector>

#include "kernels/measure/measure.h"
#include "kernels/multi/link_bench.h"

namespace tilescope {

// The GPU counts every prediction covers besides those measured.
constexpr int kPredictedGpuCounts[] = {1, 2, 4, 8, 64};

struct PredictedPoint {
  int gpus = 0;
  SplitPrediction prediction;
  double measured_ms = 0;  // 0: not measured at this count
};

// One split of one product (split, its configuration, the kernel, problem, precision, shape).
struct PredictedSplit {
  const RunResult* example = nullptr;  // a measured row of it (labels)
  double one_gpu_ms = 0;
  std::vector<PredictedPoint> points;  // ascending GPU counts
};

// The predictions of every split row of `rows` (its round's one-GPU row gives the time), and each
// split row's predicted_ms at its own count. Rows of a split without a model, or without their
// one-GPU row, get none.
std::vector<PredictedSplit> predict_splits(std::vector<RunResult>& rows, const LinkFigures& link);

// The link's figures and samples, then each split's points: predicted time, speed-up and efficiency,
// the measured time and how far the prediction is from it.
std::string format_predictions(const std::vector<PredictedSplit>& splits, const LinkBench& link);

}  // namespace tilescope
