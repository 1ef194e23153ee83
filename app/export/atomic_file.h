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

// Whether write_file_atomically(path, ...) can succeed, asked before the work that produces the
// contents (a sweep of an hour must not end on "cannot write"): the folder exists and a file
// can be created in it (tried: a temporary file is made and removed, which also answers for
// read-only file systems and for root), and `path` is not a folder or another non-regular file
// (a device would be replaced by the rename). False with `error` set to one sentence naming the
// path and the reason.
bool check_writable_path(const std::string& path, std::string* error);

}  // namespace tilescope
