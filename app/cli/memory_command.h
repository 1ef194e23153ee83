// `tilescope memory`: what the memory system makes of each configuration's accesses, counted
// from its mapping model without a GPU: per direction, the global requests and 32-byte sectors
// (sectors per request: 4 for a coalesced warp of floats, 32 when every lane has a sector of its
// own), and the shared-memory instructions, wavefronts and bank conflicts (the extra wavefronts);
// --sites splits them by the kernel's access sites; --record runs the instrumented kernel on the
// GPU and compares one warp's recorded addresses with the model's (--recording keeps them in a file,
// app/export/recorded_warp_file.h; --kernel-text records a learner's edit against the shipped
// kernel's model: app/cli/memory_record.h). The same totals Nsight Compute reports as
// l1tex__t_sectors/requests_pipe_lsu_mem_global_op_ld/st and
// l1tex__data_pipe_lsu_wavefronts / l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st.
#pragma once

#include <ostream>

namespace tilescope {

enum MemoryExit : int {
  kMemoryOk = 0,
  kMemoryBadArguments = 2,   // an unknown variant, configuration, input type, problem or size, ...
  kMemoryNoGpu = 3,          // --record without a usable GPU, or its run failed
  kMemoryOutputFailed = 4,   // --csv or --recording could not be written
  kMemoryRecordDiffers = 5,  // --record: an address the kernel accessed is not the model's
};

// argv[0] is the command word (`memory`).
int run_memory_command(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace tilescope
