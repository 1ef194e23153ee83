// The compiled-kernel cache (kernels/jit/kernel_cache.h): its bytes round-trip and damaged ones are
// refused; the key follows everything the machine code depends on (the text, the bytes of a file it
// includes, the architecture, the driver) and nothing else; compile_cached compiles once, then
// reads, and says why a program was not kept. The storage is an in-memory one (the files are
// kernel_cache_files_test.cpp's).
#include "kernels/jit/kernel_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "kernels/cuda/cuda_libraries.h"

namespace tilescope {
namespace {

namespace fs = std::filesystem;

CompiledProgram sample_program() {
  CompiledProgram p;
  p.compiled = true;
  p.log =
      "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
      "ptxas info    : Used 12 registers, 8 bytes smem, 360 bytes cmem[0]\n"
      "t.cuh(2): warning: a warning kept in the log\n";
  p.ptx = ".version 8.0\n.target sm_90\n.visible .entry _Z1kPf(\n";
  p.cubin = std::string(
      "\x7f"
      "ELF\0\0\n\n12\n",
      11);  // binary, with zeros and newlines
  p.lowered = {"_Z1kPf"};
  p.compile_seconds = 0.5;
  return p;
}

TEST(KernelCacheBytes, RoundTrip) {
  const CompiledProgram p = sample_program();
  CompiledProgram back;
  ASSERT_TRUE(deserialize_program(serialize_program(p), &back));
  EXPECT_TRUE(back.compiled);
  EXPECT_EQ(back.log, p.log);
  EXPECT_EQ(back.ptx, p.ptx);
  EXPECT_EQ(back.cubin, p.cubin);
  EXPECT_EQ(back.lowered, p.lowered);
  EXPECT_DOUBLE_EQ(back.compile_seconds, 0.5);
  // What the log says is read again: the resources and the messages.
  ASSERT_EQ(back.resources.size(), 1u);
  EXPECT_EQ(back.resources[0].registers, 12);
  EXPECT_EQ(back.resources[0].static_shared_bytes, 8);
  ASSERT_EQ(back.diagnostics.size(), 1u);
  EXPECT_EQ(back.diagnostics[0].severity, "warning");
}

TEST(KernelCacheBytes, DamagedOrForeignBytesAreRefused) {
  const std::string good = serialize_program(sample_program());
  CompiledProgram back;
  back.ptx = "untouched";
  for (std::size_t cut : {std::size_t{0}, std::size_t{1}, good.size() / 2, good.size() - 1})
    EXPECT_FALSE(deserialize_program(good.substr(0, cut), &back)) << "cut at " << cut;
  EXPECT_FALSE(deserialize_program(good + "x", &back));
  std::string foreign = good;
  const std::size_t digit = foreign.find("-1");
  ASSERT_NE(digit, std::string::npos);
  foreign[digit + 1] = '9';  // another version's magic, of the same length
  EXPECT_FALSE(deserialize_program(foreign, &back));
  std::string long_size = good;
  long_size.replace(0, long_size.find('\n'), "99999999999999");
  EXPECT_FALSE(deserialize_program(long_size, &back));
  EXPECT_FALSE(deserialize_program("not a kernel at all", &back));
  // Without machine code there is nothing to load.
  CompiledProgram empty = sample_program();
  empty.cubin.clear();
  EXPECT_FALSE(deserialize_program(serialize_program(empty), &back));
  EXPECT_EQ(back.ptx, "untouched");
}

// A folder of texts: a header the source includes and one it does not, removed afterwards.
class KernelCacheKey : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("tilescope-cache-key-" + std::to_string(::getpid()));
    fs::create_directories(root_ / "inc");
    write("inc/used.cuh", "#pragma once\n#include \"inc/deep.cuh\"\n");
    write("inc/deep.cuh", "#define DEEP 1\n");
    write("inc/unused.cuh", "#define UNUSED 1\n");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  void write(const std::string& relative, const std::string& text) const {
    std::ofstream(root_ / relative, std::ios::binary | std::ios::trunc) << text;
  }
  CompileJob job() const {
    CompileJob j;
    j.source = "#include \"inc/used.cuh\"\n#include <cuda_fp16.h>\n__global__ void k() {}\n";
    j.file_name = "k.cuh";
    j.architecture = "sm_90";
    j.names = {"k"};
    j.include_root = root_.string();
    j.cuda_include_dir = "/toolkit/include";
    return j;
  }
  fs::path root_;
};

TEST_F(KernelCacheKey, FollowsWhatTheMachineCodeDependsOn) {
  const std::string key = compile_cache_key(job(), "13000");
  EXPECT_EQ(key.size(), 16u);
  EXPECT_EQ(key.find_first_not_of("0123456789abcdef"), std::string::npos) << key;
  EXPECT_EQ(compile_cache_key(job(), "13000"), key);
  // The source.
  CompileJob other = job();
  other.source += "\n";
  EXPECT_NE(compile_cache_key(other, "13000"), key);
  // The architecture.
  other = job();
  other.architecture = "sm_80";
  EXPECT_NE(compile_cache_key(other, "13000"), key);
  // The kernels asked for.
  other = job();
  other.names.push_back("k2");
  EXPECT_NE(compile_cache_key(other, "13000"), key);
  // The driver.
  EXPECT_NE(compile_cache_key(job(), "12080"), key);
  EXPECT_NE(compile_cache_key(job(), "none"), key);
}

TEST_F(KernelCacheKey, FollowsTheBytesOfEveryIncludedFileAndNoOther) {
  const std::string key = compile_cache_key(job(), "none");
  write("inc/unused.cuh", "#define UNUSED 2\n");
  EXPECT_EQ(compile_cache_key(job(), "none"), key) << "a file the text does not include changed the key";
  write("inc/used.cuh", "#pragma once\n#include \"inc/deep.cuh\"\n// edited\n");
  const std::string edited = compile_cache_key(job(), "none");
  EXPECT_NE(edited, key) << "an included file's bytes did not change the key";
  write("inc/deep.cuh", "#define DEEP 2\n");
  EXPECT_NE(compile_cache_key(job(), "none"), edited) << "a file included by an included file did not count";
}

// The storage of a test: bytes in a map; a write fails when told to.
class MemoryStorage final : public KernelCacheStorage {
 public:
  bool read(const std::string& key, std::string* bytes) override {
    ++reads;
    const auto it = files.find(key);
    if (it == files.end()) return false;
    *bytes = it->second;
    return true;
  }
  bool write(const std::string& key, const std::string& bytes, std::string* error) override {
    ++writes;
    if (fail_writes) {
      *error = "the disk is full";
      return false;
    }
    files[key] = bytes;
    return true;
  }
  std::map<std::string, std::string> files;
  bool fail_writes = false;
  int reads = 0, writes = 0;
};

// A tiny kernel text; every test leaves no storage installed behind it.
class CompileCached : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!nvrtc_library().loaded) GTEST_SKIP() << "NVRTC is not loaded: " << nvrtc_library().error;
  }
  void TearDown() override { install_kernel_cache(nullptr); }
  static CompileJob job() {
    CompileJob j;
    j.source = "template <int N> __global__ void fill(int* x) { x[threadIdx.x] = N; }\n";
    j.file_name = "fill.cuh";
    j.architecture = "sm_80";
    j.names = {"fill<7>"};
    j.include_root = fs::temp_directory_path().string();
    j.cuda_include_dir = find_cuda_include_dir();
    return j;
  }
};

TEST_F(CompileCached, CompilesOnceThenReads) {
  auto storage = std::make_shared<MemoryStorage>();
  install_kernel_cache(storage);
  const CompiledProgram first = compile_cached(job(), "none");
  ASSERT_TRUE(first.compiled) << first.error;
  EXPECT_FALSE(first.from_cache);
  EXPECT_TRUE(first.cache_note.empty()) << first.cache_note;
  EXPECT_EQ(storage->writes, 1);
  ASSERT_EQ(storage->files.size(), 1u);
  EXPECT_EQ(storage->files.begin()->first, compile_cache_key(job(), "none"));
  const CompiledProgram second = compile_cached(job(), "none");
  ASSERT_TRUE(second.compiled) << second.error;
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.cubin, first.cubin);
  EXPECT_EQ(second.ptx, first.ptx);
  EXPECT_EQ(second.lowered, first.lowered);
  ASSERT_EQ(second.resources.size(), 1u);
  EXPECT_EQ(second.resources[0].registers, first.resources[0].registers);
  EXPECT_EQ(storage->writes, 1);
  // Another driver is another key: compiled again.
  EXPECT_FALSE(compile_cached(job(), "13000").from_cache);
  EXPECT_EQ(storage->writes, 2);
}

TEST_F(CompileCached, DamagedBytesAreCompiledAgain) {
  auto storage = std::make_shared<MemoryStorage>();
  storage->files[compile_cache_key(job(), "none")] = "damaged";
  install_kernel_cache(storage);
  const CompiledProgram p = compile_cached(job(), "none");
  ASSERT_TRUE(p.compiled) << p.error;
  EXPECT_FALSE(p.from_cache);
  CompiledProgram back;
  EXPECT_TRUE(deserialize_program(storage->files[compile_cache_key(job(), "none")], &back));
}

TEST_F(CompileCached, AFailedWriteStillCompilesAndSaysWhy) {
  auto storage = std::make_shared<MemoryStorage>();
  storage->fail_writes = true;
  install_kernel_cache(storage);
  const CompiledProgram p = compile_cached(job(), "none");
  ASSERT_TRUE(p.compiled) << p.error;
  EXPECT_FALSE(p.cubin.empty());
  EXPECT_NE(p.cache_note.find("not cached"), std::string::npos) << p.cache_note;
  EXPECT_NE(p.cache_note.find("the disk is full"), std::string::npos) << p.cache_note;
}

TEST_F(CompileCached, WithoutStorageItCompilesAndSaysSo) {
  install_kernel_cache(nullptr);
  const CompiledProgram p = compile_cached(job(), "none");
  ASSERT_TRUE(p.compiled) << p.error;
  EXPECT_FALSE(p.from_cache);
  EXPECT_NE(p.cache_note.find("no cache folder"), std::string::npos) << p.cache_note;
}

TEST_F(CompileCached, AFailedCompileIsNotKept) {
  auto storage = std::make_shared<MemoryStorage>();
  install_kernel_cache(storage);
  CompileJob broken = job();
  broken.source = "__global__ void k( {}\n";
  broken.names.clear();
  EXPECT_FALSE(compile_cached(broken, "none").compiled);
  EXPECT_EQ(storage->writes, 0);
}

}  // namespace
}  // namespace tilescope
