// What the Source view's compiled code shows: the kernels of the focused row's configuration,
// compiled by NVRTC (through the disk cache: a configuration compiled before loads in
// milliseconds) on a thread of its own, as the tile editor compiles a typed tile, so the window
// keeps drawing; then one kernel's PTX and its instructions mapped to the lines of the text
// (ptx_lines.h). A new request (another variant, configuration, type, problem or architecture)
// compiles again; the compile in flight is forgotten (NVRTC cannot be stopped). No ImGui.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "app/platform/background_result.h"
#include "app/ui/source/ptx_lines.h"
#include "kernels/core/gemm_types.h"
#include "kernels/core/variant.h"
#include "kernels/jit/nvrtc_compiler.h"

namespace tilescope {

// What is compiled: a variant's kernels for one configuration, type, problem and architecture.
struct CompiledCodeRequest {
  const VariantDescriptor* variant = nullptr;
  int config_index = 0;
  Precision precision = Precision::F32;
  Problem problem = Problem::Gemm;
  std::string architecture;  // "sm_90"
  std::string driver;        // part of the cache's key: "13000", or "none"
  bool operator==(const CompiledCodeRequest& o) const {
    return variant == o.variant && config_index == o.config_index && precision == o.precision && problem == o.problem &&
           architecture == o.architecture && driver == o.driver;
  }
};

// One compile and its PTX, parsed on the compile's thread.
struct CompiledCodeResult {
  CompiledCodeRequest request;
  std::string config;              // the configuration's name
  std::vector<std::string> names;  // the kernels' name expressions
  std::string error;               // why there was no compile at all (the text unreadable)
  CompiledProgram program;
  PtxListing listing;
  int text_file = -1;  // the kernel text's `.file` index in the PTX
  // The machine code disassembled (sass_lines.h) where nvdisasm is there; sass_note says why not.
  PtxListing sass;
  int sass_text_file = -1;
  std::string sass_note;
};

// Where the toolkit's disassembler of the machine code (nvdisasm) is: on PATH, or in the toolkit's
// bin folder beside NVRTC's library folder; "" when there is none. SASS needs it. disassembler():
// the same, looked for once (it does not come and go while the program runs).
std::string find_disassembler();
const std::string& disassembler();

class CompiledCode {
 public:
  // Compiles what `r` asks for unless it is what is shown or under way. `text_lines`: the length of
  // the text the map is told against.
  void request(const CompiledCodeRequest& r, int text_lines);
  // Called each frame: takes a finished compile.
  void poll();
  // Cancel pressed: the compile in flight is forgotten (its result dropped when it ends).
  void cancel();
  // Compile pressed after a cancel: the next request compiles again.
  void compile_again() { cancelled_ = false; }

  bool compiling() const { return job_ != nullptr; }
  double seconds_compiling() const;
  const CompiledCodeResult* result() const { return has_result_ ? &result_ : nullptr; }
  bool cancelled() const { return cancelled_; }
  // Counts the results taken: a view sees a new one come.
  int generation() const { return generation_; }

  // The kernel shown, among the result's (its index into names; the PTX's entry of that name).
  int kernel() const { return kernel_; }
  void set_kernel(int k);
  // The machine code (SASS) shown instead of the PTX, where the result has it.
  void set_sass(bool on);
  bool sass_shown() const { return sass_ && has_result_ && !result_.sass.kernels.empty(); }
  // What is shown: the PTX's listing or the SASS's, and the kernel text's file index in it.
  const PtxListing* shown_listing() const;
  int shown_text_file() const;
  // The shown kernel in the listing shown.
  const PtxKernel* ptx_kernel() const;
  const KernelResources* resources() const;
  // The shown kernel's instructions against the text's lines (empty without a result).
  const KernelLineMap& line_map() const { return map_; }

 private:
  void remap();

  CompiledCodeRequest wanted_, compiling_;
  int text_lines_ = 0;
  std::chrono::steady_clock::time_point started_at_;
  std::unique_ptr<BackgroundResult<CompiledCodeResult>> job_;
  std::shared_ptr<std::atomic<bool>> job_dropped_;  // set when job_ is replaced or cancelled
  std::vector<std::unique_ptr<BackgroundResult<CompiledCodeResult>>> abandoned_;
  CompiledCodeResult result_;
  bool has_result_ = false, cancelled_ = false, sass_ = false;
  int kernel_ = 0, generation_ = 0;
  KernelLineMap map_;
};

}  // namespace tilescope
