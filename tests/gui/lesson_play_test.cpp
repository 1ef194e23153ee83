// Every shipped lesson (assets/lessons/*.txt) played to its end in the App, headless and without
// a GPU (as in CI), with its pauses shortened: no action may fail, and every `# expect:` promise
// the lesson makes (the variant focused, the tab and view shown, the mapping phase reached, the
// plot) must hold where it stands. Lessons that ask for sizes only a GPU runs still play: the
// window lowers them to the CPU reference's limit and says so. And a broken promise is reported,
// so the check can fail.
#include <GL/gl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "../variant_picks.h"
#include "gl_gemm/gl_shader_runner.h"
#include "gui_test_support.h"
#include "lesson_files.h"
#include "ui/app.h"
#include "ui/script.h"

using namespace tilescope;
using tilescope::testing::frame;

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

// Plays `text` in a fresh App without a GPU (the texture shaders run, through OpenGL, as in the
// window), at most `max_frames` frames.
Played play(const std::string& text, const std::string& name, int max_frames = 20000) {
  Played out;
  install_gl_shader_runner();
  HostOptions host_options;
  host_options.width = 960;
  host_options.height = 540;
  host_options.headless_frame_seconds = kFrameSeconds;
  std::string error;
  auto host = create_headless_host(host_options, &error);
  EXPECT_TRUE(host) << error;
  if (!host) return out;
  AppOptions options;
  options.use_gpu = false;
  options.measure_ceilings = false;
  App app(*host, options);
  app.state().repetitions = 1;
  ScriptPlayer script;
  if (!script.load_text(text, name, &error)) {
    out.failures.push_back(error);
    return out;
  }
  for (int i = 0; i < max_frames && script.step(app, &out.failures); ++i) {
    frame(*host, app);
    // Each frame drawn before the next, as a window's swap would: Mesa's llvmpipe otherwise
    // queues frames, and the Mapping tab's texture uploads wait for the queue (hopper.txt took
    // four times as long).
    glFinish();
  }
  out.finished = script.finished();
  out.promises = script.promises_checked();
  return out;
}

// A folder of its own to play in: lessons write screenshots and CSVs relative to it (into shots/).
class TempWorkDir {
 public:
  TempWorkDir() {
    char name[] = "/tmp/tilescope-lessons-XXXXXX";
    const char* made = mkdtemp(name);
    EXPECT_NE(made, nullptr);
    path_ = made ? made : "/tmp";
    std::filesystem::create_directories(path_ + "/shots");
    old_ = std::filesystem::current_path();
    std::filesystem::current_path(path_);
  }
  ~TempWorkDir() {
    std::filesystem::current_path(old_);
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::filesystem::path old_;
};

}  // namespace

TEST(LessonPlay, EveryShippedLessonPlaysToItsEndAndKeepsItsPromises) {
  // Pauses of at most a second of frames, and one repetition per run.
  tilescope::testing::Shortening quick;
  quick.most_frames = kMostFramesPerPause;
  const auto lessons = tilescope::testing::shipped_lessons();
  ASSERT_FALSE(lessons.empty());
  for (const auto& path : lessons) {
    SCOPED_TRACE(path.filename().string());
    TempWorkDir dir;
    const auto start = std::chrono::steady_clock::now();
    const Played p =
        play(tilescope::testing::shortened_lesson(tilescope::testing::read_file(path.string()), quick), path.string());
    // How long each lesson takes to play, for the log: a slow one shows here first.
    std::printf("%s: %.1f s\n", path.filename().c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    for (const std::string& f : p.failures) ADD_FAILURE() << f;
    EXPECT_TRUE(p.finished) << "did not play to its end";
    EXPECT_GT(p.promises, 0) << "a lesson states what it shows (# expect: ..., docs/SCRIPTS.md)";
  }
}

TEST(LessonPlay, ABrokenPromiseIsAFailureWithItsLine) {
  const std::string focused = tilescope::testing::one_phase_kernel().id, other = tilescope::testing::tiled_kernel().id;
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
  const Played p = play("set n 256\nshow-mapping\nfocus " + std::string(tilescope::testing::tiled_kernel().id) +
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
