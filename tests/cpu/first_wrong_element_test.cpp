// A failed check names its first wrong element (kernels/measure/reference.h: first_wrong_element):
// the first in row-major order that is NaN (the poison: never written) or off by more than the
// tolerance, over the part of C the configuration writes; none for a result within it.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/measure/reference.h"

namespace tilescope {
namespace {

TEST(FirstWrongElement, FindsTheFirstOffOrUnwrittenElement) {
  const std::vector<double> ref = {1, 2, 3, 4, 5, 6};  // 2 x 3
  std::vector<float> c(ref.begin(), ref.end());
  EXPECT_EQ(first_wrong_element(c.data(), ref.data(), 2, 3, OutputPart::Full, 1e-6).row, -1);
  c[4] = 5.5f;  // (1, 1)
  c[5] = NAN;   // (1, 2)
  WrongElement w = first_wrong_element(c.data(), ref.data(), 2, 3, OutputPart::Full, 1e-6);
  EXPECT_EQ(w.row, 1);
  EXPECT_EQ(w.col, 1);
  EXPECT_EQ(w.value, 5.5);
  EXPECT_EQ(w.expected, 5);
  // Within the tolerance (0.5 / max |ref| = 1/12): not wrong; the NaN still is.
  w = first_wrong_element(c.data(), ref.data(), 2, 3, OutputPart::Full, 0.1);
  EXPECT_EQ(w.row, 1);
  EXPECT_EQ(w.col, 2);
  EXPECT_TRUE(std::isnan(w.value));
}

TEST(FirstWrongElement, UpperTriangleIgnoresTheLowerPart) {
  const std::vector<double> ref = {1, 2, 3, 4};  // 2 x 2
  std::vector<double> c = {1, 2, 99, 4};         // (1, 0) is below the diagonal
  EXPECT_EQ(first_wrong_element(c.data(), ref.data(), 2, 2, OutputPart::UpperTriangle, 1e-9).row, -1);
  EXPECT_EQ(first_wrong_element(c.data(), ref.data(), 2, 2, OutputPart::Full, 1e-9).row, 1);
}

}  // namespace
}  // namespace tilescope
