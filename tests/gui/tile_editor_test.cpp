// The tile editor of the controls column (app/ui/shell/tile_editor.h), driven headless: a refused
// tile says why without compiling; a good one compiles with NVRTC on a thread of its own while
// frames keep coming, and its registers and occupancy show; "Use this tile" makes it a
// configuration the combo lists; a typed configuration survives the settings file and a lesson.
#include "app/ui/shell/tile_editor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "app/export/kernel_cache_files.h"
#include "app/ui/script/script.h"
#include "app/ui/shell/controls_panel.h"
#include "app/ui/shell/settings.h"
#include "app/ui/shell/typed_tile_names.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/cuda_libraries.h"
#include "kernels/cuda/device_info.h"
#include "kernels/jit/kernel_cache.h"
#include "kernels/jit/occupancy.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/text_clip_check.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
namespace ts = tilescope::testing;

namespace {

const VariantDescriptor& typed_variant() {
  return ts::typed_prefetch_kernel();
}

// `count` tiles the variant takes that this process has not typed yet (canonical names), drawn
// from `seed` around its default configuration (each parameter scaled by 1/2 ... 2). None is added.
std::vector<std::string> good_tiles(int count, std::uint64_t seed) {
  const VariantDescriptor& v = typed_variant();
  const TileValues defaults = v.tile_values_of(config_at(v, v.default_config));
  std::mt19937_64 rng(seed);
  const double scales[] = {0.5, 0.75, 1.25, 1.5, 2.0};
  std::vector<std::string> out;
  for (int tries = 0; tries < 5000 && static_cast<int>(out.size()) < count; ++tries) {
    TileValues values;
    for (const auto& [key, value] : defaults)
      values.emplace_back(key, std::max(1, static_cast<int>(value * scales[rng() % 5] + 0.5)));
    TileConfig cfg;
    std::string why;
    // A good tile also fits the shared memory of the architecture the editor compiles for without
    // a GPU (sm_90), so that its cost is shown in full.
    if (!typed_tile_config(v, values, &cfg, &why)) continue;
    ArchitectureLimits sm90;
    const bool fits = architecture_limits("sm_90", &sm90) &&
                      (!v.shared_bytes || v.shared_bytes(cfg, v.precisions.front()) <= sm90.shared_per_block_max);
    if (fits && find_config(v, cfg.name) < 0 && std::find(out.begin(), out.end(), cfg.name) == out.end())
      out.push_back(cfg.name);
  }
  return out;
}

TileValues values_of(const std::string& tile) {
  TileValues values;
  std::string error;
  EXPECT_TRUE(parse_tile_values(tile, &values, &error)) << error;
  return values;
}

// The App without a GPU, a private cache and config folder, the typed variant focused, and the
// editor (inside a controls column of its own) drawn in a window as tall as the host.
class TileEditorTest : public ::testing::Test {
 protected:
  TileEditorTest()
      : dir_("tilescope-tile-editor"),
        cache_("XDG_CACHE_HOME", dir_.path() + "/cache"),
        config_("XDG_CONFIG_HOME", dir_.path() + "/config") {}

  void SetUp() override {
    install_user_kernel_cache();
    host_ = ts::make_host(900, 2400);
    ASSERT_TRUE(host_);
    app_ = std::make_unique<App>(*host_, ts::without_gpu());
    AppState& s = app_->state();
    for (std::size_t i = 0; i < s.lesson.size(); ++i)
      if (s.lesson[i].variant_id == typed_variant().id) s.focused = static_cast<int>(i);
    frame();
  }
  void TearDown() override {
    app_.reset();
    install_kernel_cache(nullptr);  // the folder goes with the test
  }

  TabContext context() { return TabContext{*app_, app_->state(), probe_device(), app_->runner(), app_->history()}; }
  TileEditor& editor() { return panel_.tile_editor(); }

  // One frame of the controls column alone; its text is read back (drawn_text).
  double frame() {
    const auto start = std::chrono::steady_clock::now();
    ts::prepare_fonts();
    host_->begin_frame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
    ImGui::Begin("controls");
    TabContext ctx = context();
    panel_.draw(ctx);
    ImGui::End();
    host_->end_frame();
    text_ = ts::drawn_text();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
  // Whether the last frame drew a line holding `part` (in a window whose name holds `window`).
  bool shows(const std::string& part, const std::string& window = "") const {
    for (const ts::DrawnText& t : text_)
      if (t.text.find(part) != std::string::npos && t.window.find(window) != std::string::npos) return true;
    return false;
  }
  // The last frame's text as one string, its lines joined by the blanks they were wrapped at.
  std::string shown() const {
    std::string all;
    for (const ts::DrawnText& t : text_) all += t.text + " ";
    return all;
  }
  void type_tile(const std::string& tile) {
    for (const auto& [key, value] : values_of(tile)) editor().set_value(key, value);
  }
  // Frames until the compile under way has ended (at most two minutes); the slowest frame (ms)
  // and how many were drawn while it ran.
  void frames_while_compiling(double* slowest, int* count) {
    *slowest = 0;
    *count = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    while (editor().compiling() && std::chrono::steady_clock::now() < deadline) {
      *slowest = std::max(*slowest, frame());
      ++*count;
    }
  }

  ts::TempDir dir_;
  ts::ScopedEnv cache_, config_;
  std::unique_ptr<Host> host_;
  std::unique_ptr<App> app_;
  ControlsPanel panel_;
  std::vector<ts::DrawnText> text_;
};

TEST_F(TileEditorTest, ARefusedTileSaysWhyAtOnceAndNeverCompiles) {
  const VariantDescriptor& v = typed_variant();
  ASSERT_TRUE(shows("Type a tile")) << "the editor is drawn for a variant that takes typed tiles";
  // A tile of no rows: no variant takes it.
  TileValues values = v.tile_values_of(config_at(v, v.default_config));
  values[0].second = 0;
  TileConfig cfg;
  std::string why;
  ASSERT_FALSE(typed_tile_config(v, values, &cfg, &why));
  editor().set_value(values[0].first, 0);
  frame();
  EXPECT_EQ(editor().refusal(), why);
  EXPECT_NE(shown().find(why), std::string::npos) << "the reason, in words, the frame after the keystroke:\n"
                                                  << shown();
  // Well past the settling time: still nothing compiles.
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(2 * TileEditor::kSettleSeconds);
  while (std::chrono::steady_clock::now() < until) {
    frame();
    EXPECT_FALSE(editor().compiling());
  }
  TabContext ctx = context();
  EXPECT_FALSE(editor().compile(ctx)) << "Compile is refused too";
  EXPECT_FALSE(editor().use_tile(ctx));
  EXPECT_EQ(editor().result(), nullptr);
}

TEST_F(TileEditorTest, AGoodTileCompilesWhileFramesKeepComingAndShowsItsCost) {
  if (!nvrtc_library().loaded) GTEST_SKIP() << "NVRTC is not loaded here: " << nvrtc_library().error;
  const std::vector<std::string> tiles = good_tiles(1, 11);
  ASSERT_FALSE(tiles.empty());
  type_tile(tiles[0]);
  frame();
  EXPECT_EQ(editor().refusal(), "");
  EXPECT_FALSE(editor().compiling()) << "the edits have not settled yet";
  // The edits settle: the compile starts by itself, and frames keep coming while NVRTC works.
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(3 * TileEditor::kSettleSeconds);
  double slowest = 0;
  while (!editor().compiling() && std::chrono::steady_clock::now() < until) slowest = std::max(slowest, frame());
  ASSERT_TRUE(editor().compiling()) << "compiled by itself once the edits settled";
  slowest = std::max(slowest, frame());
  EXPECT_TRUE(shows("compiling")) << "the progress says so";
  double slowest_while = 0;
  int count = 0;
  frames_while_compiling(&slowest_while, &count);
  ASSERT_FALSE(editor().compiling());
  EXPECT_GE(count, 3) << "frames were drawn while the compile ran";

  const TileCompile* r = editor().result();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->tile, tiles[0]);
  ASSERT_TRUE(r->program.compiled) << r->error << r->program.error;
  // A frame that waited for NVRTC would take about as long as the compile. On a busy two-core
  // machine (software rendering beside the compile) a frame alone can pass 100 ms: the bound is
  // 100 ms or a third of the compile, whichever is longer.
  const double compile_ms = 1000 * r->program.compile_seconds;
  EXPECT_LT(std::max(slowest, slowest_while), std::max(100.0, compile_ms / 3))
      << "no frame waited for the compile (" << compile_ms << " ms)";
  ASSERT_FALSE(r->program.resources.empty());
  EXPECT_GT(r->program.resources[0].registers, 0);
  EXPECT_FALSE(r->program.from_cache);
  frame();
  EXPECT_TRUE(shows(std::to_string(r->program.resources[0].registers) + " registers per thread"));
  EXPECT_TRUE(shows("occupancy: "));
  // "1 block of 768 threads per SM", "2 blocks of 256 threads per SM": whichever the tile gives.
  EXPECT_TRUE(shows(" of " + std::to_string(r->threads) + " threads per SM")) << shown();
  EXPECT_TRUE(shows("compiled in"));

  // Compile pressed again: the cache has it.
  TabContext ctx = context();
  ASSERT_TRUE(editor().compile(ctx));
  frames_while_compiling(&slowest_while, &count);
  ASSERT_NE(editor().result(), nullptr);
  EXPECT_TRUE(editor().result()->program.from_cache) << editor().result()->program.cache_note;
  frame();
  EXPECT_TRUE(shows("from the cache"));
}

TEST_F(TileEditorTest, CancelDropsTheCompileAndTheEditorGoesOn) {
  if (!nvrtc_library().loaded) GTEST_SKIP() << "NVRTC is not loaded here: " << nvrtc_library().error;
  const std::vector<std::string> tiles = good_tiles(2, 12);
  ASSERT_GE(tiles.size(), 2u);
  type_tile(tiles[0]);
  frame();
  TabContext ctx = context();
  ASSERT_TRUE(editor().compile(ctx));
  editor().cancel();
  EXPECT_FALSE(editor().compiling()) << "Cancel returns at once";
  type_tile(tiles[1]);
  frame();
  ASSERT_TRUE(editor().compile(ctx)) << "a new compile may start while the cancelled one ends";
  double slowest = 0;
  int count = 0;
  frames_while_compiling(&slowest, &count);
  ASSERT_NE(editor().result(), nullptr);
  EXPECT_EQ(editor().result()->tile, tiles[1]) << "the cancelled compile's result is dropped";
}

TEST_F(TileEditorTest, UseThisTileSelectsItAndTheComboListsIt) {
  const VariantDescriptor& v = typed_variant();
  const std::vector<std::string> tiles = good_tiles(1, 13);
  ASSERT_FALSE(tiles.empty());
  const int before = config_count(v);
  type_tile(tiles[0]);
  frame();
  TabContext ctx = context();
  ASSERT_TRUE(editor().use_tile(ctx));
  const LessonEntry& e = app_->state().lesson[app_->state().focused];
  EXPECT_TRUE(is_typed_config(v, e.config_index));
  EXPECT_EQ(config_at(v, e.config_index).name, tiles[0]);
  EXPECT_GE(config_count(v), before);
  frame();
  EXPECT_EQ(editor().refusal(), "") << "the fields still show the tile, now the selected configuration";
  const std::string listed = config_short_name(v, e.config_index);
  EXPECT_TRUE(shows(listed, "controls")) << "the configuration combo shows the typed tile";
  // The combo opened (a click on its preview) lists it among the choices.
  ImVec2 at(-1, -1);
  for (const ts::DrawnText& t : text_)
    if (at.x < 0 && t.text.find(listed) != std::string::npos)
      at = ImVec2((t.min.x + t.max.x) / 2, (t.min.y + t.max.y) / 2);  // the combo's preview, above the story
  ASSERT_GE(at.x, 0);
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = at;
  frame();
  io.MousePos = at;
  io.MouseDown[0] = true;
  frame();
  io.MousePos = at;
  io.MouseDown[0] = false;
  frame();
  frame();
  EXPECT_TRUE(shows(listed, "##Combo")) << "the open combo lists the typed tile";
}

TEST_F(TileEditorTest, ATypedConfigurationSurvivesTheSettingsFile) {
  const VariantDescriptor& v = typed_variant();
  const std::vector<std::string> tiles = good_tiles(2, 14);
  ASSERT_GE(tiles.size(), 2u);
  // Saved: its name is its values.
  std::string warnings;
  AppState s = default_app_state();
  for (LessonEntry& e : s.lesson)
    if (e.variant_id == v.id) e.config_index = config_named_or_typed(v, tiles[0], &warnings);
  const std::string text = settings_to_text(s);
  EXPECT_NE(text.find(tiles[0]), std::string::npos) << text;
  // Read back in a session that has not typed it (a restart): typed again and selected.
  ASSERT_EQ(find_config(v, tiles[1]), -1);
  const std::string line = "variant." + std::string(v.id) + " = on " + tiles[1] + "\n";
  const AppState back = settings_from_text(text + line, default_app_state(), &warnings);
  EXPECT_EQ(warnings, "");
  for (const LessonEntry& e : back.lesson)
    if (e.variant_id == v.id) {
      EXPECT_TRUE(is_typed_config(v, e.config_index));
      EXPECT_EQ(config_at(v, e.config_index).name, tiles[1]);
    }
  // A tile the variant refuses keeps the default, as an unknown name always did.
  TileValues values = values_of(tiles[1]);
  values[0].second = 0;
  const AppState refused = settings_from_text(
      "variant." + std::string(v.id) + " = on " + tile_values_text(values) + "\n", default_app_state(), &warnings);
  for (const LessonEntry& e : refused.lesson) {
    if (e.variant_id != v.id) continue;
    EXPECT_EQ(e.config_index, v.default_config);
  }
}

TEST_F(TileEditorTest, ALessonTypesATileWhenItPlaysNotWhenItIsChecked) {
  const VariantDescriptor& v = typed_variant();
  const std::vector<std::string> tiles = good_tiles(3, 15);
  ASSERT_GE(tiles.size(), 3u);
  const std::string tile = tiles[2];
  ASSERT_EQ(find_config(v, tile), -1);
  const std::string lesson = "use " + std::string(v.id) + ":" + tile + " on\n";
  ScriptPlayer script;
  std::string error;
  ASSERT_TRUE(script.load_text(lesson, "typed.txt", &error)) << error;
  EXPECT_EQ(find_config(v, tile), -1) << "checking the lesson adds nothing";
  std::vector<std::string> failures;
  for (int i = 0; i < 10 && script.step(*app_, &failures); ++i) ts::frame(*host_, *app_);
  EXPECT_TRUE(failures.empty()) << failures.front();
  const int index = find_config(v, tile);
  ASSERT_GE(index, 0);
  EXPECT_EQ(app_->state().lesson[app_->state().focused].config_index, index);
  // A refused tile is a bad line, with the variant's reason.
  TileValues values = values_of(tile);
  values[0].second = 0;
  EXPECT_NE(check_script_line({"use", std::string(v.id) + ":" + tile_values_text(values), "on"}), "");
}

}  // namespace
