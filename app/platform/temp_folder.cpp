#include "app/platform/temp_folder.h"

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>

namespace tilescope {

TempFolder::~TempFolder() {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

const std::string& TempFolder::path(std::string* error) {
  if (!path_.empty()) return path_;
  const char* tmp = std::getenv("TMPDIR");
  const std::string parent = tmp && *tmp ? tmp : "/tmp";
  std::string pattern = parent + "/" + stem_ + "-XXXXXX";
  if (mkdtemp(pattern.data()))
    path_ = pattern;
  else
    *error = "cannot make a private folder under " + parent;
  return path_;
}

}  // namespace tilescope
