// The check that finds cut text (text_clip_check.h) must find every kind of cut ImGui makes —
// a label past a panel's edge, a button's label clipped on the CPU, an ellipsised tab and table
// header, a character without a glyph — and nothing where the text is whole or only scrolled
// out of view.
#include "tests/gui/text_clip_check.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "tests/gui/gui_test_support.h"

using namespace tilescope;
using namespace tilescope::testing;
namespace ts = tilescope::testing;

namespace {

// One window filling a 800 x 600 frame, drawn twice (the second with the layout settled), its
// text read back after the second.
template <typename Draw>
std::vector<ts::DrawnText> drawn(Draw draw, std::vector<CutText>* hidden = nullptr) {
  auto host = ts::make_host(800, 600);
  EXPECT_TRUE(host);
  if (!host) return {};
  std::vector<ts::DrawnText> text;
  for (int frame = 0; frame < 2; ++frame) {
    ts::prepare_fonts();
    host->begin_frame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(800, 600));
    ImGui::Begin("test", nullptr, ImGuiWindowFlags_NoDecoration);
    draw();
    ImGui::End();
    host->end_frame();
    if (frame == 1) text = ts::drawn_text();
    if (frame == 1 && hidden) *hidden = ts::hidden_content();
  }
  return text;
}

const ts::DrawnText* find(const std::vector<ts::DrawnText>& text, const std::string& start) {
  for (const ts::DrawnText& t : text)
    if (t.text.rfind(start, 0) == 0) return &t;
  return nullptr;
}

std::string all(const std::vector<ts::DrawnText>& text) {
  std::string out;
  for (const ts::DrawnText& t : text) out += "\n  \"" + t.text + "\" " + (t.whole() ? "whole" : t.cut);
  return out;
}

TEST(TextClipCheck, ReadsWholeTextBackAsWritten) {
  const auto text = drawn([] {
    ImGui::TextUnformatted("Shared-memory tile");
    ImGui::Button("Export PNG...");
    ImGui::TextUnformatted("C = A·B, 2·M·N·K");
  });
  for (const char* line : {"Shared-memory tile", "Export PNG...", "C = A·B, 2·M·N·K"}) {
    const ts::DrawnText* t = find(text, line);
    ASSERT_NE(t, nullptr) << line << all(text);
    EXPECT_EQ(t->text, line);
    EXPECT_TRUE(t->whole()) << t->cut;
    EXPECT_TRUE(t->visible);
  }
}

TEST(TextClipCheck, FindsTextPastTheEdgeOfAPanelThatDoesNotScroll) {
  const auto text = drawn([] {
    ImGui::BeginChild("narrow", ImVec2(120, 100), true, ImGuiWindowFlags_NoScrollbar);
    ImGui::TextUnformatted("formula: (BM + BN) x k = (128 + 128) x 64");
    ImGui::EndChild();
  });
  const ts::DrawnText* t = find(text, "formula");
  ASSERT_NE(t, nullptr) << all(text);
  EXPECT_NE(t->cut.find("right edge"), std::string::npos) << t->cut;
  EXPECT_NE(t->window.find("narrow"), std::string::npos) << t->window;
}

TEST(TextClipCheck, TextScrolledOutOfViewIsNotCutButNotVisible) {
  std::vector<CutText> hidden;
  const auto text = drawn(
      [] {
        ImGui::BeginChild("scrolling", ImVec2(300, 100), true);
        for (int i = 0; i < 20; ++i) ImGui::Text("row %d of a list that scrolls", i);
        ImGui::EndChild();
      },
      &hidden);
  // The row across the bottom edge: half out of view, which scrolling shows.
  const ts::DrawnText* edge = nullptr;
  for (const ts::DrawnText& t : text)
    if (t.text.rfind("row", 0) == 0 && !t.visible) edge = &t;
  ASSERT_NE(edge, nullptr) << all(text);
  EXPECT_TRUE(edge->whole()) << edge->cut;
  ASSERT_NE(find(text, "row 0"), nullptr);
  EXPECT_TRUE(find(text, "row 0")->visible);
  EXPECT_TRUE(hidden.empty()) << "the panel scrolls";
}

TEST(TextClipCheck, FindsContentHiddenBelowAPanelThatCannotScroll) {
  std::vector<CutText> hidden;
  drawn(
      [] {
        ImGui::BeginChild("fixed", ImVec2(300, 100), true, ImGuiWindowFlags_NoScrollbar);
        for (int i = 0; i < 20; ++i) ImGui::Text("row %d", i);
        ImGui::Button("Run");
        ImGui::EndChild();
      },
      &hidden);
  ASSERT_EQ(hidden.size(), 1u);
  EXPECT_NE(hidden[0].window.find("fixed"), std::string::npos) << hidden[0].window;
  EXPECT_NE(hidden[0].how.find("bottom"), std::string::npos) << hidden[0].how;
}

TEST(TextClipCheck, FindsALabelClippedOnTheCpu) {
  const auto text = drawn([] {
    ImGui::Button("Export PNG...", ImVec2(40, 0));
    ImGui::SetNextItemWidth(60);
    if (ImGui::BeginCombo("##config", "a long choice")) ImGui::EndCombo();
  });
  const ts::DrawnText* button = find(text, "Exp");
  ASSERT_NE(button, nullptr) << all(text);
  EXPECT_NE(button->cut.find("CPU"), std::string::npos) << all(text);
  const ts::DrawnText* combo = find(text, "a lo");
  ASSERT_NE(combo, nullptr) << all(text);
  EXPECT_FALSE(combo->whole()) << all(text);
}

TEST(TextClipCheck, FindsEllipsisedTabsAndTableHeaders) {
  const auto text = drawn([] {
    ImGui::BeginChild("tabs", ImVec2(260, 80));
    if (ImGui::BeginTabBar("views")) {
      for (const char* name : {"Blocks, warps and lanes", "Fragments of one mma", "Shared-memory banks"})
        if (ImGui::BeginTabItem(name)) ImGui::EndTabItem();
      ImGui::EndTabBar();
    }
    ImGui::EndChild();
    if (ImGui::BeginTable("t", 2, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
      ImGui::TableSetupColumn("occupancy", ImGuiTableColumnFlags_WidthFixed, 30);
      ImGui::TableSetupColumn("device", ImGuiTableColumnFlags_WidthFixed, 200);
      ImGui::TableHeadersRow();
      ImGui::EndTable();
    }
  });
  int ellipsised = 0;
  for (const ts::DrawnText& t : text) ellipsised += t.cut == "ellipsised";
  EXPECT_GE(ellipsised, 3) << "the tabs and the narrow header" << all(text);
  const ts::DrawnText* device = find(text, "device");
  ASSERT_NE(device, nullptr) << all(text);
  EXPECT_TRUE(device->whole()) << device->cut;
}

TEST(TextClipCheck, FindsACharacterWithoutAGlyph) {
  const auto text =
      drawn([] { ImGui::TextUnformatted("a snowman \xE2\x98\x83 here"); });  // U+2603: no font range has it
  const ts::DrawnText* t = find(text, "a snowman");
  ASSERT_NE(t, nullptr) << all(text);
  EXPECT_NE(t->cut.find("no glyph"), std::string::npos) << t->cut;
}

// The marks stand for ellipses and missing glyphs only while the UI itself never writes them.
TEST(TextClipCheck, TheUiNeverWritesTheMarks) {
  const std::regex source(R"(\.(cpp|h|cu|cuh)$)");
  int files = 0;
  for (const char* dir : {"/app", "/kernels"})
    for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(TILESCOPE_SOURCE_DIR) + dir)) {
      if (!std::regex_search(e.path().string(), source)) continue;
      ++files;
      std::ifstream in(e.path());
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      EXPECT_EQ(text.find("\xC2\xA4"), std::string::npos) << e.path() << " writes U+00A4, the ellipsis mark";
      EXPECT_EQ(text.find("\xC2\xA6"), std::string::npos) << e.path() << " writes U+00A6, the missing-glyph mark";
    }
  EXPECT_GT(files, 50);
}

}  // namespace
