// An explicit list, like the variants' registry (kernels/core/registry.cpp): a split's launch file
// kernels/multi/splits/<id>.cpp defines k<...>Split and gets one line below.
#include "kernels/multi/split_registry.h"

#include <algorithm>

namespace tilescope {

extern const SplitDescriptor kCublasXtSplit;   // splits/cublasxt.cpp
extern const SplitDescriptor kSplitNcclSplit;  // splits/split_nccl.cpp
extern const SplitDescriptor kAtaNcclSplit;    // splits/ata_nccl.cpp

namespace {
std::vector<const SplitDescriptor*>& split_list() {
  static std::vector<const SplitDescriptor*> list = {&kCublasXtSplit, &kSplitNcclSplit, &kAtaNcclSplit};
  return list;
}
}  // namespace

const std::vector<const SplitDescriptor*>& split_registry() {
  return split_list();
}

void add_example_split(const SplitDescriptor& s) {
  split_list().push_back(&s);
}

const SplitDescriptor* find_split(const std::string& id) {
  for (const SplitDescriptor* s : split_registry())
    if (id == s->id) return s;
  return nullptr;
}

int find_split_config(const SplitDescriptor& s, const std::string& name) {
  for (std::size_t i = 0; i < s.configs.size(); ++i)
    if (s.configs[i].name == name) return static_cast<int>(i);
  return -1;
}

std::string split_config_error(const SplitDescriptor& s, int config_index) {
  if (config_index >= 0 && config_index < static_cast<int>(s.configs.size())) return "";
  return std::string(s.id) + " has no configuration #" + std::to_string(config_index);
}

bool supports(const SplitDescriptor& s, Problem p) {
  return std::find(s.problems.begin(), s.problems.end(), p) != s.problems.end();
}

}  // namespace tilescope
