// `tilescope memory --record BLOCK,WARP`, for one configuration: its instrumented kernel run on the
// GPU, warp WARP of block BLOCK recorded at every step of every access and compared with the
// configuration's mapping model. With --kernel-text the kernel is the learner's edit and the model
// the shipped kernel's: a difference is then what the edit did, said as the access it moved.
#pragma once

#include <ostream>
#include <string>

#include "app/export/recorded_warp_file.h"
#include "kernels/core/variant.h"
#include "kernels/models/mapping_model.h"

namespace tilescope {

struct WarpToCompare {
  const VariantDescriptor* variant = nullptr;
  int config_index = 0;     // the configuration run (an edited one when an edit is installed)
  std::string config_name;  // the shipped or typed configuration's name (an edit: the one it edits)
  std::string edit_tag;     // the edit's tag; "" for the shipped kernel text
  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  Shape shape;
  int block = 0;  // linear: blockIdx.y * gridDim.x + blockIdx.x
  int warp = 0;
};

// Records and compares, printing one line to `out` (or why not to `err`). kMemoryOk when every
// address is the model's, kMemoryRecordDiffers when one is not, kMemoryBadArguments for a block or
// warp the launch does not have, kMemoryNoGpu without a usable GPU or when the run failed
// (memory_command.h). *record (may be null) receives the recording when one was made.
int record_and_compare(const WarpToCompare& w, const MappingModel& model, std::ostream& out, std::ostream& err,
                       WarpRecord* record);

}  // namespace tilescope
