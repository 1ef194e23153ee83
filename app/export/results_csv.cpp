#include "app/export/results_csv.h"

#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string_view>

#include "app/export/atomic_file.h"
#include "app/export/printable_text.h"
#include "app/export/results_json.h"

namespace tilescope {
namespace {

// ---- writing and reading single values ------------------------------------------------------

// The shortest of %.15g / %.17g that reads back to the same double: short where it can be,
// exact always.
std::string format_double(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.15g", v);
  if (std::strtod(buffer, nullptr) != v) std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

// strtod and strtoll need a terminated string: short fields (every number) are copied to the
// stack, so parsing a field allocates nothing.
template <typename Parse>
bool with_c_string(std::string_view s, Parse parse) {
  char small[80];
  if (s.size() < sizeof small) {
    s.copy(small, s.size());
    small[s.size()] = '\0';
    return parse(small, small + s.size());
  }
  const std::string big(s);
  return parse(big.c_str(), big.c_str() + big.size());
}

bool parse_field(std::string_view s, double* out) {
  if (s.empty()) return false;
  return with_c_string(s, [out](const char* begin, const char* end_expected) {
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
    // ERANGE on underflow still yields a usable (denormal or zero) value; only overflow is bad.
    if (end != end_expected || (errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL))) return false;
    *out = v;
    return true;
  });
}

bool parse_field(std::string_view s, std::int64_t* out) {
  if (s.empty()) return false;
  return with_c_string(s, [out](const char* begin, const char* end_expected) {
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(begin, &end, 10);
    if (end != end_expected || errno == ERANGE) return false;
    *out = v;
    return true;
  });
}

// Digits only: strtoull would accept a sign and wrap "-1" around to 2^64-1.
bool parse_field(std::string_view s, std::uint64_t* out) {
  if (s.empty()) return false;
  std::uint64_t v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return false;
    const std::uint64_t digit = static_cast<std::uint64_t>(ch - '0');
    if (v > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return false;
    v = v * 10 + digit;
  }
  *out = v;
  return true;
}

bool parse_field(std::string_view s, int* out) {
  std::int64_t v = 0;
  if (!parse_field(s, &v) || v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) return false;
  *out = static_cast<int>(v);
  return true;
}

bool parse_field(std::string_view s, bool* out) {
  if (s == "true")
    *out = true;
  else if (s == "false")
    *out = false;
  else
    return false;
  return true;
}

bool parse_field(std::string_view s, std::string* out) {
  out->assign(s.data(), s.size());
  return true;
}
bool parse_field(std::string_view s, Problem* out) {
  return parse_problem(std::string(s), out);
}
bool parse_field(std::string_view s, Precision* out) {
  return parse_precision(std::string(s), out);
}
bool parse_field(std::string_view s, OutputType* out) {
  return parse_output_type(std::string(s), out);
}

// The text of a field, as parse_field reads it back.
std::string field_text(const std::string& v) {
  return v;
}
std::string field_text(double v) {
  return format_double(v);
}
std::string field_text(bool v) {
  return v ? "true" : "false";
}
std::string field_text(int v) {
  return std::to_string(v);
}
std::string field_text(std::int64_t v) {
  return std::to_string(v);
}
std::string field_text(std::uint64_t v) {
  return std::to_string(v);
}
std::string field_text(Problem v) {
  return to_string(v);
}
std::string field_text(Precision v) {
  return to_string(v);
}
std::string field_text(OutputType v) {
  return to_string(v);
}

// ---- the columns -----------------------------------------------------------------------------

struct Column {
  const char* name;
  std::function<std::string(const RunResult&)> get;
  std::function<bool(std::string_view, RunResult&)> set;  // false: the text does not parse
};

// A column that maps straight onto one field of RunResult, written and read by the field's type.
template <typename T>
Column field_column(const char* name, T RunResult::*field) {
  return {name, [field](const RunResult& r) { return field_text(r.*field); },
          [field](std::string_view s, RunResult& r) { return parse_field(s, &(r.*field)); }};
}
// A profiler figure (RunResult::profile): empty where there is none (NaN), which a spreadsheet
// reads as a blank rather than as text, and which reads back as NaN.
Column profile_column(const char* name, double ProfileFigures::*figure) {
  return {name,
          [figure](const RunResult& r) {
            const double v = r.profile.*figure;
            return std::isnan(v) ? std::string() : field_text(v);
          },
          [figure](std::string_view s, RunResult& r) {
            if (s.empty()) {
              r.profile.*figure = ProfileFigures::kNone;
              return true;
            }
            return parse_field(s, &(r.profile.*figure));
          }};
}
// M, N, K: one side of the shape.
Column shape_column(const char* name, std::int64_t Shape::*side) {
  return {name, [side](const RunResult& r) { return field_text(r.shape.*side); },
          [side](std::string_view s, RunResult& r) { return parse_field(s, &(r.shape.*side)); }};
}

const std::vector<Column>& columns() {
  static const std::vector<Column> kColumns = {
      field_column("variant_id", &RunResult::variant_id),
      field_column("variant_label", &RunResult::variant_label),
      field_column("config_name", &RunResult::config_name),
      field_column("backend", &RunResult::backend),
      field_column("math", &RunResult::math),
      field_column("problem", &RunResult::problem),
      field_column("precision", &RunResult::precision),
      shape_column("M", &Shape::M),
      shape_column("N", &Shape::N),
      shape_column("K", &Shape::K),
      field_column("repetitions", &RunResult::repetitions),
      field_column("warmup", &RunResult::warmup),
      field_column("seed", &RunResult::seed),
      field_column("timestamp", &RunResult::timestamp),
      field_column("error", &RunResult::error),
      field_column("first_ms", &RunResult::first_ms),
      field_column("first_was_cold", &RunResult::first_was_cold),
      field_column("median_ms", &RunResult::median_ms),
      field_column("min_ms", &RunResult::min_ms),
      field_column("max_ms", &RunResult::max_ms),
      field_column("gflops", &RunResult::gflops),
      field_column("pct_of_peak", &RunResult::pct_of_peak),
      field_column("pct_of_cublas", &RunResult::pct_of_cublas),
      field_column("verified", &RunResult::verified),
      field_column("passed", &RunResult::passed),
      field_column("rel_error", &RunResult::rel_error),
      field_column("tolerance", &RunResult::tolerance),
      field_column("unwritten", &RunResult::unwritten),
      field_column("reference", &RunResult::reference),
      field_column("registers_per_thread", &RunResult::registers_per_thread),
      field_column("static_shared_bytes", &RunResult::static_shared_bytes),
      field_column("dynamic_shared_bytes", &RunResult::dynamic_shared_bytes),
      field_column("threads_per_block", &RunResult::threads_per_block),
      field_column("active_blocks_per_sm", &RunResult::active_blocks_per_sm),
      field_column("occupancy", &RunResult::occupancy),
      field_column("input_sets", &RunResult::input_sets),
      field_column("device_name", &RunResult::device_name),
      field_column("sm_clock_mhz", &RunResult::sm_clock_mhz),
      field_column("driver_version", &RunResult::driver_version),
      field_column("runtime_version", &RunResult::runtime_version),
      field_column("cublas_version", &RunResult::cublas_version),
      // Added 2026-11-22 (the texture-shader variant); files without them still load.
      field_column("timer", &RunResult::timer),
      field_column("passes", &RunResult::passes),
      field_column("fetches_per_fma", &RunResult::fetches_per_fma),
      // Added 2026-11-23; files without it load with 0 (unknown).
      field_column("run_clock_mhz", &RunResult::run_clock_mhz),
      // Added 2026-11-26; files without them load with -1 (not located).
      field_column("wrong_row", &RunResult::wrong_row),
      field_column("wrong_col", &RunResult::wrong_col),
      field_column("wrong_value", &RunResult::wrong_value),
      field_column("wrong_expected", &RunResult::wrong_expected),
      // Added 2026-11-27; files without them load with -1 (not counted).
      field_column("load_sectors_per_request", &RunResult::load_sectors_per_request),
      field_column("store_sectors_per_request", &RunResult::store_sectors_per_request),
      field_column("shared_conflicts_per_instruction", &RunResult::shared_conflicts_per_instruction),
      // Added 2026-11-27 (bench --rounds); files without it load with 0 (no round).
      field_column("round", &RunResult::round),
      // Added 2026-11-27 (bench --profile); files without them load with no figures (NaN).
      profile_column("fma_pipe_pct", &ProfileFigures::fma_pipe_pct),
      profile_column("fp64_pipe_pct", &ProfileFigures::fp64_pipe_pct),
      profile_column("tensor_pipe_pct", &ProfileFigures::tensor_pipe_pct),
      profile_column("issue_active_pct", &ProfileFigures::issue_active_pct),
      profile_column("cycles_per_issue", &ProfileFigures::cycles_per_issue),
      profile_column("ffma_share_pct", &ProfileFigures::ffma_share_pct),
      // Added 2026-11-27 (C in the input type); rows without it stored C in the accumulator's type.
      field_column("c_type", &RunResult::c_type),
      // Added 2026-11-28 (products split across GPUs); files without them load as runs on one GPU.
      field_column("split", &RunResult::split),
      field_column("split_config", &RunResult::split_config),
      field_column("gpus", &RunResult::gpus),
      field_column("gpu_names", &RunResult::gpu_names),
      field_column("speedup_over_one_gpu", &RunResult::speedup_over_one_gpu),
      field_column("predicted_ms", &RunResult::predicted_ms),
      // Added 2026-11-28 (the link the model used travels with its rows); files without them load
      // with 0 (unknown).
      field_column("link_latency_us", &RunResult::link_latency_us),
      field_column("link_broadcast_gbs", &RunResult::link_broadcast_gbs),
      field_column("link_reduce_gbs", &RunResult::link_reduce_gbs),
  };
  return kColumns;
}

// ---- CSV syntax --------------------------------------------------------------------------------

// One CSV record at a time, from a buffer that may end in the middle of one (a file is read in
// blocks). The fields' bytes go into one string reused from record to record, so that reading
// a million rows makes no allocation per field.
class RecordParser {
 public:
  enum class Step { kRecord, kNeedMore, kEnd, kError };

  // Parses the record at data[*pos]. `at_eof`: no bytes follow data[size - 1]. kNeedMore:
  // the buffer ends inside the record; *pos is left at its start (blank lines before it are
  // consumed) and the caller appends bytes and calls again.
  Step next(const char* data, std::size_t size, std::size_t* pos, bool at_eof, std::string* error) {
    std::size_t i = *pos;
    // A blank line is not a record.
    for (;;) {
      if (i >= size) {
        *pos = i;
        return at_eof ? Step::kEnd : Step::kNeedMore;
      }
      if (data[i] == '\n') {
        ++i, ++line_;
      } else if (data[i] == '\r') {
        if (i + 1 >= size && !at_eof) {
          *pos = i;
          return Step::kNeedMore;
        }
        if (i + 1 < size && data[i + 1] == '\n') {
          i += 2, ++line_;
        } else {
          break;  // a lone '\r' starts a field
        }
      } else {
        break;
      }
    }
    *pos = i;
    const int start_line = line_;
    record_line_ = line_;
    text_.clear();
    ends_.clear();
    int line = line_;
    auto need_more = [&] {
      line_ = start_line;  // the record is parsed again from its start
      return Step::kNeedMore;
    };
    for (;;) {
      if (i < size && data[i] == '"') {
        const int quote_line = line;
        ++i;
        for (;;) {
          if (i >= size) {
            if (!at_eof) return need_more();
            *error = "line " + std::to_string(quote_line) + ": a quoted field is never closed";
            return Step::kError;
          }
          if (data[i] == '"') {
            if (i + 1 >= size && !at_eof) return need_more();
            if (i + 1 < size && data[i + 1] == '"') {
              text_ += '"';
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          // Copy the run up to the next quote at once.
          const char* q = static_cast<const char*>(std::memchr(data + i, '"', size - i));
          const std::size_t stop = q ? static_cast<std::size_t>(q - data) : size;
          for (std::size_t j = i; j < stop; ++j)
            if (data[j] == '\n') ++line;
          text_.append(data + i, stop - i);
          i = stop;
        }
        if (i < size && data[i] != ',' && data[i] != '\n' && data[i] != '\r') {
          *error = "line " + std::to_string(line) + ": unexpected text after a closing quote";
          return Step::kError;
        }
      } else {
        const std::size_t begin = i;
        while (i < size && data[i] != ',' && data[i] != '\n') {
          if (data[i] == '\r') {
            if (i + 1 >= size && !at_eof) return need_more();
            if (i + 1 < size && data[i + 1] == '\n') break;
          }
          if (data[i] == '"') {
            *error = "line " + std::to_string(line) + ": a quote inside an unquoted field";
            return Step::kError;
          }
          ++i;
        }
        text_.append(data + begin, i - begin);
      }
      ends_.push_back(text_.size());
      if (i < size && data[i] == ',') {
        ++i;
        continue;
      }
      if (i >= size && !at_eof) return need_more();
      // End of record: "\n", "\r\n" or the end of the text.
      if (i < size && data[i] == '\r') {
        if (i + 1 >= size && !at_eof) return need_more();
        ++i;
      }
      if (i < size && data[i] == '\n') {
        ++i;
        ++line;
      }
      break;
    }
    line_ = line;
    *pos = i;
    return Step::kRecord;
  }

  int record_line() const { return record_line_; }  // where the last record starts (1-based)
  std::size_t field_count() const { return ends_.size(); }
  std::string_view field(std::size_t k) const {
    const std::size_t begin = k == 0 ? 0 : ends_[k - 1];
    return std::string_view(text_).substr(begin, ends_[k] - begin);
  }

 private:
  std::string text_;               // the current record's fields, unquoted, back to back
  std::vector<std::size_t> ends_;  // where each field ends in text_
  int line_ = 1;                   // the line at the parse position
  int record_line_ = 1;
};

// Records from text in memory, or from a file read in blocks of kBlockBytes.
class RecordStream {
 public:
  static constexpr std::size_t kBlockBytes = 1 << 20;

  explicit RecordStream(std::string_view text) : text_(text), at_eof_(true) {}
  explicit RecordStream(std::FILE* file) : file_(file) {}

  // kRecord (parser() holds it), kEnd, or kError (*error says why, naming the line).
  RecordParser::Step next(std::string* error) {
    for (;;) {
      const std::string_view data = file_ ? std::string_view(buffer_) : text_;
      const RecordParser::Step step = parser_.next(data.data(), data.size(), &pos_, at_eof_, error);
      if (step != RecordParser::Step::kNeedMore) return step;
      if (!fill(error)) return RecordParser::Step::kError;
    }
  }
  const RecordParser& parser() const { return parser_; }
  // Bytes of the input read so far, and of those the bytes parsed into records.
  std::uint64_t bytes_read() const { return file_ ? read_ : text_.size(); }
  std::uint64_t bytes_parsed() const { return file_ ? read_ - (buffer_.size() - pos_) : pos_; }
  // Set by fill(): a new block was read since the last call (the caller reports progress).
  bool take_block_read() {
    const bool b = block_read_;
    block_read_ = false;
    return b;
  }

 private:
  // Drops what was parsed and appends the next block. A record longer than a block (a huge
  // quoted field) just makes the buffer grow.
  bool fill(std::string* error) {
    buffer_.erase(0, pos_);
    pos_ = 0;
    const std::size_t old = buffer_.size();
    buffer_.resize(old + kBlockBytes);
    const std::size_t got = std::fread(&buffer_[old], 1, kBlockBytes, file_);
    buffer_.resize(old + got);
    read_ += got;
    block_read_ = true;
    if (got < kBlockBytes) {
      if (std::ferror(file_)) {
        *error = std::string("read error: ") + std::strerror(errno);
        return false;
      }
      at_eof_ = true;
    }
    return true;
  }

  std::string_view text_;
  std::FILE* file_ = nullptr;
  std::string buffer_;
  std::size_t pos_ = 0;
  std::uint64_t read_ = 0;
  bool at_eof_ = false;
  bool block_read_ = false;
  RecordParser parser_;
};

std::string line_prefix(int line) {
  return "line " + std::to_string(line) + ": ";
}

// Where the column named `name` stands among the columns (their count if none is so named).
std::size_t column_index(std::string_view name) {
  const std::vector<Column>& cols = columns();
  std::size_t i = 0;
  while (i < cols.size() && std::string_view(cols[i].name) != name) ++i;
  return i;
}

// The columns the header names: all of them, or all those before a later addition (files written
// before it existed still load; the added fields keep their defaults). False and *error if the
// header is not ours.
bool check_header(const RecordParser& header, std::size_t* n_cols, std::string* error) {
  const std::vector<Column>& all_cols = columns();
  const std::size_t fields = header.field_count();
  *n_cols = all_cols.size();
  // The first column of each addition.
  for (const char* first_added : {"timer", "run_clock_mhz", "wrong_row", "load_sectors_per_request", "round",
                                  "fma_pipe_pct", "c_type", "split", "link_latency_us"}) {
    if (fields == column_index(first_added)) *n_cols = fields;
  }
  const std::string where = line_prefix(header.record_line());
  for (std::size_t i = 0; i < *n_cols; ++i) {
    if (i >= fields) {
      *error = where + "the header has " + std::to_string(fields) + " columns, expected " + std::to_string(*n_cols) +
               " (missing '" + all_cols[i].name + "')";
      return false;
    }
    if (header.field(i) != all_cols[i].name) {
      *error = where + "header column " + std::to_string(i + 1) + " is '" + printable_excerpt(header.field(i)) +
               "', expected '" + all_cols[i].name + "' (not a tilescope results file?)";
      return false;
    }
  }
  if (fields != *n_cols) {
    *error = where + "the header has " + std::to_string(fields) + " columns, expected " + std::to_string(*n_cols);
    return false;
  }
  return true;
}

bool record_to_result(const RecordParser& rec, std::size_t n_cols, RunResult* result, std::string* error) {
  if (rec.field_count() != n_cols) {
    *error = line_prefix(rec.record_line()) + std::to_string(rec.field_count()) + " fields, expected " +
             std::to_string(n_cols);
    return false;
  }
  const std::vector<Column>& cols = columns();
  for (std::size_t i = 0; i < n_cols; ++i) {
    if (!cols[i].set(rec.field(i), *result)) {
      *error = line_prefix(rec.record_line()) + "column '" + cols[i].name + "' has a bad value '" +
               printable_excerpt(rec.field(i)) + "'";
      return false;
    }
  }
  // A file written before C had a type of a row's own: C was stored in the accumulator's.
  static const std::size_t c_type_at = column_index("c_type");
  if (n_cols <= c_type_at) result->c_type = output_type(result->precision, false);
  return true;
}

// The whole input: header, then rows. `total_bytes` (0 = unknown) sizes the row vector once
// the first rows show how long a row is, instead of growing it by doubling. With a row limit,
// a file whose size says it holds far more rows than that is not converted at all: its
// records are only counted (for the message), which takes little time and no memory. Should
// the count then come out within the limit after all (rows of very uneven length), *retry is
// set: the caller reads again from the start with `estimate` false.
ResultsCsvRead read_results(RecordStream& in, std::uint64_t total_bytes, const ResultsCsvReadOptions& options,
                            bool estimate, std::vector<RunResult>* out, std::string* error, bool* retry) {
  out->clear();
  *retry = false;
  RecordParser::Step step = in.next(error);
  if (step == RecordParser::Step::kError) return ResultsCsvRead::kFailed;
  if (step == RecordParser::Step::kEnd) {
    *error = "line 1: the file is empty (no header row)";
    return ResultsCsvRead::kFailed;
  }
  std::size_t n_cols = 0;
  if (!check_header(in.parser(), &n_cols, error)) return ResultsCsvRead::kFailed;

  std::vector<RunResult> rows;
  constexpr std::size_t kSampleRows = 1000;  // rows read before the row count is estimated
  std::size_t records = 0;                   // data records seen, converted or not
  bool counting_only = false;                // past the limit: records are only counted
  for (;;) {
    if (in.take_block_read() && options.progress && !options.progress(in.bytes_read(), total_bytes)) {
      *error = "cancelled";
      return ResultsCsvRead::kCancelled;
    }
    step = in.next(error);
    if (step == RecordParser::Step::kError) return ResultsCsvRead::kFailed;
    if (step == RecordParser::Step::kEnd) break;
    ++records;
    if (options.max_rows > 0 && records > options.max_rows) counting_only = true;
    if (counting_only) {
      if (!rows.empty()) std::vector<RunResult>().swap(rows);  // free them while counting
      continue;
    }
    if (records == kSampleRows + 1 && total_bytes > 0) {
      const double per_row = static_cast<double>(in.bytes_parsed()) / static_cast<double>(kSampleRows + 1);
      const double guess = static_cast<double>(total_bytes) / per_row;
      if (estimate && options.max_rows > 0 && guess > 1.1 * static_cast<double>(options.max_rows)) {
        counting_only = true;
        std::vector<RunResult>().swap(rows);
        continue;
      }
      std::size_t reserve = static_cast<std::size_t>(guess * 1.02) + 16;
      if (options.max_rows > 0) reserve = std::min(reserve, options.max_rows);
      rows.reserve(reserve);
    }
    rows.emplace_back();
    if (!record_to_result(in.parser(), n_cols, &rows.back(), error)) return ResultsCsvRead::kFailed;
  }
  if (counting_only && records <= options.max_rows) {
    *retry = true;
    return ResultsCsvRead::kFailed;
  }
  if (counting_only) {
    *error = std::to_string(records) + " rows, more than the " + std::to_string(options.max_rows) +
             " the window's history holds; load a part of the file (its header line and fewer rows)";
    return ResultsCsvRead::kTooManyRows;
  }
  if (options.progress && !options.progress(in.bytes_read(), total_bytes)) {
    *error = "cancelled";
    return ResultsCsvRead::kCancelled;
  }
  *out = std::move(rows);
  return ResultsCsvRead::kLoaded;
}

}  // namespace

// Quoted when it holds a separator, a quote or a line break, or starts/ends with a space
// (which some readers would trim).
std::string csv_field(const std::string& s) {
  const bool needs =
      s.find_first_of(",\"\r\n") != std::string::npos || (!s.empty() && (s.front() == ' ' || s.back() == ' '));
  if (!needs) return s;
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

const std::vector<std::string>& results_csv_columns() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const Column& c : columns()) v.push_back(c.name);
    return v;
  }();
  return names;
}

std::string results_to_csv(const std::vector<RunResult>& rows) {
  std::string out;
  const std::vector<Column>& cols = columns();
  for (std::size_t i = 0; i < cols.size(); ++i) out += (i ? "," : "") + std::string(cols[i].name);
  out += "\n";
  for (const RunResult& r : rows) {
    for (std::size_t i = 0; i < cols.size(); ++i) out += (i ? "," : "") + csv_field(cols[i].get(r));
    out += "\n";
  }
  return out;
}

bool results_from_csv(const std::string& text, std::vector<RunResult>* out, std::string* error) {
  RecordStream in{std::string_view(text)};
  bool retry = false;  // never set without a row limit
  return read_results(in, 0, ResultsCsvReadOptions{}, false, out, error, &retry) == ResultsCsvRead::kLoaded;
}

bool set_result_field(std::string_view column, std::string_view text, RunResult& r) {
  const std::size_t i = column_index(column);
  return i < columns().size() && columns()[i].set(text, r);
}

bool write_results_csv_file(const std::string& path, const std::vector<RunResult>& rows, std::string* error) {
  return write_file_atomically(path, results_to_csv(rows), error);
}

namespace {

// bench's JSON (a file of tens of megabytes at most: read whole), through results_from_json; its
// opening '{' has been read.
ResultsCsvRead read_json_results(std::FILE* file, const std::string& path, std::uint64_t total,
                                 const ResultsCsvReadOptions& options, std::vector<RunResult>* out,
                                 std::string* error) {
  std::string text = "{";  // read by the caller, which saw that the file is JSON
  char block[1 << 16];
  for (std::size_t n; (n = std::fread(block, 1, sizeof block, file)) > 0;) {
    text.append(block, n);
    if (options.progress && !options.progress(text.size(), total)) {
      *error = "loading " + path + " was cancelled";
      return ResultsCsvRead::kCancelled;
    }
  }
  std::vector<RunResult> rows;
  std::string why;
  if (!results_from_json(text, &rows, &why)) {
    *error = path + ": " + why;
    return ResultsCsvRead::kFailed;
  }
  if (options.max_rows > 0 && rows.size() > options.max_rows) {
    *error = path + ": " + std::to_string(rows.size()) + " rows, more than the " + std::to_string(options.max_rows) +
             " the window holds";
    return ResultsCsvRead::kTooManyRows;
  }
  *out = std::move(rows);
  return ResultsCsvRead::kLoaded;
}

}  // namespace

ResultsCsvRead read_results_csv_file(const std::string& path, std::vector<RunResult>* out, std::string* error,
                                     const ResultsCsvReadOptions& options) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) {
    *error = "cannot read " + path + ": " + std::strerror(errno);
    return ResultsCsvRead::kFailed;
  }
  std::uint64_t total = 0;
  struct stat st {};
  if (fstat(fileno(file.get()), &st) == 0 && S_ISREG(st.st_mode)) total = static_cast<std::uint64_t>(st.st_size);
  // The first character that is not white space tells a JSON file from a CSV one. It is put back
  // rather than the file rewound: the file may be a pipe (a FIFO), read once as it arrives.
  int first = std::fgetc(file.get());
  while (first == ' ' || first == '\n' || first == '\r' || first == '\t') first = std::fgetc(file.get());
  if (first == '{') return read_json_results(file.get(), path, total, options, out, error);
  if (first != EOF) std::ungetc(first, file.get());
  std::vector<RunResult> rows;
  std::string why;
  bool retry = false;
  ResultsCsvRead result = ResultsCsvRead::kFailed;
  {
    RecordStream in(file.get());
    result = read_results(in, total, options, true, &rows, &why, &retry);
  }
  if (retry) {  // the size misjudged the row count: read it all, exactly
    std::rewind(file.get());
    RecordStream again(file.get());
    result = read_results(again, total, options, false, &rows, &why, &retry);
  }
  if (result != ResultsCsvRead::kLoaded) {
    *error = result == ResultsCsvRead::kCancelled ? "loading " + path + " was cancelled" : path + ": " + why;
    return result;
  }
  *out = std::move(rows);
  return result;
}

bool read_results_csv_file(const std::string& path, std::vector<RunResult>* out, std::string* error) {
  return read_results_csv_file(path, out, error, ResultsCsvReadOptions{}) == ResultsCsvRead::kLoaded;
}

}  // namespace tilescope
