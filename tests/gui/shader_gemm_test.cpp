// The legacy texture-shader GEMM, run for real in CI: Mesa llvmpipe through EGL's surfaceless
// platform renders GL_R32F / GL_RGBA32F in fp32, so every mode is checked against the double
// reference with the project's float tolerance (4 u sqrt(K), largest element error relative to the largest element).
#include "app/gl_gemm/shader_gemm.h"

#include <GL/gl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "app/platform/host.h"
#include "kernels/measure/measure.h"
#include "kernels/measure/reference.h"
#include "tests/gui/gui_test_support.h"

namespace tilescope {
namespace {

using testing::ShaderDir;

constexpr std::uint64_t kSeed = 20260501;

// One headless host (and its GL context) for the whole suite: one host per process at a time,
// and the other suites' tests make their own after this one is gone.
class ShaderGemmEnv {
 public:
  static void set_up() {
    HostOptions options;
    options.width = 64;
    options.height = 64;
    std::string error;
    host() = create_headless_host(options, &error);
    ASSERT_TRUE(host()) << error;
    std::printf("shader GEMM renderer: %s | GL %s | %s\n", host()->renderer().c_str(), host()->gl_version().c_str(),
                host()->gl_platform().c_str());
    library() = std::make_unique<ShaderLibrary>(std::string(TILESCOPE_SOURCE_DIR) + "/shaders");
    ASSERT_TRUE(library()->reload(&error)) << error;
  }
  static void tear_down() {
    library().reset();  // GL objects go while the context is still current
    host().reset();
  }
  static std::unique_ptr<Host>& host() {
    static std::unique_ptr<Host> h;
    return h;
  }
  static std::unique_ptr<ShaderLibrary>& library() {
    static std::unique_ptr<ShaderLibrary> l;
    return l;
  }
};

struct Problem3 {
  int M, N, K;
};

// Inputs as the device fills them (exact in float), and the double reference, per size.
struct Case {
  std::vector<float> a, b;
  std::vector<double> ref;
};
const Case& case_for(Problem3 p) {
  static std::map<std::tuple<int, int, int>, Case> cache;
  auto key = std::make_tuple(p.M, p.N, p.K);
  auto found = cache.find(key);
  if (found != cache.end()) return found->second;
  Case c;
  std::vector<double> a(static_cast<std::size_t>(p.M) * p.K), b(static_cast<std::size_t>(p.K) * p.N);
  fill_inputs(Precision::F32, kSeed, 0, static_cast<std::int64_t>(a.size()), a.data());
  fill_inputs(Precision::F32, kSeed, 1, static_cast<std::int64_t>(b.size()), b.data());
  c.a.assign(a.begin(), a.end());
  c.b.assign(b.begin(), b.end());
  c.ref.resize(static_cast<std::size_t>(p.M) * p.N);
  Shape shape;
  shape.M = p.M, shape.N = p.N, shape.K = p.K;
  reference_gemm_f64(Problem::Gemm, shape, a.data(), b.data(), c.ref.data());
  return cache.emplace(key, std::move(c)).first->second;
}

class ShaderGemmModes : public ::testing::TestWithParam<std::tuple<ShaderMode, Problem3>> {
 protected:
  static void SetUpTestSuite() { ShaderGemmEnv::set_up(); }
  static void TearDownTestSuite() { ShaderGemmEnv::tear_down(); }
};

TEST_P(ShaderGemmModes, MatchesTheDoubleReference) {
  ASSERT_TRUE(ShaderGemmEnv::library());
  const ShaderMode mode = std::get<0>(GetParam());
  const Problem3 p = std::get<1>(GetParam());
  const Case& c = case_for(p);
  ShaderGemmOptions options;
  options.warmup = 1;  // also keeps llvmpipe's first timer query of the context sane (see the .cpp)
  const auto start = std::chrono::steady_clock::now();
  const ShaderGemmResult r =
      run_shader_gemm(mode, c.a.data(), c.b.data(), p.M, p.N, p.K, 1, *ShaderGemmEnv::library(), options);
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_EQ(r.c.size(), static_cast<std::size_t>(p.M) * p.N);
  const ErrorReport e = compare_to_reference(r.c.data(), c.ref.data(), p.M, p.N, OutputPart::Full);
  const double tolerance = relative_error_tolerance(std::ldexp(1.0, -24), p.K, e.reference_norm, e.checked);
  std::printf(
      "%-11s M=%-4d N=%-4d K=%-4d rel_error %.3e (tolerance %.3e) passes %-4d fetches/FMA %.4f gpu %.2f ms (run %.2f "
      "ms, call %.1f ms)\n",
      shader_mode_fragment_file(mode), p.M, p.N, p.K, e.rel_error, tolerance, r.passes, r.fetches_per_fma, r.gpu_ms,
      r.wall_ms, wall_ms);
  EXPECT_EQ(e.unwritten, 0);
  EXPECT_LE(e.rel_error, tolerance);
  EXPECT_GT(r.passes, 0);
  EXPECT_GT(r.gpu_ms, 0.0);
  // The GPU time lies inside the call: a larger one is a bogus query result (llvmpipe's first
  // query of a context once returned a timestamp).
  EXPECT_LE(r.gpu_ms, r.wall_ms + 0.5);
  EXPECT_LE(r.wall_ms, wall_ms);
  EXPECT_EQ(r.gpu_ms_all.size(), 1u);
}

std::string param_name(const ::testing::TestParamInfo<std::tuple<ShaderMode, Problem3>>& info) {
  const Problem3 p = std::get<1>(info.param);
  const std::string file = shader_mode_fragment_file(std::get<0>(info.param));  // "gemm_<mode>.frag"
  return file.substr(0, file.find('.')) + "_" + std::to_string(p.M) + "x" + std::to_string(p.N) + "x" +
         std::to_string(p.K);
}

INSTANTIATE_TEST_SUITE_P(ShaderGemm, ShaderGemmModes,
                         ::testing::Combine(::testing::ValuesIn(all_shader_modes()),  // every mode
                                            ::testing::Values(Problem3{1, 1, 1}, Problem3{17, 17, 17},
                                                              Problem3{64, 64, 64}, Problem3{255, 255, 255},
                                                              Problem3{512, 512, 512}, Problem3{100, 37, 129})),
                         param_name);

// ---- the engine's bookkeeping and refusals ---------------------------------------------------

class ShaderGemmEngine : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ShaderGemmEnv::set_up(); }
  static void TearDownTestSuite() { ShaderGemmEnv::tear_down(); }
};

TEST_F(ShaderGemmEngine, CountsPassesAndFetchesPerFma) {
  const Problem3 p{64, 64, 256};
  const Case& c = case_for(p);
  ShaderGemmOptions options;
  options.warmup = 0;
  const auto& lib = *ShaderGemmEnv::library();
  ShaderGemmResult r = run_shader_gemm(ShaderMode::kMultipass, c.a.data(), c.b.data(), p.M, p.N, p.K, 3, lib, options);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.passes, 256 / default_k_chunk(ShaderMode::kMultipass));
  EXPECT_DOUBLE_EQ(r.fetches_per_fma, 2.0);
  EXPECT_EQ(r.gpu_ms_all.size(), 3u);  // one GL_TIME_ELAPSED result per repetition; gpu_ms is their median
  r = run_shader_gemm(ShaderMode::kRgbaPacked, c.a.data(), c.b.data(), p.M, p.N, p.K, 1, lib, options);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_DOUBLE_EQ(r.fetches_per_fma, 0.25);
  r = run_shader_gemm(ShaderMode::kMrt, c.a.data(), c.b.data(), p.M, p.N, p.K, 1, lib, options);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_DOUBLE_EQ(r.fetches_per_fma, 0.125);
  r = run_shader_gemm(ShaderMode::kMrt8, c.a.data(), c.b.data(), p.M, p.N, p.K, 1, lib, options);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.passes, 256 / default_k_chunk(ShaderMode::kMrt8));
  EXPECT_DOUBLE_EQ(r.fetches_per_fma, 12.0 / 128.0);
  options.tile = 32;
  options.k_chunk = 128;
  r = run_shader_gemm(ShaderMode::kBlocked, c.a.data(), c.b.data(), p.M, p.N, p.K, 1, lib, options);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.passes, 2 * 2 * 2);  // 2 x 2 tiles of 32 x 32, 2 k-blocks of 128 each
  EXPECT_DOUBLE_EQ(r.fetches_per_fma, 2.0);
}

// Slices (bands of rows, a wait after each slice of fetches) draw exactly what one draw per pass
// draws, in every mode: the same sums in the same order, bit for bit; the progress reaches 1.
TEST_F(ShaderGemmEngine, SlicedPassesDrawTheSameResult) {
  const Problem3 p{255, 200, 130};
  const Case& c = case_for(p);
  const auto& lib = *ShaderGemmEnv::library();
  for (ShaderMode mode : all_shader_modes()) {
    SCOPED_TRACE(shader_mode_fragment_file(mode));
    ShaderGemmOptions whole;
    whole.warmup = 0;
    const ShaderGemmResult once = run_shader_gemm(mode, c.a.data(), c.b.data(), p.M, p.N, p.K, 1, lib, whole);
    ASSERT_TRUE(once.error.empty()) << once.error;
    std::atomic<double> progress{-1};
    ShaderGemmOptions sliced = whole;
    // A few rows of a pass per slice: many bands, none of them 64 rows.
    sliced.slice_fetches = describe_shader_layout(mode, p.M, p.N, p.K).fetches / once.passes / 37;
    sliced.progress = &progress;
    const ShaderGemmResult bands = run_shader_gemm(mode, c.a.data(), c.b.data(), p.M, p.N, p.K, 1, lib, sliced);
    ASSERT_TRUE(bands.error.empty()) << bands.error;
    EXPECT_EQ(bands.passes, once.passes);
    ASSERT_EQ(bands.c.size(), once.c.size());
    EXPECT_EQ(std::memcmp(bands.c.data(), once.c.data(), once.c.size() * sizeof(float)), 0);
    EXPECT_DOUBLE_EQ(progress.load(), 1.0);
  }
}

// With slices, a cancel lands within a slice, also in the middle of one long pass: multipass at
// 1024 draws passes of 0.13 G fetches, about 0.6 s each on llvmpipe (2 cores), 16 passes a run.
TEST_F(ShaderGemmEngine, ACancelLandsWithinASlice) {
  const int n = 1024;
  const std::vector<float> ones(static_cast<std::size_t>(n) * n, 0.5f);
  const auto& lib = *ShaderGemmEnv::library();
  std::atomic<bool> cancel{false};
  std::atomic<double> progress{0};
  ShaderGemmOptions options;
  options.warmup = 0;
  options.cancel = &cancel;
  options.progress = &progress;
  options.slice_fetches = describe_shader_layout(ShaderMode::kMultipass, n, n, n).fetches / 1000;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    cancel.store(true);
  });
  const auto t0 = std::chrono::steady_clock::now();
  // Runs enough for seconds on any renderer (an H100 draws one in about 35 ms).
  const ShaderGemmResult r =
      run_shader_gemm(ShaderMode::kMultipass, ones.data(), ones.data(), n, n, n, 200, lib, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  canceller.join();
  EXPECT_EQ(r.error, "cancelled");
  EXPECT_LT(seconds, 1.0) << "the cancel came at 0.4 s";
  EXPECT_GT(progress.load(), 0.0) << "slices were drawn before the cancel";
  EXPECT_LT(progress.load(), 1.0);
}

TEST_F(ShaderGemmEngine, RefusesBadArgumentsAndSizesBeyondTheTextureLimit) {
  const auto& lib = *ShaderGemmEnv::library();
  const float one = 1.0f;
  EXPECT_NE(run_shader_gemm(ShaderMode::kMultipass, &one, &one, 0, 1, 1, 1, lib).error, "");
  EXPECT_NE(run_shader_gemm(ShaderMode::kMultipass, &one, &one, 1, 1, 1, 0, lib).error, "");
  EXPECT_NE(run_shader_gemm(ShaderMode::kMultipass, nullptr, &one, 1, 1, 1, 1, lib).error, "");

  GLint max_texture = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture);
  ASSERT_GT(max_texture, 0);
  const int K = max_texture + 1;  // A would be K texels wide in multipass
  const std::vector<float> a(static_cast<std::size_t>(K), 1.0f), b(static_cast<std::size_t>(K), 1.0f);
  const ShaderGemmResult r = run_shader_gemm(ShaderMode::kMultipass, a.data(), b.data(), 1, 1, K, 1, lib);
  EXPECT_TRUE(r.c.empty());
  EXPECT_NE(r.error.find("GL_MAX_TEXTURE_SIZE"), std::string::npos) << r.error;
  std::printf("refusal: %s\n", r.error.c_str());
}

TEST_F(ShaderGemmEngine, LeavesTheGlStateAsItFoundIt) {
  glViewport(1, 2, 30, 40);
  glDisable(GL_BLEND);
  glEnable(GL_SCISSOR_TEST);
  glScissor(3, 4, 5, 6);
  glUseProgram(0);
  GLint fbo_before = -1;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fbo_before);
  const Problem3 p{17, 17, 17};
  const Case& c = case_for(p);
  const ShaderGemmResult r =
      run_shader_gemm(ShaderMode::kBlocked, c.a.data(), c.b.data(), p.M, p.N, p.K, 1, *ShaderGemmEnv::library());
  ASSERT_TRUE(r.error.empty()) << r.error;
  GLint viewport[4] = {}, scissor[4] = {}, program = -1, fbo = -1;
  glGetIntegerv(GL_VIEWPORT, viewport);
  glGetIntegerv(GL_SCISSOR_BOX, scissor);
  glGetIntegerv(GL_CURRENT_PROGRAM, &program);
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
  EXPECT_EQ(viewport[0], 1);
  EXPECT_EQ(viewport[3], 40);
  EXPECT_EQ(scissor[2], 5);
  EXPECT_EQ(program, 0);
  EXPECT_EQ(fbo, fbo_before);
  EXPECT_FALSE(glIsEnabled(GL_BLEND));
  EXPECT_TRUE(glIsEnabled(GL_SCISSOR_TEST));
  glDisable(GL_SCISSOR_TEST);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// ---- loading shaders from a directory --------------------------------------------------------

TEST_F(ShaderGemmEngine, ASyntaxErrorGivesTheCompileLog) {
  ShaderDir dir;
  ASSERT_TRUE(dir.edit(ShaderMode::kRgbaPacked, "  o_c = c;", "  o_c = c +;  // broken on purpose"));

  ShaderLibrary library(dir.path());
  std::string error;
  EXPECT_FALSE(library.reload(&error));
  std::printf("compile error as reported:\n%s\n", error.c_str());
  const std::string broken_file = shader_mode_fragment_file(ShaderMode::kRgbaPacked);
  EXPECT_EQ(broken_file, "gemm_rgba_packed.frag");
  EXPECT_NE(error.find(broken_file), std::string::npos) << error;
  EXPECT_NE(error.find("error"), std::string::npos) << error;  // the compiler's own log, not just "failed"
  EXPECT_FALSE(library.loaded(ShaderMode::kRgbaPacked));

  // The broken mode reports the log when run; the others still work.
  const Problem3 p{17, 17, 17};
  const Case& c = case_for(p);
  const ShaderGemmResult broken =
      run_shader_gemm(ShaderMode::kRgbaPacked, c.a.data(), c.b.data(), p.M, p.N, p.K, 1, library);
  EXPECT_NE(broken.error.find("gemm_rgba_packed.frag"), std::string::npos) << broken.error;
  EXPECT_NE(broken.error.find("error"), std::string::npos) << broken.error;
  EXPECT_TRUE(library.loaded(ShaderMode::kMultipass));
  const ShaderGemmResult fine =
      run_shader_gemm(ShaderMode::kMultipass, c.a.data(), c.b.data(), p.M, p.N, p.K, 1, library);
  EXPECT_TRUE(fine.error.empty()) << fine.error;
}

TEST_F(ShaderGemmEngine, ReloadPicksUpAnEditedShader) {
  ShaderDir dir;
  ShaderLibrary library(dir.path());
  std::string error;
  ASSERT_TRUE(library.reload(&error)) << error;
  const Problem3 p{17, 17, 40};
  const Case& c = case_for(p);
  const ShaderGemmResult before =
      run_shader_gemm(ShaderMode::kMultipass, c.a.data(), c.b.data(), p.M, p.N, p.K, 1, library);
  ASSERT_TRUE(before.error.empty()) << before.error;

  // The learner's edit: the fragment writes twice its sum.
  ASSERT_TRUE(
      dir.edit(ShaderMode::kMultipass, "o_c = vec4(sum, 0.0, 0.0, 0.0);", "o_c = vec4(2.0 * sum, 0.0, 0.0, 0.0);"));

  // Not yet reloaded: the old program runs.
  const ShaderGemmResult stale =
      run_shader_gemm(ShaderMode::kMultipass, c.a.data(), c.b.data(), p.M, p.N, p.K, 1, library);
  ASSERT_TRUE(stale.error.empty()) << stale.error;
  EXPECT_EQ(stale.c, before.c);

  ASSERT_TRUE(library.reload(&error)) << error;
  const ShaderGemmResult after =
      run_shader_gemm(ShaderMode::kMultipass, c.a.data(), c.b.data(), p.M, p.N, p.K, 1, library);
  ASSERT_TRUE(after.error.empty()) << after.error;
  ASSERT_EQ(after.c.size(), before.c.size());
  for (std::size_t i = 0; i < before.c.size(); ++i)
    EXPECT_EQ(after.c[i], 2.0f * before.c[i]) << i;  // exact: x2 is exact
}

TEST(ShaderGemmLibrary, DefaultDirectoryIsTheSourceTreeOrTheEnvironment) {
  const char* saved = std::getenv("TILESCOPE_SHADERS");
  const std::string saved_value = saved ? saved : "";
  unsetenv("TILESCOPE_SHADERS");
  const std::string dir = ShaderLibrary::default_directory();
  struct stat info {};
  EXPECT_EQ(stat((dir + "/" + shader_vertex_file()).c_str(), &info), 0) << dir;
  setenv("TILESCOPE_SHADERS", "/somewhere/else", 1);
  EXPECT_EQ(ShaderLibrary::default_directory(), "/somewhere/else");
  EXPECT_EQ(ShaderLibrary("/x").directory(), "/x");
  if (saved)
    setenv("TILESCOPE_SHADERS", saved_value.c_str(), 1);
  else
    unsetenv("TILESCOPE_SHADERS");
}

}  // namespace
}  // namespace tilescope
