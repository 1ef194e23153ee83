// The one way tilescope names an enum's values: a table of {value, name} rows, read in both
// directions (to_string and parse_*). A switch per enum wrote the same lookup again in every file
// that names values, and a writer and its parser spelled the words twice; a table states only the
// words, once. Plain C++, header-only: every layer that may include kernels/ uses it.
#pragma once

#include <cstddef>
#include <string>

namespace tilescope {

template <typename E>
struct EnumName {
  E value;
  const char* name;
};

// The name of `value`, or `fallback` for a value the table does not list.
template <typename E, std::size_t N>
const char* enum_name(E value, const EnumName<E> (&names)[N], const char* fallback) {
  for (const EnumName<E>& n : names)
    if (n.value == value) return n.name;
  return fallback;
}

// The value whose name is exactly `text`, into *out; false (and *out untouched) for any other text.
template <typename E, std::size_t N>
bool enum_from_name(const std::string& text, const EnumName<E> (&names)[N], E* out) {
  for (const EnumName<E>& n : names)
    if (text == n.name) {
      *out = n.value;
      return true;
    }
  return false;
}

}  // namespace tilescope
