// The real program: the window under Xvfb with Mesa (CI runs the GUI tests under xvfb-run),
// played by a script, ending on a screenshot that is checked; `tilescope plot`; the messages
// for no display and bad scripts.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "app/export/png_writer.h"
#include "app/plot/plot_widget.h"
#include "tests/gui/image_checks.h"
#include "tests/support/help_text.h"
#include "tests/support/run_program.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
using namespace tilescope::testing;

namespace {

const std::string kCsv = std::string(TILESCOPE_SOURCE_DIR) + "/docs/benchmarks/h100-2026-11-21/bench-gemm.csv";

using Outcome = tilescope::testing::ProgramOutcome;

Outcome run(const std::string& args) {
  return tilescope::testing::run_program(TILESCOPE_BINARY, args);
}

std::string temp_path(const std::string& name) {
  return "/tmp/tilescope-cli-" + std::to_string(getpid()) + "-" + name;
}

// The PNG a command wrote; an empty image, and a failure that says why, when it cannot be read.
Image written_png(const std::string& path) {
  Image img;
  std::string error;
  EXPECT_TRUE(read_png(path, &img, &error)) << error;
  return img;
}

std::string write_script(const std::string& text) {
  const std::string path = temp_path("script.txt");
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST(Window, ScriptedLessonUnderXvfbEndsOnACheckedScreenshot) {
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no DISPLAY: scripts/test.sh runs the GUI tests under xvfb-run";
  const std::string shot = temp_path("window.png");
  const std::string script = write_script("load-csv " + kCsv +
                                          "\nset n 96\nrun\nwait 60\nframes 3\nset presenter on\nframes 3\n"
                                          "set presenter off\nframes 3\nscreenshot " +
                                          shot + "\nframes 2\n");
  const Outcome o = run("--no-settings --no-gpu --size 1280x800 --script " + script);
  ASSERT_EQ(o.code, 0) << o.output;
  EXPECT_NE(o.output.find("OpenGL"), std::string::npos) << "the renderer is printed: " << o.output;
  const Image img = written_png(shot);
  ASSERT_TRUE(has_size(img, 1280, 800)) << o.output;
  EXPECT_GT(distinct_colors(img), 50u) << "blank window";
  // The first series (cuBLAS) and a few more, in the Okabe-Ito colours the plot uses.
  for (int s = 0; s < 4; ++s) EXPECT_GT(count_color(img, series_color(s), 30), 30) << "series " << s;
  unlink(shot.c_str());
  unlink(script.c_str());
}

TEST(Window, HeadlessRendersTheSameUi) {
  const std::string shot = temp_path("headless.png");
  const Outcome o =
      run("--headless --no-settings --no-gpu --size 1024x640 --frames 4 --load-csv " + kCsv + " --screenshot " + shot);
  ASSERT_EQ(o.code, 0) << o.output;
  const Image img = written_png(shot);
  ASSERT_TRUE(has_size(img, 1024, 640));
  EXPECT_GT(distinct_colors(img), 50u);
  EXPECT_GT(count_color(img, series_color(0), 30), 30);
  unlink(shot.c_str());
}

TEST(Window, NoDisplaySaysWhatToDo) {
  const std::string cmd =
      "env -u DISPLAY -u WAYLAND_DISPLAY " + std::string(TILESCOPE_BINARY) + " --no-settings --no-gpu 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[1024];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int status = pclose(p);
  EXPECT_EQ(WEXITSTATUS(status), 5) << out;
  // The hint names the option as a whole token (not inside a longer one).
  EXPECT_EQ(tilescope::testing::option_names(out).count("--headless"), 1u) << out;
}

TEST(Window, UnknownOptionIsAUsageError) {
  const Outcome o = run("--no-settings --frobnicate");
  EXPECT_EQ(o.code, 2) << o.output;
  EXPECT_TRUE(tilescope::testing::has_line_starting_with(o.output, "usage: tilescope ")) << o.output;
}

TEST(Window, BadScriptIsRefusedWithTheLine) {
  const std::string script = write_script("set n 64\nrun\nexplode\n");
  const Outcome o = run("--headless --no-settings --no-gpu --script " + script);
  EXPECT_EQ(o.code, 2) << o.output;
  EXPECT_NE(o.output.find(":3:"), std::string::npos) << o.output;
  unlink(script.c_str());
}

TEST(PlotCommand, CsvToPngAndClearErrors) {
  const std::string png = temp_path("plot.png");
  Outcome o = run("plot --csv " + kCsv + " -o " + png + " --size 1600x900");
  ASSERT_EQ(o.code, 0) << o.output;
  const Image img = written_png(png);
  ASSERT_TRUE(has_size(img, 1600, 900));
  for (int s = 0; s < 6; ++s) EXPECT_GT(count_color(img, series_color(s), 30), 20) << "series " << s;
  unlink(png.c_str());

  o = run("plot --csv /nonexistent/in.csv -o " + png);
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.output.find("/nonexistent/in.csv"), std::string::npos) << o.output;
  o = run("plot --csv " + kCsv + " -o /nonexistent/dir/out.png");
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.output.find("cannot write"), std::string::npos) << o.output;
  o = run("plot --csv " + kCsv);
  EXPECT_EQ(o.code, 2) << o.output;
}

TEST(PlotCommand, APrecisionTheCsvHasNoRowsOfIsAnError) {
  // The CSV holds gemm f32 and f64: an f16 plot would be a titled empty frame.
  const std::string png = temp_path("f16.png");
  const Outcome o = run("plot --csv " + kCsv + " -o " + png + " --precision f16");
  EXPECT_EQ(o.code, 1) << o.output;
  EXPECT_NE(o.output.find("tilescope plot: no gemm f16 rows in " + kCsv +
                          "; it holds gemm f32 (40 rows), gemm f64 (40 rows)"),
            std::string::npos)
      << o.output;
  EXPECT_NE(access(png.c_str(), F_OK), 0) << "nothing written";
  const Outcome ata = run("plot --csv " + kCsv + " -o " + png + " --problem ata");
  EXPECT_EQ(ata.code, 1) << ata.output;
  EXPECT_NE(ata.output.find("no ata f32 rows"), std::string::npos) << ata.output;
  const Outcome f64 = run("plot --csv " + kCsv + " -o " + png + " --precision f64");
  EXPECT_EQ(f64.code, 0) << f64.output;
  unlink(png.c_str());
}

TEST(PlotCommand, HelpListsTheExitCodes) {
  const Outcome o = run("plot --help");
  EXPECT_EQ(o.code, 0) << o.output;
  const std::map<int, std::string> codes = exit_code_entries(o.output);
  ASSERT_EQ(exit_codes_of(codes), (std::set<int>{0, 1, 2, 5})) << o.output;
  EXPECT_NE(codes.at(1).find("no row of the chosen problem and precision"), std::string::npos) << codes.at(1);
  EXPECT_EQ(codes.at(2).rfind("bad arguments", 0), 0u) << codes.at(2);
  EXPECT_EQ(codes.at(5).rfind("no OpenGL context", 0), 0u) << codes.at(5);
}

// `tilescope bench` runs the texture-shader variant headless through EGL: with CUDA (exit 0,
// GPU machine) or without it (exit 3, "no usable GPU", but the OpenGL rows are real), verified,
// and its rows join the CSV with the renderer and timer named.
TEST(BenchCommand, RunsTheTextureShadersThroughEgl) {
  const std::string csv = temp_path("gl.csv");
  const std::string id = shader_variant_desc().id;
  const std::size_t modes = shader_variant_desc().configs.size();
  const Outcome o = run("bench --variants " + id + " --sizes 33,64 --reps 2 --warmup 1 --no-baseline --csv " + csv);
  EXPECT_TRUE(o.code == 0 || o.code == 3) << o.output;
  EXPECT_NE(o.output.find("texture shaders: drawn by"), std::string::npos) << o.output;
  std::ifstream in(csv);
  std::string line;
  int rows = 0, passed = 0;
  std::getline(in, line);
  EXPECT_NE(line.find("fetches_per_fma"), std::string::npos);
  while (std::getline(in, line)) {
    if (line.rfind(id + ",", 0) != 0) continue;
    ++rows;
    if (line.find(",true,true,") != std::string::npos) ++passed;  // verified, passed
  }
  EXPECT_EQ(rows, static_cast<int>(2 * modes)) << o.output;  // every mode x 2 sizes
  EXPECT_EQ(passed, static_cast<int>(2 * modes)) << o.output;
  unlink(csv.c_str());

  const Outcome f64 = run("bench --variants " + id + ":" + shader_config_name(ShaderMode::kMrt8) +
                          " --precision f64 --sizes 16 --no-baseline");
  EXPECT_NE(f64.output.find("float only"), std::string::npos) << f64.output;
}
