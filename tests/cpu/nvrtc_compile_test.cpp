// The run-time compiler (kernels/jit/nvrtc_compiler.h): ptxas' report and the front end's messages
// read from a log, and a real NVRTC compile of a tiny kernel text (no GPU needed) giving PTX, a
// cubin, the mangled names and each kernel's own resources; a broken text gives its error at its
// line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <vector>

#include "kernels/cuda/cuda_libraries.h"
#include "kernels/jit/nvrtc_compiler.h"

namespace tilescope {
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ptxas -v as NVRTC logs it (NVRTC 12), for two kernels: the second with spills, a stack, more
// shared memory and barriers, the first with none of them.
const char* const kPtxasLog =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_ZN9tilescope5scaleIfLi64EEEvPT_' for 'sm_80'\n"
    "ptxas info    : Function properties for _ZN9tilescope5scaleIfLi64EEEvPT_\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 10 registers, 360 bytes cmem[0]\n"
    "ptxas info    : Compile time = 2.689 ms\n"
    "ptxas info    : Compiling entry function '_ZN9tilescope5scaleIdLi16EEEvPT_' for 'sm_80'\n"
    "ptxas info    : Function properties for _ZN9tilescope5scaleIdLi16EEEvPT_\n"
    "ptxas         .     24 bytes stack frame, 16 bytes spill stores, 8 bytes spill loads\n"
    "ptxas info    : Used 255 registers, used 2 barriers, 128 bytes smem, 360 bytes cmem[0]\n"
    "ptxas info    : Compile time = 1.223 ms\n";

// A report's numbers in one row: registers, stack, spill stores, spill loads, static shared
// memory, barriers.
std::vector<int> numbers(const KernelResources& r) {
  return {r.registers, r.stack_bytes, r.spill_store_bytes, r.spill_load_bytes, r.static_shared_bytes, r.barriers};
}

TEST(NvrtcLog, ReadsEachKernelsOwnResources) {
  const KernelResources first = parse_resources(kPtxasLog, "_ZN9tilescope5scaleIfLi64EEEvPT_");
  EXPECT_EQ(first.mangled, "_ZN9tilescope5scaleIfLi64EEEvPT_");
  // Nothing of the second kernel leaks into the first.
  EXPECT_EQ(numbers(first), (std::vector<int>{10, 0, 0, 0, 0, 0}));
  EXPECT_EQ(numbers(parse_resources(kPtxasLog, "_ZN9tilescope5scaleIdLi16EEEvPT_")),
            (std::vector<int>{255, 24, 16, 8, 128, 2}));
  // A kernel the log does not report, or no name at all: zeros.
  EXPECT_EQ(parse_resources(kPtxasLog, "_ZN9tilescope5scaleIfLi6EEEvPT_").registers, 0);
  EXPECT_EQ(parse_resources(kPtxasLog, "").registers, 0);
}

TEST(NvrtcLog, ReadsTheFrontEndsMessagesAtTheirLines) {
  const std::string log =
      "kernels/variants/x.cuh(12): error: identifier \"x\" is undefined\n"
      "      c[0] = x;\n"
      "             ^\n"
      "\n"
      "kernels/ptx/y.cuh(3): warning #177-D: variable \"u\" was declared but never referenced\n"
      "t.cuh(40): catastrophic error: cannot open source file \"z.cuh\"\n"
      "2 errors detected in the compilation of \"kernels/variants/x.cuh\".\n";
  const std::vector<SourceDiagnostic> d = parse_diagnostics(log);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].file, "kernels/variants/x.cuh");
  EXPECT_EQ(d[0].line, 12);
  EXPECT_EQ(d[0].severity, "error");
  EXPECT_EQ(d[0].message, "identifier \"x\" is undefined");
  EXPECT_EQ(d[1].file, "kernels/ptx/y.cuh");
  EXPECT_EQ(d[1].line, 3);
  EXPECT_EQ(d[1].severity, "warning");
  EXPECT_EQ(d[1].message, "variable \"u\" was declared but never referenced");
  EXPECT_EQ(d[2].line, 40);
  EXPECT_EQ(d[2].severity, "error");
  EXPECT_TRUE(parse_diagnostics("").empty());
  EXPECT_TRUE(parse_diagnostics(kPtxasLog).empty());
}

TEST(NvrtcLog, OffersSm90FirstAndOnlyArchitecturesTheCalculatorKnows) {
  const std::vector<std::string>& archs = selectable_architectures();
  ASSERT_FALSE(archs.empty());
  EXPECT_EQ(archs.front(), "sm_90");
  EXPECT_EQ(std::count(archs.begin(), archs.end(), "sm_80"), 1);
}

// A folder of its own with a header the kernel texts include, removed afterwards.
class NvrtcCompile : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!nvrtc_library().loaded) GTEST_SKIP() << "NVRTC is not loaded: " << nvrtc_library().error;
    root_ = fs::temp_directory_path() / ("tilescope-nvrtc-" + std::to_string(::getpid()));
    fs::create_directories(root_ / "tiny");
    std::ofstream(root_ / "tiny" / "twice.cuh")
        << "#pragma once\ntemplate <typename T> __device__ T twice(T v) { return v + v; }\n";
  }
  void TearDown() override {
    std::error_code ec;
    if (!root_.empty()) fs::remove_all(root_, ec);
  }
  CompileJob job(const std::string& source, std::vector<std::string> names) const {
    CompileJob j;
    j.source = source;
    j.file_name = "tiny/scale.cuh";
    j.architecture = "sm_80";
    j.names = std::move(names);
    j.include_root = root_.string();
    j.cuda_include_dir = find_cuda_include_dir();
    return j;
  }
  fs::path root_;
};

// Two instances of one template with different shared arrays: each kernel's report is its own.
const char* const kScaleText =
    "#include \"tiny/twice.cuh\"\n"
    "namespace tilescope {\n"
    "template <typename T, int N>\n"
    "__global__ void scale(T* x) {\n"
    "  __shared__ T s[N];\n"
    "  s[threadIdx.x] = x[threadIdx.x];\n"
    "  __syncthreads();\n"
    "  x[threadIdx.x] = twice(s[N - 1 - threadIdx.x]);\n"
    "}\n"
    "}  // namespace tilescope\n";

TEST_F(NvrtcCompile, ATinyTextGivesPtxACubinNamesAndResources) {
  const CompiledProgram p =
      compile_program(job(kScaleText, {"tilescope::scale<float, 64>", "tilescope::scale<double, 8>"}));
  ASSERT_TRUE(p.compiled) << p.error << "\n" << p.log;
  EXPECT_TRUE(p.error.empty()) << p.error;
  EXPECT_TRUE(contains(p.ptx, ".entry")) << p.ptx.substr(0, 400);
  EXPECT_TRUE(contains(p.ptx, ".target sm_80")) << p.ptx.substr(0, 400);
  EXPECT_FALSE(p.cubin.empty());
  ASSERT_EQ(p.lowered.size(), 2u);
  EXPECT_EQ(p.lowered[0], "_ZN9tilescope5scaleIfLi64EEEvPT_");
  EXPECT_EQ(p.lowered[1], "_ZN9tilescope5scaleIdLi8EEEvPT_");
  ASSERT_EQ(p.resources.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(p.resources[i].mangled, p.lowered[i]);
    EXPECT_GT(p.resources[i].registers, 0) << p.log;
    EXPECT_EQ(p.resources[i].barriers, 1) << p.log;
  }
  EXPECT_EQ(p.resources[0].static_shared_bytes, 64 * 4) << p.log;
  EXPECT_EQ(p.resources[1].static_shared_bytes, 8 * 8) << p.log;
  EXPECT_GT(p.compile_seconds, 0);
  EXPECT_FALSE(p.from_cache);
  EXPECT_TRUE(p.diagnostics.empty());
}

TEST_F(NvrtcCompile, AnErrorIsReportedAtItsLine) {
  const std::string broken =
      "namespace tilescope {\n"
      "template <typename T> __global__ void k(T* c) {\n"
      "  c[0] = undefined_name;\n"
      "}\n"
      "}\n";
  const CompiledProgram p = compile_program(job(broken, {"tilescope::k<float>"}));
  EXPECT_FALSE(p.compiled);
  EXPECT_FALSE(p.error.empty());
  EXPECT_TRUE(p.cubin.empty());
  ASSERT_FALSE(p.diagnostics.empty()) << p.log;
  EXPECT_EQ(p.diagnostics[0].file, "tiny/scale.cuh");
  EXPECT_EQ(p.diagnostics[0].line, 3);
  EXPECT_EQ(p.diagnostics[0].severity, "error");
  EXPECT_TRUE(contains(p.diagnostics[0].message, "undefined_name")) << p.diagnostics[0].message;
}

TEST_F(NvrtcCompile, AMissingIncludeIsAnErrorOfTheIncludingLine) {
  const CompiledProgram p = compile_program(job("\n#include \"tiny/absent.cuh\"\n", {}));
  EXPECT_FALSE(p.compiled);
  ASSERT_FALSE(p.diagnostics.empty()) << p.log;
  EXPECT_EQ(p.diagnostics[0].line, 2);
  EXPECT_TRUE(contains(p.diagnostics[0].message, "tiny/absent.cuh")) << p.diagnostics[0].message;
}

// The window's gate (limit_concurrent_compiles): with a limit of one, compiles started together
// run one after another, so the time they take together is the sum of their own times (each
// measured from the moment it passed the gate). Run side by side instead, they would share the
// cores and the sum of their times would exceed the time they took together.
TEST_F(NvrtcCompile, ALimitOfOneRunsCompilesOneAfterAnother) {
  struct NoLimitAfterwards {
    ~NoLimitAfterwards() { limit_concurrent_compiles(0); }
  } reset;
  limit_concurrent_compiles(1);
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::future<CompiledProgram>> compiles;
  for (int i = 0; i < 3; ++i)
    compiles.push_back(std::async(std::launch::async,
                                  [&] { return compile_program(job(kScaleText, {"tilescope::scale<float, 64>"})); }));
  double own_times = 0;
  for (std::future<CompiledProgram>& c : compiles) {
    const CompiledProgram p = c.get();
    ASSERT_TRUE(p.compiled) << p.error;
    own_times += p.compile_seconds;
  }
  const double together = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(together, 0.95 * own_times) << "together " << together << " s, their own times " << own_times << " s";
}

// A job whose asker no longer wants it when it passes the gate is not compiled.
TEST_F(NvrtcCompile, ADroppedJobIsNotCompiled) {
  CompileJob j = job(kScaleText, {"tilescope::scale<float, 64>"});
  const auto dropped = std::make_shared<std::atomic<bool>>(true);
  j.dropped = dropped;
  const CompiledProgram p = compile_program(j);
  EXPECT_FALSE(p.compiled);
  EXPECT_TRUE(p.cubin.empty());
  EXPECT_TRUE(contains(p.error, "dropped")) << p.error;
  *dropped = false;
  EXPECT_TRUE(compile_program(j).compiled) << "the same job, wanted again";
}

TEST(NvrtcCompileOptions, NameTheArchitectureTheIncludeFoldersAndTheReport) {
  CompileJob j;
  j.architecture = "sm_86";
  j.include_root = "/root/of/texts";
  j.cuda_include_dir = "/toolkit/include";
  std::vector<std::string> o = compile_options(j);
  for (const char* want : {"--gpu-architecture=sm_86", "-I/root/of/texts", "-I/toolkit/include", "--ptxas-options=-v"})
    EXPECT_EQ(std::count(o.begin(), o.end(), want), 1) << want;
  // Source lines only where the job asks (the Source view), not for the kernels that are launched.
  EXPECT_EQ(std::count(o.begin(), o.end(), "-lineinfo"), 0);
  j.line_info = true;
  o = compile_options(j);
  EXPECT_EQ(std::count(o.begin(), o.end(), "-lineinfo"), 1);
}

}  // namespace
}  // namespace tilescope
