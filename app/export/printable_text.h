// Text from outside the program (a file's bytes, a path, a script's line) shown to a person: in
// the status bar, where ImGui would draw raw control bytes as boxes and stray UTF-8 as '?', and
// on the terminal, where an ESC byte from a damaged file would be obeyed as a command. One rule,
// used by every message that may quote such text.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tilescope {

// `text` with every byte that is not printable written as \xNN (two upper-case hex digits):
// the ASCII control bytes (0x00-0x1F, 0x7F, so also tab and newline), bytes that are not valid
// UTF-8 (stray continuation bytes, overlong forms, surrogates, beyond U+10FFFF, a sequence cut
// short) and the characters that steer a terminal or reorder text although they are valid UTF-8
// (C1 controls U+0080-U+009F, the bidirectional controls, the line and paragraph separators:
// each of their bytes). Printable ASCII and other valid UTF-8 are kept, a backslash included,
// so printable_text(printable_text(t)) == printable_text(t).
std::string printable_text(std::string_view text);

// A piece of a file quoted in a message: printable_text of its first `max_bytes` bytes (not
// cutting a UTF-8 character), with "..." when it was longer.
std::string printable_excerpt(std::string_view text, std::size_t max_bytes = 60);

}  // namespace tilescope
