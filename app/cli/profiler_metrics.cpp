#include "app/cli/profiler_metrics.h"

#include <algorithm>
#include <cmath>

namespace tilescope {
namespace {

// The lanes of a warp: an issued instruction counts once in smsp__inst_executed, and once per
// active lane in the thread-level counts.
constexpr double kLanesPerWarp = 32;

// The one table. Utilisations are "% of the peak sustained rate over the cycles the SM was
// active" (pct_of_peak_sustained_active), so idle SMs of a small grid do not dilute them.
const std::vector<ProfilerMetric> kMetrics = {
    {ProfilerMetricUse::KernelTime, "gpu__time_duration.sum"},
    {ProfilerMetricUse::FmaPipe, "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"},
    {ProfilerMetricUse::Fp64Pipe, "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active"},
    {ProfilerMetricUse::MmaTensorPipe, "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"},
    {ProfilerMetricUse::DmmaTensorPipe, "sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active"},
    {ProfilerMetricUse::IssueActive, "smsp__issue_active.avg.pct_of_peak_sustained_active"},
    {ProfilerMetricUse::CyclesPerIssue, "smsp__average_warp_latency_per_inst_issued.ratio"},
    {ProfilerMetricUse::FfmaLaneInstructions, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"},
    {ProfilerMetricUse::WarpInstructions, "smsp__inst_executed.sum"},
};

const char* metric_name(ProfilerMetricUse use) {
  for (const ProfilerMetric& m : kMetrics)
    if (m.use == use) return m.name;
  return "";
}

// The value of `use` in kernel k, or NaN.
double value_of(const KernelMetrics& k, ProfilerMetricUse use) {
  const auto it = k.find(metric_name(use));
  return it == k.end() ? ProfileFigures::kNone : it->second;
}

// The duration-weighted mean of `use` over the kernels that have it; NaN when none has. Where a
// kernel's duration is missing, every kernel counts once (durations and ones do not mix).
double weighted_mean(const std::vector<KernelMetrics>& kernels, ProfilerMetricUse use) {
  const bool all_timed = std::none_of(kernels.begin(), kernels.end(), [](const KernelMetrics& k) {
    return std::isnan(value_of(k, ProfilerMetricUse::KernelTime));
  });
  double sum = 0, weights = 0;
  for (const KernelMetrics& k : kernels) {
    const double v = value_of(k, use);
    if (std::isnan(v)) continue;
    const double w = all_timed ? std::max(0.0, value_of(k, ProfilerMetricUse::KernelTime)) : 1.0;
    sum += w * v;
    weights += w;
  }
  return weights > 0 ? sum / weights : ProfileFigures::kNone;
}

// The sum of `use` over every kernel; NaN when a kernel lacks it (a partial count would mislead).
double total(const std::vector<KernelMetrics>& kernels, ProfilerMetricUse use) {
  double sum = 0;
  for (const KernelMetrics& k : kernels) sum += value_of(k, use);
  return kernels.empty() ? ProfileFigures::kNone : sum;
}

// The larger of two figures, either of which may be NaN.
double larger(double a, double b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  return std::max(a, b);
}

}  // namespace

const std::vector<ProfilerMetric>& profiler_metrics() {
  return kMetrics;
}

std::string profiler_metrics_argument(const std::vector<std::string>& leave_out) {
  std::string out;
  for (const ProfilerMetric& m : kMetrics) {
    if (std::find(leave_out.begin(), leave_out.end(), m.name) != leave_out.end()) continue;
    out += (out.empty() ? "" : ",") + std::string(m.name);
  }
  return out;
}

ProfileFigures combine_kernel_metrics(const std::vector<KernelMetrics>& kernels) {
  ProfileFigures f;
  f.fma_pipe_pct = weighted_mean(kernels, ProfilerMetricUse::FmaPipe);
  f.fp64_pipe_pct = weighted_mean(kernels, ProfilerMetricUse::Fp64Pipe);
  f.tensor_pipe_pct = larger(weighted_mean(kernels, ProfilerMetricUse::MmaTensorPipe),
                             weighted_mean(kernels, ProfilerMetricUse::DmmaTensorPipe));
  f.issue_active_pct = weighted_mean(kernels, ProfilerMetricUse::IssueActive);
  f.cycles_per_issue = weighted_mean(kernels, ProfilerMetricUse::CyclesPerIssue);
  const double ffma = total(kernels, ProfilerMetricUse::FfmaLaneInstructions);
  const double issued = total(kernels, ProfilerMetricUse::WarpInstructions);
  if (!std::isnan(ffma) && !std::isnan(issued) && issued > 0)
    f.ffma_share_pct = 100.0 * ffma / (kLanesPerWarp * issued);
  return f;
}

}  // namespace tilescope
