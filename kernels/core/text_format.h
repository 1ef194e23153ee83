// printf into a std::string, for the words the core and the pictures build from numbers. Plain
// C++; the attribute lets the compiler check every call's arguments against its format.
#pragma once

#include <string>

namespace tilescope {

// The whole text, however long ("phase 3 of 8: k = 64 ... 95").
__attribute__((format(printf, 1, 2))) std::string format(const char* fmt, ...);

}  // namespace tilescope
