// What Run times: the ticked entries, and cuBLAS writing C in the input type beside cuBLAS's own
// configuration where a ticked configuration stores C so (its bar of % of cuBLAS), as bench adds it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/ui/shell/app_state.h"
#include "kernels/core/registry.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

// The baseline ticked in its float-C configuration, and a kernel ticked in `config`.
std::vector<LessonEntry> lesson_with(const VariantDescriptor& kernel, int config) {
  const VariantDescriptor& base = tilescope::testing::baseline();
  return {{base.id, true, tilescope::testing::full_fp_config(base)}, {kernel.id, true, config}};
}
int narrow_row(const VariantDescriptor& v) {
  for (int c = 0; c < static_cast<int>(v.configs.size()); ++c)
    if (v.configs[c].c_in_input_type) return c;
  return -1;
}

TEST(RunEntries, ARowThatStoresCInTheInputTypeBringsItsBar) {
  const VariantDescriptor& base = tilescope::testing::baseline();
  const VariantDescriptor& kernel = tilescope::testing::variant_with_tile_param("c16");
  const int narrow = narrow_row(kernel);
  ASSERT_GE(narrow, 0);
  const std::vector<LessonEntry> run = entries_to_run(lesson_with(kernel, narrow), Precision::BF16);
  ASSERT_EQ(run.size(), 3u);
  EXPECT_EQ(run[0].variant_id, base.id);
  EXPECT_EQ(run[1].variant_id, base.id);
  EXPECT_EQ(run[1].config_index, tilescope::testing::narrow_output_config(base));
  EXPECT_TRUE(run[1].enabled);
  EXPECT_EQ(run[2].variant_id, kernel.id);
}

TEST(RunEntries, OtherwiseRunTimesTheLessonAsItIs) {
  const VariantDescriptor& kernel = tilescope::testing::variant_with_tile_param("c16");
  const int narrow = narrow_row(kernel);
  // float C chosen; a type that has no narrower C; the baseline not ticked.
  EXPECT_EQ(entries_to_run(lesson_with(kernel, kernel.default_config), Precision::BF16).size(), 2u);
  EXPECT_EQ(entries_to_run(lesson_with(kernel, narrow), Precision::TF32).size(), 2u);
  std::vector<LessonEntry> unticked = lesson_with(kernel, narrow);
  unticked[0].enabled = false;
  EXPECT_EQ(entries_to_run(unticked, Precision::BF16).size(), 2u);
  // The baseline already in its narrow configuration: nothing twice.
  std::vector<LessonEntry> both = lesson_with(kernel, narrow);
  both[0].config_index = tilescope::testing::narrow_output_config(tilescope::testing::baseline());
  EXPECT_EQ(entries_to_run(both, Precision::F16).size(), 2u);
}

}  // namespace
