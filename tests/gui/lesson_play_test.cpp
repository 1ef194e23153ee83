// Every shipped lesson (assets/lessons/*.txt), each a test of its own, played to its end in the
// App as written, headless and without a GPU (as in CI), with its pauses shortened and one
// repetition per run: no action may fail, and every `# expect:` promise the lesson makes (the
// variant focused, the tab and view shown, the mapping phase reached, the plot) must hold where it
// stands. Lessons that ask for sizes only a GPU runs still play: the window lowers them to the CPU
// reference's limit and says so. Then the state it leaves is what a class sees on a projector:
// played at 1920 x 1080, then at that size and made 1280 x 720, in presenter mode, every tab must
// show its text whole (presenter_views.h), as the lesson left it and again with the H100
// benchmarks loaded on top (the long variant names a GPU's rows put in the table and legend).
// And a broken promise is reported, so the check can fail.
#include <GL/gl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "app/gl_gemm/gl_shader_runner.h"
#include "app/ui/script/script.h"
#include "app/ui/shell/app.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/lesson_files.h"
#include "tests/gui/presenter_views.h"
#include "tests/gui/resizable_host.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
namespace ts = tilescope::testing;

namespace {

struct Played {
  std::vector<std::string> failures;
  bool finished = false;
  int promises = 0;
};

// Each frame of the test's host stands for a quarter of a second: a lesson's pauses, cut to a few
// frames, still give the mapping animation (two phases a second) time to move.
constexpr float kFrameSeconds = 0.25f;
constexpr int kMostFramesPerPause = 4;
constexpr std::chrono::milliseconds kFrameWhileBusy{500}, kBusyPoll{10};

std::unique_ptr<Host> lesson_host(int width, int height) {
  install_gl_shader_runner();  // the texture shaders run through OpenGL, as in the window
  HostOptions o = ts::host_options(width, height);
  o.headless_frame_seconds = kFrameSeconds;
  return ts::make_host(o);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Plays `text` in `app`, at most `max_frames` frames.
Played play(Host& host, App& app, const std::string& text, const std::string& name, int max_frames = 20000) {
  Played out;
  app.state().repetitions = 1;
  ScriptPlayer script;
  std::string error;
  if (!script.load_text(text, name, &error)) {
    out.failures.push_back(error);
    return out;
  }
  for (int i = 0; i < max_frames && script.step(app, &out.failures); ++i) {
    const auto start = std::chrono::steady_clock::now();
    ts::frame(host, app);
    // Each frame drawn before the next, as a window's swap would: Mesa's llvmpipe otherwise
    // queues frames, and the Mapping tab's texture uploads wait for the queue (hopper.txt took
    // four times as long).
    glFinish();
    // While the runner works, a frame every half second, and the next as soon as the work ends.
    // The window draws 10 a second then (App::frame_period_ms), but the test's frames only count
    // (each stands for kFrameSeconds): faster, they took the cores from the work itself, whose
    // texture shaders' GL thread runs at a lower priority than the UI (history.txt on two cores
    // with other work: unpaced 49 s, at the window's pace 36 s, at this pace 23 s).
    const auto next_frame = start + kFrameWhileBusy;
    while (app.busy() && std::chrono::steady_clock::now() < next_frame) std::this_thread::sleep_for(kBusyPoll);
  }
  out.finished = script.finished();
  out.promises = script.promises_checked();
  return out;
}

// `text` played in a fresh App on a small host.
Played play(const std::string& text, const std::string& name) {
  auto host = lesson_host(960, 540);
  if (!host) return {};
  App app(*host, ts::without_gpu());
  return play(*host, app, text, name);
}

// A folder of its own to play in: lessons write screenshots and CSVs relative to it (into shots/).
class TempWorkDir {
 public:
  TempWorkDir() {
    const std::string path = dir_.path().empty() ? "/tmp" : dir_.path();
    std::filesystem::create_directories(path + "/shots");
    std::filesystem::current_path(path);
  }
  ~TempWorkDir() { std::filesystem::current_path(old_); }  // before dir_ goes

 private:
  std::filesystem::path old_ = std::filesystem::current_path();
  ts::TempDir dir_{"tilescope-lessons"};
};

// A shipped lesson, printed as its name: ctest names each lesson's test by it
// (.../PlaysAsWrittenAndEveryTabFitsBothProjectors/history).
struct Lesson {
  std::filesystem::path path;
};
void PrintTo(const Lesson& lesson, std::ostream* out) {
  *out << lesson.path.stem().string();
}

std::vector<Lesson> shipped() {
  std::vector<Lesson> out;
  for (const auto& path : ts::shipped_lessons()) out.push_back({path});
  return out;
}

class ShippedLesson : public ::testing::TestWithParam<Lesson> {};

}  // namespace

TEST(LessonPlay, TheShippedLessonsAreFound) {
  EXPECT_FALSE(ts::shipped_lessons().empty()) << "each shipped lesson is a test of its own (ShippedLesson)";
}

TEST_P(ShippedLesson, PlaysAsWrittenAndEveryTabFitsBothProjectors) {
  const std::filesystem::path& path = GetParam().path;
  const std::string name = path.filename().string();
  ts::Shortening quick;  // pauses of at most a second of frames
  quick.most_frames = kMostFramesPerPause;
  TempWorkDir dir;
  // Played once, at the larger projector's size; then the window is made smaller.
  int width = 0, height = 0;
  for (ts::ProjectorSize size : ts::kProjectors)
    width = std::max(width, size.width), height = std::max(height, size.height);
  auto headless = lesson_host(width, height);
  ASSERT_TRUE(headless);
  ts::ResizableHost host(std::move(headless), kFrameSeconds);
  App app(host, ts::without_gpu());
  auto start = std::chrono::steady_clock::now();
  const Played p = play(host, app, ts::shortened_lesson(ts::read_file(path.string()), quick), path.string());
  // How long each part takes, for the log: a slow one shows here first.
  std::printf("%s: played at %dx%d in %.1f s\n", name.c_str(), width, height, seconds_since(start));
  for (const std::string& f : p.failures) ADD_FAILURE() << f;
  EXPECT_TRUE(p.finished) << "did not play to its end";
  EXPECT_GT(p.promises, 0) << "a lesson states what it shows (# expect: ..., docs/SCRIPTS.md)";

  // Its final state in presenter mode, at each size; then with a GPU's rows on top, their long
  // variant names in the table and legend (the Mapping views draw no rows: not drawn again).
  ts::Findings findings;
  app.set_presenter(true);
  for (bool gpu_rows : {false, true}) {
    start = std::chrono::steady_clock::now();
    if (gpu_rows) ts::load_h100_benchmarks(app);
    for (ts::ProjectorSize size : ts::kProjectors) {
      host.set_display_size(size.width, size.height);
      ts::unchecked_frames(host, app, 2);
      ts::check_every_view(host, app,
                           name + ", " + ts::size_name(size) + ", presenter" + (gpu_rows ? ", H100 rows loaded" : ""),
                           &findings, gpu_rows ? ts::Views::ThoseShowingRows : ts::Views::All);
    }
    std::printf("%s: views%s checked at both sizes in %.1f s\n", name.c_str(), gpu_rows ? " of the H100 rows" : "",
                seconds_since(start));
  }
  EXPECT_TRUE(findings.empty()) << "text cut or hidden:" << findings.report();
}

INSTANTIATE_TEST_SUITE_P(Lessons, ShippedLesson, ::testing::ValuesIn(shipped()));

TEST(LessonPlay, ABrokenPromiseIsAFailureWithItsLine) {
  const std::string focused = ts::one_phase_kernel().id, other = ts::tiled_kernel().id;
  const Played p = play("set problem gemm\nfocus " + focused + "\nshow-mapping\nframes 3\n# expect: focus " + other +
                            "\n# expect: tab history\n# expect: phase >= 5\n",
                        "promises.txt");
  ASSERT_EQ(p.failures.size(), 3u);
  EXPECT_EQ(p.failures[0], "promises.txt:5: expected focus " + other + ", but the focus is on " + focused);
  EXPECT_EQ(p.failures[1].rfind("promises.txt:6: expected tab history, but the tab shown is Mapping", 0), 0u)
      << p.failures[1];
  EXPECT_EQ(p.failures[2], "promises.txt:7: expected phase >= 5, but phase 0");
  EXPECT_EQ(p.promises, 3);
}

TEST(LessonPlay, PlayRightAfterAChangeOfProblemAdvances) {
  // The pictures are rebuilt for the new problem when the player starts, not one frame later
  // (which stopped it): the phase moves within a second of frames.
  const Played p = play("set n 256\nshow-mapping\nfocus " + std::string(ts::tiled_kernel().id) +
                            "\nframes 2\nset problem ata\nmapping-phase 0\nmapping-play on\nframes 4\n"
                            "# expect: phase >= 1\n",
                        "play.txt");
  for (const std::string& f : p.failures) ADD_FAILURE() << f;
  EXPECT_EQ(p.promises, 1);
}

TEST(LessonPlay, WithoutAGpuALineExpectedToFailThereIsNoFailure) {
  // record-timeline needs a GPU: said so, its failure is the lesson's promise; unsaid, a failure.
  const std::string timeline = "show-timeline\nframes 2\n";
  const std::string record = "record-timeline\nframes 1\n";
  const Played said = play(timeline + "# expect: fails-without-gpu\n" + record, "said.txt");
  EXPECT_TRUE(said.failures.empty()) << said.failures.front();
  EXPECT_TRUE(said.finished);
  const Played unsaid = play(timeline + record, "unsaid.txt");
  ASSERT_EQ(unsaid.failures.size(), 1u);
  EXPECT_EQ(unsaid.failures[0].rfind("unsaid.txt:3: record-timeline: ", 0), 0u) << unsaid.failures[0];
}

TEST(LessonPlay, BadPromisesAreRefusedBeforeAnythingPlays) {
  ScriptPlayer p;
  std::string error;
  EXPECT_FALSE(p.load_text("frames 1\n# expect: focsu x\n", "l.txt", &error));
  EXPECT_EQ(error.rfind("l.txt:2: expect: unknown promise 'focsu'", 0), 0u) << error;
  EXPECT_FALSE(p.load_text("# expect: phase > 2\n", "l.txt", &error));
  EXPECT_EQ(error.rfind("l.txt:1: expect phase: '>' is not >=", 0), 0u) << error;
  EXPECT_FALSE(p.load_text("# expect: focus turbo\n", "l.txt", &error));
  EXPECT_NE(error.find("no variant 'turbo'"), std::string::npos) << error;
  EXPECT_FALSE(p.load_text("frames 1\n# expect: fails-without-gpu\n", "l.txt", &error));
  EXPECT_EQ(error, "l.txt:2: expect fails-without-gpu: no action follows it");
}
