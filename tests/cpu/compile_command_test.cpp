// `tilescope compile` (app/cli/compile_command.h): its exit codes for help, an unknown variant or
// architecture and a refused typed tile (the reason on stderr, nothing compiled); a good typed tile
// compiled by NVRTC for an architecture this machine need not have, with registers and occupancy
// printed, then loaded from the cache (a cache folder of the test's own). And typed tiles in
// `bench --variants`, where "id:bm=96,bn=80,other" is two items.
#include "app/cli/compile_command.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/bench_args.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/cuda_libraries.h"
#include "kernels/jit/kernel_cache.h"
#include "tests/support/variant_picks.h"

namespace tilescope {
namespace {

namespace fs = std::filesystem;

const VariantDescriptor& typed_variant() {
  return testing::typed_prefetch_kernel();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

struct CommandRun {
  int exit = -1;
  std::string out, err;
};

// The command with its own cache folder ($XDG_CACHE_HOME), so that the user's cache is never
// touched; the environment and the installed storage are put back afterwards.
class CompileCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    cache_ = fs::temp_directory_path() / ("tilescope-compile-cache-" + std::to_string(::getpid()));
    fs::remove_all(cache_);
    const char* old = std::getenv("XDG_CACHE_HOME");
    had_old_ = old != nullptr;
    old_ = old ? old : "";
    ::setenv("XDG_CACHE_HOME", cache_.c_str(), 1);
  }
  void TearDown() override {
    install_kernel_cache(nullptr);
    if (had_old_)
      ::setenv("XDG_CACHE_HOME", old_.c_str(), 1);
    else
      ::unsetenv("XDG_CACHE_HOME");
    std::error_code ec;
    fs::remove_all(cache_, ec);
  }
  static CommandRun run(std::vector<std::string> args) {
    args.insert(args.begin(), "compile");
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    CommandRun r;
    r.exit = run_compile_command(static_cast<int>(argv.size()), argv.data(), out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
  }
  fs::path cache_;
  bool had_old_ = false;
  std::string old_;
};

TEST_F(CompileCommand, HelpExitsZero) {
  const CommandRun r = run({"--help"});
  EXPECT_EQ(r.exit, kCompileOk);
  EXPECT_TRUE(contains(r.out, "usage: tilescope compile")) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(CompileCommand, BadArgumentsExitTwoWithTheReason) {
  CommandRun r = run({"--variant", "no-such-variant"});
  EXPECT_EQ(r.exit, kCompileBadArguments);
  EXPECT_TRUE(contains(r.err, "unknown variant 'no-such-variant'")) << r.err;
  r = run({});
  EXPECT_EQ(r.exit, kCompileBadArguments);
  EXPECT_TRUE(contains(r.err, "--variant is required")) << r.err;
  r = run({"--variant", typed_variant().id, "--arch", "sm_70"});
  EXPECT_EQ(r.exit, kCompileBadArguments);
  EXPECT_TRUE(contains(r.err, "unknown architecture 'sm_70'")) << r.err;
  r = run({"--variant", std::string(typed_variant().id) + ":no-such-configuration"});
  EXPECT_EQ(r.exit, kCompileBadArguments);
  EXPECT_TRUE(contains(r.err, "no configuration 'no-such-configuration'")) << r.err;
  r = run({"--variant", testing::baseline().id});
  EXPECT_EQ(r.exit, kCompileBadArguments);
  EXPECT_TRUE(contains(r.err, "no kernel text")) << r.err;
  r = run({"--variant", typed_variant().id, "--precision", "f128"});
  EXPECT_EQ(r.exit, kCompileBadArguments);
  EXPECT_TRUE(contains(r.err, "f128")) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(CompileCommand, ARefusedTypedTileExitsTwoBeforeAnythingCompiles) {
  const CommandRun r = run({"--variant", std::string(typed_variant().id) + ":bm=100,tm=8", "--arch", "sm_80"});
  EXPECT_EQ(r.exit, kCompileBadArguments);
  EXPECT_TRUE(contains(r.err, "does not divide bm = 100")) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_FALSE(fs::exists(cache_)) << "a refused tile reached the cache";
}

TEST_F(CompileCommand, AGoodTypedTileCompilesThenLoadsFromTheCache) {
  if (!nvrtc_library().loaded) GTEST_SKIP() << "NVRTC is not loaded: " << nvrtc_library().error;
  const std::vector<std::string> args = {"--variant", std::string(typed_variant().id) + ":bm=96,bn=80,bk=24,tm=6,tn=5",
                                         "--arch", "sm_80"};
  const CommandRun first = run(args);
  ASSERT_EQ(first.exit, kCompileOk) << first.err << first.out;
  EXPECT_TRUE(contains(first.out, "for sm_80")) << first.out;
  EXPECT_TRUE(contains(first.out, "bm=96,bn=80,bk=24,tm=6,tn=5")) << first.out;
  EXPECT_TRUE(contains(first.out, "registers per thread")) << first.out;
  EXPECT_TRUE(contains(first.out, "occupancy: ")) << first.out;
  EXPECT_TRUE(contains(first.out, " threads per SM")) << first.out;
  EXPECT_TRUE(contains(first.out, "  compiled in ")) << first.out;
  EXPECT_FALSE(contains(first.out, "not cached")) << first.out;
  EXPECT_FALSE(contains(first.out, " 0 registers per thread")) << first.out;
  EXPECT_TRUE(fs::exists(cache_ / "tilescope" / "kernels")) << "nothing was written to the test's cache folder";
  const CommandRun second = run(args);
  ASSERT_EQ(second.exit, kCompileOk) << second.err << second.out;
  EXPECT_TRUE(contains(second.out, "loaded from the cache")) << second.out;
  EXPECT_TRUE(contains(second.out, "registers per thread")) << second.out;
}

TEST(BenchTypedTiles, AKeyValueListBelongsToItsTile) {
  const VariantDescriptor& typed = typed_variant();
  const VariantDescriptor& other = testing::one_phase_kernel();
  const BenchOptions opt =
      parse_bench_args({"--variants", std::string(typed.id) + ":bm=96,bn=80," + other.id, "--no-baseline"});
  ASSERT_TRUE(opt.ok()) << opt.error;
  ASSERT_GE(opt.selections.size(), 2u);
  EXPECT_EQ(opt.selections[0].variant, &typed);
  EXPECT_TRUE(is_typed_config(typed, opt.selections[0].config_index));
  EXPECT_TRUE(opt.selections[0].named);
  const TileConfig& config = config_at(typed, opt.selections[0].config_index);
  EXPECT_EQ(tile_value(config.typed, "bm", 0), 96);
  EXPECT_EQ(tile_value(config.typed, "bn", 0), 80);
  for (std::size_t i = 1; i < opt.selections.size(); ++i) {
    EXPECT_EQ(opt.selections[i].variant, &other);
    EXPECT_FALSE(is_typed_config(other, opt.selections[i].config_index));
  }
}

TEST(BenchTypedTiles, ARefusedTileIsAnErrorWithTheReason) {
  const BenchOptions opt =
      parse_bench_args({"--variants", std::string(typed_variant().id) + ":bm=100,tm=8", "--no-baseline"});
  EXPECT_FALSE(opt.ok());
  EXPECT_TRUE(contains(opt.error, "--variants: ")) << opt.error;
  EXPECT_TRUE(contains(opt.error, "does not divide bm = 100")) << opt.error;
  const BenchOptions unknown =
      parse_bench_args({"--variants", std::string(typed_variant().id) + ":bm=96,wide=2", "--no-baseline"});
  EXPECT_FALSE(unknown.ok());
  EXPECT_TRUE(contains(unknown.error, "'wide'")) << unknown.error;
}

}  // namespace
}  // namespace tilescope
