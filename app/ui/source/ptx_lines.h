// Which source line each PTX instruction came from, for the Source view's compiled code: NVRTC
// compiles with -lineinfo, so the PTX carries a `.file N "name"` table and `.loc FILE LINE COL`
// directives; every instruction belongs to the last `.loc` before it. A helper of an included
// header inlined into the kernel has the header's `.loc` with `inlined_at FILE LINE COL`, its call
// site: when that call site is in the kernel text, the instruction counts there; when it is in
// another header (a helper called by a helper) the line of the kernel text that caused it cannot be
// told from the PTX, and the map says so instead of guessing. Plain C++: no ImGui.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace tilescope {

// A place in a source file: the `.file` index, its 1-based line and column (file -1: none).
struct PtxSpot {
  int file = -1;
  int line = 0;
  int column = 0;
};

struct PtxInstruction {
  int ptx_line = 0;  // 0-based line of the PTX text where the instruction starts
  PtxSpot at;        // the last `.loc` before it (file -1 when there was none)
  // Its `inlined_at` call sites, innermost first, as far out as the kernel's `.loc`s describe them
  // (empty when not inlined).
  std::vector<PtxSpot> calls;
};

// One `.entry NAME(` ... its closing `}`: the PTX lines it spans and its instructions in order.
struct PtxKernel {
  std::string name;  // the mangled name
  int first_line = 0, last_line = 0;
  std::vector<PtxInstruction> instructions;
};

struct PtxListing {
  std::vector<std::string> lines;    // the PTX text, line by line
  std::map<int, std::string> files;  // the `.file` table: index -> name
  std::vector<PtxKernel> kernels;
};

// Only instructions count: not directives (`.reg`, `.loc`, `.param`), labels, braces or comments;
// an instruction written over several lines (a call's arguments) counts once, at its first line.
PtxListing parse_ptx(const std::string& ptx);

// The `.file` index whose name is `file_name` or ends with "/" + it; -1 when none.
int ptx_file_index(const PtxListing& listing, const std::string& file_name);

// Where one PTX line of a kernel stands in the text of one file.
struct PtxLineSource {
  PtxSpot at;                 // the instruction's own `.loc` (maybe in a header)
  int text_line = -1;         // 0-based line of the text it counts at (its own or its call site); -1: none
  bool call_unknown = false;  // from a header, and the line of the text that called it is not known
};

// A kernel's instructions told against the text of file `file` (`text_lines` long): per line of
// the text, how many instructions and which PTX lines; per PTX line with an instruction, where.
struct KernelLineMap {
  std::vector<int> count;                   // per text line (0-based)
  std::vector<std::vector<int>> ptx_lines;  // per text line: the PTX lines (0-based), in order
  std::map<int, PtxLineSource> by_ptx_line;
  int instructions = 0;  // the kernel's whole count
  int placed = 0;        // those counted at a line of the text (the sum of `count`)
  int call_unknown = 0;  // from headers whose call site in the text is not known
  int no_line = 0;       // before any `.loc`, or at a line past the text's end
};

KernelLineMap map_kernel(const PtxKernel& kernel, int file, int text_lines);

// The file's name without its folders: "vector_access.cuh".
std::string ptx_file_base(const PtxListing& listing, int file);

}  // namespace tilescope
