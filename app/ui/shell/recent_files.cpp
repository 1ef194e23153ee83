#include "app/ui/shell/recent_files.h"

#include <algorithm>

#include "app/ui/shell/file_paths.h"

namespace tilescope {
namespace {

bool fits_a_settings_line(const std::string& path) {
  if (path.empty() || path.front() == ' ' || path.back() == ' ') return false;
  return std::none_of(path.begin(), path.end(), [](char c) {
    const unsigned char u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7F;
  });
}

}  // namespace

void remember_recent_file(std::vector<std::string>* recent, const std::string& path) {
  if (!fits_a_settings_line(path)) return;
  recent->erase(std::remove(recent->begin(), recent->end(), path), recent->end());
  recent->insert(recent->begin(), path);
  if (recent->size() > kRecentFilesKept) recent->resize(kRecentFilesKept);
}

std::vector<std::string> recent_files_with_extension(const std::vector<std::string>& recent,
                                                     const std::string& extension) {
  std::vector<std::string> out;
  for (const std::string& path : recent)
    if (has_extension(path, extension)) out.push_back(path);
  return out;
}

}  // namespace tilescope
