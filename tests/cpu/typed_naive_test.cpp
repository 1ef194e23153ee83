// Typed block shapes of the naive kernel (kernels/core/typed_configs.h): its one tile parameter is
// the block's shape, which the kernel reads from blockDim, so every shape names the same kernel
// (typed_configs_test.cpp checks its compiled set spelled as typed values); impossible blocks are
// refused in words; a typed shape is a first-class configuration whose launch and mapping model
// follow it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/core/typed_configs.h"
#include "kernels/models/mapping_model.h"
#include "tests/support/typed_tile_checks.h"

namespace tilescope {
namespace {

using testing::added;
using testing::expect_refusal;
using testing::refusal;

TEST(TypedNaive, TakesTheBlocksShape) {
  const VariantDescriptor& v = testing::typed_one_phase_kernel();
  EXPECT_EQ(testing::param_keys(v), (std::vector<std::string>{"block_x", "block_y"}));
  testing::expect_values_read(v, {{"block_x", &TileConfig::threads_x}, {"block_y", &TileConfig::threads_y}});
}

TEST(TypedNaive, ImpossibleBlocksAreRefusedInWords) {
  const VariantDescriptor& v = testing::typed_one_phase_kernel();
  expect_refusal(v, "block_x=0", "at least 1 x 1");
  expect_refusal(v, "block_y=0", "at least 1 x 1");
  expect_refusal(v, "block_x=64,block_y=32", "64 x 32 = 2048 threads per block: the limit is 1024");
  expect_refusal(v, "block_x=2048,block_y=1", "the limit is 1024");
  expect_refusal(v, "block_x=100000,block_y=100000", "10000000000 threads");
  // The largest blocks, and blocks that are not whole warps (the last warp runs partly empty).
  for (const char* tile : {"block_x=1024,block_y=1", "block_x=1,block_y=1024", "block_x=7,block_y=5"})
    EXPECT_GE(added(v, tile), 0);
}

TEST(TypedNaive, ATypedBlockIsAConfigurationWithItsShape) {
  const VariantDescriptor& v = testing::typed_one_phase_kernel();
  const int index = testing::added_canonical(v, "block_x=8,block_y=24");
  ASSERT_GE(index, 0);
  const TileConfig& config = config_at(v, index);
  EXPECT_EQ(config.threads(), 8 * 24);
  EXPECT_EQ(config.bm, 24);
  EXPECT_EQ(config.bn, 8);
  const auto model = v.model(index, Problem::Gemm, v.precisions.front(), Shape{100, 30, 7});
  EXPECT_EQ(model->block().x, 8);
  EXPECT_EQ(model->block().y, 24);
  EXPECT_EQ(model->grid().x, 4);  // ⌈30 / 8⌉
  EXPECT_EQ(model->grid().y, 5);  // ⌈100 / 24⌉
  const Owner o = model->owner(50, 17);
  EXPECT_EQ(o.block_x, 2);
  EXPECT_EQ(o.block_y, 2);
  EXPECT_EQ(o.thread_x, 1);
  EXPECT_EQ(o.thread_y, 2);
}

}  // namespace
}  // namespace tilescope
