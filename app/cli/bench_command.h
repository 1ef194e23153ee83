// `tilescope bench`: the headless benchmark. Parses the options, runs every requested
// variant x configuration x problem x precision x shape with one Measurer, prints progress to
// `err` and the results table to `out`, and writes CSV/JSON on request.
//
// Without a usable GPU it says why in one line, times the CPU double-precision reference for
// the sizes up to 512 instead (so the command still shows something real), and returns 3.
//
// Ctrl-C during the sweep starts no further run, cuts the current one short between
// repetitions, prints and writes what finished, and returns 130.
#pragma once

#include <signal.h>

#include <atomic>
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "app/cli/bench_args.h"
#include "kernels/measure/measure.h"

namespace tilescope {

// Exit codes, as documented in `tilescope bench --help`. When several apply, the largest wins.
enum BenchExit : int {
  kExitOk = 0,
  kExitRunFailed = 1,  // a run errored, a result failed verification, or everything was refused
  kExitBadArguments = 2,
  kExitNoGpu = 3,
  kExitOutputFailed = 4,   // --csv or --json could not be written
  kExitInterrupted = 130,  // Ctrl-C (128 + SIGINT, as a shell reports a process killed by it)
};

// The largest size the CPU reference is timed for when there is no GPU: 512^3 takes a
// fraction of a second per repetition, 1024^3 eight times longer.
constexpr long long kCpuFallbackMaxSize = 512;
// The sizes timed on the CPU when none were given on the command line.
constexpr long long kCpuFallbackDefaultSizes[] = {128, 256, 512};

// One run of the sweep, and the selection it came from (a pointer into BenchOptions::selections:
// valid while those options live).
struct PlannedRun {
  RunRequest request;
  const VariantSelection* selection = nullptr;
  int round = 1;  // --rounds: which round of the sweep (1, 2, ..)
};

struct BenchPlan {
  // In the order they run: round, problem, precision, shape, then the selections (baseline
  // first; in even rounds last, the selections reversed).
  std::vector<PlannedRun> runs;
  // "smem_tiled:32 gemm f64: 1024 threads per block, the device allows 512", once per
  // configuration, problem and precision.
  std::vector<std::string> refused;
  // False when nothing but the cuBLAS baseline is left to run.
  bool has_user_runs() const;
};

// Expands the options into runs, leaving out configurations that unsupported_reason() refuses
// for these device limits. Pure, so the expansion can be tested without a GPU.
BenchPlan plan_bench(const BenchOptions& opt, const DeviceLimits& limits);
// The plan points into the options: a temporary would leave it dangling (AddressSanitizer
// found exactly that in a test), so it does not compile.
BenchPlan plan_bench(const BenchOptions&& opt, const DeviceLimits& limits) = delete;

// ---- Ctrl-C ----------------------------------------------------------------------------------

// Catches SIGINT while it lives and restores the previous disposition when it goes. The handler
// only stores to lock-free atomics (async-signal-safe): requested(), and `cancel` when given
// (Measurer::cancel_flag(), which the Measurer checks between timed repetitions, so a long run
// stops early too). It is one-shot (SA_RESETHAND): a second Ctrl-C ends the program at once.
// Where SIGINT was ignored when it was created (nohup, a background job of a script), it stays
// ignored. One scope at a time; `cancel` must outlive the scope.
class SigintScope {
 public:
  explicit SigintScope(std::atomic<bool>* cancel = nullptr);
  ~SigintScope();
  SigintScope(const SigintScope&) = delete;
  SigintScope& operator=(const SigintScope&) = delete;

  // Set by the first SIGINT since this scope began.
  const std::atomic<bool>& requested() const;
  bool installed() const { return installed_; }

 private:
  struct sigaction previous_ {};
  bool installed_ = false;
};

// What a sweep did: the rows of the runs that finished (an error row counts: it was decided),
// in order, and whether an interrupt left some runs undone or cut one short.
struct SweepOutcome {
  std::vector<RunResult> rows;
  bool interrupted = false;
};

// The loop both bench paths share, apart from what a run is, so that it can be tested without
// a GPU. For each index in [0, count): stops if `stop` is set, else prints "[i/count] " +
// describe(i) + " ... " to `err`, calls run_one(i) and prints the outcome. A run that returns an
// error while `stop` is set was cut short by the interrupt: it is left out and shown as
// "interrupted".
SweepOutcome run_sweep(std::size_t count, const std::function<std::string(std::size_t)>& describe,
                       const std::function<RunResult(std::size_t)>& run_one, const std::atomic<bool>& stop,
                       std::ostream& err);

// argv[0] is the command word ("bench"); the options follow. Never throws.
int run_bench(int argc, char** argv, std::ostream& out, std::ostream& err);

// The program's version ("0.1.0"): kTilescopeVersion of the generated version.h.
const char* tilescope_version();

}  // namespace tilescope
