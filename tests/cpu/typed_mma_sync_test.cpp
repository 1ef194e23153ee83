// Typed tiles of the mma.sync kernel (kernels/core/typed_configs.h): the parameters its kernel
// template takes, the rules of the kernel text refused in words before anything compiles (those no
// input type keeps at once, those of one type or problem per case), and a typed tile as a
// first-class configuration: its kernel names carry its values, its shared memory and mapping model
// follow them. typed_configs_test.cpp checks its compiled set spelled as typed values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/core/kernel_names.h"
#include "kernels/core/typed_configs.h"
#include "kernels/models/mapping_model.h"
#include "tests/support/typed_tile_checks.h"

namespace tilescope {
namespace {

using testing::added;
using testing::contains;
using testing::expect_refusal;
using testing::expect_verdicts;
using testing::refusal;

TEST(TypedMmaSync, TakesTheTemplatesParameters) {
  const VariantDescriptor& v = testing::typed_mma_sync_kernel();
  EXPECT_EQ(testing::param_keys(v),
            (std::vector<std::string>{"bm", "bn", "bk", "wm", "wn", "stages", "swizzle", "pipeline"}));
  testing::expect_values_read(v,
                              {{"bm", &TileConfig::bm}, {"wn", &TileConfig::warp_n}, {"stages", &TileConfig::stages}});
}

TEST(TypedMmaSync, RulesNoInputTypeKeepsAreRefusedBeforeAnythingCompiles) {
  const VariantDescriptor& v = testing::typed_mma_sync_kernel();
  expect_refusal(v, "wm=24", "multiples of 16");
  expect_refusal(v, "bm=128,wm=96,wn=32", "does not tile the block tile 128 x 128");
  expect_refusal(v, "bm=512,bn=512,wm=64,wn=64", "64 warps per block: the limit is 32");
  expect_refusal(v, "bk=48", "powers of two");
  expect_refusal(v, "bn=96,wn=48", "powers of two");
  expect_refusal(v, "stages=1,pipeline=0", "at least 2 stages");
  expect_refusal(v, "stages=2,pipeline=2", "at least 3");
  expect_refusal(v, "wm=128,wn=128", "a thread has at most 255");
  expect_refusal(v, "pipeline=3", "pipeline = 3");
  expect_refusal(v, "swizzle=2", "swizzle = 2");
  expect_refusal(v, "bm=0", "at least 1");
  expect_refusal(v, "bm=1024", "at most 512");
  // Tiles of a slab that the threads cannot copy or swizzle, for every type (the words of the first).
  const std::string rows = refusal(v, "bm=16,bn=256,bk=64,wm=16,wn=128,swizzle=1");
  EXPECT_TRUE(contains(rows, "no input type takes it")) << rows;
  EXPECT_TRUE(contains(rows, "B's tile of 64 x 256")) << rows;
  EXPECT_TRUE(contains(rows, "repeats every 8 rows")) << rows;
  const std::string width = refusal(v, "bm=48,bn=96,bk=32,wm=48,wn=32");
  EXPECT_TRUE(contains(width, "out of their row")) << width;
  // The same tiles unswizzled, or at the edges of the rules (32 warps), are taken.
  for (const char* tile : {"bm=16,bn=256,bk=64,wm=16,wn=128,swizzle=0", "bm=512,bn=256,wm=64,wn=64,stages=2,pipeline=0",
                           "stages=3,pipeline=2"})
    EXPECT_GE(added(v, tile), 0);
}

// Rules of one input type or problem refuse the case, not the tile: the tile runs the others.
TEST(TypedMmaSync, RulesOfOneTypeOrProblemRefuseThatCase) {
  const VariantDescriptor& v = testing::typed_mma_sync_kernel();
  // 8-deep slabs: one m16n8k8 step (tf32), half an m16n8k16 one (f16).
  expect_verdicts(v, "bk=8,wn=32,pipeline=0",
                  {{Problem::Gemm, Precision::TF32, ""}, {Problem::Gemm, Precision::F16, "m16n8k16"}});
  // The fragment pipeline needs two k steps per slab: 16 deep is one in f16, two in tf32.
  expect_verdicts(v, "bk=16,wn=32,stages=3,pipeline=1",
                  {{Problem::Gemm, Precision::TF32, ""}, {Problem::Gemm, Precision::BF16, "at least 2"}});
  // 64 x 64 warp tiles: typed_configs_test.cpp (AWarpTileOfDoublesMustFitTheRegisters).
  // AᵀA: square blocks, and A's tile runs along m, so wm is a power of two too.
  expect_verdicts(v, "bm=128,bn=256", {{Problem::Ata, Precision::F16, "BM must equal BN"}});
  expect_verdicts(v, "bm=192,bn=192,bk=64,wm=48,wn=64,pipeline=0",
                  {{Problem::Gemm, Precision::F16, ""}, {Problem::Ata, Precision::F16, "wm = 48"}});
}

TEST(TypedMmaSync, ATypedTileIsAConfigurationWithItsValues) {
  const VariantDescriptor& v = testing::typed_mma_sync_kernel();
  const int index = testing::added_canonical(v, "bm=64,bn=128,bk=32,wm=32,wn=64,stages=4,swizzle=0,pipeline=2");
  ASSERT_GE(index, 0);
  const TileConfig& config = config_at(v, index);
  EXPECT_EQ(config.threads(), 4 * 32);
  EXPECT_EQ(config.warp_m, 32);
  EXPECT_EQ(config.stages, 4);
  // The kernel of its pipeline, with every value as a template argument.
  EXPECT_EQ(
      v.kernel_names(config, Precision::BF16, Problem::Gemm),
      std::vector<std::string>{"tilescope::mma_sync_mbarrier_kernel<" + precision_argument(Precision::BF16) +
                               ", tilescope::MmaTile<64, 128, 32, 32, 64, 4, false, (tilescope::Pipeline)2>, false, " +
                               kNoProbeName + ">"});
  // The ring: 4 stages of (64 + 128) x 32 halves, then 2 x 4 mbarriers.
  EXPECT_EQ(v.shared_bytes(config, Precision::BF16), 4u * (64 + 128) * 32 * 2 + 2 * 4 * 8);
  const auto model = v.model(index, Problem::Gemm, Precision::BF16, Shape{100, 300, 70});
  EXPECT_EQ(model->block().x, 32);
  EXPECT_EQ(model->block().y, 4);
  EXPECT_EQ(model->grid().x * model->grid().y, 2 * 3);  // ⌈100 / 64⌉ x ⌈300 / 128⌉ block tiles
  EXPECT_EQ(model->phases(), 3);                        // ⌈70 / 32⌉
  EXPECT_EQ(model->writer_slots(), (32 / 16) * (64 / 8) * 4);
}

}  // namespace
}  // namespace tilescope
