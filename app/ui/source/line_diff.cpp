#include "app/ui/source/line_diff.h"

#include <algorithm>
#include <cstddef>

namespace tilescope {

namespace {

// The longest-common-subsequence table costs a cell per pair of differing lines; kernel texts
// have hundreds of lines (a few hundred thousand cells). Beyond this many the middle is reported
// as one change rather than taking hundreds of megabytes.
constexpr std::size_t kMaxCells = std::size_t{1} << 23;

enum class Op { Keep, Remove, Add };

// The edit script of old[ob, oe) into new[nb, ne): a longest common subsequence, read back from
// the table of suffix lengths so that it runs front to back; removals before additions where both
// are possible, so that a replaced block reads as "removed, then added".
void lcs_script(const std::vector<std::string>& a, std::size_t ob, std::size_t oe, const std::vector<std::string>& b,
                std::size_t nb, std::size_t ne, std::vector<Op>* ops) {
  const std::size_t n = oe - ob, m = ne - nb;
  if (n * m > kMaxCells) {
    ops->insert(ops->end(), n, Op::Remove);
    ops->insert(ops->end(), m, Op::Add);
    return;
  }
  // len[i][j]: the LCS length of a[ob+i ..) and b[nb+j ..).
  std::vector<int> len((n + 1) * (m + 1), 0);
  auto at = [&](std::size_t i, std::size_t j) -> int& { return len[i * (m + 1) + j]; };
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      at(i, j) = a[ob + i] == b[nb + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[ob + i] == b[nb + j]) {
      ops->push_back(Op::Keep), ++i, ++j;
    } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
      ops->push_back(Op::Remove), ++i;
    } else {
      ops->push_back(Op::Add), ++j;
    }
  }
}

// The whole edit script: the shared first and last lines need no table.
std::vector<Op> edit_script(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  std::size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) ++tail;
  std::vector<Op> ops(head, Op::Keep);
  lcs_script(a, head, a.size() - tail, b, head, b.size() - tail, &ops);
  ops.insert(ops.end(), tail, Op::Keep);
  return ops;
}

// A hunk's marks: its first new lines take the place of removed ones (changed), the rest are new;
// removed lines left over get a marker after its last new line.
void mark_hunk(const Hunk& h, LineDiff* d) {
  const int added = h.new_end - h.new_begin, removed = h.old_end - h.old_begin;
  for (int k = 0; k < added; ++k) d->marks[h.new_begin + k] = k < removed ? LineMark::Changed : LineMark::Added;
  if (removed > added) d->removed.push_back({h.new_end, {h.removed.begin() + added, h.removed.end()}});
}

}  // namespace

int LineDiff::changed_lines() const {
  return static_cast<int>(std::count_if(marks.begin(), marks.end(), [](LineMark m) { return m != LineMark::Same; }));
}

int LineDiff::hunk_at(int line) const {
  for (std::size_t k = 0; k < hunks.size(); ++k) {
    const Hunk& h = hunks[k];
    if ((line >= h.new_begin && line < h.new_end) || (h.new_begin == h.new_end && line == h.new_begin))
      return static_cast<int>(k);
  }
  return -1;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n' && text[i] != '\r') continue;
    lines.push_back(text.substr(start, i - start));
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
    start = i + 1;
  }
  if (start < text.size()) lines.push_back(text.substr(start));
  return lines;
}

LineDiff diff_lines(const std::vector<std::string>& old_lines, const std::vector<std::string>& new_lines) {
  LineDiff d;
  d.marks.assign(new_lines.size(), LineMark::Same);
  int o = 0, n = 0;
  Hunk open;
  bool in_hunk = false;
  auto close = [&] {
    if (!in_hunk) return;
    open.old_end = o, open.new_end = n;
    open.removed.assign(old_lines.begin() + open.old_begin, old_lines.begin() + open.old_end);
    mark_hunk(open, &d);
    d.hunks.push_back(open);
    in_hunk = false;
  };
  for (Op op : edit_script(old_lines, new_lines)) {
    if (op == Op::Keep) {
      close();
      ++o, ++n;
      continue;
    }
    if (!in_hunk) open = Hunk{n, n, o, o, {}}, in_hunk = true;
    if (op == Op::Remove) ++o;
    if (op == Op::Add) ++n;
  }
  close();
  return d;
}

LineDiff diff_texts(const std::string& old_text, const std::string& new_text) {
  return diff_lines(split_lines(old_text), split_lines(new_text));
}

}  // namespace tilescope
