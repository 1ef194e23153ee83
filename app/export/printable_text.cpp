#include "app/export/printable_text.h"

#include <cstdint>

namespace tilescope {
namespace {

// The length of the valid UTF-8 sequence that starts at text[i] and its code point, or 0 when
// the bytes there are not one (RFC 3629: shortest form only, no surrogates, at most U+10FFFF).
std::size_t utf8_sequence(std::string_view text, std::size_t i, std::uint32_t* code_point) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  std::uint32_t cp = 0, min = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, cp = lead & 0x1F, min = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, cp = lead & 0x0F, min = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, cp = lead & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  *code_point = cp;
  return length;
}

// Valid, but a terminal obeys it or a renderer reorders the text around it.
bool steers_text(std::uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0x200E || cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

void append_escaped(unsigned char byte, std::string* out) {
  static const char kHex[] = "0123456789ABCDEF";
  *out += "\\x";
  *out += kHex[byte >> 4];
  *out += kHex[byte & 0xF];
}

}  // namespace

std::string printable_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    std::uint32_t cp = 0;
    const std::size_t length = c >= 0x80 ? utf8_sequence(text, i, &cp) : 0;
    if (length > 0 && !steers_text(cp)) {
      out.append(text.substr(i, length));
      i += length;
      continue;
    }
    // A control character is escaped byte by byte; an invalid byte alone (the next may start
    // a valid sequence).
    const std::size_t escaped = length > 0 ? length : 1;
    for (std::size_t k = 0; k < escaped; ++k) append_escaped(static_cast<unsigned char>(text[i + k]), &out);
    i += escaped;
  }
  return out;
}

std::string printable_excerpt(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return printable_text(text);
  std::size_t cut = max_bytes;
  // Back to the start of a UTF-8 character (at most three continuation bytes).
  for (int k = 0; k < 3 && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80; ++k) --cut;
  return printable_text(text.substr(0, cut)) + "...";
}

}  // namespace tilescope
