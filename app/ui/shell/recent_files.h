// The files loaded and exported lately, newest first, kept in the settings (app/ui/shell/settings.h) and
// offered in the File menu and beside the in-app chooser's listing.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tilescope {

constexpr std::size_t kRecentFilesKept = 8;

// Puts `path` (absolute) first, dropping an older mention of it and what falls beyond
// kRecentFilesKept. A path the settings file cannot hold as it is (a control character, such
// as a line break, or a space at either end, which the file's `key = value` lines trim) is not
// remembered.
void remember_recent_file(std::vector<std::string>* recent, const std::string& path);

// Those of `recent` that end in ".<extension>" (any case), in their order.
std::vector<std::string> recent_files_with_extension(const std::vector<std::string>& recent,
                                                     const std::string& extension);

}  // namespace tilescope
