// Benchmark results as CSV: one header row, then one row per RunResult with every field,
// the device metadata repeated on each row so that any row stands alone (rows from several
// machines can be concatenated and compared). RFC 4180 quoting; numbers written so that they
// read back exactly. The app re-loads its timing history from these files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/measure/measure.h"

namespace tilescope {

// One field as RFC 4180 wants it: quoted (quotes doubled) when it holds a separator, a quote or
// a line break, or starts or ends with a space; as it is otherwise. Every CSV we write uses it.
std::string csv_field(const std::string& s);

// The column names, in file order.
const std::vector<std::string>& results_csv_columns();

std::string results_to_csv(const std::vector<RunResult>& rows);

// Reads text written by results_to_csv. On malformed input (missing or different header,
// wrong number of fields, a number or flag that does not parse, an unterminated quote) returns
// false with `error` naming the line, and leaves `out` empty. Blank lines are ignored; both
// "\n" and "\r\n" line ends are accepted.
bool results_from_csv(const std::string& text, std::vector<RunResult>* out, std::string* error);

// One field of a result from its text as the CSV writes it, by the column's name: false for a
// name that is no column or a text that does not parse. The JSON reader (results_json.h) reads
// each field through it, so the two files share one reading of every field.
bool set_result_field(std::string_view column, std::string_view text, RunResult& r);

// The same as files: written atomically (a temporary file renamed). Read as a stream, block by
// block (a 370 MB history is never held as text), with no allocation per field. A file that
// starts with '{' is read as bench's JSON instead (results_json.h: with the splits' timelines).
// False and *error (naming the path) on failure; *out is then unchanged.
bool write_results_csv_file(const std::string& path, const std::vector<RunResult>& rows, std::string* error);
bool read_results_csv_file(const std::string& path, std::vector<RunResult>* out, std::string* error);

struct ResultsCsvReadOptions {
  // At most this many rows (0: no limit). A longer file is refused, holding no more than this
  // many rows meanwhile; the message gives its row count and the limit.
  std::size_t max_rows = 0;
  // Called after each block read (about every MiB) and at the end, with the bytes read so far
  // and the file's size (0 when unknown). Returning false cancels the read. Called on the
  // reading thread.
  std::function<bool(std::uint64_t bytes_read, std::uint64_t total_bytes)> progress;
};
enum class ResultsCsvRead { kLoaded, kFailed, kTooManyRows, kCancelled };
ResultsCsvRead read_results_csv_file(const std::string& path, std::vector<RunResult>* out, std::string* error,
                                     const ResultsCsvReadOptions& options);

}  // namespace tilescope
