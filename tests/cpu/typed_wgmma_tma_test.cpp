// Typed tiles of the warpgroup kernel (the variant whose compiled set launches clusters of blocks
// that share B by TMA multicast): each kind of impossible tile is refused before anything compiles
// with its reason in words (a width the instruction does not take, boxes the TMA cannot copy, a
// ring too short, clusters that cannot share B, accumulators that do not fit the registers); a
// typed tile's kernel names, refusals and mapping model follow its values. typed_configs_test.cpp
// checks that every row of the compiled set, spelled as typed values, is the same tile; NVRTC
// compiles typed tiles in kernel_text_test.cpp.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "kernels/core/kernel_names.h"
#include "kernels/core/typed_configs.h"
#include "kernels/models/fragment_model.h"
#include "kernels/models/mapping_model.h"
#include "tests/support/typed_tile_checks.h"

namespace tilescope {
namespace {

using testing::accepted;
using testing::contains;
using testing::expect_refusal;
using testing::refusal;

TEST(TypedWgmmaTiles, TakesTheKernelTextsParameters) {
  EXPECT_EQ(testing::param_keys(testing::typed_cluster_kernel()),
            (std::vector<std::string>{"bm", "bn", "bk", "wgmma_n", "stages", "consumers", "cluster_m", "persistent",
                                      "tma_store", "register_sourced", "band", "c16", "split_k", "stream_k"}));
}

// Each row typed refuses the cases the row refuses, but one: a compiled row is built for one
// family of input types (16-bit, or tf32), where its typed twin compiles for any type its slab
// depth takes; the row's refusal then names the rows of the other family. The arithmetic is the
// same within the family (typed_configs_test.cpp checks the rest of the tile).
TEST(TypedWgmmaTiles, EveryCompiledRowTypedRefusesWhatTheRowRefuses) {
  const VariantDescriptor& v = testing::typed_cluster_kernel();
  int other_family = 0;
  for (const TileConfig& built : v.configs) {
    SCOPED_TRACE(built.name);
    const TileConfig typed = accepted(v, v.tile_values_of(built));
    // The same instruction, up to its k: a tile is typed before its input type is chosen.
    const std::string row_math = built.math, instruction = row_math.substr(0, row_math.find('k'));
    EXPECT_EQ(std::string(typed.math).rfind(instruction, 0), 0u) << typed.math << " against " << row_math;
    for (Precision q : v.precisions)
      for (Problem p : v.problems) {
        const std::string row_says = v.refuses(p, q, built);
        if (contains(row_says, "is compiled for")) {
          ++other_family;
          EXPECT_TRUE(contains(row_says, "choose one of")) << row_says;
          continue;
        }
        EXPECT_EQ(v.refuses(p, q, typed).empty(), row_says.empty()) << to_string(q) << " " << to_string(p);
      }
  }
  EXPECT_GT(other_family, 0) << "the compiled set holds rows of one family only";
}

// A slab is whole 128-byte rows of the input type: 32 k of tf32 are a row, of a 16-bit type half one.
TEST(TypedWgmmaTiles, ASlabIsWholeRowsOfItsType) {
  const VariantDescriptor& v = testing::typed_cluster_kernel();
  const TileConfig k32 = accepted(v, "bk=32");
  EXPECT_EQ(v.refuses(Problem::Gemm, Precision::TF32, k32), "");
  for (Precision q : {Precision::F16, Precision::BF16}) {
    const std::string why = v.refuses(Problem::Gemm, q, k32);
    EXPECT_TRUE(contains(why, "128-byte rows, 64 k each")) << why;
  }
  EXPECT_EQ(v.refuses(Problem::Gemm, Precision::BF16, accepted(v, "bk=64")), "");
}

TEST(TypedWgmmaTiles, TheNameExpressionCarriesEveryValue) {
  const VariantDescriptor& v = testing::typed_cluster_kernel();
  const TileConfig typed =
      accepted(v, "bm=128,bn=256,bk=128,wgmma_n=128,stages=2,consumers=2,cluster_m=4,persistent=0,tma_store=1,c16=1");
  const std::vector<std::string> names = v.kernel_names(typed, v.precisions.front(), Problem::Gemm);
  ASSERT_EQ(names.size(), 1u);
  EXPECT_TRUE(contains(names[0], "WgShape<128, 256, 128, 128, 2, 2, 4, false, true, false, 8, true, 1, false>"))
      << names[0];
  const TileConfig split = accepted(v, "split_k=3,cluster_m=1");
  const std::vector<std::string> split_names = v.kernel_names(split, v.precisions.front(), Problem::Gemm);
  ASSERT_EQ(split_names.size(), 1u);
  EXPECT_TRUE(contains(split_names[0], ", 3, false>")) << split_names[0];
  const TileConfig stream = accepted(v, "stream_k=1,cluster_m=1");
  const std::vector<std::string> stream_names = v.kernel_names(stream, v.precisions.front(), Problem::Gemm);
  ASSERT_EQ(stream_names.size(), 1u);
  EXPECT_TRUE(contains(stream_names[0], ", 1, true>")) << stream_names[0];
  EXPECT_TRUE(contains(stream.math, "stream-K")) << stream.math;
  EXPECT_TRUE(contains(stream.block_work, "an equal run of the last tiles' k slabs")) << stream.block_work;
  // The arithmetic's words say so.
  EXPECT_TRUE(contains(split.math, "K in 3 parts")) << split.math;
  EXPECT_FALSE(contains(typed.math, "parts")) << typed.math;
  // And what a block does: one tile (persistent=0: nothing to say), or walking tiles or their parts.
  EXPECT_EQ(typed.block_work, "");
  EXPECT_TRUE(contains(split.block_work, "one per multiprocessor")) << split.block_work;
  EXPECT_TRUE(contains(split.block_work, "K in 3 parts")) << split.block_work;
  EXPECT_FALSE(contains(accepted(v, "cluster_m=1").block_work, "parts")) << accepted(v, "cluster_m=1").block_work;
  EXPECT_EQ(names[0].rfind(kNoProbeName), names[0].size() - std::string(kNoProbeName).size() - 1) << names[0];
}

TEST(TypedWgmmaTiles, KeysLeftOutKeepTheDefaults) {
  const VariantDescriptor& v = testing::typed_cluster_kernel();
  const TileValues defaults = v.tile_values_of(v.configs[v.default_config]);
  const TileConfig typed = accepted(v, "stages=2");
  for (const auto& [key, value] : typed.typed)
    EXPECT_EQ(value, key == "stages" ? 2 : tile_value(defaults, key, -1)) << key;
}

TEST(TypedWgmmaTiles, RefusesWhatTheKernelTextCannotTake) {
  const VariantDescriptor& v = testing::typed_cluster_kernel();
  // The instruction's width: the four the kernel wraps.
  expect_refusal(v, "wgmma_n=32", "m64n64k16, m64n128k16");
  expect_refusal(v, "wgmma_n=100", "wgmma_n = 100");
  expect_refusal(v, "bn=256,wgmma_n=192", "does not divide bn = 256");
  expect_refusal(v, "bn=160,wgmma_n=128", "multiple of 64");
  // Rows: whole m64 slices for every consumer, one TMA box of A.
  expect_refusal(v, "bm=96,consumers=1", "multiple of 64");
  expect_refusal(v, "bm=128,consumers=3", "64 x 3 = 192");
  expect_refusal(v, "bm=320,consumers=1", "at most 256");
  expect_refusal(v, "consumers=0", "1 to 4");
  expect_refusal(v, "bm=320,consumers=5", "1 to 4");
  // Slabs of whole swizzled rows, B's box at most 256 deep.
  for (const char* bk : {"bk=0", "bk=16", "bk=48", "bk=320"}) expect_refusal(v, bk, "128-byte swizzled rows");
  expect_refusal(v, "stages=1", "at least 2");
  expect_refusal(v, "stages=65", "mbarriers");
  // Clusters share B's boxes evenly, within the portable size.
  expect_refusal(v, "cluster_m=0", "cluster_m = 0");
  expect_refusal(v, "bm=128,bn=256,wgmma_n=256,consumers=2,cluster_m=3", "evenly");
  expect_refusal(v, "cluster_m=9", "portable");
  // The register budget: 256 accumulators per thread, or 128 among three consumers, do not fit.
  const std::string one = refusal(v, "bm=128,bn=256,wgmma_n=256,consumers=1");
  EXPECT_TRUE(contains(one, "256 accumulators")) << one;
  const std::string three = refusal(v, "bm=192,bn=256,wgmma_n=256,consumers=3");
  EXPECT_TRUE(contains(three, "152 registers")) << three;
  // Switches are 0 or 1.
  expect_refusal(v, "persistent=2", "0 or 1");
  expect_refusal(v, "tma_store=3", "0 or 1");
  // Split K: 1 to 8 parts, and every part's block resident (persistent, no clusters).
  expect_refusal(v, "split_k=0", "1 to 8 parts");
  expect_refusal(v, "split_k=9", "1 to 8 parts");
  expect_refusal(v, "split_k=2,cluster_m=1,persistent=0", "persistent=1");
  expect_refusal(v, "split_k=2,cluster_m=2", "cluster_m=1");
  // Stream-K: a switch, every block resident and alone, K not split besides.
  expect_refusal(v, "stream_k=2", "0 or 1");
  expect_refusal(v, "stream_k=1,cluster_m=1,persistent=0", "persistent=1");
  expect_refusal(v, "stream_k=1,cluster_m=2", "cluster_m=1");
  expect_refusal(v, "stream_k=1,cluster_m=1,split_k=2", "split_k=1");
}

TEST(TypedWgmmaTiles, AcceptsTilesTheCompiledSetDoesNotHave) {
  const VariantDescriptor& v = testing::typed_cluster_kernel();
  for (const char* text :
       {"bm=128,bn=256,wgmma_n=128,bk=128,stages=2,consumers=2", "bm=256,bn=128,wgmma_n=128,consumers=4,stages=3",
        "bm=64,bn=256,wgmma_n=256,consumers=1", "bm=128,bn=384,wgmma_n=192,consumers=2",
        "bm=192,bn=192,wgmma_n=192,cluster_m=3", "bm=128,bn=256,wgmma_n=256,consumers=2,cluster_m=4,persistent=0",
        "bm=64,bn=64,wgmma_n=64,consumers=1", "bm=128,bn=256,wgmma_n=64,consumers=2",
        "bm=192,bn=192,wgmma_n=192,consumers=3,cluster_m=1,split_k=2", "cluster_m=1,split_k=8"})
    accepted(v, text);
}

// AᵀA: square tiles, each block alone; the refusal names the way out.
TEST(TypedWgmmaTiles, AtaTakesSquareTilesWithoutClusters) {
  const VariantDescriptor& v = testing::typed_cluster_kernel();
  const Precision q = v.precisions.front();
  if (!v.refuses(Problem::Gemm, q, v.configs[v.default_config]).empty())
    GTEST_SKIP() << v.refuses(Problem::Gemm, q, v.configs[v.default_config]);
  const TileConfig square = accepted(v, "bm=128,bn=128,wgmma_n=128,consumers=2,cluster_m=1");
  EXPECT_EQ(v.refuses(Problem::Ata, q, square), "");
  const std::vector<std::string> names = v.kernel_names(square, q, Problem::Ata);
  ASSERT_EQ(names.size(), 1u);
  EXPECT_TRUE(contains(names[0], ">, true, ")) << names[0];
  const TileConfig wide = accepted(v, "bm=128,bn=256,wgmma_n=256,consumers=2,cluster_m=1");
  EXPECT_TRUE(contains(v.refuses(Problem::Ata, q, wide), "square tile")) << v.refuses(Problem::Ata, q, wide);
  EXPECT_TRUE(v.kernel_names(wide, q, Problem::Ata).empty());
  const TileConfig paired = accepted(v, "bm=128,bn=128,wgmma_n=128,consumers=2,cluster_m=2");
  EXPECT_TRUE(contains(v.refuses(Problem::Ata, q, paired), "cluster_m=1")) << v.refuses(Problem::Ata, q, paired);
}

// The mapping model of a typed configuration reads its values, not a row of the compiled set.
TEST(TypedWgmmaTiles, TheModelFollowsATypedTile) {
  const VariantDescriptor& v = testing::typed_cluster_kernel();
  std::string why;
  const int index = add_typed_tile(v, "bm=128,bn=256,bk=128,wgmma_n=128,stages=2,consumers=2,cluster_m=2", &why);
  ASSERT_GE(index, 0) << why;
  ASSERT_TRUE(is_typed_config(v, index));
  const Shape shape{1000, 700, 300};
  const std::unique_ptr<MappingModel> model =
      make_mapping_model(v.id, index, Problem::Gemm, v.precisions.front(), shape, &why);
  ASSERT_NE(model, nullptr) << why;
  // ceil(1000 / 128) = 8 block rows in clusters of 2, ceil(700 / 256) = 3 block columns.
  EXPECT_EQ(model->grid().x, 2 * 4 * 3);
  EXPECT_EQ(model->phases(), 3);              // ceil(300 / 128)
  EXPECT_EQ(model->writer_slots(), 256 / 2);  // a consumer's slice, bn / 2 accumulators
  const FragmentPicture* f = model->fragments();
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(contains(f->instruction, "m64n128k16")) << f->instruction;
  EXPECT_EQ(f->mma_n, 128);
  EXPECT_EQ(f->warp_n, 256);
  EXPECT_EQ(f->consumer_groups(), 2);
  EXPECT_EQ(f->stages, 2);
  // A in two K-major boxes of 64 k, B in four boxes of 64 columns x 128 k.
  ASSERT_EQ(f->stage_copies.size(), 6u);
  EXPECT_EQ(f->stage_bytes, (128 + 256) * 128 * 2);
  EXPECT_EQ(f->stage_copies[1].offset, 128 * 64 * 2);
  EXPECT_EQ(f->stage_copies[2].rows, 128);
}

}  // namespace
}  // namespace tilescope
