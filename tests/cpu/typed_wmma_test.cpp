// Typed tiles of the wmma kernel (kernels/core/typed_configs.h): the parameters its kernel template
// takes (block tile, slab, warp tile), the rules of the kernel text refused in words before anything
// compiles (those no input type keeps at once, those of one type or problem per case), and a typed
// tile as a first-class configuration: its kernel name carries its values, its shared memory and
// mapping model follow them. typed_configs_test.cpp checks its compiled set spelled as typed values.
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

TEST(TypedWmma, TakesTheTemplatesParameters) {
  const VariantDescriptor& v = testing::typed_wmma_kernel();
  EXPECT_EQ(testing::param_keys(v), (std::vector<std::string>{"bm", "bn", "bk", "wm", "wn"}));
  testing::expect_values_read(v, {{"bm", &TileConfig::bm},
                                  {"bn", &TileConfig::bn},
                                  {"bk", &TileConfig::bk},
                                  {"wm", &TileConfig::warp_m},
                                  {"wn", &TileConfig::warp_n}});
}

TEST(TypedWmma, RulesNoInputTypeKeepsAreRefusedBeforeAnythingCompiles) {
  const VariantDescriptor& v = testing::typed_wmma_kernel();
  expect_refusal(v, "bm=64,wm=24", "does not tile the block tile 64 x 64");
  expect_refusal(v, "bm=512,bn=512,wm=64,wn=64", "64 warps per block: the limit is 32");
  // Fragments of 16 x 16 (f16, bf16, tf32) and 8 x 8 (f64): a 4-row warp tile is neither; the words
  // are the first type's.
  const std::string thin = refusal(v, "bm=64,wm=4");
  EXPECT_TRUE(contains(thin, "no input type takes it")) << thin;
  EXPECT_TRUE(contains(thin, "wm = 4, wn = 32: a warp tile is whole 16 x 16 fragments")) << thin;
  const std::string shallow = refusal(v, "bk=2");
  EXPECT_TRUE(contains(shallow, "no input type takes it")) << shallow;
  EXPECT_TRUE(contains(shallow, "a multiple of 8")) << shallow;  // tf32's k of 8
  expect_refusal(v, "bm=128,bn=128,wm=128,wn=128", "a thread has at most 255");
  expect_refusal(v, "bm=0", "at least 1");
  expect_refusal(v, "wn=0", "at least 1");
  expect_refusal(v, "bm=1024", "at most 512");
  expect_refusal(v, "bk=512", "at most 256");
  // At the edges of the rules: 32 warps, one warp, 16-deep slabs with 8-wide warps for f64.
  for (const char* tile : {"bm=512,bn=256,wm=64,wn=64", "bm=16,bn=16,bk=16,wm=16,wn=16", "bm=32,bn=32,bk=4,wm=8,wn=8"})
    EXPECT_GE(added(v, tile), 0);
}

// Rules of one input type or problem refuse the case, not the tile: the tile runs the others.
TEST(TypedWmma, RulesOfOneTypeOrProblemRefuseThatCase) {
  const VariantDescriptor& v = testing::typed_wmma_kernel();
  // 8-deep slabs: one 16 x 16 x 8 step (tf32), half a 16 x 16 x 16 one (f16).
  expect_verdicts(v, "bk=8",
                  {{Problem::Gemm, Precision::TF32, ""},
                   {Problem::Gemm, Precision::F64, ""},
                   {Problem::Gemm, Precision::F16, "a multiple of 16"}});
  // 8 x 8 warp tiles: whole f64 fragments, not 16 x 16 ones.
  expect_verdicts(v, "bm=32,bn=32,wm=8,wn=8",
                  {{Problem::Gemm, Precision::F64, ""}, {Problem::Gemm, Precision::BF16, "whole 16 x 16 fragments"}});
  // 64 x 64 warp tiles: typed_configs_test.cpp (AWarpTileOfDoublesMustFitTheRegisters).
  // AᵀA mirrors square blocks.
  expect_verdicts(v, "bm=128,bn=64,wm=64,wn=32",
                  {{Problem::Gemm, Precision::F16, ""}, {Problem::Ata, Precision::F16, "BM must equal BN"}});
}

TEST(TypedWmma, ATypedTileIsAConfigurationWithItsValues) {
  const VariantDescriptor& v = testing::typed_wmma_kernel();
  const int index = testing::added_canonical(v, "bm=96,bn=64,bk=16,wm=48,wn=32");
  ASSERT_GE(index, 0);
  const TileConfig& config = config_at(v, index);
  EXPECT_EQ(config.threads(), 4 * 32);
  EXPECT_EQ(config.warp_m, 48);
  EXPECT_EQ(config.warp_n, 32);
  // The kernel takes the grid of warps: 96 / 48 x 64 / 32.
  EXPECT_EQ(v.kernel_names(config, Precision::F16, Problem::Gemm),
            std::vector<std::string>{"tilescope::wmma_kernel<" + precision_argument(Precision::F16) +
                                     ", 96, 64, 16, 2, 2, false, " + kNoProbeName + ">"});
  // Slabs of halves, rows padded by 8: A 96 x (16 + 8), B 16 x (64 + 8); more than the 4 warps'
  // 16 x 16 float staging areas of C.
  EXPECT_EQ(v.shared_bytes(config, Precision::F16), (96u * 24 + 16 * 72) * 2);
  const auto model = v.model(index, Problem::Gemm, Precision::F16, Shape{100, 300, 70});
  EXPECT_EQ(model->block().x, 32);
  EXPECT_EQ(model->block().y, 4);
  EXPECT_EQ(model->grid().x * model->grid().y, 2 * 5);  // ⌈100 / 96⌉ x ⌈300 / 64⌉ block tiles
  EXPECT_EQ(model->phases(), 5);                        // ⌈70 / 16⌉
  EXPECT_EQ(model->writer_slots(), (48 / 16) * (32 / 16));
}

}  // namespace
}  // namespace tilescope
