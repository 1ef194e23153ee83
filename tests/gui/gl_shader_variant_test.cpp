// The texture-shader variant as the rest of the program sees it: a registry variant measured by
// the Measurer (inputs, poison check, reference, statistics) through the runner main() installs,
// which draws on a GL thread of its own. Runs on Mesa (EGL surfaceless, llvmpipe) in CI and on
// the NVIDIA driver on the GPU machine; no CUDA needed.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

#include "app/gl_gemm/gl_shader_runner.h"
#include "app/gl_gemm/shader_gemm.h"
#include "app/platform/host.h"
#include "app/platform/software_renderer.h"
#include "kernels/core/external_runner.h"
#include "kernels/core/registry.h"
#include "kernels/measure/measure.h"
#include "tests/gui/gui_test_support.h"
#include "tests/support/variant_picks.h"

namespace tilescope {
namespace {

// The GL thread ends before main() returns, as in the program (gl_shader_runner.h says why).
class StopGlThreadAtTheEnd : public ::testing::Environment {
 public:
  void TearDown() override { stop_gl_shader_runner(); }
};
const ::testing::Environment* const kStopGlThread = ::testing::AddGlobalTestEnvironment(new StopGlThreadAtTheEnd);

class GlShaderVariant : public ::testing::Test {
 protected:
  void SetUp() override { install_gl_shader_runner(); }
};

using testing::shader_config_of;
using testing::shader_variant_desc;

// A run of the texture-shader variant (picked by its backend) in the configuration that the
// engine draws in `mode` (picked by TileConfig::engine_mode).
RunRequest request(ShaderMode mode, Problem problem, Shape shape, int repetitions = 1) {
  RunRequest r;
  r.variant_id = shader_variant_desc().id;
  r.config_index = shader_config_of(mode);
  r.problem = problem;
  r.shape = shape;
  r.repetitions = repetitions;
  r.warmup = 0;
  r.seed = 11;
  return r;
}

// The GL thread reads its shaders from `dir` for the scope. Reloads are lazy (the GL thread
// re-reads $TILESCOPE_SHADERS before its next run), so asking for one in the destructor, before
// env_ is restored, still reloads from the restored folder.
class ScopedShaderDir {
 public:
  explicit ScopedShaderDir(const std::string& dir) : env_(dir) { request_shader_reload(); }
  ~ScopedShaderDir() { request_shader_reload(); }

 private:
  testing::ScopedShaderEnv env_;
};

std::string describe(const RunResult& r) {
  std::ostringstream o;
  o << r.config_name << " " << to_string(r.problem) << " " << r.shape.M << "x" << r.shape.N << "x" << r.shape.K
    << ": error='" << r.error << "' rel_error=" << r.rel_error << " tol=" << r.tolerance << " unwritten=" << r.unwritten
    << " ref=" << r.reference;
  return o.str();
}

// Every configuration, on sizes that are not multiples of any packing (1, 17, 255), a
// rectangular case, and AᵀA, against the double reference, with the poison check.
TEST_F(GlShaderVariant, EveryConfigurationPassesThroughTheMeasurer) {
  Measurer measurer;
  const VariantDescriptor& v = shader_variant_desc();
  const Shape shapes[] = {{1, 1, 1}, {17, 17, 17}, {255, 255, 255}, {100, 37, 129}};
  for (const TileConfig& cfg : v.configs) {
    for (const Shape& s : shapes) {
      const RunResult r = measurer.run(request(static_cast<ShaderMode>(cfg.engine_mode), Problem::Gemm, s));
      SCOPED_TRACE(describe(r));
      ASSERT_TRUE(r.ok());
      EXPECT_TRUE(r.verified && r.passed);
      EXPECT_EQ(r.unwritten, 0);
      EXPECT_EQ(r.reference, "cpu_fp64");
      EXPECT_EQ(r.config_name, cfg.name);
      EXPECT_EQ(r.backend, to_string(Backend::GlShader));
      EXPECT_GT(r.median_ms, 0);
      EXPECT_GT(r.gflops, 0);
      EXPECT_GT(r.passes, 0);
      EXPECT_GT(r.fetches_per_fma, 0);
      EXPECT_FALSE(r.device_name.empty());
      EXPECT_TRUE(r.timer == "gl_time_elapsed" || r.timer == "wall_clock") << r.timer;
    }
    const RunResult ata =
        measurer.run(request(static_cast<ShaderMode>(cfg.engine_mode), Problem::Ata, Shape{0, 70, 33}));
    SCOPED_TRACE(describe(ata));
    ASSERT_TRUE(ata.ok());
    EXPECT_TRUE(ata.passed);
    EXPECT_EQ(ata.shape.M, 70);
  }
}

// Above kCpuReferenceMaxWork the reference is cublasDgemm where CUDA exists (the GPU machine),
// else a sampled CPU reference (CI); both must pass, and the poison check covers all of C.
TEST_F(GlShaderVariant, LargeSizesAreCheckedAgainstAnFp64Reference) {
  Measurer measurer;
  for (ShaderMode mode : {ShaderMode::kRgbaPacked, ShaderMode::kMrt8}) {
    const RunResult r = measurer.run(request(mode, Problem::Gemm, Shape{513, 515, 517}));
    SCOPED_TRACE(describe(r));
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r.reference == "cublas_dgemm" || r.reference == "cpu_fp64_sampled") << r.reference;
    EXPECT_TRUE(r.passed);
    EXPECT_EQ(r.unwritten, 0);
    EXPECT_GT(r.rel_error, 0) << "float arithmetic is never exact at K = 517";
  }
}

// AᵀA above kCpuReferenceMaxWork: the reference gets A's transpose and A itself (K x N each).
TEST_F(GlShaderVariant, LargeAtaIsCheckedAgainstAnFp64Reference) {
  Measurer measurer;
  const RunResult r = measurer.run(request(ShaderMode::kMrt8, Problem::Ata, Shape{0, 400, 350}));
  SCOPED_TRACE(describe(r));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.reference == "cublas_dgemm" || r.reference == "cpu_fp64_sampled") << r.reference;
  EXPECT_TRUE(r.passed);
  EXPECT_EQ(r.unwritten, 0);
}

// The counts the History tab shows: one output per fragment fetches 2 texels per FMA; 4 x 8 per
// fragment fetches 12 texels per 128 FMAs (at sizes needing no padding). The expected count of
// each configuration is in tests/data/variant_facts.json (fetches_per_fma), which must cover
// every configuration and name no other.
TEST_F(GlShaderVariant, FetchesPerFmaFollowTheModes) {
  Measurer measurer;
  const VariantDescriptor& v = shader_variant_desc();
  const nlohmann::json& expected = testing::facts_of(v).at("fetches_per_fma");
  ASSERT_EQ(expected.size(), v.configs.size()) << "variant_facts.json: one fetches_per_fma per configuration";
  for (const TileConfig& cfg : v.configs) {
    ASSERT_TRUE(expected.contains(cfg.name)) << "variant_facts.json: no fetches_per_fma for " << cfg.name;
    const double want = expected.at(cfg.name).get<double>();
    const ShaderMode mode = static_cast<ShaderMode>(cfg.engine_mode);
    const RunResult r = measurer.run(request(mode, Problem::Gemm, Shape{64, 64, 64}));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_DOUBLE_EQ(r.fetches_per_fma, want) << cfg.name;
    EXPECT_DOUBLE_EQ(describe_shader_plan(mode, 64, 64, 64).fetches_per_fma, want) << cfg.name;
  }
  EXPECT_DOUBLE_EQ(describe_shader_plan(ShaderMode::kMrt8, 64, 64, 64).fetches_per_fma, 12.0 / 128);
}

TEST_F(GlShaderVariant, DoubleIsRefusedWithTheReason) {
  Measurer measurer;
  RunRequest r = request(ShaderMode::kMrt8, Problem::Gemm, Shape{32, 32, 32});
  r.precision = Precision::F64;
  const RunResult res = measurer.run(r);
  EXPECT_FALSE(res.ok());
  EXPECT_NE(res.error.find("float only"), std::string::npos) << res.error;
}

TEST_F(GlShaderVariant, BadSizesAreRefusedNotCrashed) {
  Measurer measurer;
  EXPECT_NE(measurer.run(request(ShaderMode::kMrt, Problem::Gemm, Shape{0, 5, 5})).error.find("at least 1"),
            std::string::npos);
  const RunResult huge = measurer.run(request(ShaderMode::kMrt, Problem::Gemm, Shape{100000, 8, 8}));
  EXPECT_FALSE(huge.ok());
  EXPECT_NE(huge.error.find("65536"), std::string::npos) << huge.error;
  // Within our limit but beyond this GL's GL_MAX_TEXTURE_SIZE: the engine names the limit.
  const RunResult wide = measurer.run(request(ShaderMode::kMultipass, Problem::Gemm, Shape{1, 1, 40000}));
  EXPECT_FALSE(wide.ok());
  EXPECT_NE(wide.error.find("GL_MAX_TEXTURE_SIZE"), std::string::npos) << wide.error;
}

// A shader that leaves half of its fragments unwritten: the NaN poison must survive there and
// the run must fail its check. Then Reload with the real shaders passes again.
TEST_F(GlShaderVariant, PoisonCatchesUnwrittenElementsAndReloadRestores) {
  const testing::ShaderDir dir;
  std::string source = testing::read_file(dir.file(ShaderMode::kMultipass));
  // Discard every other column of fragments, first thing in main().
  const std::size_t main_at = source.find("void main()");
  ASSERT_NE(main_at, std::string::npos);
  source.insert(source.find('{', main_at) + 1, "\n  if (int(gl_FragCoord.x) % 2 == 1) discard;\n");
  testing::write_file(dir.file(ShaderMode::kMultipass), source);
  Measurer measurer;
  {
    const ScopedShaderDir broken_shaders(dir.path());
    const RunResult broken = measurer.run(request(ShaderMode::kMultipass, Problem::Gemm, Shape{20, 20, 20}));
    ASSERT_TRUE(broken.ok()) << broken.error;
    EXPECT_EQ(broken.unwritten, 20 * 10);
    EXPECT_FALSE(broken.passed);
    EXPECT_EQ(gl_shader_thread_info().shader_dir, dir.path());
  }
  const RunResult fixed = measurer.run(request(ShaderMode::kMultipass, Problem::Gemm, Shape{20, 20, 20}));
  ASSERT_TRUE(fixed.ok()) << fixed.error;
  EXPECT_TRUE(fixed.passed);
  EXPECT_EQ(fixed.unwritten, 0);
  EXPECT_TRUE(gl_shader_thread_info().load_log.empty()) << gl_shader_thread_info().load_log;
}

// A shader that does not compile: the run fails with the file and the compiler's log.
TEST_F(GlShaderVariant, CompileErrorsReachTheResult) {
  const testing::ShaderDir dir;
  testing::write_file(dir.file(ShaderMode::kMrt), "#version 330 core\nvoid main() { this is not glsl; }\n");
  const ScopedShaderDir bad_shaders(dir.path());
  Measurer measurer;
  const RunResult bad = measurer.run(request(ShaderMode::kMrt, Problem::Gemm, Shape{8, 8, 8}));
  EXPECT_FALSE(bad.ok());
  const std::string broken_file = shader_mode_fragment_file(ShaderMode::kMrt);
  EXPECT_EQ(broken_file, "gemm_mrt.frag");
  EXPECT_NE(bad.error.find(broken_file), std::string::npos) << bad.error;
  const RunResult other = measurer.run(request(ShaderMode::kMrt8, Problem::Gemm, Shape{8, 8, 8}));
  EXPECT_TRUE(other.ok() && other.passed) << "one broken shader leaves the others usable: " << other.error;
  EXPECT_NE(gl_shader_thread_info().load_log.find(broken_file), std::string::npos);
}

// Cancel stops a long run between passes, well within a second.
TEST_F(GlShaderVariant, CancelStopsALongRunQuickly) {
  Measurer measurer;
  // 2000 runs: seconds on an H100 (about 4 ms each), many minutes on llvmpipe (about 0.3 s each).
  RunRequest r = request(ShaderMode::kMultipass, Problem::Gemm, Shape{512, 512, 512}, 2000);
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    measurer.cancel_flag().store(true);
  });
  const auto t0 = std::chrono::steady_clock::now();
  const RunResult res = measurer.run(r);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  stopper.join();
  EXPECT_EQ(res.error, "cancelled");
  EXPECT_LT(seconds, 1.5) << "the cancel landed after 0.3 s";
  measurer.cancel_flag().store(false);
}

// In the window on a GPU the GL thread uses a hidden window of the window's own GL (on the NVIDIA
// driver an EGL context there could not be made current beside the window's GLX one); on llvmpipe
// an EGL display of its own, since the hidden window would share the window's rasterizer. When
// the window goes, it is back to headless EGL. Every arrangement must give correct rows.
TEST_F(GlShaderVariant, InTheWindowTheGlThreadUsesAHiddenWindowsContextOnAGpu) {
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no DISPLAY: scripts/test.sh runs the GUI tests under xvfb-run";
  Measurer measurer;
  {
    HostOptions options;
    options.width = 320;
    options.height = 200;
    options.vsync = false;
    options.on_worker_context = [](GlThreadContext* c) { set_gl_thread_context(c); };
    std::string error;
    auto window = create_window_host(options, &error);
    ASSERT_TRUE(window) << error;
    const RunResult r = measurer.run(request(ShaderMode::kMrt8, Problem::Gemm, Shape{70, 90, 33}));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_TRUE(r.passed);
    const std::string context = gl_shader_thread_info().context;
    if (software_renderer(window->renderer())) {
      EXPECT_NE(context.find("EGL"), std::string::npos) << context;
      EXPECT_NE(context.find("not the window's hidden context"), std::string::npos) << context;
    } else {
      EXPECT_NE(context.find("GLFW"), std::string::npos) << context;
    }
  }
  const RunResult after = measurer.run(request(ShaderMode::kMrt8, Problem::Gemm, Shape{70, 90, 33}));
  ASSERT_TRUE(after.ok()) << after.error;
  EXPECT_TRUE(after.passed);
  EXPECT_NE(gl_shader_thread_info().context.find("EGL"), std::string::npos) << gl_shader_thread_info().context;
}

// Without the runner (a build without OpenGL) the variant is refused with a reason, not run.
TEST(GlShaderVariantWithoutGl, RefusedWithAReason) {
  const ExternalRunner saved = external_runner(Backend::GlShader);
  install_external_runner(Backend::GlShader, ExternalRunner());
  Measurer measurer;
  const RunResult r = measurer.run(request(ShaderMode::kMrt8, Problem::Gemm, Shape{8, 8, 8}));
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("OpenGL"), std::string::npos) << r.error;
  install_external_runner(Backend::GlShader, saved);
}

}  // namespace
}  // namespace tilescope
