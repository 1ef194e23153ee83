// Global-memory traffic of one product, for the Roofline view's arithmetic intensity:
// the loads of A and B the kernel actually issues (the closed-form read counts of the variant's
// mapping model, kernels/models/mapping_model.h) plus the stores of C. A variant without a model
// (cuBLAS, which is closed) is placed by the minimum traffic instead: A and B read once, C
// written once, and the result says so.
#pragma once

#include <cstdint>
#include <string>

#include "kernels/core/gemm_types.h"

namespace tilescope {

struct GlobalTraffic {
  double flops = 0;                 // flop_count(): 2·M·N·K (AᵀA: 2·N²·K), as GFLOP/s counts it
  double a_bytes = 0, b_bytes = 0;  // loads of the stored A and B
  double c_bytes = 0;               // stores of C (AᵀA: the mirrored half included)
  bool from_model = false;          // false: the minimum traffic
  std::string note;                 // from_model false: why ("cuBLAS has no mapping model")
  double bytes() const { return a_bytes + b_bytes + c_bytes; }
  // FLOP per byte; 0 when there is no traffic.
  double intensity() const { return bytes() > 0 ? flops / bytes() : 0; }
};

// Every operand moved once: the least any kernel must do.
GlobalTraffic minimum_traffic(Problem problem, Precision precision, const Shape& shape);

// The traffic a variant's model counts for this configuration, or the minimum traffic with
// `note` set when it has none (unknown variant, no model, refused configuration).
GlobalTraffic global_traffic(const std::string& variant_id, int config_index, Problem problem, Precision precision,
                             const Shape& shape);

}  // namespace tilescope
