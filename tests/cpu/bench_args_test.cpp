// `tilescope bench` option parsing: defaults, variant selection against the real registry,
// shapes per problem, numbers, and a clear message for every kind of mistake.
#include "app/cli/bench_args.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "app/cli/bench_command.h"
#include "kernels/core/registry.h"
#include "kernels/multi/split_registry.h"
#include "tests/support/help_text.h"
#include "tests/support/variant_picks.h"

namespace tilescope {
namespace {

BenchOptions parse(std::vector<std::string> args) {
  return parse_bench_args(args);
}

BenchOptions parse_ok(std::vector<std::string> args) {
  BenchOptions opt = parse(args);
  EXPECT_TRUE(opt.ok()) << opt.error;
  return opt;
}

std::string parse_error(std::vector<std::string> args) {
  const BenchOptions opt = parse(args);
  EXPECT_FALSE(opt.ok()) << "arguments were accepted";
  return opt.error;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string selection_name(const VariantSelection& s) {
  return std::string(s.variant->id) + ":" + s.variant->configs[s.config_index].name;
}

std::vector<std::string> user_selections(const BenchOptions& opt) {
  std::vector<std::string> names;
  for (const VariantSelection& s : opt.selections)
    if (!s.baseline) names.push_back(selection_name(s));
  return names;
}

// Shapes as (M, N, K) tuples: comparable and printable by GoogleTest.
using Dims = std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t>>;
Dims dims(const std::vector<Shape>& shapes) {
  Dims out;
  for (const Shape& s : shapes) out.emplace_back(s.M, s.N, s.K);
  return out;
}

// Variants picked by what they are (tests/support/variant_picks.h), never by id.
const VariantDescriptor& tiled() {
  return testing::tiled_kernel();
}
const VariantDescriptor& first_kernel() {
  return testing::one_phase_kernel();
}
std::string id_of(const VariantDescriptor& v) {
  return v.id;
}

TEST(BenchArgs, Defaults) {
  const BenchOptions opt = parse_ok({});
  EXPECT_FALSE(opt.help);
  EXPECT_FALSE(opt.list);
  ASSERT_EQ(opt.problems.size(), 1u);
  EXPECT_EQ(opt.problems[0], Problem::Gemm);
  ASSERT_EQ(opt.precisions.size(), 1u);
  EXPECT_EQ(opt.precisions[0], Precision::F32);
  EXPECT_EQ(dims(opt.gemm_shapes), (Dims{{1024, 1024, 1024}, {2048, 2048, 2048}}));
  EXPECT_TRUE(opt.ata_shapes.empty());
  EXPECT_EQ(opt.repetitions, 10);
  EXPECT_EQ(opt.warmup, 2);
  EXPECT_TRUE(opt.verify);
  EXPECT_TRUE(opt.baseline);
  EXPECT_FALSE(opt.profile) << "the profiler runs only when asked for";
  EXPECT_EQ(opt.seed, 1u);
  EXPECT_TRUE(opt.csv_path.empty());
  EXPECT_TRUE(opt.json_path.empty());

  // Every configuration that runs by default (no opt-in one, no Extra variant), once.
  std::set<std::string> expected;
  for (const VariantDescriptor* v : variant_registry())
    for (std::size_t i = 0; i < v->configs.size(); ++i)
      if (runs_by_default(*v, static_cast<int>(i))) expected.insert(std::string(v->id) + ":" + v->configs[i].name);
  std::multiset<std::string> got;
  for (const VariantSelection& s : opt.selections) got.insert(selection_name(s));
  EXPECT_EQ(got, std::multiset<std::string>(expected.begin(), expected.end()));
  EXPECT_GE(expected.size(), 4u);
}

TEST(BenchArgs, VariantIdMeansItsNonOptInConfigsPlusTheCublasBaseline) {
  const VariantDescriptor& smem = tiled();
  const BenchOptions opt = parse_ok({"--variants", smem.id});
  std::vector<std::string> expected;
  for (const TileConfig& c : smem.configs)
    if (!c.opt_in) expected.push_back(id_of(smem) + ":" + c.name);
  EXPECT_EQ(user_selections(opt), expected);

  // The baseline: every non-opt-in cuBLAS configuration, flagged, and ahead of the user's.
  std::size_t baseline = 0;
  for (std::size_t i = 0; i < opt.selections.size(); ++i) {
    const VariantSelection& s = opt.selections[i];
    if (!s.baseline) continue;
    EXPECT_EQ(s.variant->role, Role::Baseline);
    EXPECT_FALSE(s.variant->configs[s.config_index].opt_in);
    EXPECT_EQ(i, baseline) << "baseline rows come first";
    ++baseline;
  }
  EXPECT_GE(baseline, 1u);
}

TEST(BenchArgs, NoBaseline) {
  const VariantDescriptor& first = first_kernel();
  const BenchOptions opt = parse_ok({"--variants", first.id, "--no-baseline"});
  EXPECT_FALSE(opt.baseline);
  for (const VariantSelection& s : opt.selections) {
    EXPECT_FALSE(s.baseline);
    EXPECT_EQ(s.variant, &first);
  }
  EXPECT_FALSE(opt.selections.empty());
}

TEST(BenchArgs, CublasNamedByTheUserIsNotDuplicatedAsBaseline) {
  const BenchOptions opt = parse_ok({"--variants", testing::baseline().id});
  std::set<std::string> seen;
  for (const VariantSelection& s : opt.selections) {
    EXPECT_TRUE(seen.insert(selection_name(s)).second) << "duplicate " << selection_name(s);
    EXPECT_FALSE(s.baseline) << selection_name(s) << " was named by the user";
  }
}

TEST(BenchArgs, OneNamedConfig) {
  const VariantDescriptor& smem = tiled();
  ASSERT_GE(smem.configs.size(), 2u);
  const std::string name = smem.configs[1].name;
  const BenchOptions opt = parse_ok({"--variants", id_of(smem) + ":" + name, "--no-baseline"});
  ASSERT_EQ(opt.selections.size(), 1u);
  EXPECT_EQ(opt.selections[0].variant, &smem);
  EXPECT_EQ(opt.selections[0].config_index, 1);
}

TEST(BenchArgs, OptInConfigsRunOnlyWhenNamed) {
  std::vector<std::string> opt_in;
  for (const VariantDescriptor* v : variant_registry())
    for (const TileConfig& c : v->configs)
      if (c.opt_in) opt_in.push_back(std::string(v->id) + ":" + c.name);
  ASSERT_FALSE(opt_in.empty()) << "TF32 must be a labelled opt-in extra";

  const std::vector<std::string> all = user_selections(parse_ok({"--variants", "all"}));
  for (const std::string& name : opt_in) {
    EXPECT_EQ(std::count(all.begin(), all.end(), name), 0) << name << " ran without being named";
    const std::vector<std::string> named = user_selections(parse_ok({"--variants", name}));
    EXPECT_EQ(named, std::vector<std::string>{name});
  }
}

TEST(BenchArgs, VariantListKeepsOrderWithoutDuplicates) {
  const std::string a = first_kernel().id, b = tiled().id;
  const BenchOptions opt = parse_ok({"--variants", a + "," + b + "," + a, "--no-baseline"});
  std::vector<std::string> expected;
  for (const VariantDescriptor* v : {&first_kernel(), &tiled()})
    for (const TileConfig& c : v->configs)
      if (!c.opt_in) expected.push_back(id_of(*v) + ":" + c.name);
  EXPECT_EQ(user_selections(opt), expected);
}

TEST(BenchArgs, UnknownVariantListsTheValidOnes) {
  const std::string e = parse_error({"--variants", id_of(first_kernel()) + ",turbo"});
  EXPECT_TRUE(contains(e, "'turbo'")) << e;
  for (const VariantDescriptor* v : variant_registry()) EXPECT_TRUE(contains(e, v->id)) << e;
}

TEST(BenchArgs, UnknownConfigListsTheVariantsConfigs) {
  const std::string e = parse_error({"--variants", id_of(tiled()) + ":7"});
  EXPECT_TRUE(contains(e, "'7'")) << e;
  for (const TileConfig& c : tiled().configs) EXPECT_TRUE(contains(e, c.name)) << e;
  EXPECT_TRUE(contains(parse_error({"--variants", ""}), "empty"));
  EXPECT_TRUE(contains(parse_error({"--variants", id_of(first_kernel()) + ",," + testing::baseline().id}), "empty"));
}

TEST(BenchArgs, ProblemsAndPrecisions) {
  const BenchOptions opt = parse_ok({"--problem", "ata,gemm,ata", "--precision", "f64,f32"});
  EXPECT_EQ(opt.problems, (std::vector<Problem>{Problem::Ata, Problem::Gemm}));
  EXPECT_EQ(opt.precisions, (std::vector<Precision>{Precision::F64, Precision::F32}));
  EXPECT_TRUE(contains(parse_error({"--problem", "gemv"}), "gemm or ata"));
  EXPECT_TRUE(contains(parse_error({"--precision", "fp8"}), "f32, f64, tf32, f16, bf16"));
  const BenchOptions all = parse_ok({"--precision", "f32,f64,tf32,f16,bf16"});
  EXPECT_EQ(all.precisions, all_precisions());
  EXPECT_TRUE(contains(parse_error({"--precision", "f32,"}), "''"));
}

TEST(BenchArgs, SquareSizes) {
  const BenchOptions opt = parse_ok({"--sizes", "7,64:256:x2", "--problem", "gemm,ata"});
  EXPECT_EQ(dims(opt.gemm_shapes), (Dims{{7, 7, 7}, {64, 64, 64}, {128, 128, 128}, {256, 256, 256}}));
  EXPECT_EQ(dims(opt.ata_shapes), dims(opt.gemm_shapes));
  EXPECT_TRUE(contains(parse_error({"--sizes", "0"}), "--sizes"));
}

TEST(BenchArgs, RemembersWhetherSizesWereGiven) {
  EXPECT_FALSE(parse_ok({}).sizes_given);
  EXPECT_FALSE(parse_ok({"--reps", "3"}).sizes_given);
  for (const char* option : {"--sizes", "--m", "--n", "--k"})
    EXPECT_TRUE(parse_ok({option, "64"}).sizes_given) << option;
}

TEST(BenchArgs, GemmCartesianProduct) {
  const BenchOptions opt = parse_ok({"--m", "1,2", "--n", "3", "--k", "4,5"});
  EXPECT_EQ(dims(opt.gemm_shapes), (Dims{{1, 3, 4}, {1, 3, 5}, {2, 3, 4}, {2, 3, 5}}));
}

TEST(BenchArgs, MissingDimensionsTakeTheSizes) {
  const BenchOptions opt = parse_ok({"--sizes", "8,16", "--m", "100"});
  EXPECT_EQ(dims(opt.gemm_shapes), (Dims{{100, 8, 8}, {100, 8, 16}, {100, 16, 8}, {100, 16, 16}}));
  // The default sizes too.
  const BenchOptions d = parse_ok({"--k", "33"});
  EXPECT_EQ(d.gemm_shapes.size(), 4u);
  for (const Shape& s : d.gemm_shapes) EXPECT_EQ(s.K, 33);
}

TEST(BenchArgs, AtaUsesNAndKWithMForcedToN) {
  const BenchOptions opt = parse_ok({"--problem", "ata", "--n", "10,20", "--k", "3"});
  EXPECT_EQ(dims(opt.ata_shapes), (Dims{{10, 10, 3}, {20, 20, 3}}));
  EXPECT_TRUE(opt.gemm_shapes.empty());
  const BenchOptions only_k = parse_ok({"--problem", "ata", "--sizes", "64", "--k", "1,2"});
  EXPECT_EQ(dims(only_k.ata_shapes), (Dims{{64, 64, 1}, {64, 64, 2}}));
}

TEST(BenchArgs, MIsRejectedForAtaOnly) {
  const std::string e = parse_error({"--problem", "ata", "--m", "100"});
  EXPECT_TRUE(contains(e, "--m")) << e;
  EXPECT_TRUE(contains(e, "--n")) << e;
  // With gemm also requested, --m applies to gemm only.
  const BenchOptions both = parse_ok({"--problem", "gemm,ata", "--m", "100", "--sizes", "8"});
  EXPECT_EQ(dims(both.gemm_shapes), (Dims{{100, 8, 8}}));
  EXPECT_EQ(dims(both.ata_shapes), (Dims{{8, 8, 8}}));
}

TEST(BenchArgs, TooManyShapes) {
  const std::string e = parse_error({"--m", "1:10000:+1", "--n", "1,2", "--k", "1"});
  EXPECT_TRUE(contains(e, "20000")) << e;
}

TEST(BenchArgs, Numbers) {
  BenchOptions opt = parse_ok({"--reps", "5", "--warmup=0", "--seed", "18446744073709551615"});
  EXPECT_EQ(opt.repetitions, 5);
  EXPECT_EQ(opt.warmup, 0);
  EXPECT_EQ(opt.seed, 18446744073709551615ull);
  EXPECT_EQ(parse_ok({"--reps=3"}).repetitions, 3);

  EXPECT_TRUE(contains(parse_error({"--reps", "0"}), "--reps"));
  EXPECT_TRUE(contains(parse_error({"--reps", "-1"}), "'-1'"));
  EXPECT_TRUE(contains(parse_error({"--reps", "ten"}), "'ten'"));
  EXPECT_TRUE(contains(parse_error({"--reps", "100001"}), "100000"));
  EXPECT_TRUE(contains(parse_error({"--warmup", "2.5"}), "--warmup"));
  EXPECT_TRUE(contains(parse_error({"--seed", "18446744073709551616"}), "--seed"));
}

TEST(BenchArgs, Rounds) {
  EXPECT_EQ(parse_ok({}).rounds, 1);
  EXPECT_EQ(parse_ok({"--rounds", "3"}).rounds, 3);
  EXPECT_TRUE(contains(parse_error({"--rounds", "0"}), "--rounds"));
  EXPECT_TRUE(contains(parse_error({"--rounds", "101"}), "100"));
  EXPECT_TRUE(contains(parse_error({"--rounds", "two"}), "'two'"));
}

TEST(BenchArgs, Flags) {
  const BenchOptions opt = parse_ok({"--no-verify", "--no-baseline"});
  EXPECT_FALSE(opt.verify);
  EXPECT_FALSE(opt.baseline);
  EXPECT_TRUE(contains(parse_error({"--no-verify=yes"}), "takes no value"));
}

TEST(BenchArgs, OutputFiles) {
  const BenchOptions opt = parse_ok({"--csv", "out/a,b.csv", "--json=r.json"});
  EXPECT_EQ(opt.csv_path, "out/a,b.csv");
  EXPECT_EQ(opt.json_path, "r.json");
  EXPECT_TRUE(contains(parse_error({"--csv"}), "needs a value"));
  // A forgotten value is noticed rather than writing a file named "--json".
  EXPECT_TRUE(contains(parse_error({"--csv", "--json", "x.json"}), "--csv needs a value"));
  EXPECT_TRUE(contains(parse_error({"--json="}), "--json"));
}

TEST(BenchArgs, UnknownOptionsAndStrayWords) {
  EXPECT_TRUE(contains(parse_error({"--size", "64"}), "unknown option '--size'"));
  EXPECT_TRUE(contains(parse_error({"-x"}), "unknown option '-x'"));
  EXPECT_TRUE(contains(parse_error({"64"}), "unexpected argument '64'"));
}

TEST(BenchArgs, HelpWinsEvenOverMistakes) {
  EXPECT_TRUE(parse({"--help"}).help);
  const BenchOptions opt = parse({"--sizes", "oops", "-h"});
  EXPECT_TRUE(opt.help);
  EXPECT_TRUE(opt.ok());
}

TEST(BenchArgs, ListStillValidatesTheRest) {
  EXPECT_TRUE(parse_ok({"--list"}).list);
  EXPECT_FALSE(parse({"--list", "--reps", "0"}).ok());
}

TEST(BenchArgs, ArgvOverloadSkipsTheCommandWord) {
  const char* argv[] = {"bench", "--reps", "7", "--precision", "f64"};
  const BenchOptions opt = parse_bench_args(5, argv);
  ASSERT_TRUE(opt.ok()) << opt.error;
  EXPECT_EQ(opt.repetitions, 7);
  EXPECT_EQ(opt.precisions, std::vector<Precision>{Precision::F64});
}

TEST(BenchArgs, NamedConfigsAreMarked) {
  const VariantDescriptor& smem = tiled();
  ASSERT_GE(smem.configs.size(), 2u);
  const std::string named = id_of(smem) + ":" + smem.configs[1].name;
  const BenchOptions opt = parse_ok({"--variants", id_of(smem) + "," + named, "--no-baseline"});
  ASSERT_EQ(opt.selections.size(), smem.configs.size());
  for (const VariantSelection& s : opt.selections) EXPECT_EQ(s.named, s.config_index == 1) << selection_name(s);
}

// ---- from options to runs (plan_bench): no GPU needed ---------------------------------------

std::vector<std::string> run_names(const BenchPlan& plan) {
  std::vector<std::string> names;
  for (const PlannedRun& r : plan.runs)
    names.push_back(std::string(r.selection->variant->id) + ":" +
                    r.selection->variant->configs[r.request.config_index].name + " " + to_string(r.request.problem) +
                    " " + to_string(r.request.precision) + " " + std::to_string(r.request.shape.M) + "x" +
                    std::to_string(r.request.shape.N) + "x" + std::to_string(r.request.shape.K));
  return names;
}

TEST(BenchPlan, OrderIsProblemPrecisionShapeThenSelections) {
  const VariantDescriptor& naive = first_kernel();
  const std::string cfg = naive.configs.at(0).name;
  const BenchOptions opt =
      parse_ok({"--variants", id_of(naive) + ":" + cfg, "--no-baseline", "--problem", "gemm,ata", "--precision",
                "f32,f64", "--sizes", "7,33", "--reps", "3", "--warmup", "1", "--seed", "42", "--no-verify"});
  const BenchPlan plan = plan_bench(opt, DeviceLimits{});
  const std::string n = id_of(naive) + ":" + cfg + " ";
  EXPECT_EQ(run_names(plan),
            (std::vector<std::string>{n + "gemm f32 7x7x7", n + "gemm f32 33x33x33", n + "gemm f64 7x7x7",
                                      n + "gemm f64 33x33x33", n + "ata f32 7x7x7", n + "ata f32 33x33x33",
                                      n + "ata f64 7x7x7", n + "ata f64 33x33x33"}));
  for (const PlannedRun& r : plan.runs) {
    EXPECT_EQ(r.request.variant_id, naive.id);
    EXPECT_EQ(r.request.repetitions, 3);
    EXPECT_EQ(r.request.warmup, 1);
    EXPECT_EQ(r.request.seed, 42u);
    EXPECT_FALSE(r.request.verify);
  }
  EXPECT_TRUE(plan.refused.empty());
  EXPECT_TRUE(plan.has_user_runs());
}

// --rounds: the whole sweep again, each shape's configurations side by side, in the order given in
// odd rounds and reversed in even ones; refusals are said once, not once per round.
TEST(BenchPlan, RoundsRepeatTheSweepReversingTheOrderEveryOtherRound) {
  const VariantDescriptor& naive = first_kernel();
  const VariantDescriptor& tiles = tiled();
  const std::string a = id_of(naive) + ":" + naive.configs.at(0).name,
                    b = id_of(tiles) + ":" + tiles.configs.at(0).name;
  const BenchOptions opt =
      parse_ok({"--variants", a + "," + b, "--no-baseline", "--sizes", "7,33", "--precision", "f32", "--rounds", "3"});
  const BenchPlan plan = plan_bench(opt, DeviceLimits{});
  const std::string g7 = " gemm f32 7x7x7", g33 = " gemm f32 33x33x33";
  EXPECT_EQ(run_names(plan), (std::vector<std::string>{a + g7, b + g7, a + g33, b + g33,     // round 1
                                                       b + g7, a + g7, b + g33, a + g33,     // round 2
                                                       a + g7, b + g7, a + g33, b + g33}));  // round 3
  std::vector<int> rounds;
  for (const PlannedRun& r : plan.runs) rounds.push_back(r.round);
  EXPECT_EQ(rounds, (std::vector<int>{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}));
  // A configuration the device refuses is refused once, whatever the rounds.
  DeviceLimits tiny;
  tiny.max_threads_per_block = 1;
  const BenchPlan refused = plan_bench(opt, tiny);
  EXPECT_EQ(refused.refused.size(), 2u);
  EXPECT_TRUE(refused.runs.empty());
}

// % of cuBLAS compares a run with the baseline of its own round: a round whose clock sagged does
// not lend its slow baseline to the next.
TEST(PctOfCublas, ComparesRunsOfOneRound) {
  auto row = [](const std::string& id, int round, double gflops) {
    RunResult r;
    r.variant_id = id;
    r.config_name = id == testing::baseline().id ? testing::baseline().configs.at(0).name : "x";
    r.round = round;
    r.gflops = gflops;
    return r;
  };
  const std::string cublas = testing::baseline().id;
  std::vector<RunResult> rows = {row(cublas, 1, 100), row("k", 1, 90), row(cublas, 2, 50), row("k", 2, 45)};
  fill_pct_of_cublas(rows);
  EXPECT_DOUBLE_EQ(rows[1].pct_of_cublas, 90);
  EXPECT_DOUBLE_EQ(rows[3].pct_of_cublas, 90);
}

TEST(BenchPlan, InapplicableConfigsOfAWholeVariantAreSkippedQuietly) {
  // `all` on gemm: cuBLAS's AtA-only configurations simply do not apply; no "refused" noise.
  // Limits of an H100, so that no configuration is refused for the device.
  DeviceLimits h100;
  h100.shared_per_block_optin = 227 * 1024;
  const BenchOptions opt = parse_ok({"--precision", "f32,f64", "--sizes", "64"});
  const BenchPlan plan = plan_bench(opt, h100);
  EXPECT_TRUE(plan.refused.empty()) << plan.refused.front();
  for (const PlannedRun& r : plan.runs)
    EXPECT_EQ(
        unsupported_reason(*r.selection->variant, r.request.config_index, r.request.problem, r.request.precision, h100),
        "");
  EXPECT_FALSE(plan.runs.empty());
}

TEST(BenchPlan, NamedConfigThatDoesNotApplyIsReportedOnce) {
  // Find a configuration that some problem/precision refuses by the variant's own rule.
  for (const VariantDescriptor* v : variant_registry()) {
    for (std::size_t i = 0; i < v->configs.size(); ++i) {
      for (const char* problem : {"gemm", "ata"}) {
        for (const char* precision : {"f32", "f64"}) {
          Problem p{};
          Precision q{};
          parse_problem(problem, &p);
          parse_precision(precision, &q);
          if (!v->refuses || v->refuses(p, q, v->configs[i]).empty()) continue;
          const std::string name = std::string(v->id) + ":" + v->configs[i].name;
          // The options outlive the plan: its runs point into opt.selections.
          const BenchOptions opt =
              parse_ok({"--variants", name, "--problem", problem, "--precision", precision, "--sizes", "8,16"});
          const BenchPlan plan = plan_bench(opt, DeviceLimits{});
          ASSERT_EQ(plan.refused.size(), 1u) << name;
          EXPECT_EQ(plan.refused[0].rfind(name + " " + problem + " " + precision + ": ", 0), 0u) << plan.refused[0];
          // Only the baseline is left: nothing the user asked for runs.
          EXPECT_FALSE(plan.has_user_runs()) << name;
          return;
        }
      }
    }
  }
  GTEST_SKIP() << "no configuration in the registry is refused by its variant's own rule";
}

TEST(BenchPlan, AKernelAskedForInAnInputTypeItLacksIsRefusedOnceWithTheReason) {
  const VariantDescriptor& kernel = first_kernel();
  ASSERT_FALSE(supports(kernel, Precision::BF16)) << "the first kernel computes in float or double";
  const BenchOptions opt = parse_ok({"--variants", id_of(kernel), "--precision", "f32,bf16", "--sizes", "8,16"});
  const BenchPlan plan = plan_bench(opt, DeviceLimits{});
  ASSERT_EQ(plan.refused.size(), 1u) << "one line for the variant, not one per configuration";
  EXPECT_EQ(plan.refused[0].rfind(id_of(kernel) + ":* gemm bf16: ", 0), 0u) << plan.refused[0];
  EXPECT_TRUE(contains(plan.refused[0], "f32, f64 only")) << plan.refused[0];
  EXPECT_TRUE(contains(plan.refused[0], "tensor-core kernels")) << plan.refused[0];
  // Its f32 runs still happen, and the baseline runs bf16 (it computes every input type).
  bool kernel_f32 = false, baseline_bf16 = false;
  for (const PlannedRun& r : plan.runs) {
    kernel_f32 = kernel_f32 || (r.selection->variant == &kernel && r.request.precision == Precision::F32);
    baseline_bf16 = baseline_bf16 || (r.selection->baseline && r.request.precision == Precision::BF16);
    EXPECT_FALSE(r.selection->variant == &kernel && r.request.precision == Precision::BF16);
  }
  EXPECT_TRUE(kernel_f32);
  EXPECT_TRUE(baseline_bf16);
  // Asked for in bf16 alone, nothing of the user's runs.
  const BenchOptions alone = parse_ok({"--variants", id_of(kernel), "--precision", "bf16", "--sizes", "8"});
  EXPECT_FALSE(plan_bench(alone, DeviceLimits{}).has_user_runs());
}

TEST(BenchPlan, DeviceLimitsRefuseWithTheReason) {
  // Only the thread limit is small; shared memory as on an H100, so it refuses nothing.
  DeviceLimits small;
  small.max_threads_per_block = 256;
  small.shared_per_block_optin = 227 * 1024;
  // The CUDA kernels of float only: their configurations apply to gemm f32, so only the limit refuses.
  std::string kernels;
  for (const VariantDescriptor* v : testing::variants_where(
           [](const VariantDescriptor& d) { return testing::is_product_kernel(d) && supports(d, Precision::F32); }))
    kernels += (kernels.empty() ? "" : ",") + id_of(*v);
  const BenchOptions opt = parse_ok({"--variants", kernels, "--sizes", "64", "--no-baseline"});
  const BenchPlan plan = plan_bench(opt, small);
  std::size_t too_big = 0;
  for (const VariantSelection& s : opt.selections)
    if (s.variant->configs[s.config_index].threads() > 256) ++too_big;
  ASSERT_GT(too_big, 0u) << "the registry has no configuration above 256 threads to test with";
  EXPECT_EQ(plan.refused.size(), too_big);
  for (const std::string& line : plan.refused) EXPECT_TRUE(contains(line, "256")) << line;
  EXPECT_EQ(plan.runs.size(), opt.selections.size() - too_big);
  for (const PlannedRun& r : plan.runs) EXPECT_LE(r.selection->variant->configs[r.request.config_index].threads(), 256);
}

// ---- the sweep loop and Ctrl-C (run_sweep, SigintScope): a fake runner, no GPU ---------------

RunResult fake_row(std::size_t i, const std::string& error = "") {
  RunResult r;
  r.variant_id = "job" + std::to_string(i);
  r.median_ms = 1.5;
  r.error = error;
  return r;
}

std::vector<std::string> row_ids(const std::vector<RunResult>& rows) {
  std::vector<std::string> ids;
  for (const RunResult& r : rows) ids.push_back(r.variant_id);
  return ids;
}

std::string describe_job(std::size_t i) {
  return "job" + std::to_string(i);
}

// run_sweep over fake jobs: the stop flag a signal would set, the progress it writes, and the
// jobs it called, in order.
struct FakeSweep {
  std::atomic<bool> stop{false};
  std::ostringstream err;
  std::vector<std::size_t> called;
  // `row(i)`: job i's row (it may set `stop`, as a signal arriving during the job).
  template <typename Row>
  SweepOutcome run(std::size_t jobs, Row row) {
    return run_sweep(
        jobs, describe_job,
        [&](std::size_t i) {
          called.push_back(i);
          return row(i);
        },
        stop, err);
  }
};

TEST(RunSweep, RunsEverythingInOrderAndShowsProgress) {
  FakeSweep sweep;
  const SweepOutcome o =
      sweep.run(3, [](std::size_t i) { return fake_row(i, i == 1 ? "does not fit in device memory" : ""); });
  EXPECT_FALSE(o.interrupted);
  EXPECT_EQ(sweep.called, (std::vector<std::size_t>{0, 1, 2}));
  // An error row without an interrupt is a result like any other.
  EXPECT_EQ(row_ids(o.rows), (std::vector<std::string>{"job0", "job1", "job2"}));
  const std::string err = sweep.err.str();
  EXPECT_TRUE(contains(err, "[1/3] job0 ... 1.500 ms\n")) << err;
  EXPECT_TRUE(contains(err, "[2/3] job1 ... error: does not fit in device memory\n")) << err;
  EXPECT_TRUE(contains(err, "[3/3] job2 ... ")) << err;
}

TEST(RunSweep, InterruptBetweenRunsStartsNothingMore) {
  FakeSweep sweep;
  // The signal arrives once run 1 has finished: run 1 counts, runs 2 and 3 never start.
  const SweepOutcome o = sweep.run(4, [&](std::size_t i) {
    if (i == 1) sweep.stop = true;
    return fake_row(i);
  });
  EXPECT_TRUE(o.interrupted);
  EXPECT_EQ(sweep.called, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(row_ids(o.rows), (std::vector<std::string>{"job0", "job1"}));
  EXPECT_FALSE(contains(sweep.err.str(), "[3/4]")) << sweep.err.str();
}

TEST(RunSweep, RunCutShortIsLeftOut) {
  FakeSweep sweep;
  // As the Measurer does: the flag is seen between repetitions and the run ends with an error.
  const SweepOutcome o = sweep.run(3, [&](std::size_t i) {
    if (i == 1) {
      sweep.stop = true;
      return fake_row(i, "cancelled");
    }
    return fake_row(i);
  });
  EXPECT_TRUE(o.interrupted);
  EXPECT_EQ(row_ids(o.rows), (std::vector<std::string>{"job0"}));
  EXPECT_TRUE(contains(sweep.err.str(), "[2/3] job1 ... interrupted\n")) << sweep.err.str();
  EXPECT_FALSE(contains(sweep.err.str(), "cancelled")) << sweep.err.str();
}

TEST(RunSweep, InterruptBeforeTheFirstRunRunsNothing) {
  FakeSweep sweep;
  sweep.stop = true;
  const SweepOutcome o = sweep.run(2, [](std::size_t i) { return fake_row(i); });
  EXPECT_TRUE(o.interrupted);
  EXPECT_TRUE(sweep.called.empty());
  EXPECT_TRUE(o.rows.empty());
  EXPECT_TRUE(sweep.err.str().empty()) << sweep.err.str();
}

TEST(RunSweep, InterruptAfterTheLastRunLosesNothing) {
  FakeSweep sweep;
  const SweepOutcome o = sweep.run(2, [&](std::size_t i) {
    if (i == 1) sweep.stop = true;
    return fake_row(i);
  });
  EXPECT_FALSE(o.interrupted) << "every run finished";
  EXPECT_EQ(o.rows.size(), 2u);
}

// SIGINT dispositions are per process: each test sets its own and puts the original back.
class SigintTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(sigaction(SIGINT, nullptr, &original_), 0); }
  void TearDown() override { sigaction(SIGINT, &original_, nullptr); }

  static void counting_handler(int) { calls_ = calls_ + 1; }
  static void set_handler(void (*handler)(int)) {
    struct sigaction a {};
    a.sa_handler = handler;
    sigemptyset(&a.sa_mask);
    ASSERT_EQ(sigaction(SIGINT, &a, nullptr), 0);
  }
  static void (*current_handler())(int) {
    struct sigaction a {};
    sigaction(SIGINT, nullptr, &a);
    return a.sa_handler;
  }

  static inline volatile sig_atomic_t calls_ = 0;
  struct sigaction original_ {};
};

TEST_F(SigintTest, SignalSetsBothFlagsThenTheScopeRestoresThePreviousHandler) {
  calls_ = 0;
  set_handler(counting_handler);
  std::atomic<bool> cancel{false};
  {
    const SigintScope scope(&cancel);
    ASSERT_TRUE(scope.installed());
    EXPECT_FALSE(scope.requested());
    EXPECT_NE(current_handler(), &counting_handler);
    ASSERT_EQ(raise(SIGINT), 0);
    EXPECT_TRUE(scope.requested());
    EXPECT_TRUE(cancel) << "the Measurer's cancel flag is set from the handler";
    EXPECT_EQ(calls_, 0) << "the previous handler is not called while the scope lives";
    // One-shot: a second Ctrl-C would get the default action and end the program.
    EXPECT_EQ(current_handler(), SIG_DFL);
  }
  EXPECT_EQ(current_handler(), &counting_handler);
  ASSERT_EQ(raise(SIGINT), 0);
  EXPECT_EQ(calls_, 1);
}

TEST_F(SigintTest, ANewScopeStartsUninterrupted) {
  set_handler(counting_handler);
  {
    const SigintScope first;
    raise(SIGINT);
    EXPECT_TRUE(first.requested());
  }
  const SigintScope second;
  EXPECT_FALSE(second.requested());
}

TEST_F(SigintTest, IgnoredStaysIgnored) {
  set_handler(SIG_IGN);
  {
    const SigintScope scope;
    EXPECT_FALSE(scope.installed());
    EXPECT_EQ(current_handler(), SIG_IGN);
    raise(SIGINT);
    EXPECT_FALSE(scope.requested());
  }
  EXPECT_EQ(current_handler(), SIG_IGN);
}

TEST_F(SigintTest, CtrlCDuringASweepStopsItWithWhatFinished) {
  calls_ = 0;
  set_handler(counting_handler);
  std::atomic<bool> cancel{false};  // stands for Measurer::cancel_flag()
  std::ostringstream err;
  SweepOutcome o;
  {
    const SigintScope scope(&cancel);
    o = run_sweep(
        5, describe_job,
        [&](std::size_t i) {
          // A fake Measurer: during run 2 the user presses Ctrl-C; the next repetition sees
          // the cancel flag and gives up.
          if (i == 2) raise(SIGINT);
          return cancel ? fake_row(i, "cancelled") : fake_row(i);
        },
        scope.requested(), err);
  }
  EXPECT_TRUE(o.interrupted);
  EXPECT_EQ(row_ids(o.rows), (std::vector<std::string>{"job0", "job1"}));
  EXPECT_EQ(calls_, 0);
  EXPECT_EQ(current_handler(), &counting_handler);
}

TEST(UtcTimestamp, IsIso8601InUtc) {
  const std::string t = utc_timestamp_now();
  ASSERT_EQ(t.size(), 20u) << t;
  EXPECT_EQ(t[4], '-');
  EXPECT_EQ(t[7], '-');
  EXPECT_EQ(t[10], 'T');
  EXPECT_EQ(t[13], ':');
  EXPECT_EQ(t[16], ':');
  EXPECT_EQ(t[19], 'Z');
  EXPECT_GE(t.substr(0, 4), "2024") << t;
}

TEST(BenchArgs, UsageDocumentsOptionsAndExitCodes) {
  const std::string usage = bench_usage();
  // Whole option names: "--n" is not satisfied by "--no-verify", nor "--k" by "--keep".
  const std::set<std::string> options = tilescope::testing::option_names(usage);
  for (const char* option :
       {"--variants", "--problem", "--precision", "--sizes", "--m", "--n", "--k", "--reps", "--warmup", "--no-verify",
        "--no-baseline", "--csv", "--json", "--seed", "--list", "--help", "-h"})
    EXPECT_EQ(options.count(option), 1u) << option;
  // The "Exit codes:" list as code -> text: each code is a whole entry at the start of its line
  // ("0" is not satisfied by "130"), the list has exactly bench's codes, and each says what the
  // program means by it.
  const std::map<int, std::string> codes = tilescope::testing::exit_code_entries(usage);
  const std::map<int, const char*> expected = {{kExitOk, "every run succeeded"},
                                               {kExitRunFailed, "failed verification"},
                                               {kExitBadArguments, "bad arguments"},
                                               {kExitNoGpu, "no usable GPU"},
                                               {kExitOutputFailed, "could not be written"},
                                               {kExitInterrupted, "interrupted (Ctrl-C)"}};
  for (const auto& [code, meaning] : expected) {
    ASSERT_EQ(codes.count(code), 1u) << "no entry for exit code " << code << " in:\n" << usage;
    EXPECT_TRUE(contains(codes.at(code), meaning)) << code << ": " << codes.at(code);
  }
  EXPECT_EQ(codes.size(), expected.size()) << "an exit code the program does not return";
  EXPECT_EQ(usage.rfind(bench_synopsis(), 0), 0u) << "the help starts with the synopsis";
}

TEST(BenchArgs, ProfileIsAFlagOfTheSweep) {
  EXPECT_TRUE(parse_ok({"--profile"}).profile);
  EXPECT_TRUE(contains(parse_error({"--profile=yes"}), "--profile")) << "a flag takes no value";
  // The roofs are measured by kernels of their own: nothing of the sweep to profile.
  EXPECT_TRUE(contains(parse_error({"--roofs", "--profile"}), "--roofs"));
  // Its help says what it adds, where ncu comes from, and that it changes no exit code.
  const std::string usage = bench_usage();
  EXPECT_EQ(tilescope::testing::option_names(usage).count("--profile"), 1u);
  EXPECT_EQ(tilescope::testing::option_names(bench_synopsis()).count("--profile"), 1u);
  for (const char* promise : {"TILESCOPE_NCU", "/usr/local/cuda/bin/ncu", "performance counters",
                              "never changes the exit code", "docs/PROFILER.md"})
    EXPECT_TRUE(contains(usage, promise)) << promise;
}

TEST(BenchArgs, CsvAndJsonMustBeTwoFiles) {
  EXPECT_TRUE(contains(parse_error({"--csv", "r.out", "--json", "r.out"}), "--csv and --json name the same file"));
}

// `tilescope bench ARGS...`: the exit code, stdout and stderr.
struct BenchRun {
  int code = -1;
  std::string out, err;
};
BenchRun run_bench_with(std::vector<std::string> args) {
  args.insert(args.begin(), "bench");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  std::ostringstream out, err;
  BenchRun r;
  r.code = run_bench(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// An output file that cannot be written is refused before the first run (an hour's sweep must
// not end on "cannot write"): exit 4, the reason, and no run started.
TEST(BenchCommand, UnwritableOutputsAreRefusedBeforeAnyRun) {
  char dir_template[] = "/tmp/tilescope-bench-out-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--csv", dir + "/missing/r.csv"}, {"--json", dir + "/missing/r.json"}, {"--csv", dir}};
  for (const auto& [option, path] : cases) {
    const BenchRun r = run_bench_with({option, path, "--sizes", "16", "--reps", "1", "--warmup", "0"});
    EXPECT_EQ(r.code, kExitOutputFailed) << option << " " << path << "\n" << r.err;
    EXPECT_TRUE(contains(r.err, "cannot write " + path)) << r.err;
    EXPECT_TRUE(contains(r.err, "nothing was run")) << r.err;
    EXPECT_FALSE(contains(r.err, "[1/")) << "a run started:\n" << r.err;
    EXPECT_EQ(r.out, "") << "no table";
  }
  // --roofs writes its files after measuring: checked first too.
  const BenchRun c = run_bench_with({"--roofs", "--json", dir + "/missing/c.json"});
  EXPECT_EQ(c.code, kExitOutputFailed) << c.err;
  EXPECT_FALSE(contains(c.err, "measuring")) << c.err;
  rmdir(dir.c_str());
}

// The parser of the help texts finds what a substring search would wrongly accept.
TEST(HelpText, ParsersMatchWholeEntriesOnly) {
  const std::string usage =
      "usage: x [--no-verify] [--keep] [-h]\n\nExit codes:\n  130  interrupted\n  10  ten, see\n"
      "       the rest\n  When several apply, the largest\n\nExamples:\n  2  two\n";
  const std::map<int, std::string> codes = tilescope::testing::exit_code_entries(usage);
  EXPECT_EQ(codes.count(0), 0u) << "\"0  \" inside \"130  \" is no entry";
  EXPECT_EQ(codes.count(1), 0u) << "\"1\" inside \"10\" is no entry";
  EXPECT_EQ(codes.count(2), 0u) << "the list ends at its empty line";
  ASSERT_EQ(codes.count(10), 1u);
  EXPECT_EQ(codes.at(10), "ten, see the rest");
  EXPECT_EQ(codes.at(130), "interrupted");
  const std::set<std::string> options = tilescope::testing::option_names(usage);
  EXPECT_EQ(options.count("--n"), 0u);
  EXPECT_EQ(options.count("--k"), 0u);
  EXPECT_EQ(options.count("--no-verify"), 1u);
  EXPECT_EQ(options.count("-h"), 1u);
}

}  // namespace
}  // namespace tilescope

// ---- several GPUs: --gpus and --split -----------------------------------------------------------

namespace tilescope {
namespace {

const SplitDescriptor& split_where_nccl(Problem p) {
  for (const SplitDescriptor* s : split_registry())
    if (s->needs_nccl && supports(*s, p)) return *s;
  throw std::runtime_error("no NCCL split of the problem");
}
const SplitDescriptor& library_split() {
  for (const SplitDescriptor* s : split_registry())
    if (s->own_kernel) return *s;
  throw std::runtime_error("no split that multiplies with its own library");
}

}  // namespace

TEST(BenchArgs, GpusAndSplitsAreParsedAndCheckedAtOnce) {
  const SplitDescriptor& rows = split_where_nccl(Problem::Gemm);
  BenchOptions opt = parse_ok({"--gpus", "1,2,2", "--split", std::string(rows.id) + ":" + rows.configs[0].name});
  EXPECT_EQ(opt.gpus, (std::vector<int>{1, 2}));
  ASSERT_EQ(opt.splits.size(), 1u);
  EXPECT_EQ(opt.splits[0].split, &rows);
  // --split alone: two GPUs; --gpus alone: every split of the problem, all its configurations.
  EXPECT_EQ(parse_ok({"--split", rows.id}).gpus, (std::vector<int>{2}));
  for (const SplitSelection& s : parse_ok({"--gpus", "2"}).splits) EXPECT_TRUE(supports(*s.split, Problem::Gemm));
  EXPECT_FALSE(parse_ok({"--gpus", "2"}).splits.empty());
  for (const auto& bad : std::vector<std::vector<std::string>>{{"--gpus", "0"},
                                                               {"--gpus", "65"},
                                                               {"--gpus", "two"},
                                                               {"--split", "nope"},
                                                               {"--split", std::string(rows.id) + ":nope"},
                                                               {"--roofs", "--gpus", "2"}}) {
    const BenchOptions o = parse(bad);
    EXPECT_FALSE(o.ok()) << bad.front() << " " << bad.back();
    EXPECT_FALSE(o.error.empty());
  }
}

// Each kernel alone on one GPU, then split by each split on each count; the library's split only
// with the library's kernel, and a split of another problem not at all.
TEST(BenchPlan, SplitRunsFollowTheirKernelAloneOnOneGpu) {
  const SplitDescriptor& rows = split_where_nccl(Problem::Gemm);
  const SplitDescriptor& library = library_split();
  const VariantDescriptor& naive = first_kernel();
  const BenchOptions opt = parse_ok(
      {"--variants", id_of(naive) + ":" + naive.configs.at(0).name, "--sizes", "300", "--gpus", "1,2", "--split",
       std::string(rows.id) + ":" + rows.configs[0].name + "," + library.id + ":" + library.configs[0].name});
  const BenchPlan plan = plan_bench(opt, DeviceLimits{});
  std::vector<std::string> runs;
  for (const PlannedRun& r : plan.runs)
    runs.push_back(r.request.variant_id +
                   (r.request.split.empty() ? "" : " " + r.request.split + " x" + std::to_string(r.request.gpus)));
  const std::string cublas = testing::baseline().id, kernel = naive.id;
  const std::vector<std::string> expected = {cublas,
                                             cublas + " " + library.id + " x1",
                                             cublas + " " + library.id + " x2",
                                             cublas + " " + rows.id + " x1",
                                             cublas + " " + rows.id + " x2",
                                             kernel,
                                             kernel + " " + rows.id + " x1",
                                             kernel + " " + rows.id + " x2"};
  // The library's split and the row split run in the order --split names them.
  std::vector<std::string> sorted_runs = runs, sorted_expected = expected;
  std::sort(sorted_runs.begin(), sorted_runs.end());
  std::sort(sorted_expected.begin(), sorted_expected.end());
  EXPECT_EQ(sorted_runs, sorted_expected);
  EXPECT_EQ(runs.front(), cublas);
}

}  // namespace tilescope
