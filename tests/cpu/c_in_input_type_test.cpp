// C stored in the 16-bit input type (TileConfig::c_in_input_type): the type's bytes and values, the
// check's tolerance with C's own rounding, the baseline that writes C so and is the bar of such
// rows alone, the results file's c_type column, and the warpgroup kernel's rows and typed tiles that
// store C so, with the model's stores of 16-bit elements. The GPU suite runs them against the
// FP64 reference and holds their recorded addresses equal to the model's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/bench_args.h"
#include "app/export/results_csv.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "kernels/measure/measure.h"
#include "kernels/models/mapping_model.h"
#include "kernels/models/warp_access.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

double value_of_bits(std::uint16_t bits, OutputType t) {
  return stored_output_value(&bits, t);
}

TEST(CInInputType, OnlyTheSixteenBitTypesStoreCInTheirOwnType) {
  EXPECT_EQ(output_type(Precision::BF16, true), OutputType::BF16);
  EXPECT_EQ(output_type(Precision::F16, true), OutputType::F16);
  EXPECT_EQ(output_type(Precision::BF16, false), OutputType::F32);
  EXPECT_EQ(output_type(Precision::TF32, true), OutputType::F32);
  EXPECT_EQ(output_type(Precision::F32, true), OutputType::F32);
  EXPECT_EQ(output_type(Precision::F64, true), OutputType::F64);
  EXPECT_EQ(output_bytes(OutputType::BF16), 2u);
  EXPECT_EQ(output_bytes(OutputType::F16), 2u);
  EXPECT_EQ(output_bytes(Precision::F64), 8u);
  EXPECT_EQ(output_unit_roundoff(Precision::BF16, OutputType::BF16), std::ldexp(1.0, -8));
  EXPECT_EQ(output_unit_roundoff(Precision::F16, OutputType::F16), std::ldexp(1.0, -11));
  EXPECT_EQ(output_unit_roundoff(Precision::BF16, OutputType::F32), 0.0);
  for (OutputType t : {OutputType::F32, OutputType::F64, OutputType::F16, OutputType::BF16}) {
    OutputType back = OutputType::F32;
    ASSERT_TRUE(parse_output_type(to_string(t), &back));
    EXPECT_EQ(back, t);
  }
  OutputType untouched = OutputType::F16;
  EXPECT_FALSE(parse_output_type("half", &untouched));
  EXPECT_EQ(untouched, OutputType::F16);
}

TEST(CInInputType, StoredSixteenBitValuesReadExactly) {
  EXPECT_EQ(value_of_bits(0x3F80, OutputType::BF16), 1.0);
  EXPECT_EQ(value_of_bits(0xC0A0, OutputType::BF16), -5.0);
  EXPECT_EQ(value_of_bits(0x3C00, OutputType::F16), 1.0);
  EXPECT_EQ(value_of_bits(0xC000, OutputType::F16), -2.0);
  EXPECT_EQ(value_of_bits(0x7BFF, OutputType::F16), 65504.0);
  EXPECT_EQ(value_of_bits(0x0001, OutputType::F16), std::ldexp(1.0, -24));  // the smallest subnormal
  EXPECT_EQ(value_of_bits(0x3555, OutputType::F16), 1365.0 / 4096.0);       // 0.333 in half
  EXPECT_TRUE(std::isinf(value_of_bits(0x7C00, OutputType::F16)));
  // The poison, all bits set, is a NaN in both.
  EXPECT_TRUE(std::isnan(value_of_bits(0xFFFF, OutputType::F16)));
  EXPECT_TRUE(std::isnan(value_of_bits(0xFFFF, OutputType::BF16)));
  const float f = 3.25f;
  EXPECT_EQ(stored_output_value(&f, OutputType::F32), 3.25);
}

// C's rounding to bf16 moves an element by up to 2^-8 of itself: the tolerance takes it, and no more.
TEST(CInInputType, TheToleranceAddsCsOwnRounding) {
  const std::int64_t k = 4096, elements = 4096 * 4096;
  ErrorReport er;
  er.checked = elements;
  er.reference_norm = std::sqrt(static_cast<double>(elements) * k) / 3;  // no cancellation
  const double u = unit_roundoff_for(Precision::BF16, false), u_out = std::ldexp(1.0, -8);
  const ErrorGrowth growth = error_growth_for(Precision::BF16, false);
  const double accumulated = relative_error_tolerance(u, k, er.reference_norm, elements, growth);
  er.rel_error = 0.75 * u_out;  // what a correct kernel writing bf16 shows
  EXPECT_FALSE(judge_check(er, u, k, elements, growth).passed);
  const CheckVerdict narrow = judge_check(er, u, k, elements, growth, u_out);
  EXPECT_TRUE(narrow.passed);
  EXPECT_DOUBLE_EQ(narrow.tolerance, accumulated + u_out * (1 + accumulated));
  // A skipped k, or C = 0, lands far above it.
  er.rel_error = 8 * u_out;
  EXPECT_FALSE(judge_check(er, u, k, elements, growth, u_out).passed);
}

TEST(CInInputType, TheBaselineWritesCInTheInputTypeForSixteenBitInputsAlone) {
  const VariantDescriptor& base = tilescope::testing::baseline();
  const int c16 = tilescope::testing::narrow_output_config(base);
  EXPECT_TRUE(is_baseline(base, c16));
  EXPECT_EQ(narrow_c_baseline(base), c16);
  EXPECT_NE(c16, base.default_config);
  // A kernel of ours is no bar.
  EXPECT_EQ(narrow_c_baseline(tilescope::testing::variant_with_tile_param("c16")), -1);
  // Its split-K kernels round partial sums into C's type: the check allows two roundings.
  EXPECT_EQ(base.configs[c16].c_roundings, 2);
  for (Precision p : {Precision::F16, Precision::BF16})
    for (Problem problem : {Problem::Gemm, Problem::Ata})
      EXPECT_EQ(variant_refusal(base, c16, problem, p), "") << to_string(p);
  for (Precision p : {Precision::F32, Precision::F64, Precision::TF32}) {
    const std::string why = variant_refusal(base, c16, Problem::Gemm, p);
    EXPECT_NE(why.find("16-bit"), std::string::npos) << why;
  }
}

RunResult row(const std::string& variant, const std::string& config, OutputType c_type, double gflops) {
  RunResult r;
  r.variant_id = variant;
  r.config_name = config;
  r.problem = Problem::Gemm;
  r.precision = Precision::BF16;
  r.c_type = c_type;
  r.shape = {4096, 4096, 4096};
  r.gflops = gflops;
  return r;
}

// A row that stores C in bf16 is compared with cuBLAS storing C in bf16, never with cuBLAS storing
// float (which writes twice the bytes), and the other way round.
TEST(CInInputType, PercentOfCublasComparesRowsThatStoreCAlike) {
  const VariantDescriptor& base = tilescope::testing::baseline();
  const std::string gemm = base.configs[tilescope::testing::full_fp_config(base)].name;
  const std::string c16 = base.configs[tilescope::testing::narrow_output_config(base)].name;
  std::vector<RunResult> rows = {row(base.id, gemm, OutputType::F32, 700), row(base.id, c16, OutputType::BF16, 760),
                                 row("kernel", "a", OutputType::F32, 714), row("kernel", "b", OutputType::BF16, 798)};
  fill_pct_of_cublas(rows);
  EXPECT_NEAR(rows[2].pct_of_cublas, 102.0, 1e-9);
  EXPECT_NEAR(rows[3].pct_of_cublas, 105.0, 1e-9);
  rows.erase(rows.begin() + 1);  // no cuBLAS writing bf16: no bar for the bf16 row
  fill_pct_of_cublas(rows);
  EXPECT_EQ(rows[2].pct_of_cublas, -1);
}

TEST(CInInputType, BenchAddsTheBaselineThatStoresCAlikeOnlyWhereAChosenRowDoes) {
  const VariantDescriptor& base = tilescope::testing::baseline();
  const int c16 = tilescope::testing::narrow_output_config(base);
  auto has_narrow_baseline = [&](const BenchOptions& o) {
    for (const VariantSelection& s : o.selections)
      if (s.variant == &base && s.config_index == c16) return true;
    return false;
  };
  const VariantDescriptor& wg = tilescope::testing::variant_with_tile_param("c16");
  std::string narrow_row;
  for (const TileConfig& c : wg.configs)
    if (c.c_in_input_type) narrow_row = c.name;
  ASSERT_FALSE(narrow_row.empty());
  const std::string float_row = wg.configs[wg.default_config].name;
  ASSERT_FALSE(wg.configs[wg.default_config].c_in_input_type);
  const BenchOptions plain =
      parse_bench_args({"--precision", "bf16", "--sizes", "256", "--variants", std::string(wg.id) + ":" + float_row});
  ASSERT_EQ(plain.error, "");
  const BenchOptions narrow =
      parse_bench_args({"--precision", "bf16", "--sizes", "256", "--variants", std::string(wg.id) + ":" + narrow_row});
  ASSERT_EQ(narrow.error, "");
  EXPECT_TRUE(has_narrow_baseline(narrow));
  EXPECT_FALSE(has_narrow_baseline(plain));
}

TEST(CInInputType, TheResultsFileKeepsCsType) {
  RunResult narrow = row("kernel", "b", OutputType::BF16, 1);
  RunResult wide = row("kernel", "a", OutputType::F32, 1);
  std::vector<RunResult> back;
  std::string error;
  ASSERT_TRUE(results_from_csv(results_to_csv({narrow, wide}), &back, &error)) << error;
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].c_type, OutputType::BF16);
  EXPECT_EQ(back[1].c_type, OutputType::F32);
  // A file written before the column: C was in the accumulator's type (double for f64).
  RunResult f64 = wide;
  f64.precision = Precision::F64;
  f64.c_type = OutputType::F64;
  std::string text = results_to_csv({f64});
  const std::vector<std::string>& columns = results_csv_columns();
  const auto c_type = std::find(columns.begin(), columns.end(), "c_type");
  ASSERT_NE(c_type, columns.end());
  // Drop c_type's field of each line and those of the columns added after it.
  const std::size_t keep = static_cast<std::size_t>(c_type - columns.begin());
  std::string old;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    std::size_t cut = 0;
    for (std::size_t i = 0; i < keep; ++i) cut = line.find(',', cut) + 1;
    old += line.substr(0, cut - 1) + "\n";
    start = end + 1;
  }
  ASSERT_TRUE(results_from_csv(old, &back, &error)) << error;
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].c_type, OutputType::F64);
}

// ---- the warpgroup kernel's rows ----------------------------------------------------------------

const VariantDescriptor& narrow_variant() {
  return tilescope::testing::variant_with_tile_param("c16");
}
int value_of(const VariantDescriptor& v, const TileConfig& c, const char* key) {
  return tile_value(v.tile_values_of(c), key, -1);
}
std::vector<int> narrow_configs(const VariantDescriptor& v) {
  std::vector<int> out;
  for (int c = 0; c < static_cast<int>(v.configs.size()); ++c)
    if (value_of(v, v.configs[c], "c16") == 1) out.push_back(c);
  return out;
}
TileValues with(TileValues values, const char* key, int value) {
  for (auto& kv : values)
    if (kv.first == key) kv.second = value;
  return values;
}

TEST(CInInputType, TheWarpgroupKernelHasRowsThatStoreCInTheInputType) {
  const VariantDescriptor& v = narrow_variant();
  const std::vector<int> configs = narrow_configs(v);
  ASSERT_FALSE(configs.empty());
  for (int c : configs) {
    const TileConfig& cfg = v.configs[c];
    SCOPED_TRACE(cfg.name);
    EXPECT_TRUE(cfg.c_in_input_type);
    EXPECT_EQ(cfg.c_roundings, 1);  // once, from the accumulators
    EXPECT_NE(cfg.name.find("_c16"), std::string::npos);
    const std::string tf32 = v.refuses(Problem::Gemm, Precision::TF32, cfg);
    EXPECT_FALSE(tf32.empty());
    if (value_of(v, cfg, "tma_store") == 1) {
      const std::string ata = v.refuses(Problem::Ata, Precision::BF16, cfg);
      EXPECT_FALSE(ata.empty());
    }
  }
  // Every other row stores C in float.
  for (int c = 0; c < static_cast<int>(v.configs.size()); ++c) {
    if (value_of(v, v.configs[c], "c16") == 0) {
      EXPECT_FALSE(v.configs[c].c_in_input_type) << v.configs[c].name;
    }
  }
}

TEST(CInInputType, TypedTilesTakeItAndRefuseWhatTheKernelCannotBuild) {
  const VariantDescriptor& v = narrow_variant();
  const TileValues base = v.tile_values_of(v.configs[narrow_configs(v).front()]);
  TileConfig cfg;
  std::string why;
  ASSERT_TRUE(typed_tile_config(v, base, &cfg, &why)) << why;
  EXPECT_TRUE(cfg.c_in_input_type);
  EXPECT_FALSE(typed_tile_config(v, with(base, "c16", 2), &cfg, &why));
  EXPECT_NE(why.find("c16"), std::string::npos) << why;
  // Boxes of 64 columns take the two buffers in turn: an odd number per slice cannot.
  TileValues odd = with(with(with(base, "bn", 192), "wgmma_n", 192), "tma_store", 1);
  EXPECT_FALSE(typed_tile_config(v, odd, &cfg, &why));
  EXPECT_NE(why.find("128"), std::string::npos) << why;
  ASSERT_TRUE(typed_tile_config(v, with(odd, "tma_store", 0), &cfg, &why)) << why;
  // From the registers, AᵀA takes it on a square tile.
  TileValues square = with(with(with(with(base, "bm", 128), "bn", 128), "wgmma_n", 128), "tma_store", 0);
  square = with(square, "cluster_m", 1);
  ASSERT_TRUE(typed_tile_config(v, square, &cfg, &why)) << why;
  EXPECT_EQ(v.refuses(Problem::Ata, Precision::F16, cfg), "");
}

// The index of a typed tile of these values (added for the rest of the run), or -1.
int add_tile(const VariantDescriptor& v, const TileValues& values) {
  TileConfig cfg;
  std::string why;
  if (!typed_tile_config(v, values, &cfg, &why)) {
    ADD_FAILURE() << why;
    return -1;
  }
  return add_typed_config(v, cfg);
}

std::unique_ptr<MappingModel> model_of(const VariantDescriptor& v, int config, const Shape& s) {
  return make_mapping_model(v.id, config, Problem::Gemm, Precision::BF16, s, nullptr);
}

// Through the boxes: 16-bit pairs, one 16-byte chunk per row of eight, no bank conflict (float's
// 8-byte pairs: 2-way); the TMA's rows then leave whole.
TEST(CInInputType, TheModelStoresSixteenBitElementsIntoConflictFreeBoxes) {
  const VariantDescriptor& v = narrow_variant();
  int narrow = -1;
  for (int c : narrow_configs(v))
    if (value_of(v, v.configs[c], "tma_store") == 1 && value_of(v, v.configs[c], "cluster_m") == 1) narrow = c;
  ASSERT_GE(narrow, 0);
  // The same tile storing float: a row of the compiled set, or typed.
  const int wide = add_tile(v, with(v.tile_values_of(v.configs[narrow]), "c16", 0));
  ASSERT_GE(wide, 0);
  const Shape s{512, 512, 128};
  auto m16 = model_of(v, narrow, s), m32 = model_of(v, wide, s);
  if (!m16 || !m32) GTEST_SKIP() << v.id << " is refused in this build";
  const AccessTotals t16 = access_totals(*m16, std::int64_t{1} << 20), t32 = access_totals(*m32, std::int64_t{1} << 20);
  ASSERT_GT(t16.shared_store.requests, 0);
  EXPECT_EQ(t16.shared_store.conflicts(), 0);
  EXPECT_GT(t32.shared_store.conflicts(), 0);
  // Half the bytes: the same number of stores of half the width, so the same requests.
  EXPECT_EQ(t16.shared_store.requests, t32.shared_store.requests);
  for (const AccessSite& site : m16->access_sites()) EXPECT_EQ(site.bytes, 4) << site.name;
}

// From the registers, a row of four lanes fills 16 bytes, half a sector: twice the sectors per byte
// of float's 8-byte pairs, each element's address two bytes apart.
TEST(CInInputType, TheModelStoresSixteenBitPairsFromTheRegisters) {
  const VariantDescriptor& v = narrow_variant();
  TileValues values = v.tile_values_of(v.configs[narrow_configs(v).front()]);
  values = with(with(values, "tma_store", 0), "cluster_m", 1);
  const int narrow = add_tile(v, values);
  const int wide = add_tile(v, with(values, "c16", 0));
  ASSERT_GE(narrow, 0);
  ASSERT_GE(wide, 0);
  const Shape s{512, 512, 128};
  auto m16 = model_of(v, narrow, s), m32 = model_of(v, wide, s);
  if (!m16 || !m32) GTEST_SKIP() << v.id << " is refused in this build";
  ASSERT_EQ(m16->access_sites().size(), 1u);
  EXPECT_EQ(m16->access_sites()[0].bytes, 4);
  EXPECT_EQ(m32->access_sites()[0].bytes, 8);
  WarpAccess a16, a32;
  m16->warp_access(0, 0, 0, 4, 0, &a16);
  m32->warp_access(0, 0, 0, 4, 0, &a32);
  for (int lane = 0; lane < kWarpLanes; ++lane) EXPECT_EQ(2 * a16.address[lane], a32.address[lane]) << lane;
  const AccessTotals t16 = access_totals(*m16, std::int64_t{1} << 20), t32 = access_totals(*m32, std::int64_t{1} << 20);
  EXPECT_EQ(t16.global_store.requests, t32.global_store.requests);
  EXPECT_EQ(t16.global_store.sectors, t32.global_store.sectors);  // half the bytes in as many sectors
}

}  // namespace
