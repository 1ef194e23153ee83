// `tilescope bench --ceilings`: measures the device's roofs (kernels/ceilings.h), prints them
// next to the datasheet-derived values, caches them for the window and `tilescope plot
// --roofline`, and writes --json (the cache's format) and --csv (one row per roof) on request.
#pragma once

#include <ostream>
#include <string>

#include "ceilings.h"
#include "cli/bench_args.h"

namespace tilescope {

// The printed table: roof, kind, measured, datasheet-derived (or "none"), ratio, unit.
std::string format_ceiling_table(const CeilingTable& table);
// One row per roof, with the device and driver on every row.
std::string ceilings_to_csv(const CeilingTable& table);

// Returns bench's exit codes: 0, 1 (a measurement failed), 3 (no usable GPU), 4 (a file).
int run_ceilings(const BenchOptions& opt, std::ostream& out, std::ostream& err);

}  // namespace tilescope
