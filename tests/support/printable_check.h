// The tests' own judge of "only printable text", written apart from export/printable_text so
// that it can catch that function's mistakes: strict UTF-8 (shortest forms, no surrogates, at
// most U+10FFFF) and no control character (C0, DEL, C1), line breaks allowed where asked.
#pragma once

#include <cstdint>
#include <string>

namespace tilescope::testing {

// "" when every character of `text` is printable, else where the first bad byte is and what
// it is (for the failure message).
inline std::string first_unprintable(const std::string& text, bool allow_newlines = false) {
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    std::size_t n = c < 0x80                 ? 1
                    : c >= 0xC2 && c <= 0xDF ? 2
                    : c >= 0xE0 && c <= 0xEF ? 3
                    : c >= 0xF0 && c <= 0xF4 ? 4
                                             : 0;
    if (n == 0 || i + n > text.size()) return "byte " + std::to_string(c) + " at " + std::to_string(i);
    std::uint32_t cp = n == 1 ? c : c & (0xFF >> (n + 1));
    for (std::size_t k = 1; k < n; ++k) {
      const unsigned char b = static_cast<unsigned char>(text[i + k]);
      if ((b & 0xC0) != 0x80) return "broken sequence at " + std::to_string(i);
      cp = (cp << 6) | (b & 0x3F);
    }
    const std::uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return "bad sequence at " + std::to_string(i);
    const bool newline = allow_newlines && cp == '\n';
    if (!newline && (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F)))
      return "control character " + std::to_string(cp) + " at " + std::to_string(i);
    i += n;
  }
  return "";
}

// Bytes a damaged or hostile file may hold: NUL, ESC with a terminal command (clear the screen,
// red text), the bell, invalid UTF-8 (a stray continuation byte, an overlong slash, a surrogate,
// a sequence cut short), a C1 control, a right-to-left override, then `random_bytes` from a
// fixed generator.
inline std::string garbage_bytes(std::size_t random_bytes) {
  std::string g("\x1b[2J\x1b[31mred\x00\x07\x80\xc0\xaf\xed\xa0\x80\xe2\x82\xc2\x9b\xe2\x80\xae", 27);
  std::uint64_t x = 88172645463325252ull;
  for (std::size_t i = 0; i < random_bytes; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    g += static_cast<char>(x & 0xFF);
  }
  return g;
}

}  // namespace tilescope::testing
