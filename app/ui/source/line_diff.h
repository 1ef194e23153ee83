// Which lines of a new text differ from an old one, for the Source view's "What changed": a
// line diff (the longest common subsequence of whole lines) told from the new text's side, since
// the view shows the new text and marks it. Plain C++: no ImGui.
#pragma once

#include <string>
#include <vector>

namespace tilescope {

// A new line: as in the old text, new (nothing was removed in its place) or changed (it takes
// the place of an old line removed there).
enum class LineMark { Same, Added, Changed };

// One change: a run of new lines that replaces a run of old ones, between lines both texts share.
// Either run may be empty (a pure insertion, a pure deletion).
struct Hunk {
  int new_begin = 0, new_end = 0;    // the new lines [new_begin, new_end)
  int old_begin = 0, old_end = 0;    // the old lines [old_begin, old_end) they replace
  std::vector<std::string> removed;  // the text of those old lines
};

// Old lines removed with no new line in their place (a hunk removing more lines than it adds): a
// marker drawn before new line `before` (== the new line count: after the last line).
struct RemovedLines {
  int before = 0;
  std::vector<std::string> text;
};

struct LineDiff {
  std::vector<LineMark> marks;        // one per new line
  std::vector<Hunk> hunks;            // in the new text's order
  std::vector<RemovedLines> removed;  // in the new text's order
  // New lines marked Added or Changed.
  int changed_lines() const;
  // The hunk holding new line `line` (or, for a pure deletion, the one whose marker sits before
  // it); -1 when none does.
  int hunk_at(int line) const;
};

// The lines of a text, without their ends: "\n", "\r\n" and a lone "\r" each end a line; a last
// line without an end still counts, an empty text has none.
std::vector<std::string> split_lines(const std::string& text);

LineDiff diff_lines(const std::vector<std::string>& old_lines, const std::vector<std::string>& new_lines);
// split_lines on both, then diff_lines: a text with Windows line ends equals its Unix twin.
LineDiff diff_texts(const std::string& old_text, const std::string& new_text);

}  // namespace tilescope
