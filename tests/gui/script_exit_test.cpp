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
#include <string>

#include "../help_text.h"

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

TEST(ScriptExit, WindowHelpListsTheExitCodes) {
  const Outcome o = run("--help-window");
  EXPECT_EQ(o.code, 0) << o.err;
  const std::map<int, std::string> codes = tilescope::testing::exit_code_entries(o.out);
  ASSERT_EQ(codes.size(), 4u) << o.out;
  for (int code : {0, 1, 2, 5}) ASSERT_EQ(codes.count(code), 1u) << code << "\n" << o.out;
  EXPECT_NE(codes.at(1).find("script action failed"), std::string::npos) << codes.at(1);
  EXPECT_EQ(codes.at(2).rfind("bad arguments", 0), 0u) << codes.at(2);
  EXPECT_NE(codes.at(2).find("FILE:LINE"), std::string::npos) << "a bad script line is a 2: " << codes.at(2);
  EXPECT_EQ(codes.at(5).rfind("no display", 0), 0u) << codes.at(5);
}

}  // namespace
