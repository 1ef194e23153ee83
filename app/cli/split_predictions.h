// The splits' model beside their measurements, as text for bench: the link measured between the
// GPUs and, for every split of every product, its predictions (kernels/multi/split_forecast.h).
#pragma once

#include <string>
#include <vector>

#include "kernels/multi/link_bench.h"
#include "kernels/multi/split_forecast.h"

namespace tilescope {

// The link's figures and samples, then each split's points: predicted time, speed-up and efficiency,
// the measured time and how far the prediction is from it.
std::string format_predictions(const std::vector<PredictedSplit>& splits, const LinkBench& link);

}  // namespace tilescope
