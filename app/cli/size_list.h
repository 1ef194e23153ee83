// Matrix-size lists as the command line writes them:
//   1024                 one size
//   512,1024,2048        a list
//   1024:8192:x2         a geometric range: 1024, 2048, 4096, 8192 (factor an integer >= 2)
//   1000:5000:+1000      an arithmetic range: 1000, 2000, 3000, 4000, 5000
//   1024:8192            a range without a step is geometric x2 (sweeps over GEMM sizes
//                        are almost always by doublings; "+1" would mean thousands of runs)
//   7,33,1024:4096:x2    any mixture, in the order written
// A range includes its end only when a step lands on it. Repeated sizes are kept once (first
// occurrence), so overlapping ranges do not run the same size twice.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilescope {

// Bounds that keep a typo from asking for an impossible sweep.
constexpr std::int64_t kMaxMatrixSize = std::int64_t{1} << 20;
constexpr std::size_t kMaxSizeListEntries = 10000;

// Parses `text` into `out` (replaced). On failure returns false, leaves `out` empty and puts
// one sentence into `error` (which names the offending item). Never throws.
bool parse_size_list(const std::string& text, std::vector<std::int64_t>* out, std::string* error);

}  // namespace tilescope
