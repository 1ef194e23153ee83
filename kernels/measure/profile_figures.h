// What Nsight Compute measured of a run's timed kernels (`tilescope bench --profile`): how busy
// the pipes that do a GEMM's arithmetic were, and how well the warp schedulers kept issuing. They
// say WHY one kernel beats another where the time only says that it does (docs/PROFILER.md).
//
// Every figure is NaN until a profile gives it: the run was not profiled, the profiler failed, or
// it does not know that metric on this GPU. The CSV leaves such a field empty, JSON writes null,
// the tables show "-".
#pragma once

#include <cmath>
#include <limits>

namespace tilescope {

struct ProfileFigures {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

  // % of the active cycles in which each pipe was busy, averaged over the SMs: the FP32 FMA pipe
  // (CUDA-core float kernels), the FP64 pipe (double kernels), the tensor pipe (16-bit and tf32
  // mma.sync, wmma and wgmma: HMMA and HGMMA; double mma.sync and wmma: DMMA).
  double fma_pipe_pct = kNone;
  double fp64_pipe_pct = kNone;
  double tensor_pipe_pct = kNone;
  // % of the schedulers' cycles in which they issued an instruction (one a cycle at most).
  double issue_active_pct = kNone;
  // Cycles a warp spends per instruction it issues: how long it waits, on average, between two.
  double cycles_per_issue = kNone;
  // FFMA instructions (one lane's each) per instruction issued (a warp's, counted as 32 lanes), in %.
  double ffma_share_pct = kNone;

  // Whether the profiler gave any figure at all.
  bool any() const {
    for (double v : {fma_pipe_pct, fp64_pipe_pct, tensor_pipe_pct, issue_active_pct, cycles_per_issue, ffma_share_pct})
      if (!std::isnan(v)) return true;
    return false;
  }
};

}  // namespace tilescope
