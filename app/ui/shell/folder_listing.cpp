#include "app/ui/shell/folder_listing.h"

#include <dirent.h>
#include <strings.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "app/ui/shell/file_paths.h"

namespace tilescope {

FolderListing list_folder(const std::string& folder, const std::string& extension, bool show_hidden) {
  FolderListing listing;
  listing.folder = folder;
  std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(folder.c_str()), &::closedir);
  if (!dir) {
    listing.error = "cannot read " + folder + ": " + std::strerror(errno);
    return listing;
  }
  for (errno = 0; const dirent* d = ::readdir(dir.get()); errno = 0) {
    const std::string name = d->d_name;
    if (name == "." || name == "..") continue;
    if (!show_hidden && name[0] == '.') continue;
    struct stat st {};
    if (::stat(join_path(folder, name).c_str(), &st) != 0) continue;  // gone, or a broken link
    FolderEntry e;
    e.name = name;
    e.folder = S_ISDIR(st.st_mode);
    if (!e.folder && !has_extension(name, extension)) continue;
    e.bytes = e.folder ? 0 : static_cast<std::uintmax_t>(st.st_size);
    e.modified = st.st_mtime;
    listing.entries.push_back(std::move(e));
  }
  if (errno != 0) listing.error = "cannot read all of " + folder + ": " + std::strerror(errno);
  std::sort(listing.entries.begin(), listing.entries.end(), [](const FolderEntry& a, const FolderEntry& b) {
    if (a.folder != b.folder) return a.folder;
    const int c = ::strcasecmp(a.name.c_str(), b.name.c_str());
    return c != 0 ? c < 0 : a.name < b.name;
  });
  return listing;
}

std::string format_file_size(std::uintmax_t bytes) {
  if (bytes < 1000) return std::to_string(bytes) + " B";
  const char* units[] = {"KB", "MB", "GB", "TB"};
  double v = static_cast<double>(bytes);
  int unit = -1;
  // The unit that leaves a number below 1000 once rounded (999.6 KB shows as 1.0 MB, not 1000 KB);
  // one decimal below 100.
  while (unit < 3 && v >= 999.5) {
    v /= 1000;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, v < 99.95 ? "%.1f %s" : "%.0f %s", v, units[unit]);
  return text;
}

std::string format_file_time(std::time_t when) {
  std::tm local{};
  localtime_r(&when, &local);
  char text[32];
  if (std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &local) == 0) return "";
  return text;
}

}  // namespace tilescope
