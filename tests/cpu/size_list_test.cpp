// Size lists as the bench command line writes them: lists, ranges, mixtures, and every way
// to get one wrong.
#include "app/cli/size_list.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tilescope {
namespace {

using Sizes = std::vector<std::int64_t>;

Sizes parse_ok(const std::string& text) {
  Sizes out;
  std::string error;
  EXPECT_TRUE(parse_size_list(text, &out, &error)) << text << ": " << error;
  EXPECT_TRUE(error.empty()) << error;
  return out;
}

// The error message, after checking that parsing failed and left nothing behind.
std::string parse_error(const std::string& text) {
  Sizes out = {99};
  std::string error;
  EXPECT_FALSE(parse_size_list(text, &out, &error)) << "'" << text << "' was accepted";
  EXPECT_TRUE(out.empty()) << "a failed parse must leave the list empty";
  EXPECT_FALSE(error.empty());
  return error;
}

TEST(SizeList, SingleAndList) {
  EXPECT_EQ(parse_ok("1024"), (Sizes{1024}));
  EXPECT_EQ(parse_ok("512,1024,2048"), (Sizes{512, 1024, 2048}));
  EXPECT_EQ(parse_ok(" 7 , 33 "), (Sizes{7, 33}));
  EXPECT_EQ(parse_ok("1"), (Sizes{1}));
}

TEST(SizeList, GeometricRange) {
  EXPECT_EQ(parse_ok("1024:8192:x2"), (Sizes{1024, 2048, 4096, 8192}));
  EXPECT_EQ(parse_ok("1:100:x3"), (Sizes{1, 3, 9, 27, 81}));
  EXPECT_EQ(parse_ok("64:64:x2"), (Sizes{64}));
  // The end is included only when a step lands on it.
  EXPECT_EQ(parse_ok("1000:5000:x2"), (Sizes{1000, 2000, 4000}));
}

TEST(SizeList, ArithmeticRange) {
  EXPECT_EQ(parse_ok("1000:5000:+1000"), (Sizes{1000, 2000, 3000, 4000, 5000}));
  EXPECT_EQ(parse_ok("1:10:+4"), (Sizes{1, 5, 9}));
}

TEST(SizeList, RangeWithoutStepDoubles) {
  EXPECT_EQ(parse_ok("1024:8192"), (Sizes{1024, 2048, 4096, 8192}));
  EXPECT_EQ(parse_ok("1000:5000"), (Sizes{1000, 2000, 4000}));
}

TEST(SizeList, MixturesKeepOrderAndDropRepeats) {
  EXPECT_EQ(parse_ok("7,33,1024:4096:x2"), (Sizes{7, 33, 1024, 2048, 4096}));
  EXPECT_EQ(parse_ok("4096,1024:4096:x2,33"), (Sizes{4096, 1024, 2048, 33}));
  EXPECT_EQ(parse_ok("5,5,5"), (Sizes{5}));
}

TEST(SizeList, LimitsAreInclusive) {
  EXPECT_EQ(parse_ok("1048576"), (Sizes{kMaxMatrixSize}));
  // Exactly 10000 entries is allowed.
  EXPECT_EQ(parse_ok("1:10000:+1").size(), kMaxSizeListEntries);
}

TEST(SizeList, RejectsEmpty) {
  EXPECT_NE(parse_error("").find("empty"), std::string::npos);
  EXPECT_NE(parse_error("   ").find("empty"), std::string::npos);
  EXPECT_NE(parse_error("512,,1024").find("empty"), std::string::npos);
  EXPECT_NE(parse_error("512,").find("empty"), std::string::npos);
}

TEST(SizeList, RejectsZeroAndNegative) {
  EXPECT_NE(parse_error("0").find("at least 1"), std::string::npos);
  EXPECT_NE(parse_error("-5").find("negative"), std::string::npos);
  EXPECT_NE(parse_error("512,-1").find("'-1'"), std::string::npos);
  EXPECT_NE(parse_error("0:64:x2").find("at least 1"), std::string::npos);
}

TEST(SizeList, RejectsNonNumeric) {
  const std::string e = parse_error("abc");
  EXPECT_NE(e.find("'abc'"), std::string::npos) << e;
  EXPECT_NE(e.find("whole number"), std::string::npos) << e;
  parse_error("1e3");
  parse_error("12.5");
  parse_error("0x10");
  parse_error("64:128:y2");
  parse_error("64:128:x");
  parse_error("64:128:+");
}

TEST(SizeList, RejectsStepsThatDoNotProgress) {
  EXPECT_NE(parse_error("64:128:x1").find("does not progress"), std::string::npos);
  EXPECT_NE(parse_error("64:128:+0").find("does not progress"), std::string::npos);
  EXPECT_NE(parse_error("64:128:x0").find("does not progress"), std::string::npos);
}

TEST(SizeList, RejectsBackwardRangesAndBadShapes) {
  EXPECT_NE(parse_error("4096:1024:x2").find("backwards"), std::string::npos);
  parse_error("1:2:x2:5");
  parse_error(":1024");
  parse_error("1024:");
  // A bare number as a step is ambiguous (x or +?): it must say which.
  const std::string e = parse_error("1000:5000:1000");
  EXPECT_NE(e.find("+S"), std::string::npos) << e;
}

TEST(SizeList, RejectsTooManyEntries) {
  const std::string e = parse_error("1:10001:+1");
  EXPECT_NE(e.find("10000"), std::string::npos) << e;
  // Large ranges are refused without first building a million-entry list.
  parse_error("1:1048576:+1");
}

TEST(SizeList, RejectsValuesAboveTheLimit) {
  EXPECT_NE(parse_error("1048577").find("limit"), std::string::npos);
  EXPECT_NE(parse_error("1024:2000000:x2").find("limit"), std::string::npos);
  // Digit strings far beyond 64 bits do not overflow into something small.
  EXPECT_NE(parse_error("99999999999999999999999999").find("limit"), std::string::npos);
}

}  // namespace
}  // namespace tilescope
