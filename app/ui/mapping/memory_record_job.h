// The Memory view's "Record on the GPU" and "Record the edited kernel": one warp's addresses
// recorded by a worker, this program started again as `tilescope memory --variants V:CONFIG
// --problem P --precision T --m M --n N --k K --record BLOCK,WARP --recording FILE` (with
// `--kernel-text V=FILE` for an edit). A process of its own, as the editor's worker
// (app/ui/source/kernel_edit_job.h): an edited kernel that faults leaves the CUDA context of its
// process unusable and one that never ends cannot be stopped from inside it, so the window never
// runs the instrumented kernel itself; the worker is killed on Cancel or at the time limit. The
// window polls the job each frame (never waits on it) and reads the recording back from FILE
// (app/export/recorded_warp_file.h).
#pragma once

#include <string>
#include <vector>

#include "app/export/recorded_warp_file.h"
#include "app/platform/child_process.h"
#include "app/platform/temp_folder.h"
#include "app/platform/worker_job.h"
#include "kernels/core/variant.h"

namespace tilescope {

struct MemoryRecordRequest {
  const VariantDescriptor* variant = nullptr;
  std::string config_name;  // a name of the compiled set, or a typed spelling
  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  Shape shape;
  int block = 0;  // linear: blockIdx.y * gridDim.x + blockIdx.x
  int warp = 0;
  std::string edited_text;  // the learner's edit to record; "" records the shipped kernel
  // A recording takes a second or two (a compile of an edit a few more); a kernel that never ends
  // is stopped here.
  double time_limit_s = 60;
};

struct MemoryRecordOutcome {
  MemoryRecordRequest request;
  bool ok = false;         // the worker recorded the warp and the file read back
  bool cancelled = false;  // stopped by cancel()
  bool timed_out = false;  // stopped after the time limit
  std::string summary;     // one sentence for the view: what happened, and why when it failed
  std::string output;      // what the worker printed
  std::vector<WarpRecord> records;
  double seconds = 0;
};

// The worker's command line for `request`, an edit's text being in `text_path` and the recording
// going to `recording_path`. `program` is this program.
std::vector<std::string> memory_worker_arguments(const std::string& program, const MemoryRecordRequest& request,
                                                 const std::string& text_path, const std::string& recording_path);

class MemoryRecordJob : public WorkerJob<MemoryRecordOutcome> {
 public:
  explicit MemoryRecordJob(std::string program = "") : program_(std::move(program)) {}

  void set_program(const std::string& program) { program_ = program; }
  const std::string& program() const { return program_; }
  // Starts a worker; false with *error while one runs, without a program to start, or when the
  // edit cannot be written to a private folder or the worker cannot start.
  bool start(const MemoryRecordRequest& request, std::string* error);
  const MemoryRecordRequest& request() const { return request_; }

 private:
  MemoryRecordOutcome finish() override;

  std::string program_;
  TempFolder folder_{"tilescope-record"};  // the edit, the worker's output, the recording
  MemoryRecordRequest request_;
};

}  // namespace tilescope
