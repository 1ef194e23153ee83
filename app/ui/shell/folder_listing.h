// What a file chooser shows of a folder: its sub-folders first, then its files of the wanted
// type, each group by name, with sizes and dates in words a person reads.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>
#include <vector>

namespace tilescope {

struct FolderEntry {
  std::string name;
  bool folder = false;       // a folder, or a link to one
  std::uintmax_t bytes = 0;  // files
  std::time_t modified = 0;
};

struct FolderListing {
  std::string folder;  // absolute
  std::vector<FolderEntry> entries;
  std::string error;  // the folder could not be read: why ("cannot read /root: Permission denied")
};

// The entries of `folder`: folders first, then files ending in ".<extension>" (any case; ""
// = every file), each group in name order ignoring case. Names starting with a dot only when
// `show_hidden`. Entries that vanish while being read, and broken links, are left out.
FolderListing list_folder(const std::string& folder, const std::string& extension, bool show_hidden);

std::string format_file_size(std::uintmax_t bytes);  // "812 B", "12.3 KB", "4.5 MB", "1.2 GB" (powers of 1000)
std::string format_file_time(std::time_t when);      // "2026-11-26 14:30", local time

}  // namespace tilescope
