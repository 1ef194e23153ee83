#include "kernels/multi/split_model.h"

#include <algorithm>

namespace tilescope {

double collective_ms(double bytes, double gbs, double latency_us) {
  return latency_us * 1e-3 + (gbs > 0 ? bytes / (gbs * 1e6) : 0.0);
}

double pipelined_ms(const std::vector<double>& transfer_ms, const std::vector<double>& product_ms) {
  double landed = 0, done = 0;
  for (std::size_t j = 0; j < product_ms.size(); ++j) {
    landed += j < transfer_ms.size() ? transfer_ms[j] : 0.0;
    done = std::max(done, landed) + product_ms[j];
  }
  return done;
}

SplitPrediction finish_prediction(SplitPrediction p, double one_gpu_ms, int gpus) {
  p.exposed_transfer_ms = std::max(0.0, p.ms - p.compute_ms);
  p.speedup = p.ms > 0 ? one_gpu_ms / p.ms : 0;
  p.efficiency = gpus > 0 ? p.speedup / gpus : 0;
  return p;
}

}  // namespace tilescope
