// The real `tilescope` program, run as a user would: exit codes, the one-line "no usable GPU"
// message on machines without a GPU (CI), usage on bad arguments, and --list.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "app/export/results_csv.h"
#include "kernels/core/registry.h"
#include "kernels/cuda/device_info.h"
#include "tests/example_variant/example_variants.h"
#include "tests/support/help_text.h"

#ifndef TILESCOPE_BINARY
#error "tests/CMakeLists.txt defines TILESCOPE_BINARY as the path of the tilescope program"
#endif

namespace tilescope {
namespace {

namespace fs = std::filesystem;

struct Outcome {
  int exit_code = -1;
  std::string out, err;
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `tilescope ARGS` (ARGS already shell-quoted where needed), capturing both streams.
Outcome run_tilescope(const std::string& args) {
  static int counter = 0;
  const fs::path base = fs::temp_directory_path() /
                        ("tilescope_cli_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  const std::string out_path = base.string() + ".out", err_path = base.string() + ".err";
  const std::string command =
      std::string("'") + TILESCOPE_BINARY + "' " + args + " >'" + out_path + "' 2>'" + err_path + "'";
  const int status = std::system(command.c_str());
  Outcome o;
  if (status != -1 && WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
  o.out = read_file(out_path);
  o.err = read_file(err_path);
  fs::remove(out_path);
  fs::remove(err_path);
  return o;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<std::string> lines_containing(const std::string& text, const std::string& part) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (contains(line, part)) lines.push_back(line);
  return lines;
}

#define SKIP_WITH_A_GPU()                                     \
  if (probe_device().ok())                                    \
  GTEST_SKIP() << "a GPU is present (" << probe_device().name \
               << "): the no-GPU behaviour is tested on machines without one"

TEST(NoGpu, BenchSaysSoInOneLineAndExitsWith3) {
  SKIP_WITH_A_GPU();
  const Outcome o = run_tilescope("bench --sizes 64 --reps 2");
  EXPECT_EQ(o.exit_code, 3) << o.err;
  const std::vector<std::string> lines = lines_containing(o.err, "no usable GPU");
  ASSERT_EQ(lines.size(), 1u) << o.err;
  EXPECT_EQ(lines[0].rfind("tilescope: no usable GPU: ", 0), 0u) << lines[0];
  EXPECT_GT(lines[0].size(), std::string("tilescope: no usable GPU: ").size()) << "the reason is missing";
  // It still does what it can: the CPU reference for the small size.
  EXPECT_TRUE(contains(o.out, "cpu_reference")) << o.out;
  EXPECT_EQ(lines_containing(o.out, "cpu_reference").size(), 1u) << o.out;
  EXPECT_FALSE(contains(o.err + o.out, "terminate")) << "crashed";
}

// --profile changes nothing of it but one line saying there is nothing to profile.
TEST(NoGpu, BenchProfileSaysThereIsNoKernelToProfileAndKeepsItsExitCode) {
  SKIP_WITH_A_GPU();
  const Outcome o = run_tilescope("bench --sizes 64 --reps 1 --profile");
  EXPECT_EQ(o.exit_code, 3) << o.err;
  EXPECT_EQ(lines_containing(o.err, "--profile").size(), 1u) << o.err;
  EXPECT_EQ(lines_containing(o.err, "no kernel to profile").size(), 1u) << o.err;
  EXPECT_EQ(lines_containing(o.out, "cpu_reference").size(), 1u) << o.out;
  EXPECT_FALSE(contains(o.out, "FMA%")) << "no profile columns: nothing was profiled";
}

TEST(NoGpu, PlainBenchTimesTheCpuReferenceOnSmallDefaults) {
  SKIP_WITH_A_GPU();
  const Outcome o = run_tilescope("bench --reps 1 --warmup 0");
  EXPECT_EQ(o.exit_code, 3) << o.err;
  EXPECT_EQ(lines_containing(o.err, "no usable GPU").size(), 1u) << o.err;
  const std::vector<std::string> rows = lines_containing(o.out, "cpu_reference");
  ASSERT_EQ(rows.size(), 3u) << o.out;
  EXPECT_TRUE(contains(rows[0], "128")) << rows[0];
  EXPECT_TRUE(contains(rows[2], "512")) << rows[2];
}

TEST(NoGpu, LargeSizesAreSkippedOnTheCpuWithAReason) {
  SKIP_WITH_A_GPU();
  const Outcome o = run_tilescope("bench --sizes 4096 --problem ata");
  EXPECT_EQ(o.exit_code, 3) << o.err;
  EXPECT_TRUE(contains(o.out, "ata 4096x4096x4096")) << o.out;
  EXPECT_TRUE(contains(o.out, "512")) << o.out;
  EXPECT_FALSE(contains(o.out, "cpu_reference")) << "4096 is too large for the CPU reference";
}

TEST(NoGpu, WritesTheCpuRowsAsCsvAndJson) {
  SKIP_WITH_A_GPU();
  const fs::path dir = fs::temp_directory_path() / ("tilescope_cli_files_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path csv = dir / "r.csv", json = dir / "r.json";
  const Outcome o = run_tilescope("bench --sizes 16,32 --problem gemm,ata --reps 1 --csv '" + csv.string() +
                                  "' --json '" + json.string() + "'");
  EXPECT_EQ(o.exit_code, 3) << o.err;
  std::vector<RunResult> rows;
  std::string error;
  ASSERT_TRUE(results_from_csv(read_file(csv), &rows, &error)) << error;
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].variant_id, "cpu_reference");
  EXPECT_EQ(rows[0].shape.M, 16);
  EXPECT_EQ(rows[3].problem, Problem::Ata);
  EXPECT_GT(rows[0].median_ms, 0.0);
  EXPECT_TRUE(contains(read_file(json), "\"availability\": \"")) << read_file(json);
  fs::remove_all(dir);
}

TEST(NoGpu, UnwritableOutputGivesExit4) {
  SKIP_WITH_A_GPU();
  const Outcome o = run_tilescope("bench --sizes 16 --reps 1 --csv /nonexistent/dir/x.csv");
  EXPECT_EQ(o.exit_code, 4) << o.err;
  EXPECT_TRUE(contains(o.err, "cannot write /nonexistent/dir/x.csv: the folder /nonexistent/dir does not exist"))
      << o.err;
  EXPECT_FALSE(contains(o.err, "[1/")) << "refused before the first run";
}

// Ctrl-C, as a user presses it: the first run (16) finishes, the second (512, ten thousand
// repetitions: minutes) is under way and stops between repetitions. What finished is printed
// and written; the exit code is 130.
TEST(NoGpu, CtrlCKeepsWhatFinishedAndExitsWith130) {
  SKIP_WITH_A_GPU();
  const fs::path dir = fs::temp_directory_path() / ("tilescope_cli_sigint_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string out_path = (dir / "out").string(), err_path = (dir / "err").string();
  const std::string csv = (dir / "r.csv").string(), json = (dir / "r.json").string();
  const std::vector<std::string> args = {"tilescope", "bench", "--sizes", "16,512", "--reps", "10000",
                                         "--warmup",  "0",     "--csv",   csv,      "--json", json};
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // As from a terminal: SIGINT at its default (the test runner may have it ignored).
    signal(SIGINT, SIG_DFL);
    const int out_fd = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err_fd = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out_fd < 0 || err_fd < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0) _exit(125);
    execv(TILESCOPE_BINARY, argv.data());
    _exit(126);
  }

  using Clock = std::chrono::steady_clock;
  // Ends the child whatever happens, so that a failed test leaves nothing running.
  auto wait_for_exit = [pid](std::chrono::seconds limit) {
    const auto deadline = Clock::now() + limit;
    int status = 0;
    while (Clock::now() < deadline) {
      if (waitpid(pid, &status, WNOHANG) == pid) return status;
      usleep(20 * 1000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
  };

  // Wait until the second run has been announced (the first one is done by then).
  bool second_started = false;
  for (const auto deadline = Clock::now() + std::chrono::seconds(60); Clock::now() < deadline;) {
    if (contains(read_file(err_path), "[2/2]")) {
      second_started = true;
      break;
    }
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) break;  // ended early: the checks below say why
    usleep(20 * 1000);
  }
  int status = -1;
  if (second_started) {
    kill(pid, SIGINT);
    status = wait_for_exit(std::chrono::seconds(60));
  } else {
    status = wait_for_exit(std::chrono::seconds(0));
  }
  const std::string out = read_file(out_path), err = read_file(err_path);
  ASSERT_TRUE(second_started) << "the second run never started:\n" << err;
  ASSERT_NE(status, -1) << "still running 60 s after Ctrl-C:\n" << err;
  ASSERT_TRUE(WIFEXITED(status)) << "ended by a signal, not by its own exit:\n" << err;
  EXPECT_EQ(WEXITSTATUS(status), 130) << err;

  EXPECT_TRUE(contains(err, "[2/2] cpu_reference fp64 gemm f64 512x512x512 ... interrupted\n")) << err;
  const std::vector<std::string> last = lines_containing(err, "interrupted;");
  ASSERT_EQ(last.size(), 1u) << err;
  EXPECT_EQ(last[0], "tilescope: interrupted; 1 of 2 runs done") << err;
  EXPECT_EQ(err.substr(err.size() - last[0].size() - 1), last[0] + "\n") << "it is the last line:\n" << err;
  // The table holds the finished run only.
  const std::vector<std::string> table_rows = lines_containing(out, "cpu_reference");
  ASSERT_EQ(table_rows.size(), 1u) << out;
  EXPECT_TRUE(contains(table_rows[0], " 16 ")) << out;
  EXPECT_FALSE(contains(out, "512  512")) << out;
  // So do the files.
  std::vector<RunResult> rows;
  std::string error;
  ASSERT_TRUE(results_from_csv(read_file(csv), &rows, &error)) << error;
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].shape.M, 16);
  EXPECT_EQ(rows[0].repetitions, 10000);
  EXPECT_EQ(rows[0].warmup, 0);
  EXPECT_EQ(rows[0].seed, 1u);
  EXPECT_EQ(rows[0].timestamp.size(), 20u) << rows[0].timestamp;
  EXPECT_TRUE(contains(read_file(json), "\"M\": 16,")) << read_file(json);
  EXPECT_FALSE(contains(read_file(json), "\"M\": 512,")) << read_file(json);
  fs::remove_all(dir);
}

TEST(Cli, BadArgumentsGiveUsageAndExit2) {
  for (const char* args : {"bench --sizes 0", "bench --reps", "bench --bogus", "bench --variants turbo",
                           "bench --problem ata --m 64", "bench 64"}) {
    SCOPED_TRACE(args);
    const Outcome o = run_tilescope(args);
    EXPECT_EQ(o.exit_code, 2) << o.err;
    EXPECT_TRUE(tilescope::testing::has_line_starting_with(o.err, "usage: tilescope bench ")) << o.err;
    EXPECT_EQ(o.err.rfind("tilescope bench: ", 0), 0u) << "the reason comes first: " << o.err;
    EXPECT_TRUE(o.out.empty()) << o.out;
  }
}

TEST(Cli, UnknownVariantNamesTheValidOnes) {
  const Outcome o = run_tilescope("bench --variants turbo");
  EXPECT_EQ(o.exit_code, 2);
  // The program runs the product's registry (the test registry adds the examples).
  for (const VariantDescriptor* v : registry_without_examples()) EXPECT_TRUE(contains(o.err, v->id)) << o.err;
}

TEST(Cli, ListPrintsEveryRegistryId) {
  const Outcome o = run_tilescope("bench --list");
  EXPECT_EQ(o.exit_code, 0) << o.err;
  for (const VariantDescriptor* v : registry_without_examples()) {
    EXPECT_TRUE(contains(o.out, v->id)) << v->id;
    for (const TileConfig& c : v->configs) EXPECT_TRUE(contains(o.out, c.name)) << v->id << ":" << c.name;
  }
  // The program runs the product's registry: the examples a test program adds never join it.
  for (const VariantDescriptor* ex : example_variants()) EXPECT_FALSE(contains(o.out, ex->id)) << ex->id;
  EXPECT_FALSE(contains(o.err, "no usable GPU")) << "--list needs no GPU";
}

TEST(Cli, HelpDocumentsExitCodes) {
  const Outcome o = run_tilescope("bench --help");
  EXPECT_EQ(o.exit_code, 0);
  // Whole entries of the "Exit codes:" list, not substrings ("13  no usable GPU" would contain
  // "3  no usable GPU").
  const std::map<int, std::string> codes = tilescope::testing::exit_code_entries(o.out);
  ASSERT_EQ(codes.count(3), 1u) << o.out;
  ASSERT_EQ(codes.count(130), 1u) << o.out;
  EXPECT_EQ(codes.at(3).rfind("no usable GPU", 0), 0u) << codes.at(3);
  EXPECT_EQ(codes.at(130).rfind("interrupted (Ctrl-C)", 0), 0u) << codes.at(130);
}

TEST(Cli, TopLevelCommands) {
  Outcome o = run_tilescope("--version");
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_EQ(o.out.rfind("tilescope ", 0), 0u) << o.out;
  o = run_tilescope("--help");
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_TRUE(tilescope::testing::has_line_starting_with(o.out, "usage: tilescope ")) << o.out;
  // Each command has its own line in the list of commands.
  EXPECT_TRUE(tilescope::testing::has_line_starting_with(o.out, "  bench ")) << o.out;
  EXPECT_TRUE(tilescope::testing::has_line_starting_with(o.out, "  plot ")) << o.out;
  o = run_tilescope("frobnicate");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_TRUE(contains(o.err, "unknown command 'frobnicate'")) << o.err;
  EXPECT_TRUE(tilescope::testing::has_line_starting_with(o.err, "usage: tilescope ")) << o.err;
}

}  // namespace
}  // namespace tilescope
