// The real program with a bad script, headless: every kind of bad line exits with 2 and
// "tilescope: FILE:LINE: why" on stderr before anything runs (no OpenGL context is even made);
// a script that cannot be read exits with 2 naming the file; an action that fails while playing
// exits with 1. And the window's --help lists these exit codes.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/gui/gui_test_support.h"
#include "tests/support/help_text.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
namespace ts = tilescope::testing;

namespace {

struct Outcome {
  int code = -1;
  std::string out, err;
};

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string temp_path(const std::string& name) {
  return "/tmp/tilescope-script-exit-" + std::to_string(getpid()) + "-" + name;
}

// Runs `tilescope ARGS`, stdout and stderr apart.
Outcome run(const std::string& args) {
  const std::string out = temp_path("out"), err = temp_path("err");
  const std::string cmd = std::string(TILESCOPE_BINARY) + " " + args + " >" + out + " 2>" + err;
  const int status = std::system(cmd.c_str());
  Outcome o;
  o.code = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.out = read_all(out);
  o.err = read_all(err);
  std::remove(out.c_str());
  std::remove(err.c_str());
  return o;
}

std::string write_script(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

TEST(ScriptExit, EveryKindOfBadLineExits2WithFileAndLine) {
  // The bad line is line 4 each time, after a comment, a good line and an empty line.
  const char* kinds[][2] = {
      {"unknown action", "explode"},
      {"wrong number of words", "frames 1 2"},
      {"value that does not parse", "set n abc"},
      {"value out of range", "set reps 0"},
      {"name that is not one", "set precision fp8"},
      {"variant that does not exist", "use turbo on"},
      {"sizes backwards", "set sweep 4096 256"},
  };
  for (const auto& kind : kinds) {
    SCOPED_TRACE(kind[0]);
    const std::string script = write_script("bad.txt", std::string("# lesson\nset n 64\n\n") + kind[1] + "\nrun\n");
    const Outcome o = run("--headless --no-settings --no-gpu --script " + script);
    EXPECT_EQ(o.code, 2) << o.err;
    // The message's first line: "tilescope: FILE:4: why".
    EXPECT_EQ(o.err.rfind("tilescope: " + script + ":4: ", 0), 0u) << o.err;
    EXPECT_EQ(o.err.find("OpenGL"), std::string::npos) << "nothing ran: no context was made\n" << o.err;
    EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << "one line: " << o.err;
    std::remove(script.c_str());
  }
}

TEST(ScriptExit, AMissingScriptExits2NamingTheFile) {
  const Outcome o = run("--headless --no-settings --no-gpu --script /nonexistent/lesson.txt");
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_EQ(o.err.rfind("tilescope: /nonexistent/lesson.txt: cannot read the script: ", 0), 0u) << o.err;
}

TEST(ScriptExit, AnActionFailingWhilePlayingExits1) {
  // A good script whose load-csv finds no file when it plays: the script was fine, the action
  // was not. This one needs a headless GL context (Mesa's surfaceless EGL in CI).
  const std::string script = write_script("runtime.txt", "frames 1\nload-csv /nonexistent/in.csv\nquit\n");
  const Outcome o = run("--headless --no-settings --no-gpu --script " + script);
  if (o.code == 5) GTEST_SKIP() << "no OpenGL context here: " << o.err;
  EXPECT_EQ(o.code, 1) << o.err;
  EXPECT_NE(o.err.find(script + ":2: "), std::string::npos) << o.err;
  std::remove(script.c_str());
}

// Plays `text` headless without a GPU; the outcome, or a skip where no GL context can be made.
#define PLAY_OR_SKIP(outcome, script)                                                                 \
  const Outcome outcome = run("--headless --no-settings --no-gpu --size 800x500 --script " + script); \
  if (outcome.code == 5) GTEST_SKIP() << "no OpenGL context here: " << outcome.err

// The lines of stderr that report a failing script line: "tilescope: FILE:LINE: why".
std::vector<std::string> failure_lines(const std::string& err, const std::string& script) {
  std::vector<std::string> out;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("tilescope: " + script + ":", 0) == 0) out.push_back(line);
  return out;
}

TEST(ScriptExit, FilesThatCannotBeWrittenAfterTheFrameExit1WithTheirLines) {
  // Exports and screenshots are written after the frame: the script learns how that went.
  char dir[] = "/tmp/tilescope-script-dir-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  // A plot to export first: an empty one is refused for another reason.
  const std::string csv = std::string(TILESCOPE_SOURCE_DIR) + "/docs/benchmarks/h100-2026-11-21/bench-gemm.csv";
  const std::string script = write_script("files.txt", "load-csv " + csv + "\nexport-plot /proc/x.png\nexport-plot " +
                                                           dir + "\nframes 1\nscreenshot /proc/x.png\n");
  PLAY_OR_SKIP(o, script);
  EXPECT_EQ(o.code, 1) << o.err;
  const std::vector<std::string> lines = failure_lines(o.err, script);
  ASSERT_EQ(lines.size(), 3u) << o.err;
  EXPECT_EQ(lines[0].rfind("tilescope: " + script + ":2: ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find("/proc/x.png"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1].rfind("tilescope: " + script + ":3: ", 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find(dir), std::string::npos) << lines[1];
  EXPECT_EQ(lines[2].rfind("tilescope: " + script + ":5: ", 0), 0u) << lines[2];
  EXPECT_NE(lines[2].find("/proc/x.png"), std::string::npos) << lines[2];
  rmdir(dir);
  std::remove(script.c_str());
}

TEST(ScriptExit, EveryFailingLineIsReportedNotOnlyTheLast) {
  // Three failures with no frame between them.
  const std::string script =
      write_script("many.txt", "load-csv /nonexistent/a.csv\nload-csv /nonexistent/b.csv\nexport-csv /proc/c.csv\n");
  PLAY_OR_SKIP(o, script);
  EXPECT_EQ(o.code, 1) << o.err;
  const std::vector<std::string> lines = failure_lines(o.err, script);
  ASSERT_EQ(lines.size(), 3u) << o.err;
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(lines[static_cast<std::size_t>(i)].rfind("tilescope: " + script + ":" + std::to_string(i + 1) + ": ", 0),
              0u)
        << lines[static_cast<std::size_t>(i)];
  std::remove(script.c_str());
}

TEST(ScriptExit, TuneLinesFailOnWhatTheTuneTabRefuses) {
  // The Tune tab's fields and Start, without a GPU: a variant without typed tiles, a key the
  // variant does not take, one axis twice, and Start (timing needs a GPU) each fail their line;
  // the good lines between them do not.
  const VariantDescriptor& typed = ts::typed_prefetch_kernel();
  const std::string k0 = typed.tile_params[0].key, k1 = typed.tile_params[1].key;
  const std::string script =
      write_script("tune.txt", "tune-variant " + std::string(ts::baseline().id) + "\ntune-variant " + typed.id +
                                   "\ntune-values no_such_key 1,2\ntune-axes " + k0 + " " + k0 + "\ntune-axes " + k1 +
                                   " " + k0 + "\ntune-size 512\ntune-values " + k0 + " 32:64:32\ntune-start\n");
  PLAY_OR_SKIP(o, script);
  EXPECT_EQ(o.code, 1) << o.err;
  const std::vector<std::string> lines = failure_lines(o.err, script);
  ASSERT_EQ(lines.size(), 4u) << o.err;
  const char* const wants[][2] = {{":1: ", "no typed tiles"},
                                  {":3: ", "no_such_key"},
                                  {":4: ", "two different parameters"},
                                  {":8: ", "needs a GPU"}};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(lines[i].rfind("tilescope: " + script + wants[i][0], 0), 0u) << lines[i];
    EXPECT_NE(lines[i].find(wants[i][1]), std::string::npos) << lines[i];
  }
  std::remove(script.c_str());
}

TEST(ScriptExit, AnExportSizeThePlotCannotHaveIsABadLine) {
  // The range the check states is the one the writer enforces: nothing plays.
  const std::string script = write_script("big.txt", "export-plot big.png 16384 16384\n");
  const Outcome o = run("--headless --no-settings --no-gpu --script " + script);
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_EQ(o.err, "tilescope: " + script + ":1: '16384' is not a whole number from 64 to 8192\n");
  std::remove(script.c_str());
}

TEST(ScriptExit, AFailedRunExits1AtTheWaitForIt) {
  // The texture shaders run without a GPU; a shader that does not compile makes their run fail.
  tilescope::testing::ShaderDir shaders;
  tilescope::testing::write_file(shaders.file(ShaderMode::kMultipass), "#version 330 core\nnot glsl\n");
  const tilescope::testing::ScopedShaderEnv env(shaders.path());
  const VariantDescriptor& gl = tilescope::testing::shader_variant_desc();
  const std::string use = std::string(gl.id) + ":" + tilescope::testing::shader_config_name(ShaderMode::kMultipass);
  const std::string script =
      write_script("run.txt", "set n 32\nset reps 1\nuse-all off\nuse " + use + " on\nrun\nwait 120\nframes 1\n");
  PLAY_OR_SKIP(o, script);
  EXPECT_EQ(o.code, 1) << o.err;
  const std::vector<std::string> lines = failure_lines(o.err, script);
  ASSERT_EQ(lines.size(), 1u) << o.err;
  EXPECT_EQ(lines[0].rfind("tilescope: " + script + ":5: finished: 1 of 2 runs of the CPU reference and " + gl.label +
                               " at 32 failed; the last: ",
                           0),
            0u)
      << lines[0];
  std::remove(script.c_str());
}

TEST(ScriptExit, WindowHelpListsTheExitCodes) {
  const Outcome o = run("--help-window");
  EXPECT_EQ(o.code, 0) << o.err;
  const std::map<int, std::string> codes = tilescope::testing::exit_code_entries(o.out);
  ASSERT_EQ(tilescope::testing::exit_codes_of(codes), (std::set<int>{0, 1, 2, 5})) << o.out;
  EXPECT_NE(codes.at(1).find("script action failed"), std::string::npos) << codes.at(1);
  EXPECT_EQ(codes.at(2).rfind("bad arguments", 0), 0u) << codes.at(2);
  EXPECT_NE(codes.at(2).find("FILE:LINE"), std::string::npos) << "a bad script line is a 2: " << codes.at(2);
  EXPECT_EQ(codes.at(5).rfind("no display", 0), 0u) << codes.at(5);
}

}  // namespace
