#include "app/cli/profiler_worker.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>
#include <tuple>

#include "app/cli/ncu_raw_page.h"
#include "app/cli/profiler_metrics.h"
#include "app/export/count_text.h"
#include "app/export/printable_text.h"
#include "kernels/core/registry.h"

namespace tilescope {
namespace {

constexpr const char* kDefaultNcu = "/usr/local/cuda/bin/ncu";
// At most this many kernels are profiled per run: a timed launch is one kernel of ours, or a few
// of cuBLAS's (a split-K GEMM and its reduction); more would mean the range caught something else.
constexpr int kMaxProfiledKernels = 8;
// How often a running profile is looked at (its time limit, Ctrl-C).
constexpr auto kPollInterval = std::chrono::milliseconds(20);

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// The name of an edited configuration without its edit: "bm=64,bn=64 (edited 3fa2c1d0)" ->
// "bm=64,bn=64", the typed tile that --kernel-text turns into the edited one again.
std::string unedited_config_name(const std::string& name) {
  return name.substr(0, name.find(" (edited "));
}

std::string printf_text(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// The first of ncu's error lines in `output`, else its first warning, else "".
std::string first_ncu_complaint(const std::string& output) {
  std::string warning;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("==ERROR==", 0) == 0) return line;
    if (warning.empty() && line.rfind("==WARNING==", 0) == 0) warning = line;
  }
  return warning;
}

std::vector<std::string> metric_names_but(const std::vector<std::string>& leave_out) {
  std::vector<std::string> names;
  for (const ProfilerMetric& m : profiler_metrics())
    if (std::find(leave_out.begin(), leave_out.end(), m.name) == leave_out.end()) names.push_back(m.name);
  return names;
}

std::string command_text(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) {
    const bool quote = a.empty() || a.find_first_of(" \"'$,()") != std::string::npos;
    out += (out.empty() ? "" : " ") + (quote ? "'" + a + "'" : a);
  }
  return out;
}

// "naive 16x16 gemm f32 1024x1024x1024": a row as the progress lines name it.
std::string row_description(const RunResult& r) {
  return r.variant_id + " " + r.config_name + " " + to_string(r.problem) + " " + to_string(r.precision) + " " +
         shape_text(r.shape);
}

// The rows of one configuration, problem, input type, shape and seed share one profile.
using ProfileKey =
    std::tuple<std::string, std::string, Problem, Precision, std::int64_t, std::int64_t, std::int64_t, std::uint64_t>;
ProfileKey profile_key(const RunResult& r) {
  return {r.variant_id, r.config_name, r.problem, r.precision, r.shape.M, r.shape.N, r.shape.K, r.seed};
}

}  // namespace

NcuLocation find_ncu(const char* tilescope_ncu, const char* path_env,
                     const std::function<bool(const std::string&)>& is_executable) {
  if (tilescope_ncu && *tilescope_ncu) {
    if (is_executable(tilescope_ncu)) return {tilescope_ncu, ""};
    return {"", std::string("TILESCOPE_NCU is '") + printable_text(tilescope_ncu) +
                    "', which is no executable file; point it at Nsight Compute's ncu"};
  }
  if (path_env) {
    std::string dirs = path_env;
    for (std::size_t start = 0; start <= dirs.size();) {
      const std::size_t end = std::min(dirs.find(':', start), dirs.size());
      const std::string dir = dirs.substr(start, end - start);
      // An empty entry of PATH is the current folder.
      const std::string candidate = (dir.empty() ? "." : dir) + "/ncu";
      if (is_executable(candidate)) return {candidate, ""};
      start = end + 1;
    }
  }
  if (is_executable(kDefaultNcu)) return {kDefaultNcu, ""};
  return {"",
          "the profiler figures need Nsight Compute (ncu): not found on PATH or in /usr/local/cuda/bin; set "
          "TILESCOPE_NCU to its path"};
}

NcuLocation find_ncu() {
  return find_ncu(std::getenv("TILESCOPE_NCU"), std::getenv("PATH"), is_executable_file);
}

std::vector<std::string> profiled_bench_arguments(const RunResult& row, const std::string& kernel_text) {
  const std::string config = unedited_config_name(row.config_name);
  std::vector<std::string> args = {"--variants",  row.variant_id + ":" + config, "--problem", to_string(row.problem),
                                   "--precision", to_string(row.precision)};
  // AᵀA is N x N from a K x N matrix: bench takes no --m for it.
  if (row.problem == Problem::Gemm) args.insert(args.end(), {"--m", std::to_string(row.shape.M)});
  args.insert(args.end(), {"--n", std::to_string(row.shape.N), "--k", std::to_string(row.shape.K), "--reps", "1",
                           "--warmup", "0", "--no-baseline", "--no-verify", "--seed", std::to_string(row.seed)});
  if (config != row.config_name && !kernel_text.empty()) args.insert(args.end(), {"--kernel-text", kernel_text});
  return args;
}

std::vector<std::string> ncu_command_line(const std::string& ncu, const std::string& program,
                                          const std::vector<std::string>& bench_arguments,
                                          const std::vector<std::string>& leave_out) {
  std::vector<std::string> argv = {ncu,
                                   // The clocks as they were timed: ncu would lock them at base.
                                   "--clock-control", "none", "--nvtx",
                                   // "name/" selects a push/pop range of that name.
                                   "--nvtx-include", std::string(kTimedLaunchesRange) + "/", "--metrics",
                                   profiler_metrics_argument(leave_out), "--launch-count",
                                   std::to_string(kMaxProfiledKernels),
                                   // Instruction counts unscaled, so that their ratio needs no unit.
                                   "--print-units", "base", "--csv", "--page", "raw", program, "bench"};
  argv.insert(argv.end(), bench_arguments.begin(), bench_arguments.end());
  return argv;
}

double profile_time_limit_seconds(const RunResult& row) {
  return kProfileSeconds + kProfileReplays * std::max(row.first_ms, row.median_ms) / 1000.0;
}

ProfileOutcome read_profile_output(const std::string& output, const ChildProcess::Ending& ending, bool timed_out,
                                   double limit_s, const std::vector<std::string>& asked) {
  ProfileOutcome o;
  if (output.find("ERR_NVGPUCTRPERM") != std::string::npos) {
    o.failure =
        "Nsight Compute has no permission to the GPU's performance counters (ERR_NVGPUCTRPERM): run as root, or "
        "let every user profile (the nvidia module's option NVreg_RestrictProfilingToAdminUsers=0; "
        "https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
    o.repeats = true;
    return o;
  }
  if (timed_out) {
    o.failure = "ncu did not finish within " + printf_text("%.0f", limit_s) + " s and was stopped";
    return o;
  }
  NcuRawPage page;
  std::string why;
  if (read_ncu_raw_page(output, &page, &why)) {
    o.figures = combine_kernel_metrics(kernel_metrics(page, asked));
    if (!o.figures.any()) o.failure = "ncu's raw page has none of the metrics asked for (n/a on this GPU?)";
    return o;
  }
  o.unknown_metrics = metrics_named_in_ncu_errors(output, asked);
  o.failure = why;
  if (ending.signal != 0 || (ending.exited && ending.code != 0)) o.failure += "; ncu ended with " + ending_text(ending);
  if (const std::string complaint = first_ncu_complaint(output); !complaint.empty())
    o.failure += ": " + printable_excerpt(complaint, 200);
  return o;
}

Profiler::Profiler(std::string ncu, std::string program, std::string kernel_text)
    : ncu_(std::move(ncu)), program_(std::move(program)), kernel_text_(std::move(kernel_text)) {}

ProfileOutcome Profiler::profile(const RunResult& row, double limit_s, const std::atomic<bool>& stop) {
  ProfileOutcome o = run_ncu(row, limit_s, stop);
  if (o.figures.any() || o.interrupted || o.unknown_metrics.empty()) return o;
  // Metrics this ncu or GPU does not know: without them, once more (and in every later profile).
  for (const std::string& m : o.unknown_metrics)
    if (std::find(unknown_metrics_.begin(), unknown_metrics_.end(), m) == unknown_metrics_.end())
      unknown_metrics_.push_back(m);
  if (metric_names_but(unknown_metrics_).empty()) {
    o.failure = "ncu knows none of the metrics asked for: " + o.failure;
    o.repeats = true;
    return o;
  }
  return run_ncu(row, limit_s, stop);
}

ProfileOutcome Profiler::run_ncu(const RunResult& row, double limit_s, const std::atomic<bool>& stop) {
  ProfileOutcome o;
  std::string error;
  const std::string& folder = folder_.path(&error);
  if (folder.empty()) {
    o.failure = error;
    o.repeats = true;
    return o;
  }
  const std::string output_path = folder + "/ncu-output.txt";
  last_command_ = ncu_command_line(ncu_, program_, profiled_bench_arguments(row, kernel_text_), unknown_metrics_);
  ChildProcess ncu;
  if (!ncu.start(last_command_, output_path, &error)) {
    o.failure = error;
    o.repeats = true;
    return o;
  }
  bool timed_out = false, interrupted = false;
  while (ncu.running()) {
    if (!timed_out && !interrupted) {
      interrupted = stop.load();
      timed_out = !interrupted && ncu.seconds() > limit_s;
      if (interrupted || timed_out) ncu.kill();
    }
    std::this_thread::sleep_for(kPollInterval);
  }
  if (interrupted) {
    o.interrupted = true;
    o.failure = "interrupted";
    return o;
  }
  std::ifstream in(output_path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return read_profile_output(text.str(), ncu.ending(), timed_out, limit_s, metric_names_but(unknown_metrics_));
}

bool worth_profiling(const RunResult& row) {
  // A split's kernels are its kernel's, profiled in that kernel's row on one GPU.
  if (!row.ok() || (row.verified && !row.passed) || !row.split.empty()) return false;
  const VariantDescriptor* v = find_variant(row.variant_id);
  return v && needs_cuda(*v);
}

std::string profile_figures_text(const ProfileFigures& f) {
  std::string out;
  auto add = [&](const char* what, double v, const char* format) {
    if (!std::isnan(v)) out += (out.empty() ? "" : ", ") + std::string(what) + printf_text(format, v);
  };
  add("FMA pipe ", f.fma_pipe_pct, "%.1f%%");
  add("FP64 pipe ", f.fp64_pipe_pct, "%.1f%%");
  add("tensor pipe ", f.tensor_pipe_pct, "%.1f%%");
  add("issue ", f.issue_active_pct, "%.1f%%");
  add("cycles/issue ", f.cycles_per_issue, "%.2f");
  add("FFMA ", f.ffma_share_pct, "%.1f%%");
  return out.empty() ? "no figures" : out;
}

bool profile_rows(std::vector<RunResult>& rows, const std::string& kernel_text, const std::atomic<bool>& stop,
                  std::ostream& err) {
  // Each configuration, problem, input type, shape and seed once, in the order it first ran.
  std::map<ProfileKey, std::size_t> group_of;
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!worth_profiling(rows[i])) continue;
    const auto [at, added] = group_of.emplace(profile_key(rows[i]), groups.size());
    if (added) groups.emplace_back();
    groups[at->second].push_back(i);
  }
  if (groups.empty()) {
    err << "tilescope bench: --profile: no CUDA run timed and passed its check: nothing to profile\n";
    return true;
  }
  const NcuLocation ncu = find_ncu();
  const std::string program = this_program_path();
  if (ncu.path.empty() || program.empty()) {
    err << "tilescope bench: --profile: "
        << (ncu.path.empty() ? ncu.problem : "cannot tell where this program is, to run it under ncu")
        << ". The timings are complete; the profile figures stay empty.\n";
    return true;
  }
  err << "profiling " << count_text(groups.size(), "configuration", "configurations") << " with Nsight Compute ("
      << printable_text(ncu.path) << "): each runs again alone, its timed kernels replayed, the clocks not locked\n";
  Profiler profiler(ncu.path, program, kernel_text);
  bool command_shown = false;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (stop.load()) return false;
    const RunResult& row = rows[groups[g].front()];
    err << "[profile " << g + 1 << "/" << groups.size() << "] " << row_description(row) << " ... " << std::flush;
    const ProfileOutcome o = profiler.profile(row, profile_time_limit_seconds(row), stop);
    if (o.interrupted) {
      err << "interrupted\n";
      return false;
    }
    if (o.failure.empty()) {
      err << profile_figures_text(o.figures) << "\n";
      for (std::size_t i : groups[g]) rows[i].profile = o.figures;
      continue;
    }
    err << "no figures: " << o.failure << "\n";
    // The command once, so that the failure can be reproduced by hand.
    if (!command_shown)
      err << "    the profile's command: " << printable_text(command_text(profiler.last_command())) << "\n";
    command_shown = true;
    if (o.repeats) {
      if (g + 1 < groups.size())
        err << "tilescope bench: --profile: the other "
            << count_text(groups.size() - g - 1, "configuration is", "configurations are")
            << " not profiled, as this would repeat for each. The timings are complete.\n";
      break;
    }
  }
  return true;
}

}  // namespace tilescope
