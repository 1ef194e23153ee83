// Paths as the file choosers and the status bar show them: absolute, so that a message says
// where a file went whichever folder the program was started from.
#pragma once

#include <string>

namespace tilescope {

std::string current_folder();  // the process's working folder, absolute ("/" if unknown)
std::string home_folder();     // $HOME, else the password database's, else "/"

// `path` made absolute against `base` (itself absolute) and tidied ("a/./b/../c" -> "a/c", no
// trailing slash); symbolic links are kept as named.
std::string absolute_path(const std::string& path, const std::string& base);
std::string absolute_path(const std::string& path);  // against current_folder()

std::string folder_of(const std::string& path);     // "/a/b/c.csv" -> "/a/b", "/c.csv" -> "/"
std::string file_name_of(const std::string& path);  // "/a/b/c.csv" -> "c.csv"
std::string join_path(const std::string& folder, const std::string& name);

// Whether `name` ends in ".<extension>", in either case ("PLOT.PNG" is a PNG).
bool has_extension(const std::string& name, const std::string& extension);
// `name` with ".<extension>" added unless it has it already ("plot" -> "plot.png").
std::string with_extension(const std::string& name, const std::string& extension);

bool is_folder(const std::string& path);        // a folder, or a link to one
bool is_regular_file(const std::string& path);  // a file, or a link to one

}  // namespace tilescope
