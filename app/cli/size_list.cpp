#include "app/cli/size_list.h"

#include <cctype>
#include <unordered_set>

namespace tilescope {
namespace {

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t pos = s.find(sep, start);
    if (pos == std::string::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

// A size written in decimal digits, 1 .. kMaxMatrixSize. `what` names the role in messages.
bool parse_size(const std::string& raw, const char* what, std::int64_t* out, std::string* error) {
  const std::string text = trim(raw);
  if (text.empty()) {
    *error = std::string("missing ") + what;
    return false;
  }
  if (text[0] == '-') {
    *error = std::string(what) + " '" + text + "' is negative; sizes are at least 1";
    return false;
  }
  std::int64_t value = 0;
  for (char ch : text) {
    if (!std::isdigit(static_cast<unsigned char>(ch))) {
      *error = std::string(what) + " '" + text + "' is not a whole number";
      return false;
    }
    // Stop accumulating once past the limit so that long digit strings cannot overflow.
    if (value <= kMaxMatrixSize) value = value * 10 + (ch - '0');
  }
  if (value < 1) {
    *error = std::string(what) + " must be at least 1, got '" + text + "'";
    return false;
  }
  if (value > kMaxMatrixSize) {
    *error = std::string(what) + " '" + text + "' is above the limit of " + std::to_string(kMaxMatrixSize) + " (2^20)";
    return false;
  }
  *out = value;
  return true;
}

// Appends v unless already present; false once the list would exceed its limit.
class SizeCollector {
 public:
  explicit SizeCollector(std::vector<std::int64_t>* out) : out_(out) {}
  bool add(std::int64_t v) {
    if (!seen_.insert(v).second) return true;
    if (out_->size() >= kMaxSizeListEntries) return false;
    out_->push_back(v);
    return true;
  }

 private:
  std::vector<std::int64_t>* out_;
  std::unordered_set<std::int64_t> seen_;
};

std::string too_many_message(const std::string& item) {
  return "'" + item + "' makes the list longer than " + std::to_string(kMaxSizeListEntries) + " sizes";
}

bool parse_range(const std::string& item, const std::vector<std::string>& parts, SizeCollector* sizes,
                 std::string* error) {
  std::int64_t start = 0, end = 0;
  if (!parse_size(parts[0], "range start", &start, error) || !parse_size(parts[1], "range end", &end, error)) {
    *error += " (in range '" + item + "')";
    return false;
  }
  if (end < start) {
    *error = "range '" + item + "' runs backwards: its end is below its start";
    return false;
  }
  bool geometric = true;
  std::int64_t step = 2;
  if (parts.size() == 3) {
    const std::string s = trim(parts[2]);
    if (!s.empty() && (s[0] == 'x' || s[0] == 'X' || s[0] == '*')) {
      geometric = true;
    } else if (!s.empty() && s[0] == '+') {
      geometric = false;
    } else {
      *error = "range '" + item + "': step '" + s +
               "' must be written xF (geometric, e.g. x2) or +S (arithmetic, e.g. +1000)";
      return false;
    }
    const std::string number = trim(s.substr(1));
    if (number == "0" || (geometric && number == "1")) {
      *error = "range '" + item + "': step '" + s + "' does not progress";
      return false;
    }
    if (!parse_size(number, "step", &step, error)) {
      *error = "range '" + item + "': " + *error;
      return false;
    }
    if (geometric && step < 2) {
      *error = "range '" + item + "': step '" + s + "' does not progress";
      return false;
    }
  }
  // Values stay <= 2^20 and steps <= 2^20, so v * step and v + step cannot overflow.
  for (std::int64_t v = start; v <= end; v = geometric ? v * step : v + step) {
    if (!sizes->add(v)) {
      *error = too_many_message(item);
      return false;
    }
  }
  return true;
}

}  // namespace

bool parse_size_list(const std::string& text, std::vector<std::int64_t>* out, std::string* error) {
  out->clear();
  if (trim(text).empty()) {
    *error = "the size list is empty";
    return false;
  }
  SizeCollector sizes(out);
  for (const std::string& raw_item : split(text, ',')) {
    const std::string item = trim(raw_item);
    if (item.empty()) {
      *error = "empty item in size list '" + text + "'";
      out->clear();
      return false;
    }
    const std::vector<std::string> parts = split(item, ':');
    bool ok = true;
    if (parts.size() == 1) {
      std::int64_t v = 0;
      ok = parse_size(item, "size", &v, error);
      if (ok && !sizes.add(v)) {
        *error = too_many_message(item);
        ok = false;
      }
    } else if (parts.size() <= 3) {
      ok = parse_range(item, parts, &sizes, error);
    } else {
      *error = "'" + item + "' has too many ':'; a range is START:END or START:END:xF or START:END:+S";
      ok = false;
    }
    if (!ok) {
      out->clear();
      return false;
    }
  }
  return true;
}

}  // namespace tilescope
