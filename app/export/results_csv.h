// Benchmark results as CSV: one header row, then one row per RunResult with every field,
// the device metadata repeated on each row so that any row stands alone (rows from several
// machines can be concatenated and compared). RFC 4180 quoting; numbers written so that they
// read back exactly. The app re-loads its timing history from these files.
#pragma once

#include <string>
#include <vector>

#include "measure.h"

namespace tilescope {

// The column names, in file order.
const std::vector<std::string>& results_csv_columns();

std::string results_to_csv(const std::vector<RunResult>& rows);

// Reads text written by results_to_csv. On malformed input (missing or different header,
// wrong number of fields, a number or flag that does not parse, an unterminated quote) returns
// false with `error` naming the line, and leaves `out` empty. Blank lines are ignored; both
// "\n" and "\r\n" line ends are accepted.
bool results_from_csv(const std::string& text, std::vector<RunResult>* out, std::string* error);

// The same as files: written atomically (a temporary file renamed); read whole. False and
// *error (naming the path) on failure; *out is then unchanged.
bool write_results_csv_file(const std::string& path, const std::vector<RunResult>& rows, std::string* error);
bool read_results_csv_file(const std::string& path, std::vector<RunResult>* out, std::string* error);

}  // namespace tilescope
