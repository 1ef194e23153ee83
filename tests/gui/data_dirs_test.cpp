// The data-folder lookup (platform/data_dirs.h): the order installed > source tree, the
// environment for the shaders only, what is reported when nothing is found; on invented
// filesystems, on a real one in a temporary folder, and for this very test program.
#include "app/platform/data_dirs.h"

#include <gtest/gtest.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>

#include "app/gl_gemm/shader_gemm.h"
#include "tests/gui/gui_test_support.h"

namespace tilescope {
namespace {

const char* const kMarker = "gemm_quad.vert";

// A filesystem of the given paths (and every folder above them).
DataLookup invented(const std::string& program, const std::set<std::string>& files, const std::string& env = "") {
  auto all = std::make_shared<std::set<std::string>>();
  for (const std::string& f : files) {
    for (std::string p = f; p.size() > 1; p = p.substr(0, p.find_last_of('/'))) {
      all->insert(p);
      if (p.find_last_of('/') == 0) break;
    }
  }
  DataLookup lookup;
  lookup.program = program;
  lookup.shaders_env = env;
  lookup.marker = kMarker;
  lookup.exists = [all](const std::string& path) { return all->count(path) > 0; };
  return lookup;
}

// The files of a data folder at root.
std::set<std::string> data_at(const std::string& root) {
  return {root + "/shaders/" + kMarker, root + "/assets/lessons/intro.txt"};
}

std::set<std::string> both(std::set<std::string> a, const std::set<std::string>& b) {
  a.insert(b.begin(), b.end());
  return a;
}

// The whole data folder taken from `root`, shaders and assets alike, found as `source`.
void expect_data_folder(const DataDirs& d, const std::string& root, DataSource source) {
  EXPECT_EQ(d.root, root);
  EXPECT_EQ(d.root_source, source);
  EXPECT_EQ(d.shaders, root + "/shaders");
  EXPECT_EQ(d.shaders_source, source);
  EXPECT_EQ(d.assets, root + "/assets");
}

TEST(DataDirs, InstalledBesideTheProgram) {
  const DataDirs d = locate_data_dirs(invented("/opt/ts/bin/tilescope", data_at("/opt/ts/share/tilescope")));
  expect_data_folder(d, "/opt/ts/share/tilescope", DataSource::kInstalled);
  EXPECT_EQ(describe_data_root(d), "/opt/ts/share/tilescope (installed, next to the program)");
}

TEST(DataDirs, ProgramInTheRootFolder) {
  const DataDirs d = locate_data_dirs(invented("/tilescope", data_at("/share/tilescope")));
  EXPECT_EQ(d.root, "/share/tilescope");
  EXPECT_EQ(d.root_source, DataSource::kInstalled);
}

TEST(DataDirs, InstalledWinsOverASourceTreeAbove) {
  // An install prefix inside a clone: the installed copy is the one that belongs to the program.
  const DataDirs d = locate_data_dirs(invented(
      "/src/clone/stage/bin/tilescope", both(data_at("/src/clone"), data_at("/src/clone/stage/share/tilescope"))));
  EXPECT_EQ(d.root, "/src/clone/stage/share/tilescope");
  EXPECT_EQ(d.root_source, DataSource::kInstalled);
}

TEST(DataDirs, BuildFolderInsideAClone) {
  const DataDirs d = locate_data_dirs(invented("/home/u/tilescope/build/tilescope", data_at("/home/u/tilescope")));
  expect_data_folder(d, "/home/u/tilescope", DataSource::kSourceTree);
  EXPECT_EQ(describe_data_root(d), "/home/u/tilescope (source tree)");
  // Deeper (a test program in build/tests/): the nearest folder above that qualifies.
  const DataDirs deep = locate_data_dirs(invented("/home/u/tilescope/build/tests/prog", data_at("/home/u/tilescope")));
  EXPECT_EQ(deep.root, "/home/u/tilescope");
}

TEST(DataDirs, AFolderMissingTheMarkerOrTheAssetsIsNotOurs) {
  // share/tilescope without the program's shader file, a folder above with shaders/ only: both
  // are passed over for the clone further up.
  const std::set<std::string> files = {"/c/stage/share/tilescope/shaders/other.frag",
                                       "/c/stage/share/tilescope/assets/x", "/c/stage/shaders/" + std::string(kMarker),
                                       "/c/shaders/" + std::string(kMarker), "/c/assets/lessons/intro.txt"};
  const DataDirs d = locate_data_dirs(invented("/c/stage/bin/tilescope", files));
  EXPECT_EQ(d.root, "/c");
  EXPECT_EQ(d.root_source, DataSource::kSourceTree);
}

TEST(DataDirs, EnvironmentChoosesTheShadersOnly) {
  const DataDirs d =
      locate_data_dirs(invented("/usr/bin/tilescope", data_at("/usr/share/tilescope"), "/home/u/my-shaders"));
  EXPECT_EQ(d.shaders, "/home/u/my-shaders");
  EXPECT_EQ(d.shaders_source, DataSource::kEnvironment);
  EXPECT_EQ(describe_shader_dir(d), "/home/u/my-shaders (TILESCOPE_SHADERS)");
  EXPECT_EQ(d.root, "/usr/share/tilescope");  // the assets stay the installed ones
  EXPECT_EQ(d.assets, "/usr/share/tilescope/assets");
  // And it is taken as given even when no data folder exists at all.
  const DataDirs lone = locate_data_dirs(invented("/x/bin/tilescope", {}, "/somewhere"));
  EXPECT_EQ(lone.shaders, "/somewhere");
  EXPECT_TRUE(lone.root.empty());
}

TEST(DataDirs, NothingFoundSaysWhereItLooked) {
  const DataDirs d = locate_data_dirs(invented("/opt/ts/bin/tilescope", {"/opt/ts/share/doc/x"}));
  EXPECT_TRUE(d.root.empty());
  EXPECT_TRUE(d.shaders.empty());
  EXPECT_TRUE(d.assets.empty());
  EXPECT_EQ(d.root_source, DataSource::kNotFound);
  EXPECT_EQ(d.shaders_source, DataSource::kNotFound);
  const std::vector<std::string> expected = {"/opt/ts/share/tilescope", "/opt/ts/bin", "/opt/ts", "/opt", "/"};
  EXPECT_EQ(d.looked_in, expected);
  const std::string text = describe_shader_dir(d);
  EXPECT_EQ(text.rfind("not found: looked in /opt/ts/share/tilescope, /opt/ts/bin, /opt/ts, /opt, /", 0), 0u) << text;
  EXPECT_NE(text.find("TILESCOPE_SHADERS"), std::string::npos) << text;
  EXPECT_EQ(describe_data_root(d).rfind("not found: looked in /opt/ts/share/tilescope", 0), 0u);
}

TEST(DataDirs, UnknownProgramPath) {
  const DataDirs d = locate_data_dirs(invented("", data_at("/usr/share/tilescope")));
  EXPECT_TRUE(d.root.empty());
  EXPECT_TRUE(d.looked_in.empty());
  EXPECT_NE(describe_data_root(d).find("unknown"), std::string::npos);
}

// ---- on a real filesystem ---------------------------------------------------------------------

// Files in a temporary folder, named by its resolved path: the lookup resolves the program's.
class TempTree {
 public:
  const std::string& root() const { return root_; }
  void add_file(const std::string& relative) {
    const std::filesystem::path path = std::filesystem::path(root_) / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << "x\n";
  }

 private:
  testing::TempDir dir_{"tilescope-data-dirs"};
  std::string root_ = dir_.path().empty() ? "" : std::filesystem::canonical(dir_.path()).string();
};

bool real_exists(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0;
}

TEST(DataDirs, RealFoldersInstalledThenCopied) {
  TempTree tree;
  for (const char* prefix : {"first", "second"}) {
    tree.add_file(std::string(prefix) + "/bin/tilescope");
    tree.add_file(std::string(prefix) + "/share/tilescope/shaders/" + kMarker);
    tree.add_file(std::string(prefix) + "/share/tilescope/assets/lessons/intro.txt");
  }
  for (const char* prefix : {"first", "second"}) {
    DataLookup lookup;
    lookup.program = tree.root() + "/" + prefix + "/bin/tilescope";
    lookup.marker = kMarker;
    lookup.exists = real_exists;
    const DataDirs d = locate_data_dirs(lookup);
    EXPECT_EQ(d.root, tree.root() + "/" + prefix + "/share/tilescope");
    EXPECT_EQ(d.root_source, DataSource::kInstalled);
  }
}

TEST(DataDirs, ThisProgramFindsTheSourceTree) {
  // The test program runs in the build folder (build/tests/): without $TILESCOPE_SHADERS it finds
  // the clone it was built from, with no path compiled into the lookup.
  const testing::ScopedEnv no_shader_env("TILESCOPE_SHADERS", "", /*unset=*/true);
  const DataDirs d = ShaderLibrary::data_dirs();
  char real[PATH_MAX];
  const std::string source = realpath(TILESCOPE_SOURCE_DIR, real) ? real : TILESCOPE_SOURCE_DIR;
  if (program_path().rfind(source + "/", 0) != 0) GTEST_SKIP() << "built outside the source tree";
  EXPECT_EQ(d.root, source) << describe_data_root(d);
  EXPECT_EQ(d.root_source, DataSource::kSourceTree);
  EXPECT_EQ(ShaderLibrary::default_directory(), source + "/shaders");
}

}  // namespace
}  // namespace tilescope
