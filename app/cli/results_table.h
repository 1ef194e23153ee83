// Plain-text tables for the terminal: benchmark results and the variant registry. Pure
// functions returning strings, so the tests can read them and the command decides where they go.
#pragma once

#include <string>
#include <vector>

#include "kernels/cuda/device_info.h"
#include "kernels/measure/measure.h"

namespace tilescope {

// "device: NVIDIA H100 ... | SM clock 1980 MHz | driver 13.0 | runtime 13.0 | cuBLAS 13.1.0 | ...".
// Uses `device` when it is usable, else the metadata recorded in the first row, else says "none".
std::string format_device_line(const DeviceInfo& device, const std::vector<RunResult>& rows);

// The device line, then one aligned row per result (variant, config, problem, precision, M, N,
// K, first ms with * when cold, median/min/max ms, GFLOP/s, % of cuBLAS, % of peak, relative
// error, pass/FAIL, registers, shared memory, occupancy; where some row was profiled, bench
// --profile's figures too), then notes on the columns and the failures. A row whose run failed
// shows its error text in place of the figures.
std::string format_results_table(const std::vector<RunResult>& rows, const DeviceInfo& device);

// Every variant of the registry with its summary and every configuration (tile, threads,
// math, opt-in, which part of C it writes): the text of `tilescope bench --list`.
std::string format_registry_listing();

}  // namespace tilescope
