// The texture shaders' GL thread beside the UI on Mesa's software renderer (llvmpipe): the UI's
// frames must not wait for a run, a run too long for a class is refused before it draws with an
// estimate and a size that fits, and a long run shows its progress. On a GPU these tests skip:
// the stalls and the hour-long runs were llvmpipe's.
#include "app/gl_gemm/gl_shader_runner.h"

#include <GL/gl.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "app/gl_gemm/shader_gemm.h"
#include "app/platform/software_renderer.h"
#include "kernels/measure/measure.h"
#include "tests/gui/gui_test_support.h"
#include "tests/support/variant_picks.h"

namespace tilescope {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

RunRequest request(ShaderMode mode, int n, int repetitions) {
  RunRequest r;
  r.variant_id = testing::shader_variant_desc().id;
  r.config_index = testing::shader_config_of(mode);
  r.shape = Shape{n, n, n};
  r.repetitions = repetitions;
  r.warmup = 0;
  r.verify = false;
  return r;
}

// The GL thread's renderer, from a small run.
std::string shader_renderer(Measurer& measurer) {
  const RunResult r = measurer.run(request(ShaderMode::kMrt8, 16, 1));
  EXPECT_TRUE(r.ok()) << r.error;
  return gl_shader_thread_info().renderer;
}

class GlShaderRunner : public ::testing::Test {
 protected:
  void SetUp() override { install_gl_shader_runner(); }
  void TearDown() override { set_gl_shader_time_limit(0); }
};

// A headless UI (Mesa's surfaceless EGL display) draws frames while the GL thread draws multipass
// at 1024 (about 9 s a run on 2 cores). When the GL thread drew on the same display, each frame's
// glFinish waited behind the run's draws: the longest frame was the run.
TEST_F(GlShaderRunner, TheUiDrawsFramesWhileARunDraws) {
  auto host = testing::make_host(640, 360);
  ASSERT_TRUE(host);
  if (!software_renderer(host->renderer())) GTEST_SKIP() << "a GPU (" << host->renderer() << ") schedules both";
  Measurer measurer;
  RunResult result;
  std::thread worker([&] { result = measurer.run(request(ShaderMode::kMultipass, 1024, 1)); });
  // Until the run itself draws (its fetch rate is measured first, on a small run).
  const auto start = std::chrono::steady_clock::now();
  while (gl_shader_progress().what.find("1024") == std::string::npos && seconds_since(start) < 30)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  double longest_ms = 0;
  int frames = 0;
  const auto drawing = std::chrono::steady_clock::now();
  while (seconds_since(drawing) < 1.5) {
    const auto frame_start = std::chrono::steady_clock::now();
    host->begin_frame();
    ImGui::Text("frame %d", frames);
    host->end_frame();
    glFinish();  // the frame is drawn, not only queued
    longest_ms = std::max(longest_ms, seconds_since(frame_start) * 1e3);
    ++frames;
  }
  const GlShaderProgress progress = gl_shader_progress();
  measurer.cancel_flag().store(true);
  worker.join();
  std::printf("UI frames while multipass at 1024 drew: %d in 1.5 s, the longest %.0f ms\n", frames, longest_ms);
  EXPECT_EQ(result.error, "cancelled");
  // Sharing the display, frames waited for whole runs (seconds); with slices, for one slice each
  // (15 frames in 1.5 s, the longest 238 ms); on a display of its own about 500 frames.
  EXPECT_LT(longest_ms, 500) << frames << " frames";
  EXPECT_GE(frames, 50) << "the longest " << longest_ms << " ms";
  EXPECT_TRUE(progress.drawing);
  EXPECT_GT(progress.fraction, 0) << "slices of the run were drawn and counted";
  EXPECT_LT(progress.fraction, 1);
  EXPECT_NE(gl_shader_thread_info().context.find("EGL_MESA_device_software"), std::string::npos)
      << "a display of its own: " << gl_shader_thread_info().context;
}

// With a limit set (the window's), a run whose estimate exceeds it is refused before it draws,
// with the estimate and the size that fits; that size then runs, within the limit.
TEST_F(GlShaderRunner, ARunLongerThanTheLimitIsRefusedWithASizeThatFits) {
  Measurer measurer;
  if (!software_renderer(shader_renderer(measurer))) GTEST_SKIP() << "nothing is refused on a GPU";
  constexpr double kLimit = 4;
  set_gl_shader_time_limit(kLimit);
  const auto start = std::chrono::steady_clock::now();
  const RunResult refused = measurer.run(request(ShaderMode::kMultipass, 2048, 1));
  const double refusal_seconds = seconds_since(start);
  EXPECT_LT(refusal_seconds, 3) << "refused before drawing (2 runs at 2048 draw for minutes)";
  const std::string& why = refused.error;
  std::printf("%s\n", why.c_str());
  const VariantDescriptor& shaders = testing::shader_variant_desc();
  const std::string run =
      std::string(shaders.id) + " " + shaders.configs[testing::shader_config_of(ShaderMode::kMultipass)].name;
  EXPECT_EQ(why.rfind("refused: " + run + " at 2048 would take about ", 0), 0u) << why;
  EXPECT_NE(why.find("llvmpipe"), std::string::npos) << why;
  EXPECT_NE(why.find("the limit for the texture shaders on a software renderer is 4 s"), std::string::npos) << why;
  const std::string advice = "choose N <= ";
  const std::size_t at = why.find(advice);
  ASSERT_NE(at, std::string::npos) << why;
  const int fits = std::atoi(why.c_str() + at + advice.size());
  ASSERT_GT(fits, 0) << why;
  ASSERT_LT(fits, 2048) << why;
  const auto fitting = std::chrono::steady_clock::now();
  const RunResult ran = measurer.run(request(ShaderMode::kMultipass, fits, 1));
  EXPECT_TRUE(ran.ok()) << ran.error;
  // The estimate projects one measured run, on a machine whose load moves: a margin, but not the
  // minutes of the refused size.
  EXPECT_LT(seconds_since(fitting), 5 * kLimit);
}

// The process's peak resident memory in kB since reset_peak_memory() (VmHWM).
long peak_memory_kb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

// Sets the peak to the memory resident now ("5" in clear_refs); false where the kernel refuses.
bool reset_peak_memory() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return clear.good();
}

// The refusal is decided before the Measurer makes the inputs: at 8192 they are 1.5 GB of host
// memory (A and B in double for the reference, in float for the engine), which a refused run
// would make and fill for nothing.
TEST_F(GlShaderRunner, ARefusedRunMakesNoInputs) {
  Measurer measurer;
  if (!software_renderer(shader_renderer(measurer))) GTEST_SKIP() << "nothing is refused on a GPU";
  set_gl_shader_time_limit(4);
  if (!reset_peak_memory()) GTEST_SKIP() << "the peak memory cannot be reset here";
  const long before_kb = peak_memory_kb();
  const RunResult refused = measurer.run(request(ShaderMode::kMultipass, 8192, 1));
  EXPECT_EQ(refused.error.rfind("refused: ", 0), 0u) << refused.error;
  EXPECT_LT(peak_memory_kb() - before_kb, 256 * 1024) << "the inputs of the refused run were made";
}

// Without a limit (bench, tests) nothing is refused: the same size starts drawing.
TEST_F(GlShaderRunner, WithoutALimitNothingIsRefused) {
  Measurer measurer;
  if (!software_renderer(shader_renderer(measurer))) GTEST_SKIP() << "nothing is refused on a GPU";
  RunResult result;
  std::thread worker([&] { result = measurer.run(request(ShaderMode::kMultipass, 2048, 1)); });
  const auto start = std::chrono::steady_clock::now();
  while (gl_shader_progress().what.find("2048") == std::string::npos && seconds_since(start) < 30)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  measurer.cancel_flag().store(true);
  worker.join();
  EXPECT_EQ(result.error, "cancelled") << "it was drawing, not refused";
}

}  // namespace
}  // namespace tilescope
