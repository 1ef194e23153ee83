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

// Reads the results of such a document back (every field a CSV column names, and each split run's
// timeline, "spans"); fields it lacks keep their defaults. False and *error on text that is not
// such a document, *out then unchanged.
bool results_from_json(const std::string& text, std::vector<RunResult>* out, std::string* error);

}  // namespace tilescope
