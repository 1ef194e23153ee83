// A learner's edit of a kernel text, compiled (Check) or compiled, checked and timed (Run) by a
// worker: this program started again as `tilescope compile|bench --kernel-text ID=FILE`
// (app/cli/kernel_text_option.h). A process of its own, because an edited kernel may fault, which
// leaves the CUDA context of the process it ran in unusable for good, or never end, which nothing
// inside that process can stop: the worker is killed instead, and the window, its context and its
// results go on. The window polls the job each frame (never waits on it), shows how long it has run
// and cancels it on request or after the time limit.
#pragma once

#include <string>
#include <vector>

#include "app/platform/child_process.h"
#include "app/platform/temp_folder.h"
#include "app/platform/worker_job.h"
#include "kernels/core/variant.h"
#include "kernels/measure/measure.h"

namespace tilescope {

enum class EditAction { Check, Run };

struct EditRequest {
  EditAction action = EditAction::Check;
  const VariantDescriptor* variant = nullptr;
  std::string config_name;  // the tile the edit runs with: a name of the compiled set, or a typed spelling
  std::string text;         // the edited kernel text
  // False when `text` is the shipped text: the worker then runs the variant as shipped (Run: the
  // kernel the build compiled, its rows in the configuration's own series).
  bool edited = true;
  std::string architecture = "sm_90";  // Check: compiled for this architecture
  // Run: the product, the input type, the sizes and the repetitions of the run.
  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  Shape shape;
  int repetitions = 10, warmup = 2;
  double time_limit_s = 30;  // the worker is stopped after this long
};

// What the compiler said at a line of the edited text.
struct EditDiagnostic {
  int line = 0;  // 0-based
  std::string severity, message;
};

struct EditOutcome {
  EditAction action = EditAction::Check;
  bool ok = false;         // compiled (Check); ran and passed its check (Run)
  bool timed_out = false;  // stopped after the time limit
  bool cancelled = false;  // stopped by cancel()
  std::string summary;     // one sentence for the view: what happened, and why when it failed
  std::string output;      // what the worker printed (the compiler's report, bench's lines)
  std::vector<EditDiagnostic> diagnostics;
  std::vector<RunResult> rows;  // Run: the edited configuration's rows (also when they failed)
  std::string tag;              // the edit's tag (edited_texts.h); "" for the shipped text
  double seconds = 0;           // how long the worker ran
};

// The worker's command line for `request`, the text being in `text_path` and Run's CSV going to
// `csv_path`. `program` is this program.
std::vector<std::string> edit_worker_arguments(const std::string& program, const EditRequest& request,
                                               const std::string& text_path, const std::string& csv_path);

// The compiler's messages at lines of `kernel_text` (its name from the root, as the worker prints
// them: "kernels/variants/02_smem_tiled.cuh:55: error: expected a \";\"") in the worker's output.
std::vector<EditDiagnostic> edit_diagnostics(const std::string& output, const std::string& kernel_text);

class KernelEditJob : public WorkerJob<EditOutcome> {
 public:
  // `program`: the worker's program (this one, this_program_path()).
  explicit KernelEditJob(std::string program) : program_(std::move(program)) {}

  // Starts a worker for `request`; false with *error when one runs already, the text cannot be
  // written to a private folder, or the worker cannot start.
  bool start(const EditRequest& request, std::string* error);
  void set_program(const std::string& program) { program_ = program; }
  double time_limit() const { return request_.time_limit_s; }
  EditAction action() const { return request_.action; }

 private:
  EditOutcome finish() override;

  std::string program_;
  TempFolder folder_{"tilescope-edit"};  // the text, the worker's output, a run's CSV
  EditRequest request_;
};

}  // namespace tilescope
