// The run-time loading of the CUDA libraries (kernels/cuda/cuda_libraries.h): a missing library is
// reported with its soname, never fatal; the toolkit folders are searched after the linker's own.
// The installed program with the toolkit's library folder hidden is checked by
// scripts/test-package.sh.
#include "kernels/cuda/cuda_libraries.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace tilescope {
namespace {

namespace fs = std::filesystem;

TEST(CudaLibraries, AMissingLibraryIsReportedNotFatal) {
  const RuntimeLibrary lib =
      load_runtime_library("Nothing", "libtilescope-no-such-library.so.1", "nothing at all", {"/nonexistent"});
  EXPECT_FALSE(lib.loaded);
  EXPECT_EQ(lib.handle, nullptr);
  EXPECT_NE(lib.error.find("libtilescope-no-such-library.so.1"), std::string::npos) << lib.error;
}

TEST(CudaLibraries, FallbackFoldersAreSearchedAfterTheLinker) {
  // A real library under a name the dynamic linker cannot know, in a folder of our own.
  const fs::path dir = fs::temp_directory_path() / ("tilescope-libs-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path libm = "/lib/x86_64-linux-gnu/libm.so.6";
  if (!fs::exists(libm)) GTEST_SKIP() << "no " << libm << " to stand in for a CUDA library";
  fs::copy_file(libm, dir / "libtilescope-stand-in.so.1", fs::copy_options::overwrite_existing);
  const RuntimeLibrary without = load_runtime_library("Stand-in", "libtilescope-stand-in.so.1", "a test", {});
  EXPECT_FALSE(without.loaded);
  const RuntimeLibrary with =
      load_runtime_library("Stand-in", "libtilescope-stand-in.so.1", "a test", {"/nonexistent", dir.string()});
  EXPECT_TRUE(with.loaded) << with.error;
  EXPECT_EQ(fs::path(with.path).parent_path(), dir);
  fs::remove_all(dir);
}

TEST(CudaLibraries, TheToolkitFoldersFollowCudaHome) {
  ::setenv("CUDA_HOME", "/opt/my-cuda", 1);
  const auto dirs = cuda_library_fallback_dirs();
  ::unsetenv("CUDA_HOME");
  ASSERT_FALSE(dirs.empty());
  EXPECT_EQ(dirs.front(), "/opt/my-cuda/lib64");
}

// The build machine has the CUDA toolkit, so cuBLAS loads here and its functions resolve; the
// program's own forwarders (cublas_forwarders.cpp) reach them.
TEST(CudaLibraries, CublasLoadsWhereTheToolkitIs) {
  bool any = false;
  for (const RuntimeLibrary& lib : runtime_libraries()) {
    any = true;
    EXPECT_TRUE(lib.loaded) << lib.name << ": " << lib.error;
    EXPECT_FALSE(lib.path.empty());
  }
  EXPECT_TRUE(any);
  EXPECT_EQ(missing_libraries_sentence(), "");
  const auto& libs = runtime_libraries();
  const auto cublas =
      std::find_if(libs.begin(), libs.end(), [](const RuntimeLibrary& l) { return l.name == "cuBLAS"; });
  ASSERT_NE(cublas, libs.end());
  EXPECT_NE(runtime_symbol(cublas->soname, "cublasCreate_v2"), nullptr);
  EXPECT_EQ(runtime_symbol(cublas->soname, "tilescopeNoSuchFunction"), nullptr);
}

}  // namespace
}  // namespace tilescope
