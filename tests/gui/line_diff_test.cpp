// The Source view's line diff (app/ui/source/line_diff.h): which new lines are marked, where old
// lines were removed, and how the edits group into changes. Here rather than in tests/cpu: the
// module is built into the window's library, which only this suite links.
#include "app/ui/source/line_diff.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace tilescope;

namespace {

using Lines = std::vector<std::string>;
using M = LineMark;

TEST(LineDiff, IdenticalTextsMarkNothing) {
  const LineDiff d = diff_lines({"a", "b", "c"}, {"a", "b", "c"});
  EXPECT_EQ(d.marks, (std::vector<M>{M::Same, M::Same, M::Same}));
  EXPECT_TRUE(d.hunks.empty());
  EXPECT_TRUE(d.removed.empty());
  EXPECT_EQ(d.changed_lines(), 0);
}

TEST(LineDiff, AnEmptyOldTextMakesEveryLineNew) {
  const LineDiff d = diff_lines({}, {"a", "b"});
  EXPECT_EQ(d.marks, (std::vector<M>{M::Added, M::Added}));
  ASSERT_EQ(d.hunks.size(), 1u);
  EXPECT_EQ(d.hunks[0].new_begin, 0);
  EXPECT_EQ(d.hunks[0].new_end, 2);
  EXPECT_TRUE(d.removed.empty());
}

TEST(LineDiff, AnInsertionIsNewAndRemovesNothing) {
  const LineDiff d = diff_lines({"a", "c"}, {"a", "b", "c"});
  EXPECT_EQ(d.marks, (std::vector<M>{M::Same, M::Added, M::Same}));
  ASSERT_EQ(d.hunks.size(), 1u);
  EXPECT_EQ(d.hunks[0].old_begin, d.hunks[0].old_end) << "nothing old replaced";
  EXPECT_EQ(d.hunk_at(1), 0);
  EXPECT_EQ(d.hunk_at(0), -1);
}

TEST(LineDiff, ADeletionLeavesAMarkerWithTheRemovedText) {
  const LineDiff d = diff_lines({"a", "b1", "b2", "c"}, {"a", "c"});
  EXPECT_EQ(d.marks, (std::vector<M>{M::Same, M::Same}));
  ASSERT_EQ(d.removed.size(), 1u);
  EXPECT_EQ(d.removed[0].before, 1) << "between a and c";
  EXPECT_EQ(d.removed[0].text, (Lines{"b1", "b2"}));
  ASSERT_EQ(d.hunks.size(), 1u);
  EXPECT_EQ(d.hunk_at(1), 0) << "a pure deletion's change is found at its marker";
}

TEST(LineDiff, ADeletionAtTheEndHasItsMarkerAfterTheLastLine) {
  const LineDiff d = diff_lines({"a", "b"}, {"a"});
  ASSERT_EQ(d.removed.size(), 1u);
  EXPECT_EQ(d.removed[0].before, 1);
}

TEST(LineDiff, AReplacedLineIsChangedAndKeepsTheOldText) {
  const LineDiff d = diff_lines({"a", "x = 1;", "c"}, {"a", "x = 2;", "c"});
  EXPECT_EQ(d.marks, (std::vector<M>{M::Same, M::Changed, M::Same}));
  ASSERT_EQ(d.hunks.size(), 1u);
  EXPECT_EQ(d.hunks[0].removed, (Lines{"x = 1;"}));
  EXPECT_TRUE(d.removed.empty()) << "the removed line has a new line in its place";
}

TEST(LineDiff, AReplacementOfUnequalLengthsSplitsIntoChangedAndNewOrRemoved) {
  const LineDiff grew = diff_lines({"a", "x", "c"}, {"a", "y1", "y2", "c"});
  EXPECT_EQ(grew.marks, (std::vector<M>{M::Same, M::Changed, M::Added, M::Same}));
  const LineDiff shrank = diff_lines({"a", "x1", "x2", "x3", "c"}, {"a", "y", "c"});
  EXPECT_EQ(shrank.marks, (std::vector<M>{M::Same, M::Changed, M::Same}));
  ASSERT_EQ(shrank.removed.size(), 1u);
  EXPECT_EQ(shrank.removed[0].before, 2) << "after the changed line";
  EXPECT_EQ(shrank.removed[0].text, (Lines{"x2", "x3"}));
}

TEST(LineDiff, EditsBetweenSharedLinesAreSeparateChangesInOrder) {
  const LineDiff d = diff_lines({"a", "b", "c", "d", "e"}, {"A", "b", "c", "D", "e", "f"});
  ASSERT_EQ(d.hunks.size(), 3u);
  EXPECT_EQ(d.hunks[0].new_begin, 0);
  EXPECT_EQ(d.hunks[1].new_begin, 3);
  EXPECT_EQ(d.hunks[2].new_begin, 5);
  EXPECT_EQ(d.changed_lines(), 3);
  // Adjacent edits are one change: two lines replaced together.
  const LineDiff together = diff_lines({"a", "b", "c", "d"}, {"a", "B", "C", "d"});
  ASSERT_EQ(together.hunks.size(), 1u);
  EXPECT_EQ(together.hunks[0].new_end - together.hunks[0].new_begin, 2);
}

TEST(LineDiff, KeepsTheLongestRunOfSharedLines) {
  // A greedy match of the first "}" would mark the whole body new.
  const LineDiff d = diff_lines({"f() {", "  x;", "}", "g() {", "  y;", "}"}, {"g() {", "  y;", "}"});
  EXPECT_EQ(d.changed_lines(), 0);
  ASSERT_EQ(d.removed.size(), 1u);
  EXPECT_EQ(d.removed[0].before, 0);
  EXPECT_EQ(d.removed[0].text.size(), 3u);
}

TEST(LineDiff, SplitsLinesAtEveryKindOfLineEnd) {
  EXPECT_EQ(split_lines("a\nb\r\nc\rd"), (Lines{"a", "b", "c", "d"}));
  EXPECT_EQ(split_lines("a\n"), (Lines{"a"})) << "a last line end opens no empty line";
  EXPECT_EQ(split_lines("a\n\nb"), (Lines{"a", "", "b"}));
  EXPECT_TRUE(split_lines("").empty());
}

TEST(LineDiff, WindowsLineEndsEqualUnixOnes) {
  const LineDiff d = diff_texts("a\nb\nc\n", "a\r\nb\r\nc\r\n");
  EXPECT_EQ(d.changed_lines(), 0);
  EXPECT_TRUE(d.hunks.empty());
}

}  // namespace
