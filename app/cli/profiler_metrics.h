// The Nsight Compute metrics `tilescope bench --profile` asks for, and how the figures of a run
// (ProfileFigures) come out of them. The metric names live in ONE table here: a name that some
// Nsight Compute or GPU spells otherwise is fixed in one place, and a name it does not know only
// leaves its figure empty.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "kernels/measure/profile_figures.h"

namespace tilescope {

// What a metric is asked for.
enum class ProfilerMetricUse {
  KernelTime,            // a kernel's duration: the weight of its figures where a run launches several
  FmaPipe,               // ProfileFigures::fma_pipe_pct
  Fp64Pipe,              // fp64_pipe_pct
  MmaTensorPipe,         // tensor_pipe_pct: 16-bit and tf32 mma.sync, wmma and wgmma (HMMA, HGMMA)
  DmmaTensorPipe,        // tensor_pipe_pct: double mma.sync and wmma (DMMA)
  IssueActive,           // issue_active_pct
  CyclesPerIssue,        // cycles_per_issue
  FfmaLaneInstructions,  // ffma_share_pct's numerator: FFMAs executed, one per active lane
  WarpInstructions,      // ffma_share_pct's denominator: instructions issued, one per warp
};

struct ProfilerMetric {
  ProfilerMetricUse use;
  const char* name;  // as ncu --metrics takes it (sm_90 names)
};

// Every metric, in the table's order.
const std::vector<ProfilerMetric>& profiler_metrics();
// The value of ncu's --metrics: every metric's name but those in `leave_out`, comma separated.
std::string profiler_metrics_argument(const std::vector<std::string>& leave_out = {});

// One profiled kernel: the metrics ncu gave a number for, by name (one it reported missing or
// "n/a" is not there).
using KernelMetrics = std::map<std::string, double>;

// The figures of a run whose timed launches ran these kernels (cuBLAS may launch more than one,
// e.g. a split-K GEMM and its reduction). Percentages and ratios are averaged over the kernels
// that have them, each weighted by its duration (by one each where a duration is missing);
// instruction counts are summed over all kernels (a count missing from one leaves the share
// empty). The tensor pipe is the busier of mma.sync's and wgmma's. No kernels: every figure NaN.
ProfileFigures combine_kernel_metrics(const std::vector<KernelMetrics>& kernels);

}  // namespace tilescope
