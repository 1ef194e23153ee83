// A script is checked whole before anything runs: every kind of bad line (an unknown action, a
// wrong number of words, a value that does not parse, a value out of range, a variant or
// configuration that does not exist) is refused with FILE:LINE: why, for every action that takes
// a value. No window, no GL: only the checks.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "app/ui/script/script.h"
#include "kernels/core/registry.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

// Why `line` (one line of a script) is refused, through the loader as a file would be: "" if
// it loads. The error must name the file and the line.
std::string refusal(const std::string& line) {
  ScriptPlayer p;
  std::string error;
  // Two good lines first, so the bad one is line 3.
  if (p.load_text("# a lesson\nset n 64\n" + line + "\nrun\n", "lesson.txt", &error)) return "";
  EXPECT_EQ(error.rfind("lesson.txt:3: ", 0), 0u) << "FILE:LINE: first: " << error;
  return error;
}

void expect_refused(const std::string& line, const std::string& why_contains) {
  SCOPED_TRACE(line);
  const std::string error = refusal(line);
  ASSERT_FALSE(error.empty()) << "'" << line << "' was accepted";
  EXPECT_NE(error.find(why_contains), std::string::npos) << error;
}

void expect_accepted(const std::string& line) {
  EXPECT_EQ(refusal(line), "") << line;
}

TEST(ScriptCheck, UnknownActionsAndSettings) {
  expect_refused("rn", "unknown action 'rn'");
  expect_refused("explode now", "unknown action 'explode'");
  expect_refused("set colour red", "unknown setting 'colour'");
  expect_refused("set", "wrong number of words");
}

TEST(ScriptCheck, WrongNumberOfWordsForEveryAction) {
  for (const char* line : {"run now",
                           "sweep 1",
                           "live x",
                           "cancel all",
                           "quit 0",
                           "show-timing 1",
                           "show-mapping 1",
                           "show-history x",
                           "show-timeline now",
                           "record-timeline 10",
                           "timeline-zoom",
                           "timeline-blocks 0",
                           "timeline-blocks 0 8 9",
                           "mapping-view",
                           "plot",
                           "plot roofline timing",
                           "reload-shaders x",
                           "history-mode",
                           "history-mode a b",
                           "history-pass",
                           "mapping-block 1",
                           "mapping-block 1 2 3",
                           "mapping-play",
                           "mapping-phase",
                           "wait 1 2",
                           "frames",
                           "frames 1 2",
                           "load-csv",
                           "load-csv a b",
                           "export-csv",
                           "screenshot",
                           "screenshot a b",
                           "export-plot",
                           "export-plot a.png 100",
                           "export-plot a.png 100 100 100",
                           "use-all",
                           "use-all on off",
                           "focus",
                           "focus a b",
                           "use",
                           "use x",
                           "use x on off"})
    expect_refused(line, "wrong number of words");
  // set KEY takes its own number of values.
  expect_refused("set n", "set n takes N");
  expect_refused("set n 64 64", "set n takes N");
  expect_refused("set sweep 64", "set sweep takes FROM TO");
  expect_refused("set problem gemm ata", "set problem takes gemm|ata");
}

TEST(ScriptCheck, ValuesThatDoNotParse) {
  expect_refused("set problem gemv", "'gemv' is not one of gemm|ata");
  expect_refused("set precision fp8", "'fp8' is not one of f32|f64|tf32|f16|bf16");
  for (Precision p : all_precisions()) expect_accepted(std::string("set precision ") + to_string(p));
  expect_refused("set n abc", "set n: 'abc' is not a whole number");
  expect_refused("set m 1.5", "set m: '1.5' is not a whole number");
  expect_refused("set k 64x", "set k: '64x'");
  expect_refused("set square maybe", "set square: 'maybe' is not on or off");
  expect_refused("set reps ten", "set reps: 'ten'");
  expect_refused("set verify yes", "'yes' is not on or off");
  expect_refused("set sweep a 64", "set sweep: 'a'");
  expect_refused("set y flops", "'flops' is not one of gflops|ms");
  expect_refused("set ylog 2", "'2' is not on or off");
  expect_refused("set only-current x", "'x' is not on or off");
  expect_refused("set presenter x", "'x' is not on or off");
  expect_refused("set theme blue", "'blue' is not one of dark|light|high_contrast");
  expect_refused("wait soon", "'soon' is not a whole number");
  expect_refused("frames many", "'many' is not a whole number");
  expect_refused("export-plot a.png wide 100", "'wide' is not a whole number");
  expect_refused("mapping-block x 0", "'x' is not a whole number");
  expect_refused("mapping-phase first", "'first' is not a whole number");
  expect_refused("mapping-play yes", "'yes' is not on or off");
  expect_refused("plot speed", "'speed' is not a plot: timing|roofline");
  expect_refused("mapping-view lanes", "'lanes' is not one of matrices|fragments|banks|timeline|memory");
  expect_refused("timeline-zoom in", "'in' is not one of all|start");
  expect_refused("timeline-blocks first 8", "'first' is not a whole number");
  expect_refused("mapping-colour thread", "'thread' is not one of warp|lane|register");
  expect_refused("mapping-banks off", "'off' is not one of swizzled|plain");
  expect_refused("gpus-scroll bottom", "'bottom' is not one of top|model");
  expect_refused("gpus-model time", "'time' is not one of speedup|efficiency");
  expect_refused("mapping-lane five", "'five' is not a whole number");
  expect_refused("mapping-warp first", "'first' is not a whole number");
  expect_refused("history-pass some", "'some' is not a whole number");
  expect_refused("use-all x", "'x' is not on or off");
}

TEST(ScriptCheck, ValuesOutOfRange) {
  expect_refused("set n 0", "from 1 to 1048576");
  expect_refused("set n -5", "from 1 to 1048576");
  expect_refused("set m 1048577", "from 1 to 1048576");
  expect_refused("set k 99999999999999999999", "from 1 to 1048576");
  expect_refused("set reps 0", "from 1 to 1000");
  expect_refused("set reps 1001", "from 1 to 1000");
  expect_refused("set sweep 0 64", "from 1 to 1048576");
  expect_refused("set sweep 64 2000000", "from 1 to 1048576");
  expect_refused("set sweep 4096 256", "FROM <= TO");
  expect_refused("wait 0", "from 1 to 86400");
  expect_refused("wait 86401", "from 1 to 86400");
  expect_refused("frames 0", "from 1 to 1048576");
  expect_refused("frames -1", "from 1 to 1048576");
  expect_refused("export-plot a.png 63 100", "from 64 to 8192");
  expect_refused("export-plot a.png 100 8193", "from 64 to 8192");
  expect_refused("mapping-block -1 0", "from 0 to 1048576");
  expect_refused("mapping-block 0 1048577", "from 0 to 1048576");
  expect_refused("mapping-phase -2", "from 0 to 1048576");
  expect_refused("history-pass -2", "from 0 to 1048576");
  expect_refused("mapping-lane 32", "from 0 to 31");
  expect_refused("mapping-lane -1", "from 0 to 31");
  expect_refused("mapping-warp 4", "from 0 to 3");
  expect_refused("mapping-warp -1", "from 0 to 3");
  expect_refused("timeline-blocks 0 0", "from 1 to 64");
  expect_refused("timeline-blocks 0 65", "from 1 to 64");
  expect_refused("timeline-blocks -1 8", "from 0 to 1048576");
}

TEST(ScriptCheck, VariantsConfigurationsAndShaderModesMustExist) {
  const VariantDescriptor& tiled = tilescope::testing::tiled_kernel();
  const std::string id = tiled.id;
  expect_refused("use turbo on", "no variant 'turbo'");
  expect_refused("focus turbo", "no variant 'turbo'");
  expect_refused("use " + id + ":no_such_config on", "no configuration 'no_such_config' of " + id);
  expect_refused("focus " + id + ":" + tiled.configs[0].name, "without a configuration");
  expect_refused("use " + id + " maybe", "'maybe' is not on or off");
  expect_refused("history-mode no_such_mode", "not a configuration of the texture shaders");
  // The message lists what exists.
  const std::string error = refusal("use turbo on");
  for (const VariantDescriptor* v : variant_registry()) EXPECT_NE(error.find(v->id), std::string::npos) << v->id;
}

TEST(ScriptCheck, GoodLinesOfEveryActionLoad) {
  const VariantDescriptor& tiled = tilescope::testing::tiled_kernel();
  const VariantDescriptor* shader = shader_variant();
  ASSERT_NE(shader, nullptr);
  for (const std::string& line : {std::string("run"),
                                  std::string("sweep"),
                                  std::string("live"),
                                  std::string("cancel"),
                                  std::string("quit"),
                                  std::string("show-timing"),
                                  std::string("show-mapping"),
                                  std::string("show-history"),
                                  std::string("plot roofline"),
                                  std::string("plot timing"),
                                  std::string("reload-shaders"),
                                  "history-mode " + shader->configs.back().name,
                                  std::string("history-pass 0"),
                                  std::string("history-pass all"),
                                  std::string("mapping-block 0 3"),
                                  std::string("mapping-play on"),
                                  std::string("mapping-phase 0"),
                                  std::string("mapping-view banks"),
                                  std::string("mapping-view fragments"),
                                  std::string("mapping-view matrices"),
                                  std::string("mapping-view timeline"),
                                  std::string("show-timeline"),
                                  std::string("record-timeline"),
                                  std::string("timeline-zoom start"),
                                  std::string("timeline-zoom all"),
                                  std::string("timeline-blocks 128 4"),
                                  std::string("mapping-colour lane"),
                                  std::string("mapping-colour register"),
                                  std::string("mapping-lane 31"),
                                  std::string("mapping-warp 3"),
                                  std::string("mapping-warp all"),
                                  std::string("mapping-banks plain"),
                                  std::string("gpus-scroll model"),
                                  std::string("gpus-scroll top"),
                                  std::string("gpus-model efficiency"),
                                  std::string("gpus-model speedup"),
                                  std::string("wait"),
                                  std::string("wait 86400"),
                                  std::string("frames 1"),
                                  std::string("load-csv in.csv"),
                                  std::string("export-csv out.csv"),
                                  std::string("screenshot s.png"),
                                  std::string("export-plot p.png"),
                                  std::string("export-plot p.png 64 8192"),
                                  std::string("use-all off"),
                                  "focus " + std::string(tiled.id),
                                  "use " + std::string(tiled.id) + " on",
                                  "use " + std::string(tiled.id) + ":" + tiled.configs.back().name + " off",
                                  std::string("set problem ata"),
                                  std::string("set precision f64"),
                                  std::string("set n 1048576"),
                                  std::string("set m 1"),
                                  std::string("set k 7"),
                                  std::string("set square off"),
                                  std::string("set reps 1000"),
                                  std::string("set verify off"),
                                  std::string("set sweep 64 64"),
                                  std::string("set y ms"),
                                  std::string("set ylog on"),
                                  std::string("set only-current off"),
                                  std::string("set presenter on"),
                                  std::string("set theme high_contrast"),
                                  std::string("set n 64   # a comment")})
    expect_accepted(line);
}

TEST(ScriptCheck, TheFirstBadLineIsReportedAndNothingIsKept) {
  ScriptPlayer p;
  std::string error;
  EXPECT_FALSE(p.load_text("set n 64\n\n# fine so far\nset reps 0\nrn\n", "l.txt", &error));
  EXPECT_EQ(error, "l.txt:4: set reps: '0' is not a whole number from 1 to 1000");
  EXPECT_TRUE(p.finished()) << "a refused script has nothing to play";
}

TEST(ScriptCheck, TheShippedLessonsLoad) {
  int lessons = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(TILESCOPE_SOURCE_DIR) + "/assets/lessons")) {
    if (entry.path().extension() != ".txt") continue;
    ScriptPlayer p;
    std::string error;
    EXPECT_TRUE(p.load_file(entry.path().string(), &error)) << error;
    ++lessons;
  }
  EXPECT_GT(lessons, 0);
}

TEST(ScriptCheck, AMissingFileIsNamed) {
  ScriptPlayer p;
  std::string error;
  EXPECT_FALSE(p.load_file("/nonexistent/lesson.txt", &error));
  EXPECT_EQ(error.rfind("/nonexistent/lesson.txt: cannot read the script: ", 0), 0u) << error;
}

}  // namespace
