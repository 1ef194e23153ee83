// The History tab (ui/history_panel): the arithmetic behind its tables, the pass schedule and
// texel layout it draws (checked against the engine's own plan), the whole tab rendered
// headless for every mode, and the Reload button's compile log.
#include "app/ui/history/history_panel.h"

#include <GL/gl.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "app/export/png_writer.h"
#include "app/platform/host.h"
#include "app/ui/shell/app.h"
#include "app/viz/colors.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/image_checks.h"
#include "tests/gui/text_clip_check.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
using namespace tilescope::testing;

namespace {

// ---- pure logic --------------------------------------------------------------------------------

TEST(HistoryPanelLogic, PassScheduleIsExactlyTheEnginesPlan) {
  const std::vector<std::tuple<int, int, int>> sizes = {{37, 200, 130},   {130, 70, 300}, {5, 3, 1},
                                                        {200, 200, 1000}, {64, 64, 64},   {129, 65, 257}};
  for (ShaderMode mode : all_shader_modes())
    for (const auto& [M, N, K] : sizes) {
      const ShaderPlanSummary plan = describe_shader_plan(mode, M, N, K);
      const PassSchedule s = shader_pass_schedule(mode, M, N, K);
      SCOPED_TRACE(std::string(shader_mode_fragment_file(mode)) + " " + std::to_string(M) + "x" + std::to_string(N) +
                   "x" + std::to_string(K));
      ASSERT_EQ(s.total(), static_cast<long long>(plan.passes.size()));
      for (long long p = 0; p < s.total(); ++p) {
        const ShaderPass a = s.pass(p), b = plan.passes[static_cast<std::size_t>(p)];
        ASSERT_EQ(std::make_tuple(a.x, a.y, a.w, a.h, a.k0, a.klen), std::make_tuple(b.x, b.y, b.w, b.h, b.k0, b.klen))
            << "pass " << p;
      }
    }
  // The blocked mode's quads are its T x T tiles; the others draw the whole target.
  EXPECT_EQ(shader_pass_schedule(ShaderMode::kBlocked, 512, 512, 512).quads.size(), 64u);
  EXPECT_EQ(shader_pass_schedule(ShaderMode::kMrt8, 512, 512, 512).quads.size(), 1u);
  // Sizes whose full pass list would be huge are still described (blocked at 16384: 8 M passes).
  const PassSchedule big = shader_pass_schedule(ShaderMode::kBlocked, 16384, 16384, 16384);
  EXPECT_EQ(big.total(), 256LL * 256 * (16384 / default_k_chunk(ShaderMode::kBlocked)));
}

TEST(HistoryPanelLogic, EveryElementHasItsOwnTexelSlotInsideTheTextures) {
  for (ShaderMode mode : all_shader_modes())
    for (char matrix : {'A', 'B', 'C'})
      for (int side : {8, 12, 16}) {
        const ShaderPlanSummary ex = describe_shader_plan(mode, side, side, side);
        int w = ex.target_width, h = ex.target_height, channels = ex.channels, targets = ex.targets;
        if (matrix == 'A') w = ex.a_width, h = ex.a_height, channels = ex.a_channels, targets = 1;
        if (matrix == 'B') w = ex.b_width, h = ex.b_height, channels = ex.b_channels, targets = 1;
        std::set<std::tuple<int, int, int, int>> seen;
        for (int i = 0; i < side; ++i)
          for (int j = 0; j < side; ++j) {
            const TexelSlot s = shader_texel_of(mode, matrix, i, j);
            SCOPED_TRACE(std::string(shader_mode_fragment_file(mode)) + " " + matrix + "(" + std::to_string(i) + ", " +
                         std::to_string(j) + ")");
            EXPECT_GE(s.x, 0);
            EXPECT_LT(s.x, w);
            EXPECT_GE(s.y, 0);
            EXPECT_LT(s.y, h);
            EXPECT_LT(s.channel, channels);
            EXPECT_LT(s.target, targets);
            EXPECT_TRUE(seen.insert({s.target, s.x, s.y, s.channel}).second) << "two elements in one slot";
          }
      }
}

TEST(HistoryPanelLogic, TexelSlotsFollowThePackingRules) {
  // Where element (i, j) of a matrix lands: (target, texel x, texel y, channel).
  auto slot = [](ShaderMode mode, char matrix, int i, int j) {
    const TexelSlot s = shader_texel_of(mode, matrix, i, j);
    return std::make_tuple(s.target, s.x, s.y, s.channel);
  };
  // rgba_packed: (r, g, b, a) = (x00, x01, x10, x11) of a 2 x 2 block.
  EXPECT_EQ(slot(ShaderMode::kRgbaPacked, 'C', 3, 2), std::make_tuple(0, 1, 1, 2));
  // mrt: target i % 4, texel (j / 4, i / 4), channel j % 4.
  EXPECT_EQ(slot(ShaderMode::kMrt, 'C', 6, 5), std::make_tuple(2, 1, 1, 1));
  // mrt8: target 2 (i % 4) + (j % 8) / 4, texel (j / 8, i / 4), channel j % 4.
  EXPECT_EQ(slot(ShaderMode::kMrt8, 'C', 5, 6), std::make_tuple(3, 0, 1, 2));
  EXPECT_EQ(slot(ShaderMode::kMrt8, 'C', 7, 13), std::make_tuple(7, 1, 1, 1));
  // MRT inputs: four consecutive k of a row of A, four consecutive columns of a row of B.
  EXPECT_EQ(slot(ShaderMode::kMrt8, 'A', 2, 9), std::make_tuple(0, 2, 2, 1));
  EXPECT_EQ(slot(ShaderMode::kMrt, 'B', 9, 6), std::make_tuple(0, 1, 9, 2));
  // One float per texel: texel (col, row).
  EXPECT_EQ(slot(ShaderMode::kBlocked, 'A', 3, 7), std::make_tuple(0, 7, 3, 0));
}

// The name of the texture-shader configuration drawn in `mode` (picked by engine_mode).
std::string config_of(ShaderMode mode) {
  return tilescope::testing::shader_config_name(mode);
}

RunResult shader_row(ShaderMode mode, double gflops) {
  RunResult r;
  r.variant_id = tilescope::testing::shader_variant_desc().id;
  r.config_name = config_of(mode);
  r.precision = Precision::F32;
  r.shape = Shape{1024, 1024, 1024};
  r.gflops = gflops;
  r.device_name = "NVIDIA H100 80GB HBM3/PCIe/SSE2";
  r.verified = true;
  r.passed = true;
  return r;
}

TEST(HistoryPanelLogic, BestRowIsTheFastestCorrectFloatRunOfThatConfiguration) {
  const std::string mrt8 = config_of(ShaderMode::kMrt8), mrt = config_of(ShaderMode::kMrt);
  const std::string multipass = config_of(ShaderMode::kMultipass);
  ASSERT_NE(mrt8, mrt);
  ASSERT_NE(mrt8, multipass);
  std::vector<RunResult> rows;
  rows.push_back(shader_row(ShaderMode::kMrt8, 600));
  rows.push_back(shader_row(ShaderMode::kMrt8, 650));  // the one
  rows.push_back(shader_row(ShaderMode::kMrt, 900));   // other configuration
  RunResult other = shader_row(ShaderMode::kMrt8, 5000);
  // Another variant (any one that is not the texture shaders) with the same configuration name.
  other.variant_id =
      tilescope::testing::variant_where([](const VariantDescriptor& v) { return v.backend != Backend::GlShader; },
                                        "not drawn by OpenGL shaders")
          .id;
  rows.push_back(other);
  RunResult f64 = shader_row(ShaderMode::kMrt8, 2000);
  f64.precision = Precision::F64;
  rows.push_back(f64);
  RunResult failed = shader_row(ShaderMode::kMrt8, 3000);
  failed.error = "cancelled";
  rows.push_back(failed);
  RunResult wrong = shader_row(ShaderMode::kMrt8, 4000);
  wrong.passed = false;
  rows.push_back(wrong);
  RunResult unchecked = shader_row(ShaderMode::kMrt8, 640);
  unchecked.verified = false, unchecked.passed = false;  // verify off: still a measurement
  rows.push_back(unchecked);

  const RunResult* best = best_shader_row(rows, mrt8);
  ASSERT_NE(best, nullptr);
  EXPECT_EQ(best, &rows[1]);
  ASSERT_NE(best_shader_row(rows, mrt), nullptr);
  EXPECT_DOUBLE_EQ(best_shader_row(rows, mrt)->gflops, 900);
  EXPECT_EQ(best_shader_row(rows, multipass), nullptr);
  EXPECT_EQ(best_shader_row({}, mrt8), nullptr);
}

TEST(HistoryPanelLogic, FetchBoundIsSmsTimesFetchRateTimesClockTimesFlopsPerFetch) {
  // mrt8: 12 fetches per 128 FMAs -> 21.3 flops per fetch; 4 SMs x 4 fetches x 1.98 GHz = 675.8 GFLOP/s,
  // the bound the H100 probe's 640-670 GFLOP/s sat at ~95 % of.
  EXPECT_NEAR(fetch_bound_gflops(12.0 / 128.0, 1980), 675.84, 1e-9);
  EXPECT_NEAR(fetch_bound_gflops(0.25, 1980), 253.44, 1e-9);   // rgba_packed
  EXPECT_NEAR(fetch_bound_gflops(0.125, 1980), 506.88, 1e-9);  // mrt
  EXPECT_NEAR(fetch_bound_gflops(2.0, 1000, 132, 4), 528.0, 1e-9);
  EXPECT_EQ(fetch_bound_gflops(0, 1980), 0);
  EXPECT_EQ(fetch_bound_gflops(0.25, 0), 0);

  DeviceInfo none;  // no GPU
  BoundClock c = fetch_bound_clock(nullptr, none);
  EXPECT_DOUBLE_EQ(c.mhz, 1980);
  EXPECT_STREQ(c.source, "assumed");
  DeviceInfo gpu;
  gpu.availability = GpuAvailability::Available;
  gpu.sm_clock_khz = 1755000;
  c = fetch_bound_clock(nullptr, gpu);
  EXPECT_DOUBLE_EQ(c.mhz, 1755);
  EXPECT_STREQ(c.source, "this GPU");
  RunResult row = shader_row(ShaderMode::kMrt8, 650);
  row.sm_clock_mhz = 1650;
  c = fetch_bound_clock(&row, gpu);
  EXPECT_DOUBLE_EQ(c.mhz, 1650);
  EXPECT_STREQ(c.source, "measured");
  row.sm_clock_mhz = 0;  // not recorded: the device's clock
  EXPECT_STREQ(fetch_bound_clock(&row, gpu).source, "this GPU");
}

// ---- the tab, rendered -------------------------------------------------------------------------

// One frame of the panel alone, in a window filling the host's frame, without rows or a GPU;
// its picture captured when `capture`.
void panel_frame(Host& host, HistoryPanel& panel, const AppState& state, bool capture = false) {
  host.begin_frame();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
  ImGui::Begin("history", nullptr, ImGuiWindowFlags_NoDecoration);
  panel.draw(state, {}, DeviceInfo());
  ImGui::End();
  if (capture) host.request_capture();
  host.end_frame();
}

// The panel alone on a headless host of its own (big enough for its tables), with the default state.
struct PanelAlone {
  std::unique_ptr<Host> host = make_host(1600, 1000);
  HistoryPanel panel;
  AppState state = default_app_state();
  void frame(bool capture = false) { panel_frame(*host, panel, state, capture); }
};

// A picture drawn, not blank, and OpenGL without an error after it.
void expect_drawn(const Image& img) {
  EXPECT_GT(distinct_colors(img), 40u);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// The colour of the last k-chunk (every pass drawn): the panel's ramp ends at heat_color(1).
const unsigned kLastChunk = heat_color(1.0);

TEST(HistoryPanelTab, EveryModeIsDrawnWithoutGlErrorsAndStepsThroughItsPasses) {
  auto host = make_host(1920, 1080);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  app.state().n = app.state().m = app.state().k = 256;
  app.show_history();
  frame(*host, app);
  for (int mode = 0; mode < kShaderModeCount; ++mode) {
    SCOPED_TRACE("mode " + std::to_string(mode));
    app.history_panel().select_mode(mode);
    for (int i = 0; i < 2; ++i) frame(*host, app);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    const Image all = screenshot(*host, app, "all.png");
    ASSERT_GT(all.width, 0);
    EXPECT_GT(distinct_colors(all), 60u) << "not a blank frame";
    // All passes drawn: the target(s) of C are filled with the last chunk's colour.
    const int filled = count_color(all, kLastChunk, 6);
    EXPECT_GT(filled, 40000) << "the completed passes are not drawn";

    app.history_panel().set_pass(0);  // nothing drawn: only the legend's cell has that colour
    frame(*host, app);
    const Image none = screenshot(*host, app, "none.png");
    EXPECT_LT(count_color(none, kLastChunk, 6), filled / 10) << "pass 0 still shows the passes as drawn";
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  }
}

TEST(HistoryPanelTab, MeasuredRowsAppearBesideTheHistoricalFigures) {
  auto host = make_host(1920, 3200);  // tall: the tables below the pictures are on screen
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  app.show_history();
  frame(*host, app);
  const Image before = screenshot(*host, app, "before.png");
  const unsigned ours = IM_COL32(240, 170, 60, 255), theirs = IM_COL32(110, 150, 210, 255);
  EXPECT_GT(count_color(before, theirs, 4), 200) << "the historical bars";
  const int ours_before = count_color(before, ours, 4);

  app.history().append(shader_row(ShaderMode::kMrt8, 650));
  app.history().append(shader_row(ShaderMode::kRgbaPacked, 250));
  for (int i = 0; i < 2; ++i) frame(*host, app);
  const Image after = screenshot(*host, app, "after.png");
  EXPECT_GT(count_color(after, ours, 4), ours_before + 400) << "this machine's bars";
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST(HistoryPanelTab, DoublePrecisionAndPresenterModeStillDraw) {
  auto host = make_host(1280, 720);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  app.state().precision = Precision::F64;
  app.state().presenter = true;
  app.show_history();
  app.history_panel().select_mode(2);
  app.history_panel().set_pass(1000);
  for (int i = 0; i < 4; ++i) frame(*host, app);  // presenter fonts are rebuilt between frames
  expect_drawn(screenshot(*host, app, "f64.png"));
}

// Sizes the window's controls allow with a GPU (up to 65536): the panel drawn on its own, so the
// size is not clamped to what the CPU path runs. Blocked at 16384 has 65,536 tiles and 8 M passes:
// a smaller example is drawn, quickly, and the rest of the tab still draws.
TEST(HistoryPanelTab, HugeSizesDrawASmallerExampleQuickly) {
  PanelAlone p;
  ASSERT_TRUE(p.host);
  for (int n : {16384, 65536}) {
    p.state.n = p.state.m = p.state.k = n;
    for (int mode = 0; mode < kShaderModeCount; ++mode) {
      SCOPED_TRACE("N = " + std::to_string(n) + ", mode " + std::to_string(mode));
      p.panel.select_mode(mode);
      p.panel.set_pass(mode == 2 ? 1000000 : 1);
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < 2; ++i) p.frame(i == 1);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      EXPECT_LT(seconds, 5.0) << "two frames";
      Image shot;
      std::string error;
      ASSERT_TRUE(p.host->take_capture(&shot, &error)) << error;
      expect_drawn(shot);
    }
  }
}

// The play speed's noun agrees with its number: "1 pass/s", never "1 passes/s". The speed starts
// at the passes over 12 s, at least 1: a plan of a few passes starts at 1, one of many above it.
TEST(HistoryPanelTab, ThePlaySpeedSaysPassForOne) {
  PanelAlone p;
  ASSERT_TRUE(p.host);
  struct Case {
    ShaderMode mode;
    int n;
    bool one;  // the speed starts at 1 pass/s
  };
  for (const Case c : {Case{ShaderMode::kMrt8, 16, true}, Case{ShaderMode::kMultipass, 4096, false}}) {
    const long long passes = describe_shader_layout(c.mode, c.n, c.n, c.n).total();
    SCOPED_TRACE(std::to_string(passes) + " passes");
    ASSERT_EQ(passes < 18, c.one) << "not a plan of the kind this case needs";
    p.state.n = p.state.m = p.state.k = c.n;
    p.panel.select_mode(shader_config_of(c.mode));
    for (int i = 0; i < 2; ++i) {
      prepare_fonts();
      p.frame();
    }
    std::string speed;
    for (const tilescope::testing::DrawnText& t : tilescope::testing::drawn_text())
      if (t.text.size() > 2 && t.text.compare(t.text.size() - 2, 2, "/s") == 0 &&
          t.text.find("pass") != std::string::npos)
        speed = t.text;
    if (c.one)
      EXPECT_EQ(speed, "1 pass/s");
    else
      EXPECT_NE(speed.find(" passes/s"), std::string::npos) << speed;
  }
}

// ---- the Reload button -----------------------------------------------------------------------

TEST(HistoryPanelReload, CompilesTheRealShadersAndNamesTheBrokenFile) {
  auto host = make_host(64, 64);  // a current GL context
  ASSERT_TRUE(host);
  const std::string real = std::string(TILESCOPE_SOURCE_DIR) + "/shaders";
  HistoryPanel panel;
  {
    ScopedShaderEnv env(real);
    EXPECT_EQ(panel.reload_shaders(), "");
    EXPECT_EQ(panel.reload_log(), "");
  }

  // A private copy of shaders/ with one fragment shader broken.
  const ShaderDir dir;
  const std::string broken = shader_mode_fragment_file(ShaderMode::kMrt);
  write_file(dir.file(ShaderMode::kMrt), read_file(dir.file(ShaderMode::kMrt)) + "\nthis is not GLSL;\n");
  {
    ScopedShaderEnv env(dir.path());
    const std::string log = panel.reload_shaders();
    EXPECT_FALSE(log.empty());
    EXPECT_NE(log.find(broken), std::string::npos) << log;
    EXPECT_EQ(log.find(shader_mode_fragment_file(ShaderMode::kMrt8)), std::string::npos)
        << "only the broken file: " << log;
    EXPECT_EQ(panel.reload_log(), log);
  }
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

}  // namespace
