// The names of OpenGL's and EGL's codes as their headers spell them ("GL_INVALID_ENUM"), for the
// messages that report them. A table per kind of code, each entry written once through the
// preprocessor's #, instead of a switch that spells every name twice; "0x1234" for a code the
// table does not list (a newer driver's, an extension's).
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

// One entry of a table: the code and its name.
#define TILESCOPE_CODE_NAME(code) \
  { static_cast<long>(code), #code }

namespace tilescope {

struct CodeName {
  long code;
  const char* name;
};

template <std::size_t N>
std::string code_name(long code, const CodeName (&names)[N]) {
  for (const CodeName& n : names)
    if (n.code == code) return n.name;
  char text[16];
  std::snprintf(text, sizeof text, "0x%04X", static_cast<unsigned>(code));
  return text;
}

}  // namespace tilescope
