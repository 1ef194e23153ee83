// Plain-text tables for the terminal, and the number formats they share: bench's results, the
// registry listing, the splits' predictions.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace tilescope {

inline std::string table_printf(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// Milliseconds with about four significant digits whatever the scale (0.0123 .. 12345.6).
inline std::string table_ms(double ms) {
  if (!std::isfinite(ms)) return "-";
  if (ms >= 100) return table_printf("%.1f", ms);
  if (ms >= 1) return table_printf("%.3f", ms);
  return table_printf("%.4f", ms);
}

// Columns aligned by width; a row may end in a free-text tail (an error message) that spans
// the columns it replaces and does not widen them.
class TextTable {
 public:
  // `right` holds one flag per column: right-aligned (numbers) or left-aligned (names).
  explicit TextTable(std::vector<bool> right) : right_(std::move(right)), widths_(right_.size(), 0) {}

  void add(std::vector<std::string> cells, std::string tail = "") {
    for (std::size_t i = 0; i < cells.size() && i < widths_.size(); ++i)
      widths_[i] = std::max(widths_[i], cells[i].size());
    rows_.push_back({std::move(cells), std::move(tail)});
  }

  std::string str() const {
    std::string out;
    for (const Row& row : rows_) {
      std::string line;
      for (std::size_t i = 0; i < row.cells.size() && i < widths_.size(); ++i) {
        const std::string& c = row.cells[i];
        const std::string pad(widths_[i] - c.size(), ' ');
        if (i > 0) line += "  ";
        line += right_[i] ? pad + c : c + pad;
      }
      if (!row.tail.empty()) line += "  " + row.tail;
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
    return out;
  }

 private:
  struct Row {
    std::vector<std::string> cells;
    std::string tail;
  };
  std::vector<bool> right_;
  std::vector<std::size_t> widths_;
  std::vector<Row> rows_;
};

}  // namespace tilescope
