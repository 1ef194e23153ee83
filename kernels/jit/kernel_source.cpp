#include "kernels/jit/kernel_source.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kernels/jit/edited_texts.h"

namespace tilescope {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMarker = "kernels/ptx/device_types.cuh";

std::string program_real_path() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "" : p.string();
}

}  // namespace

KernelTextRoot locate_kernel_text_root(const std::string& program, const std::string& env,
                                       const std::function<bool(const std::string&)>& exists) {
  KernelTextRoot r;
  auto try_root = [&](const fs::path& dir) {
    const std::string d = dir.lexically_normal().string();
    r.looked_in.push_back(d);
    if (!exists((fs::path(d) / kMarker).string())) return false;
    r.root = d;
    return true;
  };
  if (!env.empty() && try_root(env)) return r;
  if (program.empty()) return r;
  const fs::path bin = fs::path(program).parent_path();
  if (try_root(bin / ".." / "share" / "tilescope")) return r;
  for (fs::path dir = bin; !dir.empty(); dir = dir.parent_path()) {
    if (try_root(dir)) return r;
    if (dir == dir.root_path()) break;
  }
  return r;
}

const KernelTextRoot& kernel_text_root() {
  static const KernelTextRoot root = [] {
    const char* env = std::getenv("TILESCOPE_KERNEL_TEXTS");
    return locate_kernel_text_root(program_real_path(), env ? env : "", [](const std::string& p) {
      std::error_code ec;
      return fs::exists(p, ec);
    });
  }();
  return root;
}

std::string kernel_text_path(const std::string& root, const std::string& relative) {
  return (fs::path(root) / relative).string();
}

bool read_root_file(const std::string& relative, std::string* text, std::string* error) {
  const KernelTextRoot& root = kernel_text_root();
  if (root.root.empty()) {
    std::string where;
    for (const std::string& d : root.looked_in) where += (where.empty() ? "" : ", ") + d;
    *error = "the kernel texts were not found (looked in " + where +
             "); set TILESCOPE_KERNEL_TEXTS to a folder that holds kernels/";
    return false;
  }
  const std::string path = kernel_text_path(root.root, relative);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  std::ostringstream s;
  s << in.rdbuf();
  *text = s.str();
  return true;
}

bool read_kernel_text(const VariantDescriptor& v, std::string* text, std::string* error) {
  if (!v.kernel_text) {
    *error = std::string(v.label) + " has no kernel text of ours (" + to_string(v.backend) + ")";
    return false;
  }
  if (edited_text_of(v, text)) return true;
  return read_root_file(v.kernel_text, text, error);
}

}  // namespace tilescope
