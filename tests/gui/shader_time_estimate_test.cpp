// The estimate that refuses texture-shader runs too long for a class (no GL: plain arithmetic
// over the passes the engine would draw).
#include "app/gl_gemm/shader_time_estimate.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "app/gl_gemm/shader_gemm.h"

namespace tilescope {
namespace {

ShaderTimeRequest square(ShaderMode mode, const char* config, int n, int runs) {
  ShaderTimeRequest r;
  r.mode = mode;
  r.variant = "texture-shaders";
  r.config = config;
  r.M = r.N = r.K = n;
  r.runs = runs;
  return r;
}

// About llvmpipe's rate on 2 cores (4 ns a fetch).
ShaderFetchRate llvmpipe_rate() {
  ShaderFetchRate rate;
  rate.fetches_per_second = 250e6;
  rate.renderer = "llvmpipe (LLVM 15.0.6, 256 bits)";
  rate.measured_on = "a run at 256";
  return rate;
}

TEST(ShaderTimeEstimate, TheTimeIsTheFetchesOfEveryRunOverTheRate) {
  const ShaderTimeRequest r = square(ShaderMode::kMultipass, "one-pass-per-k", 512, 3);
  // multipass fetches a texel of A and one of B per multiply-add: 2 N³ a run.
  EXPECT_DOUBLE_EQ(estimated_shader_seconds(r, 1e9), 3 * 2.0 * 512 * 512 * 512 / 1e9);
  ShaderTimeRequest mrt8 = square(ShaderMode::kMrt8, "eight-targets", 512, 1);
  EXPECT_DOUBLE_EQ(estimated_shader_seconds(mrt8, 1e9),
                   describe_shader_layout(ShaderMode::kMrt8, 512, 512, 512).fetches / 1e9);
  EXPECT_EQ(estimated_shader_seconds(r, 0), 0) << "no rate, no estimate";
}

TEST(ShaderTimeEstimate, WithinTheLimitNothingIsSaid) {
  const ShaderTimeRequest small = square(ShaderMode::kMrt8, "eight-targets", 512, 13);
  EXPECT_EQ(shader_time_refusal(small, llvmpipe_rate(), 20), "");
  const ShaderTimeRequest huge = square(ShaderMode::kMultipass, "one-pass-per-k", 4096, 13);
  EXPECT_EQ(shader_time_refusal(huge, llvmpipe_rate(), 0), "") << "no limit";
  EXPECT_EQ(shader_time_refusal(huge, ShaderFetchRate(), 20), "") << "no rate measured";
}

// The refusal names the run, the estimate, the renderer, the rate and the limit, and advises the
// largest typed size that fits: that size's estimate is within the limit, the next one's is not.
TEST(ShaderTimeEstimate, ARefusalSaysHowLongAndWhatFits) {
  const ShaderTimeRequest huge = square(ShaderMode::kMultipass, "one-pass-per-k", 4096, 13);
  const std::string why = shader_time_refusal(huge, llvmpipe_rate(), 20);
  SCOPED_TRACE(why);
  // 13 runs x 2 x 4096³ fetches / 250 M/s = 7,147 s, 550 s a run.
  EXPECT_EQ(
      why.rfind(
          "texture-shaders one-pass-per-k at 4096 would take about 2.0 h on this renderer (llvmpipe (LLVM 15.0.6, "
          "256 bits)): 13 runs of about 9 min at 250 million texel fetches/s, measured here on a run at "
          "256; the limit for the texture shaders on a software renderer is 20 s: choose N <= ",
          0),
      0u);
  const int fits = std::atoi(why.c_str() + why.rfind("N <= ") + 5);
  EXPECT_EQ(fits % 64, 0);
  EXPECT_LE(estimated_shader_seconds(square(ShaderMode::kMultipass, "one-pass-per-k", fits, 13), 250e6), 20);
  EXPECT_GT(estimated_shader_seconds(square(ShaderMode::kMultipass, "one-pass-per-k", fits + 64, 13), 250e6), 20);
  EXPECT_NE(why.find("(or fewer repetitions)"), std::string::npos);
}

TEST(ShaderTimeEstimate, AnUnevenShapeIsAdvisedInAllThreeSizes) {
  ShaderTimeRequest r;
  r.mode = ShaderMode::kMrt8;
  r.variant = "texture-shaders";
  r.config = "eight-targets";
  r.M = 4096, r.N = 2048, r.K = 8192;
  r.runs = 13;
  const std::string why = shader_time_refusal(r, llvmpipe_rate(), 20);
  EXPECT_EQ(why.rfind("texture-shaders eight-targets at 4096 x 2048 x 8192 would take about ", 0), 0u) << why;
  EXPECT_NE(why.find("choose sizes up to about "), std::string::npos) << why;
}

TEST(ShaderTimeEstimate, DurationsReadAsAPersonSaysThem) {
  EXPECT_EQ(readable_duration(4.2), "4 s");
  EXPECT_EQ(readable_duration(89), "89 s");
  EXPECT_EQ(readable_duration(600), "10 min");
  EXPECT_EQ(readable_duration(2 * 3600 + 360), "2.1 h");
}

}  // namespace
}  // namespace tilescope
