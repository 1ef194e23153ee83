// `tilescope tune`'s options and grid (app/cli/tune_args.h) and its table as CSV
// (app/cli/tune_points.h): ranges, bad ranges, unknown parameters, axes, the CSV's round trip.
#include "app/cli/tune_args.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/cli/tune_command.h"
#include "app/cli/tune_points.h"
#include "kernels/core/typed_configs.h"
#include "tests/support/variant_picks.h"

namespace tilescope {
namespace {

const VariantDescriptor& typed_variant() {
  return testing::typed_prefetch_kernel();
}

std::string key(int i) {
  return typed_variant().tile_params.at(static_cast<std::size_t>(i)).key;
}

TuneOptions parse(std::vector<std::string> args) {
  args.insert(args.begin(), {"--variant", typed_variant().id});
  return parse_tune_args(args);
}

const TuneParam& param(const TuneOptions& o, const std::string& k) {
  for (const TuneParam& p : o.params)
    if (p.key == k) return p;
  throw std::runtime_error("no parameter " + k);
}

TEST(TuneArgs, RangesListsAndSingleValues) {
  std::vector<int> v;
  std::string error;
  ASSERT_TRUE(parse_tune_values("bm", "32:128:32", &v, &error)) << error;
  EXPECT_EQ(v, (std::vector<int>{32, 64, 96, 128}));
  ASSERT_TRUE(parse_tune_values("bm", "4:6", &v, &error));
  EXPECT_EQ(v, (std::vector<int>{4, 5, 6}));
  ASSERT_TRUE(parse_tune_values("bm", "4,8,4,2:3", &v, &error));
  EXPECT_EQ(v, (std::vector<int>{4, 8, 2, 3}));  // repeats kept once, in the order written
  ASSERT_TRUE(parse_tune_values("bm", "32:100:32", &v, &error));
  EXPECT_EQ(v, (std::vector<int>{32, 64, 96}));  // the end only when a step lands on it
  ASSERT_TRUE(parse_tune_values("pad", "0:1", &v, &error)) << error;
  EXPECT_EQ(v, (std::vector<int>{0, 1}));  // a switch swept both ways
}

TEST(TuneArgs, BadRangesAreNamed) {
  std::vector<int> v;
  std::string error;
  for (const char* bad : {"", "a", "8:4", "4:8:0", "1:2:3:4", "4,,8", "-4", "5000"}) {
    EXPECT_FALSE(parse_tune_values("bm", bad, &v, &error)) << bad;
    EXPECT_NE(error.find("--bm"), std::string::npos) << bad << ": " << error;
    EXPECT_TRUE(v.empty());
  }
  const TuneOptions o = parse({"--" + key(0), "64:32"});
  EXPECT_NE(o.error.find("ends below its start"), std::string::npos) << o.error;
}

TEST(TuneArgs, EveryTileParameterIsAnOptionAndTheOthersKeepTheDefault) {
  const VariantDescriptor& v = typed_variant();
  const TuneOptions o = parse({"--" + key(0), "32:64:32", "--" + key(1), "16,32"});
  ASSERT_TRUE(o.ok()) << o.error;
  ASSERT_EQ(o.params.size(), v.tile_params.size());
  EXPECT_EQ(param(o, key(0)).values, (std::vector<int>{32, 64}));
  const TileValues defaults = v.tile_values_of(v.configs[v.default_config]);
  for (std::size_t i = 2; i < v.tile_params.size(); ++i)
    EXPECT_EQ(o.params[i].values, (std::vector<int>{tile_value(defaults, key(static_cast<int>(i)), -1)}));
  EXPECT_EQ(o.x_key, key(0));  // the first two ranged ones
  EXPECT_EQ(o.y_key, key(1));
  EXPECT_EQ(tune_grid(o.params).size(), 4u);
  // The last parameter changes fastest.
  EXPECT_EQ(tile_value(tune_grid(o.params)[0], key(1), 0), 16);
  EXPECT_EQ(tile_value(tune_grid(o.params)[1], key(1), 0), 32);
  EXPECT_EQ(tile_value(tune_grid(o.params)[1], key(0), 0), 32);
}

TEST(TuneArgs, AnUnknownParameterSaysWhatTheVariantTakes) {
  const TuneOptions o = parse({"--nosuch", "4"});
  EXPECT_NE(o.error.find("'--nosuch'"), std::string::npos) << o.error;
  EXPECT_NE(o.error.find("--" + key(0)), std::string::npos) << o.error;
  EXPECT_FALSE(parse_tune_args(std::vector<std::string>{"--" + key(0), "4:8"}).ok());  // no --variant
  EXPECT_NE(parse_tune_args(std::vector<std::string>{"--variant", "nosuch"}).error.find("unknown variant"),
            std::string::npos);
}

TEST(TuneArgs, AxesMustBeSweptParameters) {
  const std::string k0 = "--" + key(0), k1 = "--" + key(1);
  EXPECT_NE(parse({k0, "32:64:32", "--x", key(1)}).error.find("not swept"), std::string::npos);
  EXPECT_NE(parse({k0, "32:64:32", k1, "8,16", "--x", key(0), "--y", key(0)}).error.find("same parameter"),
            std::string::npos);
  EXPECT_NE(parse({k0, "32:64:32", "--x", "nosuch"}).error.find("no tile parameter"), std::string::npos);
  EXPECT_NE(parse({}).error.find("nothing to tune"), std::string::npos);
  const TuneOptions swapped = parse({k0, "32:64:32", k1, "8,16", "--x", key(1), "--y", key(0)});
  ASSERT_TRUE(swapped.ok()) << swapped.error;
  EXPECT_EQ(swapped.x_key, key(1));
  const TuneOptions one = parse({k1, "8,16"});  // one swept parameter: one row
  ASSERT_TRUE(one.ok()) << one.error;
  EXPECT_EQ(one.x_key, key(1));
  EXPECT_EQ(one.y_key, "");
}

TEST(TuneArgs, TooLargeAGridIsRefused) {
  const TuneOptions o = parse({"--" + key(0), "1:4000", "--" + key(1), "1:4000"});
  EXPECT_NE(o.error.find("more than"), std::string::npos) << o.error;
}

TEST(TunePoints, ImpossibleTilesAreRefusedWithTheReasonBeforeRunning) {
  const VariantDescriptor& v = typed_variant();
  // A zero-sized parameter can be no tile.
  TileValues impossible = v.tile_values_of(v.configs[v.default_config]);
  for (auto& kv : impossible) kv.second = 1;
  const TileValues fine = v.tile_values_of(v.configs[v.default_config]);
  const std::vector<TunePoint> points =
      check_tune_points(v, {impossible, fine}, Problem::Gemm, Precision::F32, nullptr);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].status, TuneStatus::Refused);
  EXPECT_FALSE(points[0].reason.empty());
  EXPECT_EQ(points[1].status, TuneStatus::Pending) << points[1].reason;
  EXPECT_TRUE(is_typed_config(v, points[1].config_index));
  // The device's limits refuse what the variant alone allows.
  DeviceLimits tiny;
  tiny.max_threads_per_block = 32;
  tiny.shared_per_block_optin = tiny.shared_per_block_default = 1024;
  EXPECT_EQ(check_tune_points(v, {fine}, Problem::Gemm, Precision::F32, &tiny)[0].status, TuneStatus::Refused);
}

TEST(TunePoints, AFailedCheckIsAFailNotAFastPoint) {
  RunResult r;
  r.gflops = 99999;
  r.median_ms = 1;
  r.verified = true;
  r.passed = false;
  r.rel_error = 0.5;
  r.tolerance = 1e-5;
  TunePoint p;
  record_tune_result(r, &p);
  EXPECT_EQ(p.status, TuneStatus::Failed);
  EXPECT_NE(p.reason.find("wrong result"), std::string::npos);
  r.passed = true;
  record_tune_result(r, &p);
  EXPECT_EQ(p.status, TuneStatus::Ok);
  r.error = "launch failed";
  record_tune_result(r, &p);
  EXPECT_EQ(p.status, TuneStatus::Error);
  EXPECT_EQ(p.reason, "launch failed");
}

TEST(TuneCsv, RoundTripsEveryStatusAndTheBaseline) {
  TuneTable t;
  t.device = "Some GPU, 80GB";
  t.variant = typed_variant().id;
  t.keys = {key(0), key(1)};
  t.shape = Shape{256, 256, 256};
  t.precision = Precision::F64;
  TunePoint ok;
  ok.values = {{key(0), 64}, {key(1), 32}};
  ok.status = TuneStatus::Ok;
  ok.gflops = 1234.5;
  ok.median_ms = 0.25;
  ok.registers = 96;
  ok.occupancy = 0.5;
  ok.compile_seconds = 1.5;
  TunePoint refused;
  refused.values = {{key(0), 64}, {key(1), 64}};
  refused.status = TuneStatus::Refused;
  refused.reason = "2048 threads per block, \"the limit\" is 1024";
  TunePoint failed = ok;
  failed.values = {{key(0), 32}, {key(1), 32}};
  failed.status = TuneStatus::Failed;
  failed.reason = "wrong result";
  t.points = {ok, refused, failed};
  t.baseline_variant = "library";
  t.baseline.status = TuneStatus::Ok;
  t.baseline.gflops = 2469;
  fill_tune_pct(&t);
  EXPECT_DOUBLE_EQ(t.points[0].pct_of_cublas, 50.0);
  EXPECT_LT(t.points[2].pct_of_cublas, 0);  // a wrong point has no share of cuBLAS

  const std::string csv = tune_to_csv(t);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "device,variant,problem,precision,m,n,k," + key(0) + "," + key(1) +
                ",status,reason,gflops,pct_of_cublas,registers,occupancy,compile_s,median_ms");
  TuneTable back;
  std::string error;
  ASSERT_TRUE(tune_from_csv(csv, &back, &error)) << error;
  EXPECT_EQ(back.device, t.device);
  EXPECT_EQ(back.variant, t.variant);
  EXPECT_EQ(back.keys, t.keys);
  EXPECT_EQ(back.precision, Precision::F64);
  EXPECT_EQ(back.shape.K, 256);
  ASSERT_EQ(back.points.size(), 3u);
  EXPECT_EQ(back.points[1].reason, refused.reason);
  EXPECT_EQ(back.points[1].status, TuneStatus::Refused);
  EXPECT_EQ(back.points[2].status, TuneStatus::Failed);
  EXPECT_EQ(back.points[0].values, ok.values);
  EXPECT_DOUBLE_EQ(back.points[0].gflops, 1234.5);
  EXPECT_EQ(back.points[0].registers, 96);
  EXPECT_EQ(back.baseline_variant, "library");
  EXPECT_DOUBLE_EQ(back.baseline.gflops, 2469);

  EXPECT_FALSE(tune_from_csv("a,b\n1,2\n", &back, &error));
  EXPECT_FALSE(tune_from_csv(csv.substr(0, csv.size() - 5) + ",x\n", &back, &error));
}

TEST(TuneCommand, WithoutAWindowBuildPngIsRefusedAndBadArgumentsExitTwo) {
  std::ostringstream out, err;
  const std::string id = typed_variant().id, k = "--" + key(0);
  const char* bad[] = {"tune", "--variant", id.c_str(), "--nosuch", "1"};
  EXPECT_EQ(run_tune_command(5, bad, out, err), kTuneBadArguments);
  const char* png[] = {"tune", "--variant", id.c_str(), k.c_str(), "32:64:32", "--png", "/tmp/x.png"};
  EXPECT_EQ(run_tune_command(7, png, out, err), kTuneOutputFailed);
  EXPECT_NE(err.str().find("needs the window build"), std::string::npos) << err.str();
}

}  // namespace
}  // namespace tilescope
