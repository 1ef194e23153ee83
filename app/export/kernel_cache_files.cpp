#include "app/export/kernel_cache_files.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/export/atomic_file.h"
#include "app/export/user_dirs.h"

namespace tilescope {

namespace {

namespace fs = std::filesystem;

class FileStorage final : public KernelCacheStorage {
 public:
  explicit FileStorage(std::string folder) : folder_(std::move(folder)) {}

  bool read(const std::string& key, std::string* bytes) override {
    std::ifstream in(path(key), std::ios::binary);
    if (!in) return false;
    std::ostringstream s;
    s << in.rdbuf();
    *bytes = s.str();
    return static_cast<bool>(in) || in.eof();
  }

  bool write(const std::string& key, const std::string& bytes, std::string* error) override {
    std::error_code ec;
    fs::create_directories(folder_, ec);
    if (ec) {
      *error = "cannot create " + folder_ + ": " + ec.message();
      return false;
    }
    return write_file_atomically(path(key), bytes, error);
  }

 private:
  std::string path(const std::string& key) const { return (fs::path(folder_) / (key + ".kernel")).string(); }
  std::string folder_;
};

}  // namespace

std::shared_ptr<KernelCacheStorage> kernel_cache_files(const std::string& folder) {
  return std::make_shared<FileStorage>(folder);
}

std::string kernel_cache_folder() {
  const std::string base = xdg_user_dir("XDG_CACHE_HOME", ".cache");
  return base.empty() ? "" : (fs::path(base) / "kernels").string();
}

void install_user_kernel_cache() {
  const std::string folder = kernel_cache_folder();
  if (!folder.empty()) install_kernel_cache(kernel_cache_files(folder));
}

}  // namespace tilescope
