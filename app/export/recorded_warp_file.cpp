#include "app/export/recorded_warp_file.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "app/export/atomic_file.h"
#include "kernels/instrument/recorded_streams.h"
#include "kernels/models/warp_access.h"

namespace tilescope {

namespace {

constexpr const char* kFirstLine = "tilescope recorded warps, format 1";

bool any_access(const RecordedWarp& r, int stream, int step) {
  for (int lane = 0; lane < kWarpLanes; ++lane)
    if (r.at(stream, step, lane) >= 0) return true;
  return false;
}

// The file's lines, read one at a time with their numbers; comment lines are skipped.
class Lines {
 public:
  Lines(const std::string& text, const std::string& name) : in_(text), name_(name) {}
  // The next line that is no comment; false at the end of the text.
  bool next(std::string* line) {
    while (std::getline(in_, *line)) {
      ++number_;
      if (!line->empty() && line->back() == '\r') line->pop_back();
      if (!line->empty() && (*line)[0] == '#') continue;
      return true;
    }
    return false;
  }
  std::string at(const std::string& why) const { return name_ + ":" + std::to_string(number_) + ": " + why; }
  std::string ended(const std::string& expected) const {
    return name_ + ": the file ends after line " + std::to_string(number_) + ", where " + expected +
           " should follow (a file cut short?)";
  }

 private:
  std::istringstream in_;
  std::string name_;
  int number_ = 0;
};

// A whole number from `text` within lo..hi; false when it is anything else.
bool whole_number(const std::string& text, long long lo, long long hi, long long* out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) return false;
  *out = v;
  return true;
}

// Reads the line "KEY VALUE" (the value: the rest of the line) into *value, else *error.
bool keyed_line(Lines& lines, const char* key, std::string* value, std::string* error) {
  std::string line;
  const std::string expected = "'" + std::string(key) + " ...'";
  if (!lines.next(&line)) return *error = lines.ended(expected), false;
  const std::size_t n = std::strlen(key);
  if (line.compare(0, n, key) != 0 || line.size() < n + 2 || line[n] != ' ') {
    *error = lines.at("expected " + expected + ", found '" + line.substr(0, 60) + "'");
    return false;
  }
  *value = line.substr(n + 1);
  return true;
}

bool keyed_number(Lines& lines, const char* key, long long lo, long long hi, long long* out, std::string* error) {
  std::string value;
  if (!keyed_line(lines, key, &value, error)) return false;
  if (whole_number(value, lo, hi, out)) return true;
  *error = lines.at(std::string(key) + ": '" + value + "' is not a whole number from " + std::to_string(lo) + " to " +
                    std::to_string(hi));
  return false;
}

// One step's line: "-" or 32 addresses, each -1 or more.
bool step_line(Lines& lines, RecordedWarp* r, int stream, int step, std::string* error) {
  std::string line;
  if (!lines.next(&line))
    return *error = lines.ended("step " + std::to_string(step) + " of stream " + std::to_string(stream)), false;
  if (line == "-") return true;
  std::istringstream words(line);
  std::string word;
  int lane = 0;
  for (; words >> word; ++lane) {
    long long address = 0;
    if (lane >= kWarpLanes) return *error = lines.at("more than 32 addresses on a step's line"), false;
    if (!whole_number(word, -1, 1LL << 62, &address)) {
      *error = lines.at("'" + word.substr(0, 30) + "' is no address (a whole number, -1 for no access)");
      return false;
    }
    r->address[(static_cast<std::size_t>(stream) * r->steps + step) * kWarpLanes + lane] = address;
  }
  if (lane != kWarpLanes) {
    *error = lines.at(std::to_string(lane) + " addresses on a step's line: it takes 32 (or '-' for none)");
    return false;
  }
  return true;
}

// One record, after its "record" line.
bool read_record(Lines& lines, WarpRecord* w, std::string* error) {
  std::string value;
  if (!keyed_line(lines, "device", &w->device, error) || !keyed_line(lines, "variant", &w->variant, error) ||
      !keyed_line(lines, "config", &w->config, error) || !keyed_line(lines, "edit", &w->edit, error))
    return false;
  if (w->edit == "-") w->edit.clear();
  if (!keyed_line(lines, "problem", &value, error)) return false;
  if (!parse_problem(value, &w->problem))
    return *error = lines.at("problem: '" + value + "' is not gemm or ata"), false;
  if (!keyed_line(lines, "precision", &value, error)) return false;
  if (!parse_precision(value, &w->precision)) return *error = lines.at("precision: '" + value + "' is no type"), false;
  if (!keyed_line(lines, "shape", &value, error)) return false;
  {
    std::istringstream words(value);
    std::string m, n, k, extra;
    long long mv = 0, nv = 0, kv = 0;
    if (!(words >> m >> n >> k) || (words >> extra) || !whole_number(m, 1, INT_MAX, &mv) ||
        !whole_number(n, 1, INT_MAX, &nv) || !whole_number(k, 1, INT_MAX, &kv))
      return *error = lines.at("shape: '" + value + "' is not M N K (three sizes from 1)"), false;
    w->shape = Shape{mv, nv, kv};
  }
  long long block = 0, warp = 0, steps = 0;
  if (!keyed_number(lines, "block", 0, INT_MAX, &block, error) ||
      !keyed_number(lines, "warp", 0, 1 << 10, &warp, error) ||
      !keyed_number(lines, "steps", 1, kMaxRecordedAddresses / (kRecordedStreamCount * kWarpLanes), &steps, error))
    return false;
  w->block = static_cast<int>(block);
  w->warp = static_cast<int>(warp);
  RecordedWarp& r = w->recorded;
  r.steps = static_cast<int>(steps);
  r.address.assign(static_cast<std::size_t>(kRecordedStreamCount) * r.steps * kWarpLanes, -1);
  std::vector<bool> seen(kRecordedStreamCount, false);
  std::string line;
  for (;;) {
    if (!lines.next(&line)) return *error = lines.ended("'stream N' or 'end'"), false;
    if (line == "end") return true;
    long long stream = 0;
    if (line.compare(0, 7, "stream ") != 0 || !whole_number(line.substr(7), 0, kRecordedStreamCount - 1, &stream)) {
      *error = lines.at("expected 'stream N' (N from 0 to " + std::to_string(kRecordedStreamCount - 1) +
                        ") or 'end', found '" + line.substr(0, 60) + "'");
      return false;
    }
    if (seen[static_cast<std::size_t>(stream)]) return *error = lines.at("stream " + line.substr(7) + " again"), false;
    seen[static_cast<std::size_t>(stream)] = true;
    for (int step = 0; step < r.steps; ++step)
      if (!step_line(lines, &r, static_cast<int>(stream), step, error)) return false;
  }
}

}  // namespace

std::string recorded_warps_text(const std::vector<WarpRecord>& records) {
  std::ostringstream out;
  out << kFirstLine << "\n# One warp's byte addresses per stream, step and lane (docs/MEMORY.md)\n";
  for (const WarpRecord& w : records) {
    const RecordedWarp& r = w.recorded;
    out << "record\ndevice " << w.device << "\nvariant " << w.variant << "\nconfig " << w.config << "\nedit "
        << (w.edit.empty() ? "-" : w.edit) << "\nproblem " << to_string(w.problem) << "\nprecision "
        << to_string(w.precision) << "\nshape " << w.shape.M << " " << w.shape.N << " " << w.shape.K << "\nblock "
        << w.block << "\nwarp " << w.warp << "\nsteps " << r.steps << "\n";
    const int streams =
        r.steps > 0 ? static_cast<int>(r.address.size() / (static_cast<std::size_t>(r.steps) * kWarpLanes)) : 0;
    for (int stream = 0; stream < streams && stream < kRecordedStreamCount; ++stream) {
      bool used = false;
      for (int step = 0; step < r.steps && !used; ++step) used = any_access(r, stream, step);
      if (!used) continue;
      out << "stream " << stream << "\n";
      for (int step = 0; step < r.steps; ++step) {
        if (!any_access(r, stream, step)) {
          out << "-\n";
          continue;
        }
        for (int lane = 0; lane < kWarpLanes; ++lane) out << (lane ? " " : "") << r.at(stream, step, lane);
        out << "\n";
      }
    }
    out << "end\n";
  }
  return out.str();
}

bool read_recorded_warps_text(const std::string& text, const std::string& name, std::vector<WarpRecord>* out,
                              std::string* error) {
  Lines lines(text, name);
  std::string line;
  if (!lines.next(&line) || line != kFirstLine) {
    *error = name + ": not a recording of tilescope memory --recording (its first line is not '" + kFirstLine + "')";
    return false;
  }
  std::vector<WarpRecord> records;
  while (lines.next(&line)) {
    if (line.empty()) continue;
    if (line != "record") return *error = lines.at("expected 'record', found '" + line.substr(0, 60) + "'"), false;
    WarpRecord w;
    if (!read_record(lines, &w, error)) return false;
    records.push_back(std::move(w));
  }
  if (records.empty()) return *error = name + ": the file holds no recorded warp", false;
  *out = std::move(records);
  return true;
}

bool write_recorded_warps_file(const std::string& path, const std::vector<WarpRecord>& records, std::string* error) {
  return write_file_atomically(path, recorded_warps_text(records), error);
}

bool read_recorded_warps_file(const std::string& path, std::vector<WarpRecord>* out, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return *error = "cannot read " + path + ": " + std::strerror(errno), false;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return *error = "cannot read " + path, false;
  return read_recorded_warps_text(text.str(), path, out, error);
}

}  // namespace tilescope
