// The Mapping tab's tile animation says what the selected block's account says (block_account.h),
// for every variant with a mapping model and both problems, drawn headless before the loop, after
// the first phase and after the last: the account the panel printed is the one block_account()
// makes from a fresh model, and each of its sentences, counter lines and formulas is in the text
// ImGui drew (its log). Naive's tab never speaks of shared memory, and its whole 16 x 16 block
// shows 2 x 16 x 16 x K global loads at k = K.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "app/ui/mapping/mapping_panel.h"
#include "app/ui/shell/app_state.h"
#include "kernels/core/registry.h"
#include "kernels/models/block_account.h"
#include "tests/gui/gui_test_support.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

constexpr int kSide = 300;  // ragged against every tile of every variant
// Tall enough that nothing of the animation is clipped (clipped text is neither drawn nor logged).
constexpr int kWidth = 1600, kHeight = 3200;

// The state that focuses v in its default configuration, for `problem`, at kSide^3.
AppState focused_on(const VariantDescriptor& v, Problem problem) {
  AppState s = default_app_state();
  for (std::size_t i = 0; i < s.lesson.size(); ++i)
    if (s.lesson[i].variant_id == v.id) {
      s.focused = static_cast<int>(i);
      s.lesson[i].config_index = v.default_config;
    }
  s.problem = problem;
  s.precision = supports(v, Precision::F32) ? Precision::F32 : v.precisions.front();
  s.square = true;
  s.m = s.n = s.k = kSide;
  return s;
}

// The text the panel draws for `state`, with block (bx, by) selected after `phase` phases: two
// frames in a window filling the host (the second has the layout settled), the second's log.
// One host serves a whole test, so that the panel's textures stay in the context that made them.
std::string drawn_text(Host& host, MappingPanel& panel, const AppState& state, int bx, int by, int phase) {
  panel.select_block(bx, by);
  panel.set_phase(phase);
  std::string text;
  for (int frame = 0; frame < 2; ++frame) {
    host.begin_frame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(static_cast<float>(kWidth), static_cast<float>(kHeight)));
    ImGui::Begin("test", nullptr, ImGuiWindowFlags_NoDecoration);
    ImGui::LogToBuffer();
    panel.draw(state, false);
    if (frame == 1) text = GImGui->LogBuffer.c_str();
    ImGui::LogFinish();
    ImGui::End();
    host.end_frame();
  }
  return text;
}

std::string differences(const BlockAccount& shown, const BlockAccount& fresh) {
  if (shown.block_x != fresh.block_x || shown.block_y != fresh.block_y || shown.phases_done != fresh.phases_done)
    return "the panel's account is of another block or phase";
  if (shown.global_loads() != fresh.global_loads() || shown.shared_loads != fresh.shared_loads ||
      shown.bytes != fresh.bytes || shown.flops != fresh.flops || shown.k_done != fresh.k_done)
    return "the panel's counts differ from the model's: global " + std::to_string(shown.global_loads()) + " vs " +
           std::to_string(fresh.global_loads()) + ", shared " + std::to_string(shown.shared_loads) + " vs " +
           std::to_string(fresh.shared_loads);
  if (shown.words != fresh.words) return "the panel's words differ from the model's";
  return "";
}

// Every sentence, counter line and formula of the account, in the drawn text.
std::string missing_from(const std::string& text, const BlockAccount& acc) {
  std::vector<std::string> expected = acc.words;
  for (const CounterLine& line : acc.counters) {
    expected.push_back(line.text);
    if (!line.formula.empty()) expected.push_back(line.formula);
  }
  for (const std::string& e : expected)
    if (text.find(e) == std::string::npos) return "not drawn: \"" + e + "\"";
  return "";
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The number after `label` in the drawn text, -1 where there is none.
long long number_after(const std::string& text, const std::string& label) {
  const std::size_t at = text.find(label);
  if (at == std::string::npos) return -1;
  return std::stoll(text.substr(at + label.size()));
}

TEST(MappingText, EveryVariantShowsItsBlockAccount) {
  auto host = tilescope::testing::make_host(kWidth, kHeight);
  ASSERT_TRUE(host);
  int checked = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (!v->model) continue;
    for (Problem problem : {Problem::Gemm, Problem::Ata}) {
      const AppState state = focused_on(*v, problem);
      if (!variant_refusal(*v, v->default_config, problem, state.precision).empty()) continue;
      std::string why;
      const auto model = make_mapping_model(v->id, v->default_config, problem, state.precision, run_shape(state), &why);
      ASSERT_NE(model, nullptr) << v->id << ": " << why;
      MappingPanel panel;
      for (int phase : {0, 1, model->phases()}) {
        SCOPED_TRACE(std::string(v->id) + " " + to_string(problem) + " after phase " + std::to_string(phase));
        const std::string text = drawn_text(*host, panel, state, 0, 0, phase);
        const BlockAccount fresh = block_account(*model, state.precision, 0, 0, phase);
        EXPECT_EQ(differences(panel.shown_account(), fresh), "");
        EXPECT_EQ(missing_from(text, fresh), "");
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 0);
}

TEST(MappingText, NaiveReadsEverythingFromGlobalMemory) {
  const VariantDescriptor& v = tilescope::testing::one_phase_kernel();
  const int config = tilescope::testing::config_where(
      v, [](const TileConfig& c) { return c.threads_x == 16 && c.threads_y == 16; }, "a 16 x 16 block");
  auto host = tilescope::testing::make_host(kWidth, kHeight);
  ASSERT_TRUE(host);
  for (Problem problem : {Problem::Gemm, Problem::Ata}) {
    AppState state = focused_on(v, problem);
    state.lesson[static_cast<std::size_t>(state.focused)].config_index = config;
    MappingPanel panel;
    // Block (1, 1) lies wholly inside C; its one phase is all of K.
    const std::string text = drawn_text(*host, panel, state, 1, 1, 1);
    EXPECT_EQ(lower(text).find("shared memory"), std::string::npos) << text;
    EXPECT_EQ(lower(text).find("shared-memory"), std::string::npos) << text;
    EXPECT_EQ(number_after(text, "global loads: "), 2LL * 16 * 16 * kSide) << text;
    EXPECT_NE(text.find("arithmetic intensity: 0.25 FLOP/byte"), std::string::npos) << text;
  }
}

}  // namespace
