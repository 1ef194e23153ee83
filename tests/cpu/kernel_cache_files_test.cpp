// The compiled-kernel cache as files (app/export/kernel_cache_files.h): what is written is read
// back, byte for byte, from a folder created on the first write; a folder that cannot be made is a
// failed write with a sentence, never a crash; the user's folder follows $XDG_CACHE_HOME.
#include "app/export/kernel_cache_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace tilescope {
namespace {

namespace fs = std::filesystem;

class KernelCacheFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tilescope-cache-files-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

TEST_F(KernelCacheFiles, WhatIsWrittenIsReadBack) {
  const auto storage = kernel_cache_files((dir_ / "made" / "on" / "write").string());
  std::string bytes = "untouched";
  EXPECT_FALSE(storage->read("0123456789abcdef", &bytes));
  const std::string kernel(
      "\x7f"
      "ELF\0\n\xff",
      7);
  std::string error;
  ASSERT_TRUE(storage->write("0123456789abcdef", kernel, &error)) << error;
  ASSERT_TRUE(storage->read("0123456789abcdef", &bytes));
  EXPECT_EQ(bytes, kernel);
  EXPECT_FALSE(storage->read("fedcba9876543210", &bytes));
  // Written again (another compile of the same key): replaced, no temporary file left.
  ASSERT_TRUE(storage->write("0123456789abcdef", "second", &error)) << error;
  ASSERT_TRUE(storage->read("0123456789abcdef", &bytes));
  EXPECT_EQ(bytes, "second");
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir_ / "made" / "on" / "write")) {
    ++files;
    EXPECT_EQ(e.path().filename().string(), "0123456789abcdef.kernel");
  }
  EXPECT_EQ(files, 1);
}

TEST_F(KernelCacheFiles, AnUnwritableFolderIsAFailedWriteWithAReason) {
  fs::create_directories(dir_);
  std::ofstream(dir_ / "a-file") << "not a folder";
  const auto storage = kernel_cache_files((dir_ / "a-file" / "kernels").string());
  std::string error;
  EXPECT_FALSE(storage->write("0123456789abcdef", "bytes", &error));
  EXPECT_NE(error.find((dir_ / "a-file" / "kernels").string()), std::string::npos) << error;
  std::string bytes;
  EXPECT_FALSE(storage->read("0123456789abcdef", &bytes));
}

TEST_F(KernelCacheFiles, TheUsersFolderFollowsXdgCacheHome) {
  const char* old = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old ? old : "";
  ::setenv("XDG_CACHE_HOME", dir_.c_str(), 1);
  EXPECT_EQ(kernel_cache_folder(), (dir_ / "tilescope" / "kernels").string());
  if (old)
    ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else
    ::unsetenv("XDG_CACHE_HOME");
}

}  // namespace
}  // namespace tilescope
