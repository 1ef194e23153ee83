// Runs one product split across GPUs and measures it, as the Measurer (kernels/measure/measure.h)
// does for one GPU: the same random inputs (the seed's first set), a poisoned C, a first run timed
// apart, warm-up, timed repetitions and the check against the FP64 reference. The split's layout
// places A's and B's blocks on their GPUs before the clock starts; the clock runs from a start
// event on GPU 0, which every GPU's streams wait for, to the end of the last stream of every GPU;
// C's blocks are gathered onto GPU 0 for the check. The inputs are not rotated: at the sizes a
// split is for, A and B are many times the L2. Nothing here prints.
#pragma once

#include <atomic>
#include <memory>

#include "kernels/core/no_copy.h"
#include "kernels/measure/measure.h"
#include "kernels/multi/link_bench.h"

namespace tilescope {

class SplitMeasurer : NoCopy {
 public:
  SplitMeasurer();
  ~SplitMeasurer();

  // request.split names the split (split_registry.h), request.split_config its configuration,
  // request.gpus how many GPUs (devices 0 .. gpus-1); request.variant_id and config_index are the
  // kernel every GPU multiplies with. Never throws: a failure (more GPUs than the machine has, NCCL
  // missing or failing, a refused kernel) ends the run with RunResult::error.
  RunResult run(const RunRequest& request);
  // The link between GPUs 0 .. gpus-1 (link_bench.h), on the same GPUs' streams and communicators
  // as the runs. False, and *error saying why, where it cannot be measured (fewer GPUs, NCCL
  // missing, a failure).
  bool measure_links(int gpus, int repetitions, LinkBench* out, std::string* error);
  std::atomic<bool>& cancel_flag();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tilescope
