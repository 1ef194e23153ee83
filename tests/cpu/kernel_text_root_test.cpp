// Where the kernel texts are found at run time (kernels/jit/kernel_source.h), with a file system
// made of a set of paths: $TILESCOPE_KERNEL_TEXTS first, then the installed layout beside bin/,
// then the program's folder and each one above it; nothing found lists every place tried.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "kernels/jit/kernel_source.h"

namespace tilescope {
namespace {

const char* const kMarker = "kernels/ptx/device_types.cuh";

// A file system that holds the marker file under each of `roots`.
struct FakeFiles {
  std::set<std::string> files;
  std::vector<std::string> asked;
  explicit FakeFiles(const std::vector<std::string>& roots) {
    for (const std::string& r : roots) files.insert((std::filesystem::path(r) / kMarker).lexically_normal().string());
  }
  KernelTextRoot locate(const std::string& program, const std::string& env) {
    return locate_kernel_text_root(program, env, [this](const std::string& p) {
      asked.push_back(p);
      return files.count(std::filesystem::path(p).lexically_normal().string()) > 0;
    });
  }
};

TEST(KernelTextRoot, TheEnvironmentWins) {
  FakeFiles fs({"/home/me/my-tree", "/opt/tilescope/share/tilescope"});
  const KernelTextRoot r = fs.locate("/opt/tilescope/bin/tilescope", "/home/me/my-tree");
  EXPECT_EQ(r.root, "/home/me/my-tree");
  EXPECT_EQ(r.looked_in, (std::vector<std::string>{"/home/me/my-tree"}));
}

TEST(KernelTextRoot, AnEnvironmentWithoutTextsFallsBackToTheInstall) {
  FakeFiles fs({"/opt/tilescope/share/tilescope"});
  const KernelTextRoot r = fs.locate("/opt/tilescope/bin/tilescope", "/home/me/empty");
  EXPECT_EQ(r.root, "/opt/tilescope/share/tilescope");
  EXPECT_EQ(r.looked_in, (std::vector<std::string>{"/home/me/empty", "/opt/tilescope/share/tilescope"}));
}

TEST(KernelTextRoot, InstalledBesideBin) {
  // A clone above the install is not preferred over the installed texts.
  FakeFiles fs({"/opt/tilescope/share/tilescope", "/opt"});
  EXPECT_EQ(fs.locate("/opt/tilescope/bin/tilescope", "").root, "/opt/tilescope/share/tilescope");
}

TEST(KernelTextRoot, ABuildFolderInsideAClone) {
  FakeFiles fs({"/src/tilescope"});
  const KernelTextRoot r = fs.locate("/src/tilescope/build/app/tilescope", "");
  EXPECT_EQ(r.root, "/src/tilescope");
  EXPECT_EQ(r.looked_in, (std::vector<std::string>{"/src/tilescope/build/share/tilescope", "/src/tilescope/build/app",
                                                   "/src/tilescope/build", "/src/tilescope"}));
  // The nearest clone wins.
  FakeFiles nested({"/src/tilescope", "/src/tilescope/build"});
  EXPECT_EQ(nested.locate("/src/tilescope/build/app/tilescope", "").root, "/src/tilescope/build");
}

TEST(KernelTextRoot, NothingFoundListsEveryPlaceTried) {
  FakeFiles fs({});
  const KernelTextRoot r = fs.locate("/a/bin/tilescope", "/env");
  EXPECT_TRUE(r.root.empty());
  EXPECT_EQ(r.looked_in, (std::vector<std::string>{"/env", "/a/share/tilescope", "/a/bin", "/a", "/"}));
  EXPECT_EQ(fs.asked.size(), r.looked_in.size());
  // An unknown program path: only the environment is tried.
  FakeFiles none({"/a"});
  const KernelTextRoot unknown = none.locate("", "");
  EXPECT_TRUE(unknown.root.empty());
  EXPECT_TRUE(unknown.looked_in.empty());
}

TEST(KernelTextRoot, TheMarkerIsWhatIsAskedFor) {
  FakeFiles fs({});
  fs.locate("/a/bin/tilescope", "");
  ASSERT_FALSE(fs.asked.empty());
  for (const std::string& p : fs.asked)
    EXPECT_EQ(std::filesystem::path(p).lexically_normal().string().find(kMarker) + std::string(kMarker).size(),
              std::filesystem::path(p).lexically_normal().string().size())
        << p;
}

TEST(KernelTextRoot, ThisTestProgramFindsTheTextsOfItsClone) {
  const KernelTextRoot& r = kernel_text_root();
  ASSERT_FALSE(r.root.empty()) << "looked in " << r.looked_in.size() << " folders";
  EXPECT_TRUE(std::filesystem::exists(kernel_text_path(r.root, kMarker)));
  std::string text, error;
  EXPECT_TRUE(read_root_file(kMarker, &text, &error)) << error;
  EXPECT_FALSE(text.empty());
  EXPECT_FALSE(read_root_file("kernels/no/such/file.cuh", &text, &error));
  EXPECT_NE(error.find("kernels/no/such/file.cuh"), std::string::npos) << error;
}

}  // namespace
}  // namespace tilescope
