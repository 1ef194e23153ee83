// The window in front of a class, at each step of Ctrl+=: at a 1920 x 1080 and a 1280 x 720
// projector, in presenter mode step by step until the text stops growing, and in the normal mode,
// every tab of hopper.txt's state (presenter_views.h) must show its text whole. Every lesson's
// own final state at both sizes is checked where it is played (lesson_play_test.cpp).
#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <string>
#include <vector>

#include "app/ui/script/script.h"
#include "app/ui/shell/app.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/lesson_files.h"
#include "tests/gui/presenter_views.h"

using namespace tilescope;
namespace ts = tilescope::testing;

namespace {

// An App in the state hopper.txt leaves it in, its views, variants, problem, type, sizes, blocks
// and phases, with the H100 benchmarks as its rows. Its runs and files are left out (the
// lesson's own test plays them; the text steps need its views, not its rows), and its pauses
// are a frame each.
void play_hopper(Host& host, App& app) {
  ts::load_h100_benchmarks(app);
  const std::string path = std::string(TILESCOPE_SOURCE_DIR) + "/assets/lessons/hopper.txt";
  ScriptPlayer script;
  std::string error;
  ts::Shortening quick;
  quick.most_frames = 1;
  quick.drop_files = true;
  quick.drop_runs = true;
  ASSERT_TRUE(script.load_text(ts::shortened_lesson(ts::read_file(path), quick), path, &error)) << error;
  std::vector<std::string> failures;  // the lesson's own test judges these
  for (int i = 0; i < 20000 && script.step(app, &failures); ++i) ts::unchecked_frames(host, app, 1);
}

// Ctrl+= step by step until the text stops growing (the window caps it to what fits), in
// presenter mode, and the normal mode's own size, at both projectors' sizes.
TEST(PresenterFit, EachBiggerTextStepFitsBothProjectors) {
  ts::Findings findings;
  for (ts::ProjectorSize size : ts::kProjectors) {
    auto host = ts::make_host(size.width, size.height);
    ASSERT_TRUE(host);
    App app(*host, ts::without_gpu());
    play_hopper(*host, app);
    app.set_presenter(false);
    ts::unchecked_frames(*host, app, 2);
    ts::check_every_view(*host, app, "hopper.txt, " + ts::size_name(size) + ", normal mode", &findings);
    app.set_presenter(true);
    ts::unchecked_frames(*host, app, 2);
    float shown = 0;
    for (int step = 0; step < 30 && ImGui::GetFontSize() > shown; ++step) {
      shown = ImGui::GetFontSize();
      const std::string where = "hopper.txt, " + ts::size_name(size) + ", presenter, Ctrl+= " + std::to_string(step) +
                                "x (" + std::to_string(static_cast<int>(shown)) + " px)";
      ts::check_every_view(*host, app, where, &findings);
      host->queue_key_press(GLFW_KEY_EQUAL, GLFW_MOD_CONTROL);
      ts::unchecked_frames(*host, app, 2);
    }
    EXPECT_LE(ImGui::GetFontSize(), largest_font_px(ImVec2(size.width, size.height)))
        << "the text stops growing where the window's layout can no longer hold it";
  }
  EXPECT_TRUE(findings.empty()) << "text cut or hidden:" << findings.report();
}

}  // namespace
