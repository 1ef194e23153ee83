// How a run split across GPUs is named in tables, legends and tooltips: the split, its
// configuration and its GPU count, "ata_nccl:triangle x2", so that its rows never read as the
// kernel's own run on one GPU.
#pragma once

#include <string>

#include "kernels/measure/measure.h"

namespace tilescope {

// "" for a run on one GPU.
inline std::string split_words(const RunResult& r) {
  return r.split.empty() ? "" : r.split + ":" + r.split_config + " x" + std::to_string(r.gpus);
}

// A table's variant column: the kernel, after the split and its GPUs where the run was split
// ("ata_nccl:triangle x2 cublas").
inline std::string variant_column_words(const RunResult& r) {
  return r.split.empty() ? r.variant_id : split_words(r) + " " + r.variant_id;
}

}  // namespace tilescope
