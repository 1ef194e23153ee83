// The Source tab (app/ui/source/source_panel.h) drawn headless in the App: every kernel of ours
// shows its kernel text, each step after the first is compared with the one before it on the
// staircase and has lines marked, a text compared with itself has none, the variants without a
// text say why, the probe calls name pictures the Mapping tab really draws, and in presenter mode
// on the small projector nothing of the tab is cut.
#include "app/ui/source/source_panel.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "app/ui/source/probe_hooks.h"
#include "kernels/core/registry.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/text_clip_check.h"

using namespace tilescope;
namespace ts = tilescope::testing;

namespace {

int lesson_index(const AppState& state, const VariantDescriptor& v) {
  for (std::size_t i = 0; i < state.lesson.size(); ++i)
    if (state.lesson[i].variant_id == v.id) return static_cast<int>(i);
  return -1;
}

// Focuses v and shows the Source tab (a tab asked for shows a frame later; then it has drawn).
void show_source_of(Host& host, App& app, const VariantDescriptor& v) {
  app.state().focused = lesson_index(app.state(), v);
  ASSERT_GE(app.state().focused, 0) << v.label << " is not in the lesson";
  app.show_source();
  ts::frames(host, app, 2);
  // The last frame with every glyph readable, spaces too (text_clip_check.h), for drawn_text().
  ts::prepare_fonts();
  ts::frame(host, app);
  ASSERT_EQ(app.shown_tab(), &app.source());
}

bool drew_text_containing(const std::string& words) {
  for (const ts::DrawnText& t : ts::drawn_text())
    if (t.text.find(words) != std::string::npos) return true;
  return false;
}

TEST(SourcePanel, EveryStepShowsItsTextAndWhatChangedSinceTheStepBefore) {
  auto host = ts::make_host(1600, 900);
  ASSERT_TRUE(host);
  App app(*host, ts::without_gpu());
  // The staircase, read from the registry here on its own: Role::Kernel variants with a text.
  const VariantDescriptor* before = nullptr;
  int steps = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (v->role != Role::Kernel || !v->kernel_text) continue;
    ++steps;
    show_source_of(*host, app, *v);
    const SourcePanel& panel = app.source();
    EXPECT_EQ(panel.document().variant, v);
    EXPECT_GT(panel.document().lines.size(), 10u) << v->label << ": " << panel.document().why_none;
    EXPECT_TRUE(drew_text_containing(v->kernel_text)) << v->label << ": the header names the file";
    EXPECT_EQ(panel.compared(), before) << v->label << " is compared with the step before it";
    if (before)
      EXPECT_GT(panel.diff().changed_lines(), 0) << v->label << " marks no line changed since " << before->label;
    else
      EXPECT_TRUE(drew_text_containing("the first step of the staircase")) << v->label;
    before = v;
  }
  EXPECT_GE(steps, 3);
}

TEST(SourcePanel, ATextComparedWithItselfHasNoChange) {
  auto host = ts::make_host(1600, 900);
  ASSERT_TRUE(host);
  App app(*host, ts::without_gpu());
  const VariantDescriptor* last = nullptr;
  for (const VariantDescriptor* v : variant_registry())
    if (v->role == Role::Kernel && v->kernel_text) last = v;
  ASSERT_TRUE(last);
  show_source_of(*host, app, *last);
  app.source().compare_with(last);
  ts::prepare_fonts();
  ts::frames(*host, app, 2);
  EXPECT_EQ(app.source().diff().changed_lines(), 0);
  EXPECT_TRUE(app.source().diff().hunks.empty());
  EXPECT_TRUE(drew_text_containing("no line differs"));
}

TEST(SourcePanel, AVariantWithoutAKernelTextSaysWhy) {
  auto host = ts::make_host(1600, 900);
  ASSERT_TRUE(host);
  App app(*host, ts::without_gpu());
  int without = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (v->kernel_text || lesson_index(app.state(), *v) < 0) continue;
    ++without;
    show_source_of(*host, app, *v);
    EXPECT_TRUE(app.source().document().lines.empty());
    EXPECT_FALSE(app.source().document().read_failed) << v->label;
    EXPECT_TRUE(drew_text_containing(std::string(v->label) + ": no kernel text to show")) << v->label;
    // The reason's opening words are on screen (it wraps into several lines after them).
    const std::string why = app.source().document().why_none;
    EXPECT_TRUE(drew_text_containing(why.substr(0, 20))) << why;
  }
  EXPECT_GE(without, 1) << "the library baseline has no text of ours";
}

// Going from change to change moves the view there and counts; in presenter mode on a 1280 x 720
// projector the tab's text is whole at the top and at each change.
TEST(SourcePanel, ChangesAreVisitedInOrderAndNothingIsCutInPresenterMode) {
  auto host = ts::make_host(1280, 720);
  ASSERT_TRUE(host);
  App app(*host, ts::without_gpu());
  app.set_presenter(true);
  const VariantDescriptor* last = nullptr;
  for (const VariantDescriptor* v : variant_registry())
    if (v->role == Role::Kernel && v->kernel_text) last = v;
  ASSERT_TRUE(last);
  show_source_of(*host, app, *last);
  ts::frames(*host, app, 2);  // the presenter font is built after a frame
  const int changes = static_cast<int>(app.source().diff().hunks.size());
  ASSERT_GT(changes, 2);
  for (int k = 0; k < 3; ++k) {
    app.source().go_to_change(k);
    ts::prepare_fonts();
    ts::frames(*host, app, 2);
    EXPECT_EQ(app.source().current_change(), k);
    EXPECT_TRUE(drew_text_containing("change " + std::to_string(k + 1) + " of " + std::to_string(changes)));
    const std::vector<ts::CutText> cuts = ts::find_cut_text(ts::drawn_text());
    std::string report;
    for (const ts::CutText& c : cuts) report += "\n  " + ts::describe(c);
    EXPECT_TRUE(cuts.empty()) << "at change " << k + 1 << ":" << report;
  }
}

// Every hook of every kernel text names a picture, and the pictures' words in quotes are words the
// Mapping tab shows (its panel's source, or the block account's counters it prints).
TEST(SourcePanel, ProbeCallsNameTheMappingPicturesTheyDrive) {
  const std::string shown = ts::read_file(std::string(TILESCOPE_SOURCE_DIR) + "/app/ui/mapping/mapping_panel.cpp") +
                            ts::read_file(std::string(TILESCOPE_SOURCE_DIR) + "/kernels/models/block_account.cpp");
  int loads = 0, stores = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (!v->kernel_text) continue;
    for (const std::string& line : load_source(*v).lines) {
      const ProbeHook hook = probe_hook(line);
      if (line.find(" probe.load(") != std::string::npos) {
        EXPECT_EQ(hook.call, "probe.load") << line;
      }
      if (hook.call.empty()) continue;
      EXPECT_FALSE(hook.picture.empty()) << line;
      loads += hook.call == "probe.load" ? 1 : 0;
      stores += hook.call == "probe.store" ? 1 : 0;
      if (hook.call == "probe.load") {
        EXPECT_NE(hook.picture.find("read counts of A and B"), std::string::npos);
      } else if (hook.call == "probe.store") {
        EXPECT_NE(hook.picture.find("owner of each element of C"), std::string::npos);
      }
      const std::regex quoted("\"([^\"]+)\"");
      for (std::sregex_iterator m(hook.picture.begin(), hook.picture.end(), quoted), end; m != end; ++m)
        EXPECT_NE(shown.find((*m)[1].str()), std::string::npos) << (*m)[1].str() << " is not a Mapping tab's word";
    }
  }
  EXPECT_GT(loads, 0);
  EXPECT_GT(stores, 0);
  EXPECT_EQ(probe_hook("  int x = my_probe.load(a);").call, "") << "another object's load is no hook";
  EXPECT_EQ(probe_hook("  probe.k_end;").call, "") << "a member read is no call";
}

}  // namespace
