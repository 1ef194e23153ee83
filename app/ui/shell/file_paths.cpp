#include "app/ui/shell/file_paths.h"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>

namespace tilescope {

std::string current_folder() {
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  return ec ? "/" : cwd.string();
}

std::string home_folder() {
  if (const char* home = std::getenv("HOME"); home && *home == '/') return home;
  if (const passwd* pw = getpwuid(getuid()); pw && pw->pw_dir && *pw->pw_dir == '/') return pw->pw_dir;
  return "/";
}

std::string absolute_path(const std::string& path, const std::string& base) {
  std::filesystem::path p(path);
  if (p.is_relative()) p = std::filesystem::path(base) / p;
  std::string out = p.lexically_normal().string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

std::string absolute_path(const std::string& path) {
  return absolute_path(path, current_folder());
}

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string file_name_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string join_path(const std::string& folder, const std::string& name) {
  if (folder.empty()) return name;
  return folder.back() == '/' ? folder + name : folder + "/" + name;
}

bool has_extension(const std::string& name, const std::string& extension) {
  if (extension.empty()) return true;
  if (name.size() <= extension.size() + 1 || name[name.size() - extension.size() - 1] != '.') return false;
  for (std::size_t i = 0; i < extension.size(); ++i) {
    const char a = name[name.size() - extension.size() + i], b = extension[i];
    if (std::tolower(static_cast<unsigned char>(a)) != std::tolower(static_cast<unsigned char>(b))) return false;
  }
  return true;
}

std::string with_extension(const std::string& name, const std::string& extension) {
  return has_extension(name, extension) ? name : name + "." + extension;
}

bool is_folder(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_regular_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace tilescope
