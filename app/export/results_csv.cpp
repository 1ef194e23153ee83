#include "export/results_csv.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>

#include "export/atomic_file.h"

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

bool parse_double(const std::string& s, double* out) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  // ERANGE on underflow still yields a usable (denormal or zero) value; only overflow is bad.
  if (end != s.c_str() + s.size() || (errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL))) return false;
  *out = v;
  return true;
}

bool parse_int64(const std::string& s, std::int64_t* out) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (end != s.c_str() + s.size() || errno == ERANGE) return false;
  *out = v;
  return true;
}

// Digits only: strtoull would accept a sign and wrap "-1" around to 2^64-1.
bool parse_uint64(const std::string& s, std::uint64_t* out) {
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

bool parse_int(const std::string& s, int* out) {
  std::int64_t v = 0;
  if (!parse_int64(s, &v) || v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) return false;
  *out = static_cast<int>(v);
  return true;
}

bool parse_bool(const std::string& s, bool* out) {
  if (s == "true")
    *out = true;
  else if (s == "false")
    *out = false;
  else
    return false;
  return true;
}

// ---- the columns -----------------------------------------------------------------------------

struct Column {
  const char* name;
  std::function<std::string(const RunResult&)> get;
  std::function<bool(const std::string&, RunResult&)> set;  // false: the text does not parse
};

// Columns that map straight onto one field of RunResult.
Column text_column(const char* name, std::string RunResult::*field) {
  return {name, [field](const RunResult& r) { return r.*field; },
          [field](const std::string& s, RunResult& r) {
            r.*field = s;
            return true;
          }};
}
Column double_column(const char* name, double RunResult::*field) {
  return {name, [field](const RunResult& r) { return format_double(r.*field); },
          [field](const std::string& s, RunResult& r) { return parse_double(s, &(r.*field)); }};
}
Column int_column(const char* name, int RunResult::*field) {
  return {name, [field](const RunResult& r) { return std::to_string(r.*field); },
          [field](const std::string& s, RunResult& r) { return parse_int(s, &(r.*field)); }};
}
Column bool_column(const char* name, bool RunResult::*field) {
  return {name, [field](const RunResult& r) { return std::string(r.*field ? "true" : "false"); },
          [field](const std::string& s, RunResult& r) { return parse_bool(s, &(r.*field)); }};
}

const std::vector<Column>& columns() {
  static const std::vector<Column> kColumns = {
      text_column("variant_id", &RunResult::variant_id),
      text_column("variant_label", &RunResult::variant_label),
      text_column("config_name", &RunResult::config_name),
      text_column("backend", &RunResult::backend),
      text_column("math", &RunResult::math),
      Column{"problem", [](const RunResult& r) { return std::string(to_string(r.problem)); },
             [](const std::string& s, RunResult& r) { return parse_problem(s, &r.problem); }},
      Column{"precision", [](const RunResult& r) { return std::string(to_string(r.precision)); },
             [](const std::string& s, RunResult& r) { return parse_precision(s, &r.precision); }},
      Column{"M", [](const RunResult& r) { return std::to_string(r.shape.M); },
             [](const std::string& s, RunResult& r) { return parse_int64(s, &r.shape.M); }},
      Column{"N", [](const RunResult& r) { return std::to_string(r.shape.N); },
             [](const std::string& s, RunResult& r) { return parse_int64(s, &r.shape.N); }},
      Column{"K", [](const RunResult& r) { return std::to_string(r.shape.K); },
             [](const std::string& s, RunResult& r) { return parse_int64(s, &r.shape.K); }},
      int_column("repetitions", &RunResult::repetitions),
      int_column("warmup", &RunResult::warmup),
      Column{"seed", [](const RunResult& r) { return std::to_string(r.seed); },
             [](const std::string& s, RunResult& r) { return parse_uint64(s, &r.seed); }},
      text_column("timestamp", &RunResult::timestamp),
      text_column("error", &RunResult::error),
      double_column("first_ms", &RunResult::first_ms),
      bool_column("first_was_cold", &RunResult::first_was_cold),
      double_column("median_ms", &RunResult::median_ms),
      double_column("min_ms", &RunResult::min_ms),
      double_column("max_ms", &RunResult::max_ms),
      double_column("gflops", &RunResult::gflops),
      double_column("pct_of_peak", &RunResult::pct_of_peak),
      double_column("pct_of_cublas", &RunResult::pct_of_cublas),
      bool_column("verified", &RunResult::verified),
      bool_column("passed", &RunResult::passed),
      double_column("rel_error", &RunResult::rel_error),
      double_column("tolerance", &RunResult::tolerance),
      Column{"unwritten", [](const RunResult& r) { return std::to_string(r.unwritten); },
             [](const std::string& s, RunResult& r) { return parse_int64(s, &r.unwritten); }},
      text_column("reference", &RunResult::reference),
      int_column("registers_per_thread", &RunResult::registers_per_thread),
      int_column("static_shared_bytes", &RunResult::static_shared_bytes),
      int_column("dynamic_shared_bytes", &RunResult::dynamic_shared_bytes),
      int_column("threads_per_block", &RunResult::threads_per_block),
      int_column("active_blocks_per_sm", &RunResult::active_blocks_per_sm),
      double_column("occupancy", &RunResult::occupancy),
      int_column("input_sets", &RunResult::input_sets),
      text_column("device_name", &RunResult::device_name),
      int_column("sm_clock_mhz", &RunResult::sm_clock_mhz),
      text_column("driver_version", &RunResult::driver_version),
      text_column("runtime_version", &RunResult::runtime_version),
      int_column("cublas_version", &RunResult::cublas_version),
      // Added 2026-11-22 (the texture-shader variant); files without them still load.
      text_column("timer", &RunResult::timer),
      int_column("passes", &RunResult::passes),
      double_column("fetches_per_fma", &RunResult::fetches_per_fma),
  };
  return kColumns;
}

// ---- CSV syntax --------------------------------------------------------------------------------

// Quoted when it holds a separator, a quote or a line break, or starts/ends with a space
// (which some readers would trim).
std::string quote_field(const std::string& s) {
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

struct Record {
  int line = 0;  // where the record starts (1-based)
  std::vector<std::string> fields;
};

bool split_records(const std::string& text, std::vector<Record>* records, std::string* error) {
  int line = 1;
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    Record rec;
    rec.line = line;
    // A blank line is not a record.
    if (text[i] == '\n' || (text[i] == '\r' && i + 1 < n && text[i + 1] == '\n')) {
      i += text[i] == '\r' ? 2 : 1;
      ++line;
      continue;
    }
    for (;;) {
      std::string field;
      if (i < n && text[i] == '"') {
        const int quote_line = line;
        ++i;
        for (;;) {
          if (i >= n) {
            *error = "line " + std::to_string(quote_line) + ": a quoted field is never closed";
            return false;
          }
          if (text[i] == '"') {
            if (i + 1 < n && text[i + 1] == '"') {
              field += '"';
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          if (text[i] == '\n') ++line;
          field += text[i++];
        }
        if (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
          *error = "line " + std::to_string(line) + ": unexpected text after a closing quote";
          return false;
        }
      } else {
        while (i < n && text[i] != ',' && text[i] != '\n' && !(text[i] == '\r' && i + 1 < n && text[i + 1] == '\n')) {
          if (text[i] == '"') {
            *error = "line " + std::to_string(line) + ": a quote inside an unquoted field";
            return false;
          }
          field += text[i++];
        }
      }
      rec.fields.push_back(std::move(field));
      if (i < n && text[i] == ',') {
        ++i;
        continue;
      }
      // End of record: "\n", "\r\n" or the end of the text.
      if (i < n && text[i] == '\r') ++i;
      if (i < n && text[i] == '\n') {
        ++i;
        ++line;
      }
      break;
    }
    records->push_back(std::move(rec));
  }
  return true;
}

}  // namespace

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
    for (std::size_t i = 0; i < cols.size(); ++i) out += (i ? "," : "") + quote_field(cols[i].get(r));
    out += "\n";
  }
  return out;
}

bool results_from_csv(const std::string& text, std::vector<RunResult>* out, std::string* error) {
  out->clear();
  std::vector<Record> records;
  if (!split_records(text, &records, error)) return false;
  if (records.empty()) {
    *error = "line 1: the file is empty (no header row)";
    return false;
  }
  const std::vector<Column>& all_cols = columns();
  const Record& header = records.front();
  // Files written before the last columns existed (timer, passes, fetches_per_fma) still load:
  // those fields keep their defaults.
  std::size_t before_timer = 0;
  while (before_timer < all_cols.size() && std::string(all_cols[before_timer].name) != "timer") ++before_timer;
  const std::size_t n_cols = header.fields.size() == before_timer ? before_timer : all_cols.size();
  const std::vector<Column> cols(all_cols.begin(), all_cols.begin() + static_cast<std::ptrdiff_t>(n_cols));
  for (std::size_t i = 0; i < cols.size(); ++i) {
    if (i >= header.fields.size()) {
      *error = "line " + std::to_string(header.line) + ": the header has " + std::to_string(header.fields.size()) +
               " columns, expected " + std::to_string(cols.size()) + " (missing '" + cols[i].name + "')";
      return false;
    }
    if (header.fields[i] != cols[i].name) {
      *error = "line " + std::to_string(header.line) + ": header column " + std::to_string(i + 1) + " is '" +
               header.fields[i] + "', expected '" + cols[i].name + "' (not a tilescope results file?)";
      return false;
    }
  }
  if (header.fields.size() != cols.size()) {
    *error = "line " + std::to_string(header.line) + ": the header has " + std::to_string(header.fields.size()) +
             " columns, expected " + std::to_string(cols.size());
    return false;
  }

  std::vector<RunResult> rows;
  for (std::size_t r = 1; r < records.size(); ++r) {
    const Record& rec = records[r];
    if (rec.fields.size() != cols.size()) {
      *error = "line " + std::to_string(rec.line) + ": " + std::to_string(rec.fields.size()) + " fields, expected " +
               std::to_string(cols.size());
      return false;
    }
    RunResult result;
    for (std::size_t i = 0; i < cols.size(); ++i) {
      if (!cols[i].set(rec.fields[i], result)) {
        *error = "line " + std::to_string(rec.line) + ": column '" + cols[i].name + "' has a bad value '" +
                 rec.fields[i] + "'";
        return false;
      }
    }
    rows.push_back(std::move(result));
  }
  *out = std::move(rows);
  return true;
}

bool write_results_csv_file(const std::string& path, const std::vector<RunResult>& rows, std::string* error) {
  return write_file_atomically(path, results_to_csv(rows), error);
}

bool read_results_csv_file(const std::string& path, std::vector<RunResult>* out, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<RunResult> rows;
  std::string why;
  if (!results_from_csv(text.str(), &rows, &why)) {
    *error = path + ": " + why;
    return false;
  }
  *out = std::move(rows);
  return true;
}

}  // namespace tilescope
