// Writes a whole file so that readers see either the old file or the complete new one, never
// a half-written one: the text goes to a temporary file in the same directory (a rename only
// replaces atomically within one file system), is flushed to disk, then renamed over the target.
#pragma once

#include <string>

namespace tilescope {

// The temporary file's name: "PATH.tmp.<pid>".
std::string atomic_temp_path(const std::string& path);

// Returns false with `error` set to one sentence ("cannot write /x/y.csv: No such file or
// directory") when any step fails; the temporary file is then removed and an existing file at
// `path` is left as it was. Never throws.
bool write_file_atomically(const std::string& path, const std::string& contents, std::string* error);

}  // namespace tilescope
