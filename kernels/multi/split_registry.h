// The ONE list of the ways a product is split across GPUs (split.h), in teaching order: the
// library's own (cuBLASXt), then the splits that move data with NCCL.
#pragma once

#include <string>
#include <vector>

#include "kernels/multi/split.h"

namespace tilescope {

const std::vector<const SplitDescriptor*>& split_registry();
// A test program's own split (a broken one, to show that the check fails it), appended after the
// registered ones for the life of the process.
void add_example_split(const SplitDescriptor& s);
const SplitDescriptor* find_split(const std::string& id);
int find_split_config(const SplitDescriptor& s, const std::string& name);

}  // namespace tilescope
