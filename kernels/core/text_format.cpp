#include "kernels/core/text_format.h"

#include <cstdarg>
#include <cstdio>

namespace tilescope {

std::string format(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list again;
  va_copy(again, args);
  const int length = std::vsnprintf(nullptr, 0, fmt, args);
  va_end(args);
  std::string out;
  if (length > 0) {
    out.resize(static_cast<std::size_t>(length) + 1);  // vsnprintf writes the terminating zero too
    std::vsnprintf(&out[0], out.size(), fmt, again);
    out.pop_back();
  }
  va_end(again);
  return out;
}

}  // namespace tilescope
