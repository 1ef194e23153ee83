// The data-folder lookup (data_dirs.h): pure path arithmetic over an "exists" predicate, and
// the running program's inputs.
#include "app/platform/data_dirs.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cstdlib>
#include <map>
#include <mutex>

namespace tilescope {
namespace {

// The folder part of an absolute path: "/usr/bin/tilescope" -> "/usr/bin", "/usr" -> "/".
std::string parent_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return "";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string join(const std::string& folder, const std::string& name) {
  if (folder.empty() || folder.back() == '/') return folder + name;
  return folder + "/" + name;
}

bool holds_data(const DataLookup& lookup, const std::string& root) {
  return lookup.exists(join(join(root, "shaders"), lookup.marker)) && lookup.exists(join(root, "assets"));
}

// Steps 2 and 3 of the lookup: everything but the environment.
DataDirs locate_root(const DataLookup& lookup) {
  DataDirs dirs;
  if (lookup.program.empty() || lookup.program.front() != '/') return dirs;
  const std::string bin = parent_of(lookup.program);
  // 2. Installed: <prefix>/bin/tilescope beside <prefix>/share/tilescope.
  const std::string prefix = parent_of(bin);
  const std::string installed = join(join(prefix, "share"), "tilescope");
  dirs.looked_in.push_back(installed);
  if (holds_data(lookup, installed)) {
    dirs.root = installed;
    dirs.root_source = DataSource::kInstalled;
    return dirs;
  }
  // 3. A build folder inside a clone (build/, build/sub/...): the nearest folder above that
  // holds shaders/ and assets/.
  for (std::string folder = bin; !folder.empty();) {
    dirs.looked_in.push_back(folder);
    if (holds_data(lookup, folder)) {
      dirs.root = folder;
      dirs.root_source = DataSource::kSourceTree;
      return dirs;
    }
    if (folder == "/") break;
    folder = parent_of(folder);
  }
  return dirs;
}

// Step 1 ($TILESCOPE_SHADERS) and the folders inside the root found by steps 2 and 3.
void choose_folders(const DataLookup& lookup, DataDirs* dirs) {
  if (!dirs->root.empty()) dirs->assets = join(dirs->root, "assets");
  if (!lookup.shaders_env.empty()) {
    dirs->shaders = lookup.shaders_env;
    dirs->shaders_source = DataSource::kEnvironment;
  } else if (!dirs->root.empty()) {
    dirs->shaders = join(dirs->root, "shaders");
    dirs->shaders_source = dirs->root_source;
  }
}

bool path_exists(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0;
}

std::string looked_in_list(const DataDirs& dirs) {
  std::string text;
  for (const std::string& folder : dirs.looked_in) text += (text.empty() ? "" : ", ") + folder;
  return text.empty() ? "nowhere (the program's own path is unknown)" : text;
}

}  // namespace

const char* data_source_name(DataSource source) {
  switch (source) {
    case DataSource::kInstalled:
      return "installed, next to the program";
    case DataSource::kEnvironment:
      return "TILESCOPE_SHADERS";
    case DataSource::kSourceTree:
      return "source tree";
    case DataSource::kNotFound:
      break;
  }
  return "not found";
}

DataDirs locate_data_dirs(const DataLookup& lookup) {
  DataDirs dirs = locate_root(lookup);
  choose_folders(lookup, &dirs);
  return dirs;
}

std::string program_path() {
  char buf[PATH_MAX];
  // realpath resolves what readlink might leave relative or linked.
  if (const char* real = realpath("/proc/self/exe", buf)) return real;
  return "";
}

DataDirs find_data_dirs(const std::string& marker) {
  // The program does not move while it runs: walk the folders once per marker. The environment
  // is read on every call (a reload may follow a changed $TILESCOPE_SHADERS).
  static std::mutex mutex;
  static std::map<std::string, DataDirs> roots;
  DataLookup lookup;
  lookup.marker = marker;
  lookup.exists = path_exists;
  DataDirs dirs;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto found = roots.find(marker);
    if (found == roots.end()) {
      lookup.program = program_path();
      found = roots.emplace(marker, locate_root(lookup)).first;
    }
    dirs = found->second;
  }
  const char* env = std::getenv("TILESCOPE_SHADERS");
  lookup.shaders_env = env ? env : "";
  choose_folders(lookup, &dirs);
  return dirs;
}

std::string describe_data_root(const DataDirs& dirs) {
  if (!dirs.root.empty()) return dirs.root + " (" + data_source_name(dirs.root_source) + ")";
  return "not found: looked in " + looked_in_list(dirs) +
         " for a folder holding shaders/ and assets/ (install tilescope, or run it from its build folder)";
}

std::string describe_shader_dir(const DataDirs& dirs) {
  if (!dirs.shaders.empty()) return dirs.shaders + " (" + data_source_name(dirs.shaders_source) + ")";
  return "not found: looked in " + looked_in_list(dirs) +
         " for shaders/ beside assets/; set TILESCOPE_SHADERS to a folder holding the shaders";
}

}  // namespace tilescope
