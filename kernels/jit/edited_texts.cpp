#include "kernels/jit/edited_texts.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "kernels/core/typed_configs.h"

namespace tilescope {

namespace {

std::mutex g_mutex;
std::map<const VariantDescriptor*, std::string> g_edited;

}  // namespace

std::string edit_tag(const std::string& text) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : text) h = (h ^ c) * 16777619u;
  char out[9];
  std::snprintf(out, sizeof out, "%08x", static_cast<unsigned>(h));
  return out;
}

std::string kernel_text_problem(const std::string& text, const std::string& source) {
  if (text.empty()) return source + " is empty";
  if (text.size() > kMaxKernelTextBytes)
    return source + " holds " + std::to_string(text.size() / 1024) + " KiB; a kernel text is at most " +
           std::to_string(kMaxKernelTextBytes / 1024) + " KiB";
  if (text.find('\0') != std::string::npos) return source + " is not text (it holds NUL bytes)";
  if (text.find("__global__") == std::string::npos)
    return source + " is not a kernel text: it declares no __global__ function";
  return "";
}

bool read_kernel_text_file(const std::string& path, std::string* text, std::string* why) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *why = "cannot read '" + path + "'";
    return false;
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  *why = kernel_text_problem(bytes.str(), "'" + path + "'");
  if (!why->empty()) return false;
  *text = bytes.str();
  return true;
}

void use_edited_text(const VariantDescriptor& v, const std::string& text) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_edited[&v] = text;
}

bool edited_text_of(const VariantDescriptor& v, std::string* text) {
  std::lock_guard<std::mutex> lock(g_mutex);
  const auto it = g_edited.find(&v);
  if (it == g_edited.end()) return false;
  *text = it->second;
  return true;
}

std::string edited_config_name(const std::string& typed_name, const std::string& tag) {
  return typed_name + " (edited " + tag + ")";
}

int add_edited_config(const VariantDescriptor& v, int base_index, const std::string& tag, std::string* why) {
  if (!takes_typed_tiles(v)) {
    *why = std::string(v.id) + " cannot run an edited text: its kernels are not compiled at run time";
    return -1;
  }
  TileConfig cfg;
  if (!typed_tile_config(v, v.tile_values_of(config_at(v, base_index)), &cfg, why)) return -1;
  cfg.name = edited_config_name(cfg.name, tag);
  cfg.description = "the learner's edit " + tag + " of the kernel text, compiled at run time";
  return add_typed_config(v, cfg);
}

}  // namespace tilescope
