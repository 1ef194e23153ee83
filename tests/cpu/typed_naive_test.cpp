// Typed block shapes of the naive kernel (kernels/core/typed_configs.h): the block's shape, which
// the kernel reads from blockDim, so every shape names the same kernel, and the threads' order
// (along a row or down a column of C), a template argument (typed_configs_test.cpp checks its
// compiled set spelled as typed values); impossible blocks are refused in words; a typed shape is a
// first-class configuration whose launch and mapping model follow it, turned down the columns too.
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
  EXPECT_EQ(testing::param_keys(v), (std::vector<std::string>{"block_x", "block_y", "order"}));
  testing::expect_values_read(v, {{"block_x", &TileConfig::threads_x}, {"block_y", &TileConfig::threads_y}});
}

TEST(TypedNaive, ImpossibleBlocksAreRefusedInWords) {
  const VariantDescriptor& v = testing::typed_one_phase_kernel();
  expect_refusal(v, "block_x=0", "at least 1 x 1");
  expect_refusal(v, "block_y=0", "at least 1 x 1");
  expect_refusal(v, "block_x=64,block_y=32", "64 x 32 = 2048 threads per block: the limit is 1024");
  expect_refusal(v, "block_x=2048,block_y=1", "the limit is 1024");
  expect_refusal(v, "block_x=100000,block_y=100000", "10000000000 threads");
  expect_refusal(v, "order=2", "0 (along a row) or 1 (down a column)");
  // The largest blocks, and blocks that are not whole warps (the last warp runs partly empty).
  for (const char* tile : {"block_x=1024,block_y=1", "block_x=1,block_y=1024", "block_x=7,block_y=5"})
    EXPECT_GE(added(v, tile), 0);
}

// What a typed block of 8 x 24 threads covers, in either order, on a 100 x 30 C: its tile of C
// (rows x columns), its grid, and the owner of C(50, 17).
struct BlockShape {
  const char* tile;
  int bm, bn, grid_x, grid_y;
  Owner owner_of_50_17;
};

void expect_block_shape(const BlockShape& want) {
  SCOPED_TRACE(want.tile);
  const VariantDescriptor& v = testing::typed_one_phase_kernel();
  const int index = testing::added_canonical(v, want.tile);
  ASSERT_GE(index, 0);
  const TileConfig& config = config_at(v, index);
  EXPECT_EQ(config.threads(), 8 * 24);
  EXPECT_EQ(config.bm, want.bm);
  EXPECT_EQ(config.bn, want.bn);
  const auto model = v.model(index, Problem::Gemm, v.precisions.front(), Shape{100, 30, 7});
  EXPECT_EQ(model->block().x, 8);
  EXPECT_EQ(model->block().y, 24);
  EXPECT_EQ(model->grid().x, want.grid_x);
  EXPECT_EQ(model->grid().y, want.grid_y);
  const Owner o = model->owner(50, 17), w = want.owner_of_50_17;
  EXPECT_EQ(std::vector<int>({o.block_x, o.block_y, o.thread_x, o.thread_y}),
            std::vector<int>({w.block_x, w.block_y, w.thread_x, w.thread_y}));
}

TEST(TypedNaive, ATypedBlockIsAConfigurationWithItsShape) {
  // Along a row: 24 rows x 8 columns, grid ⌈30 / 8⌉ x ⌈100 / 24⌉; C(50, 17) in block (2, 2), thread
  // (17 % 8, 50 % 24).
  expect_block_shape({"block_x=8,block_y=24,order=0", 24, 8, 4, 5, {2, 2, 1, 2}});
}

TEST(TypedNaive, TurnedDownTheColumnsTheBlockCoversBlockXRows) {
  // Down a column: threadIdx.x counts rows, 8 rows x 24 columns, grid ⌈30 / 24⌉ x ⌈100 / 8⌉; C(50, 17)
  // in block (0, 6), thread (50 % 8, 17 % 24).
  expect_block_shape({"block_x=8,block_y=24,order=1", 8, 24, 2, 13, {0, 6, 2, 17}});
  const VariantDescriptor& v = testing::typed_one_phase_kernel();
  const TileConfig& down = config_at(v, testing::added_canonical(v, "block_x=8,block_y=24,order=1"));
  EXPECT_EQ(v.tile_values_of(down), (TileValues{{"block_x", 8}, {"block_y", 24}, {"order", 1}}));
  // The same block shape along the rows names another kernel.
  const TileConfig& along = config_at(v, testing::added_canonical(v, "block_x=8,block_y=24,order=0"));
  EXPECT_NE(v.kernel_names(down, Precision::F32, Problem::Gemm), v.kernel_names(along, Precision::F32, Problem::Gemm));
}

}  // namespace
}  // namespace tilescope
