// Benchmark results as one JSON document:
//   { "tool": "tilescope", "version": "0.1.0", "device": { every DeviceInfo field },
//     "results": [ { every RunResult field, named as the CSV columns } ] }
// Numbers stay numbers and flags booleans; a NaN or infinite value (for example the relative
// error of an output full of poison) is written as null, since JSON has no NaN.
#pragma once

#include <string>
#include <vector>

#include "kernels/cuda/device_info.h"
#include "kernels/measure/measure.h"

namespace tilescope {

std::string results_to_json(const std::vector<RunResult>& rows, const DeviceInfo& device,
                            const std::string& tool_version);

}  // namespace tilescope
