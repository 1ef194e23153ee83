// `tilescope memory`'s options for recording (app/cli/memory_command.h): --recording needs
// --record and a writable file (exit 4 before anything runs), without a GPU --record exits 3 and
// leaves no file behind, a block the launch does not have is refused, and --kernel-text installs
// an edit whose rows say "(edited TAG)" (a bad one is refused). The GPU suite records for real
// (tests/gpu/gpu_memory_worker_test.cpp).
#include "app/cli/memory_command.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "app/export/atomic_file.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/device_info.h"
#include "kernels/jit/edited_texts.h"
#include "kernels/jit/kernel_source.h"
#include "tests/support/run_program.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace fs = std::filesystem;

namespace {

struct Ran {
  int code = -1;
  std::string out, err;
};

Ran memory(std::vector<std::string> args) {
  args.insert(args.begin(), "memory");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream o, e;
  Ran r;
  r.code = run_memory_command(static_cast<int>(argv.size()), argv.data(), o, e);
  r.out = o.str();
  r.err = e.str();
  return r;
}

// A folder of its own for the files a test writes, removed after it.
class MemoryCommandFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tilescope-memory-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const char* name) const { return (dir_ / name).string(); }
  long files() const { return std::distance(fs::directory_iterator(dir_), fs::directory_iterator()); }
  fs::path dir_;
};

// The tiled kernel at its default configuration, as --variants names it.
std::string tiled_selection() {
  const VariantDescriptor& v = tilescope::testing::tiled_kernel();
  return std::string(v.id) + ":" + v.configs[static_cast<std::size_t>(v.default_config)].name;
}

}  // namespace

TEST(MemoryCommand, HelpSaysHowToRecordAndWhatTheExitCodesMean) {
  const Ran r = memory({"--help"});
  EXPECT_EQ(r.code, kMemoryOk);
  for (const char* words : {"--recording FILE", "--kernel-text ID=FILE", "4 --csv or --recording could not be",
                            "docs/MEMORY.md", "5 a recorded address"})
    EXPECT_NE(r.out.find(words), std::string::npos) << words << " is not in the help:\n" << r.out;
}

TEST_F(MemoryCommandFiles, RecordingNeedsRecordAndAWritableFile) {
  const std::string variants = tiled_selection();
  Ran r = memory({"--variants", variants, "--sizes", "64", "--recording", path("warp.txt")});
  EXPECT_EQ(r.code, kMemoryBadArguments);
  EXPECT_NE(r.err.find("give --record too"), std::string::npos) << r.err;
  r = memory({"--variants", variants, "--sizes", "64", "--record", "0,0", "--recording"});
  EXPECT_EQ(r.code, kMemoryBadArguments);
  EXPECT_NE(r.err.find("--recording takes a FILE"), std::string::npos) << r.err;
  // An unwritable file is refused before anything is counted or recorded (GPU or not).
  const std::string missing = path("no-such-folder") + "/warp.txt";
  r = memory({"--variants", variants, "--sizes", "64", "--record", "0,0", "--recording", missing});
  EXPECT_EQ(r.code, kMemoryOutputFailed);
  EXPECT_NE(r.err.find("no-such-folder"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  r = memory({"--variants", variants, "--sizes", "64", "--record", "0,0", "--recording", dir_.string()});
  EXPECT_EQ(r.code, kMemoryOutputFailed) << r.err;
  // A block the launch does not have: refused with what it has, before any GPU is asked for.
  r = memory({"--variants", variants, "--sizes", "64", "--record", "100000,0", "--recording", path("warp.txt")});
  EXPECT_EQ(r.code, kMemoryBadArguments);
  EXPECT_NE(r.err.find("this launch has"), std::string::npos) << r.err;
  EXPECT_EQ(files(), 0);
}

TEST_F(MemoryCommandFiles, WithoutAGpuRecordExitsThreeAndWritesNothing) {
  if (probe_device().ok()) GTEST_SKIP() << "a GPU is here: the GPU suite records on it";
  Ran r = memory({"--variants", tiled_selection(), "--sizes", "64", "--record", "0,1", "--recording", path("warp.txt"),
                  "--csv", path("counts.csv")});
  EXPECT_EQ(r.code, kMemoryNoGpu);
  EXPECT_NE(r.err.find("--record needs a GPU"), std::string::npos) << r.err;
  // Neither the recording nor the CSV, nor a temporary file of either.
  EXPECT_EQ(files(), 0);
}

// Through the program itself, as the window's worker runs it: an installed edit lasts as long as
// its process, which must not be this suite's.
TEST_F(MemoryCommandFiles, KernelTextRunsTheEditedConfigurations) {
  const VariantDescriptor& v = tilescope::testing::tiled_kernel();
  std::string text, why;
  ASSERT_TRUE(read_kernel_text(v, &text, &why)) << why;
  text += "\n// a learner's note: nothing changed but this line\n";
  ASSERT_TRUE(write_file_atomically(path("edit.cuh"), text, &why)) << why;
  const std::string counts = "memory --variants " + tiled_selection() + " --sizes 64 --kernel-text ";
  const std::string edit = std::string(v.id) + "=" + path("edit.cuh");
  tilescope::testing::ProgramOutcome o = tilescope::testing::run_program(TILESCOPE_BINARY, counts + edit);
  EXPECT_EQ(o.code, kMemoryOk) << o.output;
  EXPECT_NE(o.output.find("(edited " + edit_tag(text) + ")"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("the shipped kernel's model's"), std::string::npos) << o.output;
  // A spelling without '=', a file that is no kernel text, a variant not among those selected.
  o = tilescope::testing::run_program(TILESCOPE_BINARY, counts + path("edit.cuh"));
  EXPECT_EQ(o.code, kMemoryBadArguments);
  EXPECT_NE(o.output.find("ID=FILE"), std::string::npos) << o.output;
  ASSERT_TRUE(write_file_atomically(path("notes.txt"), "no kernel here\n", &why)) << why;
  o = tilescope::testing::run_program(TILESCOPE_BINARY, counts + v.id + "=" + path("notes.txt"));
  EXPECT_EQ(o.code, kMemoryBadArguments);
  EXPECT_NE(o.output.find("notes.txt"), std::string::npos) << o.output;
  const VariantDescriptor& other = tilescope::testing::one_phase_kernel();
  o = tilescope::testing::run_program(
      TILESCOPE_BINARY, std::string("memory --sizes 64 --variants ") + other.id + " --kernel-text " + edit);
  EXPECT_EQ(o.code, kMemoryBadArguments);
  EXPECT_NE(o.output.find("is not among the variants to run"), std::string::npos) << o.output;
}
