// Variants that do not run through CUDA: the texture-shader GEMM (Backend::GlShader) draws
// with OpenGL, which the core does not link. The Measurer still owns everything around a run
// (inputs, poison check, reference, statistics, the row); the part that can draw — app/gl_gemm,
// which links OpenGL — installs a runner here at start-up (main), and the Measurer hands it
// host arrays. Without an installed runner such variants are refused with a clear message.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "kernels/core/gemm_types.h"
#include "kernels/core/variant.h"

namespace tilescope {

// One product, C = A * B, row-major floats (AᵀA arrives as a plain product of Aᵀ and A). A and B
// are null when the runner is asked whether it refuses the run (ExternalRunner::refusal).
struct ExternalRun {
  const VariantDescriptor* variant = nullptr;
  int config_index = 0;
  int M = 0, N = 0, K = 0;
  const float* a = nullptr;                   // M x K
  const float* b = nullptr;                   // K x N
  int warmup = 0;                             // untimed runs after the first
  int repetitions = 1;                        // timed runs
  const std::atomic<bool>* cancel = nullptr;  // stop between passes; error "cancelled"
};

struct ExternalOutcome {
  std::string error;             // empty on success
  std::vector<float> c;          // M x N of the last run; NaN where nothing was written
  double first_ms = 0;           // the first run, wall clock, including its set-up
  bool first_was_cold = false;   // the first run of this configuration in the process
  std::vector<double> times_ms;  // each timed run
  std::string timer;             // what times_ms come from ("gl_time_elapsed", "wall_clock")
  std::string device_name;       // the renderer that ran it (GL_RENDERER)
  int passes = 0;                // draw calls per run
  double fetches_per_fma = 0;    // texels fetched per useful multiply-add
};

struct ExternalRunner {
  // Why the runner would refuse the run ("" = it would draw it), asked before the Measurer makes
  // the inputs: a refusal that the sizes decide (a software renderer's time limit) then costs no
  // host memory (at 8192 the inputs are 1.5 GB). Optional.
  std::function<std::string(const ExternalRun&)> refusal;
  // The run itself; out.error where it is refused or fails.
  std::function<ExternalOutcome(const ExternalRun&)> run;

  // Whether a runner is installed.
  explicit operator bool() const { return static_cast<bool>(run); }
};

// Installs (or, with an empty function, removes) the runner of a backend. Thread-safe.
void install_external_runner(Backend backend, ExternalRunner runner);
// A copy of the installed runner; empty when none.
ExternalRunner external_runner(Backend backend);

}  // namespace tilescope
