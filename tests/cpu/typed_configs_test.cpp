// Typed tiles (kernels/core/typed_configs.h): the parsing of "key=value,..." with a reason for every
// kind of mistake, the canonical name, the defaults of the keys left out, the refusals of the
// kernel with prefetch (before anything compiles), and a typed configuration as a first-class one:
// an index after the compiled set that config_at, find_config and kernel_names all know. For every
// variant that takes typed tiles: its parameters, and its compiled set spelled as typed values
// being the same tiles.
#include "kernels/core/typed_configs.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/core/kernel_names.h"
#include "kernels/core/registry.h"
#include "kernels/models/mapping_model.h"
#include "tests/support/typed_tile_checks.h"

namespace tilescope {
namespace {

using testing::contains;
using testing::variant_where;

const VariantDescriptor& typed_variant() {
  return testing::typed_prefetch_kernel();
}

std::string parse_error(const std::string& text) {
  TileValues values;
  std::string error;
  EXPECT_FALSE(parse_tile_values(text, &values, &error)) << "'" << text << "' was accepted";
  return error;
}

// A typed tile the kernel with prefetch must accept: its configuration.
TileConfig accepted(const std::string& text) {
  return testing::accepted(typed_variant(), text);
}

TEST(TypedTiles, ParsesKeyValuePairsInTheOrderWritten) {
  TileValues values;
  std::string error;
  ASSERT_TRUE(parse_tile_values("bm=96,bn=80,tm=0", &values, &error)) << error;
  EXPECT_EQ(values, (TileValues{{"bm", 96}, {"bn", 80}, {"tm", 0}}));
  EXPECT_EQ(tile_values_text(values), "bm=96,bn=80,tm=0");
  EXPECT_EQ(tile_value(values, "bn", -1), 80);
  EXPECT_EQ(tile_value(values, "bk", -1), -1);
}

TEST(TypedTiles, RefusesEveryKindOfMistakeWithTheReason) {
  EXPECT_TRUE(contains(parse_error(""), "empty item")) << parse_error("");
  EXPECT_TRUE(contains(parse_error("bm=96,,bn=80"), "empty item"));
  EXPECT_TRUE(contains(parse_error("bm=96,"), "empty item"));
  EXPECT_TRUE(contains(parse_error("bm96"), "'bm96' is not key=value"));
  EXPECT_TRUE(contains(parse_error("=96"), "is not key=value"));
  for (const char* bad : {"bm=-1", "bm=x", "bm=1.5", "bm=", "bm= 9", "bm=1234567890"})
    EXPECT_TRUE(contains(parse_error(bad), "whole number")) << bad << ": " << parse_error(bad);
  EXPECT_TRUE(contains(parse_error("bm=96,bn=80,bm=64"), "'bm' is given twice"));
}

TEST(TypedTiles, NamesEveryParameterInTheVariantsOrder) {
  const VariantDescriptor& v = typed_variant();
  // Written out of order and partly: the name lists every parameter, in tile_params' order.
  const TileConfig config = accepted("tn=5,bm=96,tm=6,bk=24,bn=80");
  TileValues named;
  std::string error;
  ASSERT_TRUE(parse_tile_values(config.name, &named, &error)) << config.name << ": " << error;
  ASSERT_EQ(named.size(), v.tile_params.size()) << config.name;
  for (std::size_t i = 0; i < named.size(); ++i) EXPECT_EQ(named[i].first, v.tile_params[i].key) << config.name;
  EXPECT_EQ(config.name.rfind("bm=96,bn=80,bk=24,tm=6,tn=5", 0), 0u) << config.name;
  EXPECT_EQ(config.typed, named);
  EXPECT_EQ(v.tile_values_of(config), named);
  EXPECT_EQ(config.bm, 96);
  EXPECT_EQ(config.bn, 80);
  EXPECT_EQ(config.bk, 24);
  EXPECT_EQ(config.tm, 6);
  EXPECT_EQ(config.tn, 5);
  EXPECT_EQ(config.threads(), (96 / 6) * (80 / 5));
}

TEST(TypedTiles, KeysLeftOutKeepTheDefaultConfigurationsValues) {
  const VariantDescriptor& v = typed_variant();
  const TileValues defaults = v.tile_values_of(v.configs[v.default_config]);
  ASSERT_EQ(defaults.size(), v.tile_params.size());
  const TileConfig config = accepted("bm=96,bn=80");
  TileValues expected = defaults;
  for (auto& [key, value] : expected) {
    if (key == "bm") value = 96;
    if (key == "bn") value = 80;
  }
  EXPECT_EQ(config.typed, expected) << config.name;
  EXPECT_EQ(config.name, tile_values_text(expected));
}

TEST(TypedTiles, AnUnknownKeyIsRefusedNamingTheParameters) {
  const VariantDescriptor& v = typed_variant();
  const std::string why = testing::refusal(v, "bm=96,wide=3");
  EXPECT_TRUE(contains(why, "'wide'")) << why;
  for (const TileParam& p : v.tile_params) EXPECT_TRUE(contains(why, p.key)) << p.key << " missing from: " << why;
}

TEST(TypedTiles, AVariantWithoutATemplateTakesNone) {
  const VariantDescriptor& v =
      variant_where([](const VariantDescriptor& d) { return !takes_typed_tiles(d); }, "one without typed tiles");
  TileConfig config;
  std::string why;
  EXPECT_FALSE(typed_tile_config(v, {{"bm", 64}}, &config, &why));
  EXPECT_TRUE(contains(why, "takes no typed tiles")) << why;
  EXPECT_EQ(add_typed_tile(v, "bm=64", &why), -1);
}

TEST(TypedTiles, TheKernelTextsRulesAreCheckedBeforeAnythingCompiles) {
  const VariantDescriptor& v = typed_variant();
  // Each tile breaks one rule and keeps every other.
  testing::expect_refusal(v, "bm=100,bn=64,bk=8,tm=8,tn=8,pieces=1", "tm = 8 does not divide bm = 100");
  testing::expect_refusal(v, "bm=64,bn=100,bk=8,tm=8,tn=8,pieces=1", "tn = 8 does not divide bn = 100");
  testing::expect_refusal(v, "bm=128,bn=128,bk=8,tm=2,tn=2,pieces=1", "4096 threads per block: the limit is 1024");
  testing::expect_refusal(v, "bm=16,bn=16,bk=8,tm=4,tn=4,pieces=1", "16 threads per block: a block needs at least");
  testing::expect_refusal(v, "bm=64,bn=64,bk=24,tm=4,tn=4,pieces=5", "pieces = 5 does not divide bk = 24");
  testing::expect_refusal(v, "bm=256,bn=128,bk=8,tm=16,tn=16,pieces=1", "tm x tn = 256 accumulators per thread");
  testing::expect_refusal(v, "bm=0", "at least 1");
  testing::expect_refusal(v, "bm=1024", "at most 512");
  testing::expect_refusal(v, "min_blocks=33", "min_blocks is at most 32");
  // The edges themselves are allowed: 1024 threads, one warp, 128 accumulators.
  EXPECT_EQ(accepted("bm=128,bn=128,bk=8,tm=4,tn=4,pieces=1").threads(), 1024);
  EXPECT_EQ(accepted("bm=32,bn=32,bk=8,tm=4,tn=8,pieces=1").threads(), 32);
  EXPECT_EQ(accepted("bm=128,bn=256,bk=8,tm=16,tn=8,pieces=1").tm, 16);
}

TEST(TypedTiles, ATypedTileIsAConfigurationAfterTheCompiledSet) {
  const VariantDescriptor& v = typed_variant();
  std::string why;
  const int index = add_typed_tile(v, "bm=96,bn=80,bk=24,tm=6,tn=5,pieces=3,min_blocks=1,pad=1", &why);
  ASSERT_GE(index, 0) << why;
  EXPECT_GE(index, static_cast<int>(v.configs.size()));
  EXPECT_LT(index, config_count(v));
  EXPECT_TRUE(is_typed_config(v, index));
  EXPECT_FALSE(is_typed_config(v, 0));
  EXPECT_FALSE(is_typed_config(v, config_count(v)));
  const TileConfig& config = config_at(v, index);
  EXPECT_EQ(config.name, "bm=96,bn=80,bk=24,tm=6,tn=5,pieces=3,min_blocks=1,pad=1,bands=0");
  EXPECT_EQ(find_config(v, config.name), index);
  EXPECT_TRUE(variant_refusal(v, index, Problem::Gemm, Precision::F32).empty())
      << variant_refusal(v, index, Problem::Gemm, Precision::F32);
  // The same tile again, spelled in another order: the same configuration, nothing added.
  const int count = config_count(v);
  EXPECT_EQ(add_typed_tile(v, "min_blocks=1,pieces=3,tn=5,tm=6,bk=24,bn=80,bm=96,pad=1", &why), index) << why;
  EXPECT_EQ(config_count(v), count);
  EXPECT_THROW(config_at(v, count), std::out_of_range);
  EXPECT_THROW(config_at(v, -1), std::out_of_range);
  EXPECT_EQ(add_typed_tile(v, "bm=96,bn=80,bm=1", &why), -1);
  EXPECT_TRUE(contains(why, "given twice")) << why;
}

TEST(TypedTiles, ATypedConfigurationsKernelNamesCarryItsValues) {
  const VariantDescriptor& v = typed_variant();
  ASSERT_NE(v.kernel_names, nullptr);
  std::string why;
  const int index = add_typed_tile(v, "bm=72,bn=40,bk=12,tm=9,tn=5,pieces=2,min_blocks=3,pad=0", &why);
  ASSERT_GE(index, 0) << why;
  const TileConfig& config = config_at(v, index);
  // The template arguments are the parameters in tile_params' order.
  std::string values;
  for (const auto& [key, value] : config.typed) values += (values.empty() ? "" : ", ") + std::to_string(value);
  EXPECT_EQ(values, "72, 40, 12, 9, 5, 2, 3, 0, 0");
  const std::vector<std::string> names = v.kernel_names(config, Precision::F32, Problem::Gemm);
  ASSERT_FALSE(names.empty());
  for (const std::string& n : names) {
    EXPECT_TRUE(contains(n, "<" + fma_element_type(Precision::F32) + ", " + values + ", ")) << n;
    EXPECT_EQ(n.rfind("tilescope::", 0), 0u) << n;
  }
}

// Every variant that takes typed tiles says what each parameter means, and every row of its
// compiled set has a value for every parameter, in tile_params' order.
TEST(TypedTiles, EveryCompiledRowHasAValueForEveryParameter) {
  const std::vector<const VariantDescriptor*> typed = testing::variants_where(takes_typed_tiles);
  ASSERT_FALSE(typed.empty());
  for (const VariantDescriptor* v : typed) {
    const std::vector<std::string> keys = testing::param_keys(*v);
    for (const TileParam& p : v->tile_params) EXPECT_STRNE(p.meaning, "") << v->id << " " << p.key;
    for (const TileConfig& c : v->configs) {
      const TileValues values = v->tile_values_of(c);
      ASSERT_EQ(values.size(), keys.size()) << v->id << " " << c.name;
      for (std::size_t i = 0; i < keys.size(); ++i) EXPECT_EQ(values[i].first, keys[i]) << v->id << " " << c.name;
    }
  }
}

// A configuration's tile and block as numbers: bm, bn, bk, tm, tn, the block's shape, the warp
// tile, stages, cluster_m, group_warps.
auto tile_of(const TileConfig& c) {
  return std::make_tuple(c.bm, c.bn, c.bk, c.tm, c.tn, c.threads_x, c.threads_y, c.warp_m, c.warp_n, c.stages,
                         c.cluster_m, c.group_warps);
}

// What a mapping model says of a launch: block, grid, phases, accumulators per thread.
std::tuple<int, int, int, int, int, int> launch_of(const MappingModel& m) {
  return {m.block().x, m.block().y, m.grid().x, m.grid().y, m.phases(), m.writer_slots()};
}

// Row `row` of v's compiled set spelled as typed values is the same template with the same numbers:
// the same tile and block, the same kernels and shared memory for every input type and problem,
// and where the row runs, the typed tile runs too with the same mapping model. (A row may be tiled
// for some input types only; the typed tile takes every type its rules allow.) Counts the cases that run.
void expect_typed_row_is_the_same_tile(const VariantDescriptor& v, int row, int* runs) {
  const TileConfig& built = v.configs[row];
  SCOPED_TRACE(std::string(v.id) + " " + built.name);
  const TileValues values = v.tile_values_of(built);
  const int index = testing::added(v, tile_values_text(values));
  ASSERT_GE(index, 0);
  EXPECT_TRUE(is_typed_config(v, index));
  const TileConfig& typed = config_at(v, index);
  EXPECT_EQ(typed.name, tile_values_text(values));
  EXPECT_EQ(typed.typed, values);
  EXPECT_EQ(v.tile_values_of(typed), values);
  EXPECT_EQ(tile_of(typed), tile_of(built));
  for (Precision q : v.precisions) {
    if (v.shared_bytes) {
      EXPECT_EQ(v.shared_bytes(typed, q), v.shared_bytes(built, q)) << to_string(q);
    }
    for (Problem p : v.problems) {
      SCOPED_TRACE(std::string(to_string(q)) + " " + to_string(p));
      EXPECT_EQ(v.kernel_names(typed, q, p), v.kernel_names(built, q, p));
      if (!variant_refusal(v, row, p, q).empty()) continue;
      EXPECT_EQ(variant_refusal(v, index, p, q), "");
      if (!v.model) continue;
      const Shape shape = normalised(p, Shape{200, 136, 72});
      const auto built_model = v.model(row, p, q, shape);
      const auto typed_model = v.model(index, p, q, shape);
      ASSERT_NE(built_model, nullptr);
      ASSERT_NE(typed_model, nullptr);
      EXPECT_EQ(launch_of(*typed_model), launch_of(*built_model));
      ++*runs;
    }
  }
}

TEST(TypedTiles, EveryCompiledRowSpelledAsTypedValuesIsTheSameTile) {
  for (const VariantDescriptor* v : testing::variants_where(takes_typed_tiles)) {
    int runs = 0;
    for (std::size_t row = 0; row < v->configs.size(); ++row)
      expect_typed_row_is_the_same_tile(*v, static_cast<int>(row), &runs);
    EXPECT_GT(runs, 0) << v->id << ": no row runs any case";
  }
}

// The warp-level tensor-core kernels' register budget is a rule of one input type: a 64 x 64 warp
// tile holds 128 float accumulators per lane, which fit, and 256 registers of doubles, which do not.
TEST(TypedTiles, AWarpTileOfDoublesMustFitTheRegisters) {
  for (const VariantDescriptor* v : {&testing::typed_mma_sync_kernel(), &testing::typed_wmma_kernel()})
    testing::expect_verdicts(
        *v, "bm=128,bn=128,wm=64,wn=64",
        {{Problem::Gemm, Precision::F16, ""}, {Problem::Gemm, Precision::F64, "256 accumulator registers"}});
}

}  // namespace
}  // namespace tilescope
