// "1 row", "2 rows": a count and its noun in the number it takes, for every message that counts.
#pragma once

#include <cstddef>
#include <string>

namespace tilescope {

// The plural is given, not guessed ("1 run" / "runs", "1 match" / "matches").
inline std::string count_text(std::size_t n, const char* singular, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

}  // namespace tilescope
