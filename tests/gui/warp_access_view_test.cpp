// The Mapping tab's "Memory (one warp)" view, drawn headless: a script picks the view, the access
// site, the step and the warp, and the view shows the counters its summary
// (app/viz/warp_access_summary.h) gives for the model's addresses: the one-phase kernel's 32 x 8
// block along the rows of C loads B in 4 sectors, its twin down the columns loads A in 32; the
// sentence is drawn; an access the kernel cannot record is drawn from the model and says so; a site
// the model does not list fails the script's line with the names it does list; in presenter mode
// on both projectors the counters and the sentence stay on screen. Recordings:
// memory_recording_test.cpp.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <memory>
#include <string>
#include <vector>

#include "app/ui/mapping/mapping_panel.h"
#include "app/ui/script/script.h"
#include "app/ui/shell/app_state.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/text_clip_check.h"
#include "tests/support/memory_picks.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
using namespace tilescope::testing;

namespace {

constexpr int kSide = 256;

std::unique_ptr<MappingModel> model_of(const VariantDescriptor& v, int config, Precision p = Precision::F32) {
  std::string why;
  auto m = make_mapping_model(v.id, config, Problem::Gemm, p, Shape{kSide, kSide, kSide}, &why);
  EXPECT_TRUE(m) << why;
  return m;
}

// Plays `text` in `app` to its end; the failures it reported.
std::vector<std::string> play(Host& host, App& app, const std::string& text) {
  ScriptPlayer script;
  std::string error;
  EXPECT_TRUE(script.load_text(text, "memory.txt", &error)) << error;
  std::vector<std::string> failures;
  for (int i = 0; i < 400 && script.step(app, &failures); ++i) frame(host, app);
  EXPECT_TRUE(script.finished());
  return failures;
}

// The lines that show `site` of `config` of v, in float gemm at kSide.
std::string showing(const VariantDescriptor& v, int config, const AccessSite& site) {
  return "use " + std::string(v.id) + ":" + v.configs[static_cast<std::size_t>(config)].name + " on\nfocus " + v.id +
         "\nset precision f32\nset problem gemm\nset n " + std::to_string(kSide) +
         "\nshow-mapping\nmapping-view memory\nmemory-site " + site.name + "\nframes 2\n# expect: view memory\n";
}

// The text the panel draws in two frames (the second's log), its Memory view shown.
std::string drawn_text(Host& host, MappingPanel& panel, const AppState& state) {
  std::string text;
  for (int frame = 0; frame < 3; ++frame) {
    host.begin_frame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(1600, 1400));
    ImGui::Begin("test", nullptr, ImGuiWindowFlags_NoDecoration);
    ImGui::LogToBuffer();
    panel.draw(state, false);
    if (frame == 2) text = GImGui->LogBuffer.c_str();
    ImGui::LogFinish();
    ImGui::End();
    host.end_frame();
  }
  return text;
}

AppState focused_on(const VariantDescriptor& v, int config, Precision p) {
  AppState s = default_app_state();
  for (std::size_t i = 0; i < s.lesson.size(); ++i)
    if (s.lesson[i].variant_id == v.id) s.focused = static_cast<int>(i), s.lesson[i].config_index = config;
  s.problem = Problem::Gemm;
  s.precision = p;
  s.square = true;
  s.m = s.n = s.k = kSide;
  return s;
}

}  // namespace

TEST(WarpAccessView, AScriptShowsNaiveLoadsAlongTheRowsAndDownTheColumns) {
  auto host = make_host(1600, 1000);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  const VariantDescriptor& v = one_phase_kernel();
  const int rows = warp_row_config(v, false), columns = warp_row_config(v, true);

  // Along the rows: the warp's 32 columns of B are 128 neighbouring bytes, 4 sectors.
  auto m = model_of(v, rows);
  ASSERT_TRUE(m);
  const int b_load = site_of(*m, 'B', MemorySpace::Global, AccessKind::Load);
  EXPECT_TRUE(play(*host, app, showing(v, rows, m->access_sites()[static_cast<std::size_t>(b_load)])).empty());
  EXPECT_EQ(app.mapping().view(), MappingPanel::View::Memory);
  const WarpAccessSummary& b = app.mapping().warp_access_view().shown();
  EXPECT_EQ(b.space, MemorySpace::Global);
  EXPECT_EQ(b.sectors, 4);
  EXPECT_EQ(b.lines, 1);
  EXPECT_EQ(b.bytes_moved, 128);
  EXPECT_TRUE(b.coalesced);

  // Down the columns: each lane reads its own row of A, 32 sectors; the step and warp follow the
  // script, and the addresses shown are the model's for them.
  m = model_of(v, columns);
  ASSERT_TRUE(m);
  const int a_load = site_of(*m, 'A', MemorySpace::Global, AccessKind::Load);
  EXPECT_TRUE(play(*host, app,
                   showing(v, columns, m->access_sites()[static_cast<std::size_t>(a_load)]) +
                       "memory-step 5\nmemory-warp 3\nframes 2\n")
                  .empty());
  const WarpAccessView& view = app.mapping().warp_access_view();
  EXPECT_EQ(view.step(), 5);
  EXPECT_EQ(view.warp(), 3);
  WarpAccess expected;
  m->warp_access(a_load, 0, 0, 3, 5, &expected);
  EXPECT_EQ(view.shown_access().address, expected.address);
  EXPECT_EQ(view.shown().sectors, 32);
  EXPECT_EQ(view.shown().lines, 32);
  EXPECT_EQ(view.shown().bytes_moved, 1024);
  EXPECT_NE(view.shown().sentence.find("uncoalesced"), std::string::npos) << view.shown().sentence;

  // A site the model does not list fails its line and names those it does.
  const std::vector<std::string> failures = play(*host, app, "memory-site no such access\nframes 1\n");
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_NE(failures[0].find("memory.txt:1: memory-site: the focused variant's model lists no access 'no such access'"),
            std::string::npos)
      << failures[0];
  EXPECT_NE(failures[0].find(m->access_sites()[static_cast<std::size_t>(a_load)].name), std::string::npos)
      << failures[0];
}

TEST(WarpAccessView, TheCountersAndTheSentenceAreDrawn) {
  auto host = make_host(1600, 1400);
  ASSERT_TRUE(host);
  const VariantDescriptor& v = typed_prefetch_kernel();
  for (bool padded : {false, true}) {
    const int config = slab32_config(v, padded);
    auto m = model_of(v, config);
    ASSERT_TRUE(m);
    const int store = site_of(*m, 'A', MemorySpace::Shared, AccessKind::Store);
    MappingPanel panel;
    panel.show_view(MappingPanel::View::Memory);
    panel.warp_access_view().set_site(m->access_sites()[static_cast<std::size_t>(store)].name);
    const std::string text = drawn_text(*host, panel, focused_on(v, config, Precision::F32));
    const WarpAccessSummary& s = panel.warp_access_view().shown();
    EXPECT_EQ(s.space, MemorySpace::Shared);
    EXPECT_EQ(s.wavefronts, padded ? 1 : 2);
    EXPECT_EQ(s.conflicts, padded ? 0 : 1);
    for (const char* words : {"Memory (one warp)", "addresses: from the variant's mapping model", "wavefronts",
                              "conflict degree", padded ? "(no bank conflict)." : "(a 2-way bank conflict)."})
      EXPECT_NE(text.find(words), std::string::npos) << words << " is not drawn:\n" << text;
  }
}

// An access the kernel cannot record (a tensor-core fragment that the compiler lays out inside a
// library call) is drawn from the model, and the line above the picture says so.
TEST(WarpAccessView, AnAccessTheKernelCannotRecordIsDrawnFromTheModelAndSaysSo) {
  auto host = make_host(1600, 1000);
  ASSERT_TRUE(host);
  const VariantDescriptor* found = nullptr;
  std::string site;
  for (const VariantDescriptor* v : variants_where([](const VariantDescriptor& d) { return is_product_kernel(d); })) {
    std::string why;
    auto m = make_mapping_model(v->id, v->default_config, Problem::Gemm, v->precisions.front(),
                                Shape{kSide, kSide, kSide}, &why);
    for (const AccessSite& a : m ? m->access_sites() : std::vector<AccessSite>{})
      if (a.recorded < 0 && site.empty()) found = v, site = a.name;
    if (found) break;
  }
  ASSERT_NE(found, nullptr) << "no kernel lists an access it cannot record: this test checks nothing";
  MappingPanel panel;
  panel.show_view(MappingPanel::View::Memory);
  panel.warp_access_view().set_site(site);
  const std::string text =
      drawn_text(*host, panel, focused_on(*found, found->default_config, found->precisions.front()));
  for (const char* words : {"addresses: from the model (the kernel cannot record this access)", "wavefronts"})
    EXPECT_NE(text.find(words), std::string::npos) << words << " is not drawn:\n" << text;
}

// On a projector (presenter mode at 1280 x 720 and 1920 x 1080) every access's counters and
// sentence are on screen without scrolling: a shared access of four phases (16-byte reads, a band
// each) and a global one of 32 lines (a sector per lane) take the height the counters leave, and
// nothing of the view is cut.
TEST(WarpAccessView, CountersAndSentenceStayOnScreenInPresenterMode) {
  struct Case {
    const VariantDescriptor* v;
    int config;
    MemorySpace space;
    int bytes;
  };
  // The prefetching kernel's widest shared read, and the one-phase kernel down the columns.
  const VariantDescriptor& prefetch = prefetch_kernel();
  int wide_config = -1;
  for (int c = 0; c < static_cast<int>(prefetch.configs.size()) && wide_config < 0; ++c) {
    auto m = model_of(prefetch, c);
    for (const AccessSite& s : m ? m->access_sites() : std::vector<AccessSite>{})
      if (s.space == MemorySpace::Shared && s.bytes == 16 && s.kind == AccessKind::Load) wide_config = c;
  }
  ASSERT_GE(wide_config, 0) << "no configuration of the prefetching kernel reads 16 bytes a lane from shared memory";
  const VariantDescriptor& naive = one_phase_kernel();
  const Case cases[] = {{&prefetch, wide_config, MemorySpace::Shared, 16},
                        {&naive, warp_row_config(naive, true), MemorySpace::Global, 4}};
  struct Size {
    int width, height;
  };
  for (const Size size : {Size{1280, 720}, Size{1920, 1080}}) {
    auto host = make_host(size.width, size.height);
    ASSERT_TRUE(host);
    App app(*host, without_gpu());
    EXPECT_TRUE(play(*host, app, "set presenter on\nframes 2\n").empty());
    for (const Case& c : cases) {
      auto m = model_of(*c.v, c.config);
      ASSERT_TRUE(m);
      const std::vector<AccessSite> sites = m->access_sites();
      const AccessSite* site = nullptr;
      for (const AccessSite& s : sites)
        if (!site && s.space == c.space && s.bytes == c.bytes && s.kind == AccessKind::Load) site = &s;
      ASSERT_TRUE(site);
      const std::string where = std::string(c.v->id) + " " + site->name + " at " + std::to_string(size.width) + "x" +
                                std::to_string(size.height);
      EXPECT_TRUE(play(*host, app, showing(*c.v, c.config, *site) + "memory-step 1\nframes 3\n").empty()) << where;
      const WarpAccessView& view = app.mapping().warp_access_view();
      if (c.space == MemorySpace::Shared) {
        EXPECT_EQ(view.shown().phases, 4) << where;
      } else {
        EXPECT_EQ(view.shown().lines, 32) << where;
      }
      // The frame's text, read back from what ImGui drew: none of it cut, and the counters and
      // the sentence within the view's window and the screen.
      prepare_fonts();
      host->begin_frame();
      app.frame();
      host->end_frame();
      const std::vector<CutText> cuts = find_cut_text(tilescope::testing::drawn_text());
      app.after_frame();
      std::string report;
      for (const CutText& cut : cuts) report += "\n  " + describe(cut);
      EXPECT_TRUE(cuts.empty()) << where << ":" << report;
      const WarpAccessView::Layout& l = view.layout();
      EXPECT_LE(l.counters_max.y, l.visible_max.y) << where << ": the counters are below the fold";
      EXPECT_LE(l.sentence_max.y, l.visible_max.y) << where << ": the sentence is below the fold";
      EXPECT_LE(l.visible_max.y, static_cast<float>(size.height)) << where;
      EXPECT_GT(l.sentence_min.y, l.counters_min.y) << where;
    }
  }
}
