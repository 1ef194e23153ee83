// The register-sourced tf32 tile of the warpgroup kernel: it computes Cᵀ = Bᵀ Aᵀ, so its model's
// owners are the usual wgmma layout with rows and columns exchanged, its lanes read B's fragments
// out of the stage (a listed shared-memory site, 2-way conflicted by the swizzle) and store C one
// float at a time. Typed tiles take the value and refuse what the kernel text cannot build. The GPU
// suite holds the owners and the addresses equal to the traced kernel's.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "kernels/models/fragment_model.h"
#include "kernels/models/mapping_model.h"
#include "kernels/models/warp_access.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

constexpr Precision kTf32 = Precision::TF32;

const VariantDescriptor& register_sourced_variant() {
  return tilescope::testing::variant_with_tile_param("register_sourced");
}
int value_of(const VariantDescriptor& v, int config, const char* key) {
  return tile_value(v.tile_values_of(v.configs[config]), key, -1);
}
// Its compiled configurations that read B into registers.
std::vector<int> register_sourced_configs(const VariantDescriptor& v) {
  std::vector<int> out;
  for (int c = 0; c < static_cast<int>(v.configs.size()); ++c)
    if (value_of(v, c, "register_sourced") == 1) out.push_back(c);
  return out;
}
std::unique_ptr<MappingModel> model_of(const VariantDescriptor& v, int config, Problem problem, const Shape& shape,
                                       std::string* why = nullptr) {
  return make_mapping_model(v.id, config, problem, kTf32, shape, why);
}
bool built(const VariantDescriptor& v, int config) {
  return model_of(v, config, Problem::Gemm, Shape{256, 256, 64}) != nullptr;
}

TEST(WgmmaRegisterSourced, TheCompiledSetHasSuchTilesForTf32GemmAlone) {
  const VariantDescriptor& v = register_sourced_variant();
  const std::vector<int> configs = register_sourced_configs(v);
  ASSERT_FALSE(configs.empty());
  for (int c : configs) {
    SCOPED_TRACE(v.configs[c].name);
    EXPECT_NE(v.configs[c].name.find("_rs"), std::string::npos);
    EXPECT_NE(std::string(v.configs[c].math).find("from registers"), std::string::npos);
    const std::string bf16 = v.refuses(Problem::Gemm, Precision::BF16, v.configs[c]);
    EXPECT_NE(bf16.find("tf32"), std::string::npos) << bf16;
    std::string why;
    if (!built(v, c)) continue;  // this build holds no sm_90a code
    EXPECT_EQ(model_of(v, c, Problem::Ata, Shape{512, 512, 512}, &why), nullptr);
    EXPECT_FALSE(why.empty());
  }
}

// C(r, c) of a tile is accumulator 4 j + r' of lane 4 g + t, warp 4 + 4 w + q, where the column
// gives the consumer w (slices of 64), the warp q (16 columns each) and g, and the row gives j, t
// and the register's low bit: the wgmma layout of Cᵀ.
TEST(WgmmaRegisterSourced, OwnersAreTheWgmmaLayoutTransposed) {
  const VariantDescriptor& v = register_sourced_variant();
  for (int config : register_sourced_configs(v)) {
    if (!built(v, config)) GTEST_SKIP() << v.id << " is refused in this build";
    SCOPED_TRACE(v.configs[config].name);
    const int bm = value_of(v, config, "bm"), bn = value_of(v, config, "bn");
    const int consumers = value_of(v, config, "consumers"), slices = bn / 64 / consumers;
    auto m = model_of(v, config, Problem::Gemm, Shape{2 * bm, 2 * bn, 64});
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->writer_slots(), slices * bm / 2);
    for (int r = 0; r < bm; r += 7)
      for (int c = 0; c < bn; c += 5) {
        const Owner o = m->owner(r, c);
        const int slice = c / 64, c16 = c % 16;
        EXPECT_EQ(o.block_x, 0);
        EXPECT_EQ(o.thread_y, 4 + 4 * (slice / slices) + c % 64 / 16) << r << ", " << c;
        EXPECT_EQ(o.thread_x, 4 * (c16 % 8) + r % 8 / 2) << r << ", " << c;
        EXPECT_EQ(o.slot, slice % slices * bm / 2 + 4 * (r / 8) + 2 * (c16 / 8) + r % 2) << r << ", " << c;
      }
  }
}

// The lanes' fragments: one load's 32 lanes read rows t (k) of the box and eight neighbouring
// floats (columns 16 q + g) in each; with the 128-byte swizzle (chunk XOR row) the two chunks of
// the eight floats land, across the four rows, in four chunks: 16 banks, two words each. The
// stores of C: four rows of eight neighbours, 4 sectors per request.
TEST(WgmmaRegisterSourced, FragmentsConflictTwoWayAndTheStoresTakeFourSectors) {
  const VariantDescriptor& v = register_sourced_variant();
  const int config = register_sourced_configs(v).front();
  if (!built(v, config)) GTEST_SKIP() << v.id << " is refused in this build";
  auto m = model_of(v, config, Problem::Gemm, Shape{1024, 1024, 1024});
  ASSERT_NE(m, nullptr);
  const std::vector<AccessSite> sites = m->access_sites();
  ASSERT_EQ(sites.size(), 2u);
  const AccessSite& load = sites[0];
  EXPECT_EQ(load.matrix, 'B');
  EXPECT_EQ(load.space, MemorySpace::Shared);
  EXPECT_EQ(load.kind, AccessKind::Load);
  EXPECT_EQ(load.bytes, 4);
  EXPECT_EQ(sites[1].matrix, 'C');
  EXPECT_EQ(sites[1].space, MemorySpace::Global);
  EXPECT_EQ(sites[1].bytes, 4);
  const int bk = value_of(v, config, "bk"), consumers = value_of(v, config, "consumers");
  const int slices = value_of(v, config, "bn") / 64 / consumers;
  EXPECT_EQ(m->site_steps(0, 0, 0), m->phases() * slices * bk / 8 * 4);
  for (int warp : {4, 7, 4 * consumers + 3})
    for (int step = 0; step < m->site_steps(0, 0, 0); step += 13) {
      WarpAccess w;
      m->warp_access(0, 0, 0, warp, step, &w);
      ASSERT_TRUE(w.any());
      const SharedInstruction s = shared_instruction(w);
      EXPECT_EQ(s.wavefronts, 2) << "warp " << warp << ", step " << step;
      EXPECT_EQ(s.ideal, 1);
    }
  WarpAccess producer;
  m->warp_access(0, 0, 0, 0, 0, &producer);
  EXPECT_FALSE(producer.any()) << "the producer warpgroup reads no fragments";
  const AccessTotals t = access_totals(*m, INT64_MAX);
  EXPECT_EQ(t.global_store.sectors, 4 * t.global_store.requests);
  EXPECT_EQ(t.global_store.requests * kWarpLanes, std::int64_t{1024} * 1024);
  EXPECT_EQ(t.shared_load.wavefronts, 2 * t.shared_load.requests);
}

// The picture the window draws: A's fragments in registers, in the tf32 layout, C transposed.
TEST(WgmmaRegisterSourced, ThePictureHoldsAsFragmentsAndCTransposed) {
  const VariantDescriptor& v = register_sourced_variant();
  const int config = register_sourced_configs(v).front();
  if (!built(v, config)) GTEST_SKIP() << v.id << " is refused in this build";
  auto m = model_of(v, config, Problem::Gemm, Shape{1024, 1024, 1024});
  const FragmentPicture* pic = m->fragments();
  ASSERT_NE(pic, nullptr);
  EXPECT_TRUE(pic->c_transposed);
  ASSERT_EQ(pic->a.size(), 4u * 32u * 4u);
  for (const LaneElement& a : pic->a) {
    EXPECT_EQ(a.row, 16 * a.warp + a.lane / 4 + 8 * (a.reg % 2));
    EXPECT_EQ(a.col, a.lane % 4 + 4 * (a.reg / 2));
  }
  EXPECT_EQ(pic->in_flight, pic->stages - 1);
}

TEST(WgmmaRegisterSourced, TypedTilesTakeItAndRefuseWhatTheKernelCannotBuild) {
  const VariantDescriptor& v = register_sourced_variant();
  TileConfig out;
  std::string why;
  const std::string tile =
      "bm=256,bn=128,bk=32,wgmma_n=256,stages=4,consumers=2,cluster_m=1,persistent=1,tma_store=0,register_sourced=1";
  ASSERT_TRUE(typed_tile_named(v, tile, &out, &why)) << why;
  EXPECT_EQ(tile_value(out.typed, "register_sourced", 0), 1);
  EXPECT_EQ(v.refuses(Problem::Gemm, kTf32, out), "");
  EXPECT_NE(v.refuses(Problem::Gemm, Precision::F16, out).find("tf32"), std::string::npos);
  EXPECT_NE(v.refuses(Problem::Ata, kTf32, out).find("gemm"), std::string::npos);
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"bm=256,bn=128,bk=32,wgmma_n=256,stages=4,consumers=2,cluster_m=1,persistent=1,tma_store=1,register_sourced=1",
       "tma_store=0"},
      {"bm=256,bn=128,bk=32,wgmma_n=256,stages=4,consumers=2,cluster_m=2,persistent=1,tma_store=0,register_sourced=1",
       "cluster_m=1"},
      {"bm=192,bn=128,bk=32,wgmma_n=128,stages=4,consumers=2,cluster_m=1,persistent=1,tma_store=0,register_sourced=1",
       "must divide bm"},
      {"bm=256,bn=192,bk=32,wgmma_n=256,stages=4,consumers=2,cluster_m=1,persistent=1,tma_store=0,register_sourced=1",
       "multiple of 64 x 2"},
      {"bm=256,bn=256,bk=32,wgmma_n=256,stages=4,consumers=1,cluster_m=1,persistent=1,tma_store=0,register_sourced=1",
       "for B's fragments"},
      {"bm=256,bn=128,bk=32,wgmma_n=256,stages=4,consumers=2,cluster_m=1,persistent=1,tma_store=0,register_sourced=2",
       "0 or 1"},
  };
  for (const auto& [typed, said] : refused) {
    SCOPED_TRACE(typed);
    EXPECT_FALSE(typed_tile_named(v, typed, &out, &why));
    EXPECT_NE(why.find(said), std::string::npos) << why;
  }
}

}  // namespace
