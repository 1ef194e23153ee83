// `tilescope bench --roofs`: measures the device's roofs (kernels/roofs/roofs.h), prints them
// next to the datasheet-derived values, caches them for the window and `tilescope plot
// --roofline`, and writes --json (the cache's format) and --csv (one row per roof) on request.
#pragma once

#include <ostream>
#include <string>

#include "app/cli/bench_args.h"
#include "kernels/roofs/roofs.h"

namespace tilescope {

// The printed table: roof, kind, measured, datasheet-derived (or "none"), ratio, unit.
std::string format_roof_table(const RoofTable& table);
// One row per roof, with the device and driver on every row.
std::string roofs_to_csv(const RoofTable& table);

// Returns bench's exit codes: 0, 1 (a measurement failed), 3 (no usable GPU), 4 (a file).
int run_roofs(const BenchOptions& opt, std::ostream& out, std::ostream& err);

}  // namespace tilescope
