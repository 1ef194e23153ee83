#include "app/cli/ncu_raw_page.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace tilescope {
namespace {

// One line as a CSV record: quoted fields ("" inside for a quote) or bare ones, separated by
// commas. False for a line that is no such record (a quote inside a bare field, text after a
// closing quote, a quote never closed): ncu writes every record of its page on one line.
bool split_record(const std::string& line, std::vector<std::string>* fields) {
  fields->clear();
  std::size_t i = 0;
  for (;;) {
    std::string field;
    if (i < line.size() && line[i] == '"') {
      ++i;
      for (;;) {
        if (i >= line.size()) return false;
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += line[i++];
      }
      if (i < line.size() && line[i] != ',') return false;
    } else {
      while (i < line.size() && line[i] != ',') {
        if (line[i] == '"') return false;
        field += line[i++];
      }
    }
    fields->push_back(std::move(field));
    if (i >= line.size()) return true;
    ++i;  // the comma
  }
}

// The text's lines, without their "\r".
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
  }
  return lines;
}

bool whole_number(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

// Whether `name` occurs in `line` as a whole metric name (not inside a longer one).
bool names_metric(const std::string& line, const std::string& name) {
  for (std::size_t at = line.find(name); at != std::string::npos; at = line.find(name, at + 1)) {
    const bool starts = at == 0 || !name_char(line[at - 1]);
    const std::size_t end = at + name.size();
    // A sentence may end right after the name: "... metric x." is still x.
    const bool ends = end == line.size() || !name_char(line[end]) ||
                      (line[end] == '.' && (end + 1 == line.size() || !name_char(line[end + 1])));
    if (starts && ends) return true;
  }
  return false;
}

}  // namespace

bool read_ncu_raw_page(const std::string& text, NcuRawPage* page, std::string* error) {
  *page = NcuRawPage();
  const std::vector<std::string> lines = lines_of(text);
  std::vector<std::string> fields;
  std::size_t i = 0;
  while (i < lines.size() && !(split_record(lines[i], &fields) && fields.size() > 1 && fields[0] == "ID")) ++i;
  if (i == lines.size()) {
    *error = "no raw page in ncu's output (no header row starting with \"ID\")";
    return false;
  }
  page->columns = fields;
  if (i + 1 == lines.size() || !split_record(lines[i + 1], &fields) || fields.size() != page->columns.size()) {
    *error = "ncu's raw page has no units row after its header";
    page->columns.clear();
    return false;
  }
  page->units = fields;
  for (i += 2; i < lines.size(); ++i) {
    if (!split_record(lines[i], &fields) || fields.size() != page->columns.size()) continue;
    // A page printed in parts repeats its header and units rows: they are no kernels.
    if (fields == page->columns || fields == page->units) continue;
    if (whole_number(fields[0])) page->kernels.push_back(fields);
  }
  if (page->kernels.empty()) {
    *error = "ncu's raw page holds no kernel: nothing was profiled";
    return false;
  }
  return true;
}

bool parse_ncu_number(const std::string& field, double* out) {
  std::string digits;
  for (std::size_t i = 0; i < field.size(); ++i) {
    const char c = field[i];
    // A thousands separator stands between digits, and only before the decimal point.
    const bool separator =
        c == ',' && i > 0 && i + 1 < field.size() && std::isdigit(static_cast<unsigned char>(field[i - 1])) &&
        std::isdigit(static_cast<unsigned char>(field[i + 1])) && digits.find_first_of(".eE") == std::string::npos;
    if (separator) continue;
    if (c == ',') return false;
    digits += c;
  }
  if (digits.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size() || errno == ERANGE || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

std::vector<KernelMetrics> kernel_metrics(const NcuRawPage& page, const std::vector<std::string>& metric_names) {
  std::vector<KernelMetrics> out(page.kernels.size());
  for (const std::string& name : metric_names) {
    std::size_t column = 0;
    while (column < page.columns.size() && page.columns[column] != name) ++column;
    if (column == page.columns.size()) continue;
    for (std::size_t k = 0; k < page.kernels.size(); ++k) {
      double v = 0;
      if (parse_ncu_number(page.kernels[k][column], &v)) out[k][name] = v;
    }
  }
  return out;
}

std::vector<std::string> metrics_named_in_ncu_errors(const std::string& text, const std::vector<std::string>& asked) {
  std::vector<std::string> named;
  for (const std::string& line : lines_of(text)) {
    if (line.rfind("==ERROR==", 0) != 0 && line.rfind("==WARNING==", 0) != 0) continue;
    for (const std::string& name : asked)
      if (names_metric(line, name) && std::find(named.begin(), named.end(), name) == named.end()) named.push_back(name);
  }
  return named;
}

}  // namespace tilescope
