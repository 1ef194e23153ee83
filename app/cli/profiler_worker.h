// `tilescope bench --profile`: after the sweep, each configuration that timed (and passed its
// check) runs once more, alone, in a process of its own: this program as `bench` with one
// repetition and no warm-up, under Nsight Compute (ncu), which profiles the kernels inside the
// NVTX range kTimedLaunchesRange (the timed launches, not the inputs, the poison or the reference)
// and prints its raw page; the page's metrics (profiler_metrics.h) become the row's ProfileFigures.
//
// Profiling never costs a timing: the sweep is over before the first profile starts (the
// profiler's replays neither heat the board nor hold memory between timed runs), a profile that
// fails leaves its figures empty, and the bench's exit code stays what the timings made it. A
// failure that would repeat for every run (no ncu, no permission to the GPU's performance
// counters) is said once and ends the profiling.
#pragma once

#include <atomic>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "app/platform/child_process.h"
#include "app/platform/temp_folder.h"
#include "kernels/measure/measure.h"

namespace tilescope {

// Where ncu is, or why there is none to use (one sentence).
struct NcuLocation {
  std::string path;
  std::string problem;
};

// $TILESCOPE_NCU when set (it must name an executable file), else `ncu` in a folder of $PATH, else
// /usr/local/cuda/bin/ncu. The arguments are the two variables' values (null when unset) and the
// test for an executable file, so that the choice can be tested anywhere.
NcuLocation find_ncu(const char* tilescope_ncu, const char* path_env,
                     const std::function<bool(const std::string&)>& is_executable);
// The same from this process's environment and file system.
NcuLocation find_ncu();

// The arguments after the program that run `row`'s configuration again, alone, as `bench` does:
// its variant:config, problem, precision, M, N, K and seed, one repetition, no warm-up, no
// baseline, no check. A configuration of an edited kernel text ("... (edited TAG)") runs the edit
// again: `kernel_text` is bench's --kernel-text ID=FILE ("" for none).
std::vector<std::string> profiled_bench_arguments(const RunResult& row, const std::string& kernel_text);

// ncu's whole command line: clocks left alone (as they were timed), the NVTX range selected, the
// metrics of profiler_metrics.h but `leave_out`, a few kernels at most, the raw page as CSV in
// base units, then `program bench` with `bench_arguments`.
std::vector<std::string> ncu_command_line(const std::string& ncu, const std::string& program,
                                          const std::vector<std::string>& bench_arguments,
                                          const std::vector<std::string>& leave_out);

// How long the profile of a row may take, in seconds: the program's start, the first (cold) run
// and ncu's replays of the kernel, generously (kProfileSeconds plus kProfileReplays medians).
constexpr double kProfileSeconds = 120;
constexpr double kProfileReplays = 100;
double profile_time_limit_seconds(const RunResult& row);

// What one profile gave.
struct ProfileOutcome {
  ProfileFigures figures;
  std::string failure;                       // why no figures came ("" when some did)
  bool repeats = false;                      // the failure would repeat for every run: profile no more
  bool interrupted = false;                  // stopped by Ctrl-C
  std::vector<std::string> unknown_metrics;  // metrics of the request that ncu's errors named
};

// ncu's output (its lines and the program's, together) read into an outcome: the figures of its
// raw page, or why there are none. `ending` and `timed_out` say how ncu ended; `asked` are the
// metrics it was asked for. Pure.
ProfileOutcome read_profile_output(const std::string& output, const ChildProcess::Ending& ending, bool timed_out,
                                   double limit_s, const std::vector<std::string>& asked);

// Runs the profiles: ncu found by find_ncu, this program as the profiled one.
class Profiler {
 public:
  Profiler(std::string ncu, std::string program, std::string kernel_text);

  // Profiles `row`'s configuration within `limit_s` seconds, killing ncu at the limit or once
  // `stop` is set. Metrics that ncu does not know are left out of a second try, and of every
  // later profile.
  ProfileOutcome profile(const RunResult& row, double limit_s, const std::atomic<bool>& stop);

  // The command line of the last profile (for a failure's message).
  const std::vector<std::string>& last_command() const { return last_command_; }

 private:
  ProfileOutcome run_ncu(const RunResult& row, double limit_s, const std::atomic<bool>& stop);

  std::string ncu_, program_, kernel_text_;
  std::vector<std::string> unknown_metrics_;
  std::vector<std::string> last_command_;
  TempFolder folder_{"tilescope-profile"};  // ncu's output, one file reused
};

// Whether a row is one --profile profiles: a CUDA or cuBLAS run that timed and did not fail its
// check.
bool worth_profiling(const RunResult& row);

// The profiling phase of `bench --profile`: every row worth it, each configuration, problem,
// input type, shape and seed once (the rounds of --rounds share their figures), progress and
// failures on `err`. False when `stop` (Ctrl-C) ended it early; the rows profiled so far keep
// their figures.
bool profile_rows(std::vector<RunResult>& rows, const std::string& kernel_text, const std::atomic<bool>& stop,
                  std::ostream& err);

// The figures a profile gave, in one line: the FMA pipe's busy share, the issue slots' busy share,
// cycles per issued instruction and the FFMA share, each with its unit.
std::string profile_figures_text(const ProfileFigures& f);

}  // namespace tilescope
