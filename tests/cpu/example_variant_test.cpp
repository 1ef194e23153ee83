// The example variant (tests/example_variant/) goes through the product's paths with no code of
// its own: the test registry lists it, the Measurer runs it (without a GPU: an error row with its
// own labels; on a GPU: a verified pass), and the mapping model checks reach it through the
// registry like every variant. This file only makes sure it is really there.
#include <gtest/gtest.h>

#include <string>

#include "kernels/core/registry.h"
#include "kernels/cuda/device_info.h"
#include "kernels/measure/measure.h"
#include "kernels/models/mapping_model.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
using tilescope::testing::example_variant;

TEST(ExampleVariant, IsRegisteredAfterTheProductAsAnExtra) {
  const VariantDescriptor& ex = example_variant();
  EXPECT_EQ(ex.role, Role::Extra);
  EXPECT_EQ(find_variant(ex.id), &ex);
  for (std::size_t i = 0; i < ex.configs.size(); ++i)
    EXPECT_FALSE(runs_by_default(ex, static_cast<int>(i))) << "an Extra runs only when named";
  EXPECT_NE(ex.launch, nullptr);
  EXPECT_NE(ex.launch_traced, nullptr);
  EXPECT_NE(ex.kernel_for, nullptr);
  EXPECT_NE(ex.model, nullptr);
}

TEST(ExampleVariant, MeasurerRunsItWithItsOwnLabels) {
  const VariantDescriptor& ex = example_variant();
  RunRequest req;
  req.variant_id = ex.id;
  req.config_index = ex.default_config;
  req.problem = Problem::Gemm;
  req.precision = Precision::F32;
  req.shape = {65, 47, 33};
  req.repetitions = 2;
  req.warmup = 1;
  Measurer m;
  const RunResult r = m.run(req);
  EXPECT_EQ(r.variant_id, ex.id);
  EXPECT_EQ(r.variant_label, ex.label);
  EXPECT_EQ(r.config_name, ex.configs[ex.default_config].name);
  EXPECT_EQ(r.backend, to_string(ex.backend));
  EXPECT_EQ(r.math, ex.configs[ex.default_config].math);
  if (!probe_device().ok()) {
    EXPECT_FALSE(r.ok());
    EXPECT_NE(r.error.find("no usable GPU"), std::string::npos) << r.error;
  } else {
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_TRUE(r.verified);
    EXPECT_TRUE(r.passed) << "rel_error " << r.rel_error << " > " << r.tolerance;
    EXPECT_EQ(r.unwritten, 0);
  }
}

TEST(ExampleVariant, ItsModelIsOneThreadPerElementDownTheColumns) {
  const VariantDescriptor& ex = example_variant();
  std::string why;
  const int ci = ex.default_config;
  const TileConfig& c = ex.configs[ci];
  const auto m = make_mapping_model(ex.id, ci, Problem::Gemm, Precision::F32, Shape{70, 50, 9}, &why);
  ASSERT_NE(m, nullptr) << why;
  // Neighbouring rows of one column belong to neighbouring threadIdx.x of one block.
  EXPECT_EQ(m->owner(1, 0).thread_x, m->owner(0, 0).thread_x + 1);
  EXPECT_EQ(m->owner(1, 0).thread_y, m->owner(0, 0).thread_y);
  EXPECT_EQ(m->owner(0, 1).thread_y, 1);
  EXPECT_EQ(m->grid().y, (70 + c.bm - 1) / c.bm);
  EXPECT_EQ(m->phases(), 1);
}
