// Typed tiles (kernels/core/typed_configs.h): the parsing of "key=value,..." with a reason for every
// kind of mistake, the canonical name, the defaults of the keys left out, the refusals of the
// variant that takes typed tiles (before anything compiles), and a typed configuration as a
// first-class one: an index after the compiled set that config_at, find_config and kernel_names
// all know.
#include "kernels/core/typed_configs.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/core/kernel_names.h"
#include "kernels/core/registry.h"
#include "tests/support/variant_picks.h"

namespace tilescope {
namespace {

using testing::variant_where;

const VariantDescriptor& typed_variant() {
  return testing::typed_prefetch_kernel();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string parse_error(const std::string& text) {
  TileValues values;
  std::string error;
  EXPECT_FALSE(parse_tile_values(text, &values, &error)) << "'" << text << "' was accepted";
  return error;
}

// The refusal of a typed tile, which must be refused.
std::string refusal(const std::string& text) {
  TileValues values;
  std::string error;
  EXPECT_TRUE(parse_tile_values(text, &values, &error)) << error;
  TileConfig config;
  std::string why;
  EXPECT_FALSE(typed_tile_config(typed_variant(), values, &config, &why)) << "'" << text << "' was accepted";
  return why;
}

// A typed tile that must be accepted: its configuration.
TileConfig accepted(const std::string& text) {
  TileValues values;
  std::string error;
  EXPECT_TRUE(parse_tile_values(text, &values, &error)) << error;
  TileConfig config;
  std::string why;
  EXPECT_TRUE(typed_tile_config(typed_variant(), values, &config, &why)) << text << ": " << why;
  return config;
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
  const std::string why = refusal("bm=96,wide=3");
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
  // Each tile breaks one rule and keeps every other.
  EXPECT_TRUE(contains(refusal("bm=100,bn=64,bk=8,tm=8,tn=8,pieces=1"), "tm = 8 does not divide bm = 100"));
  EXPECT_TRUE(contains(refusal("bm=64,bn=100,bk=8,tm=8,tn=8,pieces=1"), "tn = 8 does not divide bn = 100"));
  EXPECT_TRUE(contains(refusal("bm=128,bn=128,bk=8,tm=2,tn=2,pieces=1"), "4096 threads per block: the limit is 1024"));
  EXPECT_TRUE(contains(refusal("bm=16,bn=16,bk=8,tm=4,tn=4,pieces=1"), "16 threads per block: a block needs at least"));
  EXPECT_TRUE(contains(refusal("bm=64,bn=64,bk=24,tm=4,tn=4,pieces=5"), "pieces = 5 does not divide bk = 24"));
  EXPECT_TRUE(contains(refusal("bm=128,bn=128,bk=8,tm=16,tn=8,pieces=1"), "tm x tn = 128 accumulators per thread"));
  EXPECT_TRUE(contains(refusal("bm=0"), "at least 1"));
  EXPECT_TRUE(contains(refusal("bm=1024"), "at most 512"));
  EXPECT_TRUE(contains(refusal("min_blocks=33"), "min_blocks is at most 32"));
  // The edges themselves are allowed: 1024 threads, one warp, 64 accumulators.
  EXPECT_EQ(accepted("bm=128,bn=128,bk=8,tm=4,tn=4,pieces=1").threads(), 1024);
  EXPECT_EQ(accepted("bm=32,bn=32,bk=8,tm=4,tn=8,pieces=1").threads(), 32);
  EXPECT_EQ(accepted("bm=64,bn=64,bk=8,tm=8,tn=8,pieces=1").tm, 8);
}

TEST(TypedTiles, ATypedTileIsAConfigurationAfterTheCompiledSet) {
  const VariantDescriptor& v = typed_variant();
  std::string why;
  const int index = add_typed_tile(v, "bm=96,bn=80,bk=24,tm=6,tn=5,pieces=3,min_blocks=1", &why);
  ASSERT_GE(index, 0) << why;
  EXPECT_GE(index, static_cast<int>(v.configs.size()));
  EXPECT_LT(index, config_count(v));
  EXPECT_TRUE(is_typed_config(v, index));
  EXPECT_FALSE(is_typed_config(v, 0));
  EXPECT_FALSE(is_typed_config(v, config_count(v)));
  const TileConfig& config = config_at(v, index);
  EXPECT_EQ(config.name, "bm=96,bn=80,bk=24,tm=6,tn=5,pieces=3,min_blocks=1");
  EXPECT_EQ(find_config(v, config.name), index);
  EXPECT_TRUE(variant_refusal(v, index, Problem::Gemm, Precision::F32).empty())
      << variant_refusal(v, index, Problem::Gemm, Precision::F32);
  // The same tile again, spelled in another order: the same configuration, nothing added.
  const int count = config_count(v);
  EXPECT_EQ(add_typed_tile(v, "min_blocks=1,pieces=3,tn=5,tm=6,bk=24,bn=80,bm=96", &why), index) << why;
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
  const int index = add_typed_tile(v, "bm=72,bn=40,bk=12,tm=9,tn=5,pieces=2,min_blocks=3", &why);
  ASSERT_GE(index, 0) << why;
  const TileConfig& config = config_at(v, index);
  // The template arguments are the parameters in tile_params' order.
  std::string values;
  for (const auto& [key, value] : config.typed) values += (values.empty() ? "" : ", ") + std::to_string(value);
  EXPECT_EQ(values, "72, 40, 12, 9, 5, 2, 3");
  const std::vector<std::string> names = v.kernel_names(config, Precision::F32, Problem::Gemm);
  ASSERT_FALSE(names.empty());
  for (const std::string& n : names) {
    EXPECT_TRUE(contains(n, "<" + fma_element_type(Precision::F32) + ", " + values + ", ")) << n;
    EXPECT_EQ(n.rfind("tilescope::", 0), 0u) << n;
  }
}

}  // namespace
}  // namespace tilescope
