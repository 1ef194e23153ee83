// The Source tab's compiled code (app/ui/source/compiled_code.h, source_panel_compiled.cpp) drawn
// in the App without a GPU: turned on, the focused kernel's configuration compiles with NVRTC on a
// thread of its own while frames keep coming; the PTX of its kernel fills the pane; the text's
// gutter counts add up to the kernel's instructions (the ones kept apart said so in the header); a
// click on a line of the text lights PTX lines that map back to it, and a click on one of those
// lights its line again; in presenter mode on the small projector nothing of the tab is cut.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "app/export/kernel_cache_files.h"
#include "app/ui/source/source_panel.h"
#include "kernels/cuda/cuda_libraries.h"
#include "kernels/jit/kernel_cache.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/text_clip_check.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
namespace ts = tilescope::testing;

namespace {

std::string trimmed(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The kernel's statements counted here on their own: each ends with ';' and is no directive
// (a call's arguments run over several lines, its ';' on the last).
int statements(const PtxListing& l, const PtxKernel& k) {
  int n = 0;
  for (int i = k.first_line; i <= k.last_line; ++i) {
    const std::string t = trimmed(l.lines[static_cast<std::size_t>(i)]);
    if (!t.empty() && t.back() == ';' && t[0] != '.' && t.rfind("//", 0) != 0) ++n;
  }
  return n;
}

// The App without a GPU and with a private compile cache, a kernel of ours focused, the Source
// tab shown with its compiled code.
class SourcePtxTest : public ::testing::Test {
 protected:
  SourcePtxTest() : dir_("tilescope-source-ptx"), cache_("XDG_CACHE_HOME", dir_.path() + "/cache") {}
  void SetUp() override {
    if (!nvrtc_library().loaded) GTEST_SKIP() << "NVRTC is not loaded here: " << nvrtc_library().error;
    install_user_kernel_cache();
  }
  void TearDown() override { install_kernel_cache(nullptr); }

  void open(int width, int height, bool presenter) {
    host_ = ts::make_host(width, height);
    ASSERT_TRUE(host_);
    app_ = std::make_unique<App>(*host_, ts::without_gpu());
    if (presenter) app_->set_presenter(true);
    AppState& s = app_->state();
    for (std::size_t i = 0; i < s.lesson.size(); ++i)
      if (s.lesson[i].variant_id == ts::tiled_kernel().id) s.focused = static_cast<int>(i);
    app_->show_source();
    app_->source().set_compiled_code(true);
  }
  SourcePanel& panel() { return app_->source(); }
  // One frame, its text read back; how long it took (ms).
  double frame() {
    const auto start = std::chrono::steady_clock::now();
    ts::prepare_fonts();
    ts::frame(*host_, *app_);
    text_ = ts::drawn_text();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
  // Whether the last frame drew a line holding `part` in a window whose name holds `window`.
  bool shows(const std::string& part, const std::string& window) const {
    return std::any_of(text_.begin(), text_.end(), [&](const ts::DrawnText& t) {
      return t.text.find(part) != std::string::npos && t.window.find(window) != std::string::npos;
    });
  }
  // Frames until the compile is in and drawn (at most two minutes): how many, the slowest (ms).
  void frames_until_compiled(int* count, double* slowest) {
    *count = 0;
    *slowest = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    do {
      *slowest = std::max(*slowest, frame());
      ++*count;
    } while ((panel().compiled().compiling() || !panel().compiled().result()) &&
             std::chrono::steady_clock::now() < deadline);
    frame();
  }
  // Opened, and the compile in and drawn.
  void open_compiled(int width, int height, bool presenter) {
    ASSERT_NO_FATAL_FAILURE(open(width, height, presenter));
    int count = 0;
    double slowest = 0;
    frames_until_compiled(&count, &slowest);
    ASSERT_NE(panel().compiled().ptx_kernel(), nullptr);
  }
  // A click on line number `line` (0-based) in the window named with `window`: of the numbers
  // drawn so, the rightmost (the text's gutter has the instruction counts left of its numbers).
  bool click_line_number(int line, const std::string& window) {
    ImVec2 at(-1, -1);
    for (const ts::DrawnText& t : text_)
      if (t.visible && t.text == std::to_string(line + 1) && t.window.find(window) != std::string::npos &&
          t.min.x > at.x)
        at = ImVec2((t.min.x + t.max.x) / 2, (t.min.y + t.max.y) / 2);
    if (at.x < 0) return false;
    ImGuiIO& io = ImGui::GetIO();
    // Over it, pressed, released; then away, so that what stays lit is the click's.
    for (bool down : {false, true, false}) {
      io.MousePos = at;
      io.MouseDown[0] = down;
      frame();
    }
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    frame();
    return true;
  }

  ts::TempDir dir_;
  ts::ScopedEnv cache_;
  std::unique_ptr<Host> host_;
  std::unique_ptr<App> app_;
  std::vector<ts::DrawnText> text_;
};

TEST_F(SourcePtxTest, ThePaneFillsInWhileFramesKeepComingAndTheCountsAddUp) {
  open(1600, 900, false);
  frame();
  frame();  // the tab asked for shows a frame later
  ASSERT_TRUE(panel().compiled().compiling()) << "the compile starts once the pane is on";
  int count = 0;
  double slowest = 0;
  frames_until_compiled(&count, &slowest);
  const CompiledCodeResult* r = panel().compiled().result();
  ASSERT_NE(r, nullptr);
  ASSERT_TRUE(r->program.compiled) << r->error << r->program.error;
  EXPECT_FALSE(r->program.from_cache) << "a private cache: NVRTC really compiled";
  EXPECT_GE(count, 3) << "frames were drawn while NVRTC worked";
  EXPECT_LT(slowest, 250) << "no frame waited for the compile";
  EXPECT_EQ(r->request.variant, &ts::tiled_kernel());
  EXPECT_EQ(r->request.architecture, "sm_90") << "without a GPU, the first architecture offered";

  const PtxKernel* k = panel().compiled().ptx_kernel();
  ASSERT_NE(k, nullptr) << "the PTX holds the kernel of the focused configuration";
  const KernelLineMap& m = panel().compiled().line_map();
  EXPECT_EQ(m.instructions, statements(r->listing, *k));
  EXPECT_EQ(std::accumulate(m.count.begin(), m.count.end(), 0) + m.call_unknown + m.no_line, m.instructions);
  // The compiler's own (line 0: addresses hoisted out of the loop) are few.
  EXPECT_GT(m.placed, m.instructions * 3 / 4) << "most instructions have their line of the text";
  EXPECT_TRUE(shows(std::to_string(m.instructions) + " instructions", "compiled_code"));
  EXPECT_TRUE(shows(std::to_string(r->program.resources[0].registers) + " registers per thread", "compiled_code"));
  EXPECT_TRUE(shows("SASS needs nvdisasm", "compiled_code"));
  // The PTX itself is drawn: its first instruction's opcode.
  const std::string first = trimmed(r->listing.lines[static_cast<std::size_t>(k->instructions[0].ptx_line)]);
  EXPECT_TRUE(shows(first.substr(0, first.find_first_of(" \t")), "ptx")) << first;
}

TEST_F(SourcePtxTest, AClickedLineLightsItsPtxAndAClickedPtxLineLightsItsLine) {
  ASSERT_NO_FATAL_FAILURE(open_compiled(1600, 900, false));
  const KernelLineMap& m = panel().compiled().line_map();
  const std::vector<std::string>& lines = panel().document().lines;
  // The line with the most instructions, among those on screen (the view opened at the kernel).
  int best = -1;
  for (std::size_t i = 0; i < m.count.size(); ++i)
    if (m.count[i] > 0 && shows(trimmed(lines[i]), "source_text") &&
        (best < 0 || m.count[i] > m.count[static_cast<std::size_t>(best)]))
      best = static_cast<int>(i);
  ASSERT_GE(best, 0) << "a line with instructions is on screen";
  ASSERT_TRUE(click_line_number(best, "source_text"));
  EXPECT_EQ(panel().selected_source_line(), best);
  const std::vector<int> lit = panel().lit_ptx_lines();
  ASSERT_EQ(static_cast<int>(lit.size()), m.count[static_cast<std::size_t>(best)]);
  for (int p : lit) EXPECT_EQ(m.by_ptx_line.at(p).text_line, best) << "PTX line " << p + 1;
  // The first of them was scrolled into view: a click on it lights the same text line.
  ASSERT_TRUE(click_line_number(lit.front(), "ptx")) << "PTX line " << lit.front() + 1 << " is on screen";
  EXPECT_EQ(panel().selected_source_line(), best);
  // A PTX line of another text line moves the light there.
  const auto other = std::find_if(m.by_ptx_line.begin(), m.by_ptx_line.end(), [&](const auto& e) {
    return e.second.text_line >= 0 && e.second.text_line != best && std::abs(e.first - lit.front()) < 8;
  });
  ASSERT_NE(other, m.by_ptx_line.end());
  ASSERT_TRUE(click_line_number(other->first, "ptx"));
  EXPECT_EQ(panel().selected_source_line(), other->second.text_line);
}

TEST_F(SourcePtxTest, NothingIsCutInPresenterModeOnTheSmallProjector) {
  ASSERT_NO_FATAL_FAILURE(open_compiled(1280, 720, true));
  ts::frames(*host_, *app_, 2);
  ts::prepare_fonts();
  frame();
  const std::vector<ts::CutText> cuts = ts::find_cut_text(text_);
  std::string report;
  for (const ts::CutText& c : cuts) report += "\n  " + ts::describe(c);
  EXPECT_TRUE(cuts.empty()) << report;
}

}  // namespace
