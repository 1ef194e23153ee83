#include "app/ui/source/sass_lines.h"

#include <cctype>
#include <cstdlib>
#include <sstream>

namespace tilescope {

namespace {

// The index of `name` in the listing's file table, added when new.
int file_index(PtxListing* listing, const std::string& name) {
  for (const auto& [index, file] : listing->files)
    if (file == name) return index;
  const int index = static_cast<int>(listing->files.size()) + 1;
  listing->files[index] = name;
  return index;
}

// `"name", line 12` at `from`: the spot, and where the text after it starts; file -1 when none.
PtxSpot read_place(PtxListing* listing, const std::string& line, std::size_t from, std::size_t* end) {
  const std::size_t open = line.find('"', from);
  const std::size_t close = open == std::string::npos ? open : line.find('"', open + 1);
  const std::size_t word = close == std::string::npos ? close : line.find("line ", close);
  if (word == std::string::npos) return PtxSpot{};
  PtxSpot spot;
  spot.file = file_index(listing, line.substr(open + 1, close - open - 1));
  char* after = nullptr;
  spot.line = static_cast<int>(std::strtol(line.c_str() + word + 5, &after, 10));
  *end = static_cast<std::size_t>(after - line.c_str());
  return spot;
}

// An instruction line: `/*0040*/` then the instruction.
bool is_instruction(const std::string& line) {
  const std::size_t open = line.find("/*");
  if (open == std::string::npos) return false;
  const std::size_t close = line.find("*/", open + 2);
  if (close == std::string::npos || close == open + 2) return false;
  for (std::size_t i = open + 2; i < close; ++i)
    if (!std::isxdigit(static_cast<unsigned char>(line[i]))) return false;
  return line.find_first_not_of(" \t", close + 2) != std::string::npos;
}

}  // namespace

PtxListing parse_sass(const std::string& disassembly) {
  PtxListing listing;
  std::istringstream in(disassembly);
  std::string line;
  PtxKernel* kernel = nullptr;
  PtxSpot at;
  std::vector<PtxSpot> calls;
  bool chain_open = false;  // the last lines were `//##` places: a chain of inlining may go on
  for (std::string raw; std::getline(in, raw);) {
    const std::size_t first = raw.find_first_not_of(" \t");
    line = raw;
    // The `//##` places are read, not shown: the gutter and the links say where each line came from.
    const bool place = first != std::string::npos && raw.compare(first, 4, "//##") == 0;
    const int n = static_cast<int>(listing.lines.size());
    if (!place) listing.lines.push_back(raw);
    if (first == std::string::npos) continue;
    // `.text._Z...:` opens a function's code; the `.section` line before it names it too.
    if (line.compare(first, 6, ".text.") == 0 && line.back() == ':') {
      listing.kernels.push_back(PtxKernel{line.substr(first + 6, line.size() - first - 7), n, n, {}});
      kernel = &listing.kernels.back();
      at = PtxSpot{};
      calls.clear();
      continue;
    }
    if (!kernel) continue;
    if (line.compare(first, 4, "//##") == 0) {
      // nvdisasm -gi writes a chain of inlining one level a line, innermost first: `File A, line 81
      // inlined at B, line 175`, then `File B, line 175 inlined at C, line 193`. A line that goes on
      // from the last call site extends the chain; any other starts a new place.
      std::size_t end = first;
      const PtxSpot place = read_place(&listing, line, first, &end);
      const bool goes_on =
          chain_open && !calls.empty() && calls.back().file == place.file && calls.back().line == place.line;
      if (!goes_on) {
        at = place;
        calls.clear();
      }
      chain_open = true;
      for (std::size_t k = line.find("inlined at", end); k != std::string::npos; k = line.find("inlined at", end)) {
        const PtxSpot site = read_place(&listing, line, k, &end);
        if (site.file < 0) break;
        calls.push_back(site);
      }
      continue;
    }
    if (line.compare(first, 9, ".section ") == 0 || line.compare(first, 8, ".section") == 0) {
      kernel = nullptr;
      continue;
    }
    if (!is_instruction(line)) continue;
    chain_open = false;
    kernel->instructions.push_back(PtxInstruction{n, at, calls});
    kernel->last_line = n;
  }
  return listing;
}

}  // namespace tilescope
