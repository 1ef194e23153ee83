// Which source line each SASS instruction came from, for the Source view's compiled code: the
// toolkit's disassembler (`nvdisasm -gi` on a cubin compiled with -lineinfo) writes a comment
// `//## File "name", line N` before the instructions of a line, with `inlined at "name", line M`
// for each call site a helper was inlined through. The listing is the one ptx_lines.h makes of
// the PTX (the SASS lines, a file table, a kernel per function, its instructions with their place
// and call sites), so that map_kernel tells both against the text the same way. Plain C++.
#pragma once

#include <string>

#include "app/ui/source/ptx_lines.h"

namespace tilescope {

// The disassembly as a listing: a kernel per `.text.NAME:` section, an instruction per
// `/*0a10*/ OPCODE ... ;` line.
PtxListing parse_sass(const std::string& disassembly);

}  // namespace tilescope
