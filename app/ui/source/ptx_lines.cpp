#include "app/ui/source/ptx_lines.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>
#include <tuple>

namespace tilescope {

namespace {

std::string trimmed(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// "1 25 3" -> {1, 25, 3}: the file index, line and column at the start of `s`.
PtxSpot read_spot(const std::string& s) {
  std::istringstream in(s);
  PtxSpot spot;
  if (!(in >> spot.file >> spot.line)) return PtxSpot{};
  if (!(in >> spot.column)) spot.column = 0;
  return spot;
}

using SpotKey = std::tuple<int, int, int>;
SpotKey key(const PtxSpot& s) {
  return {s.file, s.line, s.column};
}

// The `.loc`s of one kernel: where each place seen was inlined at (file -1: not inlined), so that a
// call site inside a helper leads on to the helper's own call site.
class LocChain {
 public:
  // `.loc 2 4 3, function_name $L__info_string0, inlined_at 1 5 5`
  void read(const std::string& line, PtxSpot* at, std::vector<PtxSpot>* calls) {
    *at = read_spot(line.substr(4));
    PtxSpot site;
    const std::size_t k = line.find("inlined_at");
    if (k != std::string::npos) site = read_spot(line.substr(k + 10));
    called_at_[key(*at)] = site;
    // Out along the chain, at most as many steps as places seen (a cycle cannot hold it up).
    calls->clear();
    for (std::size_t steps = 0; site.file >= 0 && steps <= called_at_.size(); ++steps) {
      calls->push_back(site);
      const auto it = called_at_.find(key(site));
      if (it == called_at_.end()) return;
      site = it->second;
    }
  }
  void clear() { called_at_.clear(); }

 private:
  std::map<SpotKey, PtxSpot> called_at_;
};

// `.file 1 "/abs/kernels/variants/x.cuh"` (maybe followed by a timestamp and size).
void read_file_entry(const std::string& line, std::map<int, std::string>* files) {
  const int index = std::atoi(line.c_str() + 5);
  const std::size_t open = line.find('"'), close = line.find('"', open + 1);
  if (open == std::string::npos || close == std::string::npos) return;
  (*files)[index] = line.substr(open + 1, close - open - 1);
}

// A line that starts an instruction: not empty, a comment, a directive, a label or a brace.
bool starts_instruction(const std::string& t) {
  if (t.empty() || t[0] == '.' || t[0] == '{' || t[0] == '}' || t.rfind("//", 0) == 0) return false;
  if (t.back() == ':') return false;  // a label
  return true;
}

}  // namespace

PtxListing parse_ptx(const std::string& ptx) {
  PtxListing out;
  std::istringstream in(ptx);
  for (std::string line; std::getline(in, line);) out.lines.push_back(line);
  PtxKernel* kernel = nullptr;
  int depth = 0;
  bool in_body = false, continuing = false;
  PtxSpot at;
  std::vector<PtxSpot> calls;
  LocChain chain;
  for (int i = 0; i < static_cast<int>(out.lines.size()); ++i) {
    const std::string t = trimmed(out.lines[static_cast<std::size_t>(i)]);
    if (t.rfind(".file", 0) == 0) {
      read_file_entry(t, &out.files);
      continue;
    }
    if (!kernel) {
      const std::size_t e = t.find(".entry ");
      if (e == std::string::npos) continue;
      const std::size_t name_begin = e + 7, name_end = t.find_first_of("( \t", name_begin);
      out.kernels.push_back(PtxKernel{});
      kernel = &out.kernels.back();
      kernel->name = t.substr(name_begin, name_end == std::string::npos ? std::string::npos : name_end - name_begin);
      kernel->first_line = i;
      depth = 0;
      in_body = false;
      continuing = false;
      at = PtxSpot{};
      calls.clear();
      chain.clear();
      continue;
    }
    if (t.rfind(".loc", 0) == 0) {
      chain.read(t, &at, &calls);
      continue;
    }
    // The parameter list and directives before the body hold no instruction.
    if (in_body && continuing) {
      continuing = t.find(';') == std::string::npos;
      continue;
    }
    if (in_body && starts_instruction(t)) {
      kernel->instructions.push_back(PtxInstruction{i, at, calls});
      continuing = t.find(';') == std::string::npos;
      continue;
    }
    // Braces: the body's, and the blocks a call's parameters are declared in.
    for (char c : t) {
      if (c == '{') {
        ++depth;
        in_body = true;
      } else if (c == '}') {
        --depth;
      }
    }
    if (in_body && depth == 0) {
      kernel->last_line = i;
      kernel = nullptr;
    }
  }
  if (kernel) kernel->last_line = static_cast<int>(out.lines.size()) - 1;
  return out;
}

int ptx_file_index(const PtxListing& listing, const std::string& file_name) {
  for (const auto& [index, name] : listing.files) {
    if (name == file_name) return index;
    if (name.size() > file_name.size() &&
        name.compare(name.size() - file_name.size(), file_name.size(), file_name) == 0 &&
        name[name.size() - file_name.size() - 1] == '/')
      return index;
  }
  return -1;
}

std::string ptx_file_base(const PtxListing& listing, int file) {
  const auto it = listing.files.find(file);
  if (it == listing.files.end()) return "file " + std::to_string(file);
  const std::size_t slash = it->second.rfind('/');
  return slash == std::string::npos ? it->second : it->second.substr(slash + 1);
}

KernelLineMap map_kernel(const PtxKernel& kernel, int file, int text_lines) {
  KernelLineMap m;
  m.count.assign(static_cast<std::size_t>(std::max(0, text_lines)), 0);
  m.ptx_lines.resize(m.count.size());
  for (const PtxInstruction& ins : kernel.instructions) {
    ++m.instructions;
    PtxLineSource s;
    s.at = ins.at;
    // The first place in the text: its own, else the innermost call site there.
    int line = ins.at.file == file ? ins.at.line : 0;
    for (std::size_t c = 0; line == 0 && ins.at.file != file && c < ins.calls.size(); ++c)
      if (ins.calls[c].file == file) line = ins.calls[c].line;
    s.call_unknown = ins.at.file >= 0 && ins.at.file != file && line == 0;
    if (line >= 1 && line <= text_lines) {
      s.text_line = line - 1;
      ++m.count[static_cast<std::size_t>(s.text_line)];
      m.ptx_lines[static_cast<std::size_t>(s.text_line)].push_back(ins.ptx_line);
      ++m.placed;
    } else if (s.call_unknown) {
      ++m.call_unknown;
    } else {
      ++m.no_line;
    }
    m.by_ptx_line[ins.ptx_line] = s;
  }
  return m;
}

}  // namespace tilescope
