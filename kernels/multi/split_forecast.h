// The splits' model beside their measurements (split_model.h): for every split row of a set of
// rows whose kernel also ran alone on one GPU, the time its split predicts for the GPU counts
// measured and for 1 to 64, from that one-GPU time and the link between the GPUs. The link is
// either the one just measured (bench, the window's runner), which the rows then carry, or the one
// the rows already carry (a loaded file, the window's history): a prediction needs no GPU. Plain
// C++; bench prints it (app/cli/split_predictions.h), the GPUs tab draws it.
#pragma once

#include <vector>

#include "kernels/measure/measure.h"
#include "kernels/multi/split.h"
#include "kernels/multi/split_model.h"

namespace tilescope {

// The GPU counts every prediction covers besides those measured: the powers of two to 64, one
// machine of eight GPUs and a few of them.
constexpr int kPredictedGpuCounts[] = {1, 2, 4, 8, 16, 32, 64};

struct PredictedPoint {
  int gpus = 0;
  SplitPrediction prediction;
  double measured_ms = 0;       // 0: not measured at this count
  double measured_speedup = 0;  // the one-GPU time over measured_ms (the row's own where it has one)
};

// One split of one product (split, its configuration, the kernel, problem, precision, C's type,
// shape and round).
struct PredictedSplit {
  const RunResult* example = nullptr;  // a measured row of it (labels): points into the rows given
  double one_gpu_ms = 0;
  LinkFigures link;                    // the link the points were predicted with
  std::vector<PredictedPoint> points;  // ascending GPU counts
};

// A split row as this program's descriptors know it: its split, the split's configuration, and the
// query the row answered (its problem, type, shape, GPU count, kernel and the kernel's
// configuration).
struct RowSplit {
  const SplitDescriptor* split = nullptr;
  int config = -1;
  SplitQuery query;
};
// False where the program does not know the row's split, its configuration, the kernel or the
// kernel's configuration (a file from another version).
bool row_split(const RunResult& r, RowSplit* out);

// The link a row carries (RunResult::link_*); not known() where it carries none, or nonsense (a
// negative or infinite figure from a hand-edited file).
LinkFigures link_of(const RunResult& r);
void set_link(RunResult& r, const LinkFigures& link);

// The predictions of every split row of `rows` over `link` (its one-GPU row of the same product
// gives the time); each predicted row's predicted_ms at its own count, and the link, are set. Rows
// of a split without a model, or without their one-GPU row, get none.
std::vector<PredictedSplit> predict_splits(std::vector<RunResult>& rows, const LinkFigures& link);

// The same over the link the rows carry: each split of each product over the link of its row on the
// most GPUs that carries one (the link measured nearest the counts predicted); a split none of
// whose rows carries a link is left out. Changes nothing in the rows.
std::vector<PredictedSplit> predict_splits_from_rows(const std::vector<RunResult>& rows);

}  // namespace tilescope
