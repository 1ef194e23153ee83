// Nsight Compute's raw page as CSV (`ncu --csv --page raw ...`, or `ncu --import R --csv --page
// raw`), read without running anything: a header row of column names ("ID", "Process ID", ...,
// "Kernel Name", ..., then one metric a column), a row of units, then one row per profiled
// kernel. Every field is quoted; numbers carry "," between thousands ("39,319,167"); a metric the
// GPU cannot give reads "n/a". The text may hold other lines around the page (ncu's own
// "==PROF==" lines, the profiled program's output): they are skipped.
#pragma once

#include <string>
#include <vector>

#include "app/cli/profiler_metrics.h"

namespace tilescope {

struct NcuRawPage {
  std::vector<std::string> columns;               // the header row
  std::vector<std::string> units;                 // the units row ("", "us", "%", "inst", ...)
  std::vector<std::vector<std::string>> kernels;  // a row per kernel, as many fields as columns
};

// The page in `text`. False with *error when there is none: no header row (a line starting with
// the "ID" column), no units row after it, or no kernel row (every field there, an ID that is a
// whole number). Rows of another length, and lines that are no CSV record, are not the page's.
bool read_ncu_raw_page(const std::string& text, NcuRawPage* page, std::string* error);

// A number as ncu writes it: "39,319,167", "13.408000", "-0.5", "1.5e+03". False for "n/a", an
// empty field and anything else that is not wholly a number.
bool parse_ncu_number(const std::string& field, double* out);

// Each kernel's values of the metrics named (those its row has a number for).
std::vector<KernelMetrics> kernel_metrics(const NcuRawPage& page, const std::vector<std::string>& metric_names);

// The names in `asked` that ncu's error and warning lines ("==ERROR== ...", "==WARNING== ...")
// mention: metrics it does not know on this GPU or in this version, to be left out of a retry.
std::vector<std::string> metrics_named_in_ncu_errors(const std::string& text, const std::vector<std::string>& asked);

}  // namespace tilescope
