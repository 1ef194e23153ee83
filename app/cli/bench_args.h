// The options of `tilescope bench`, parsed into plain data. Parsing is pure (no printing, no
// GPU): every mistake becomes one sentence in BenchOptions::error, so the tests can check the
// messages and the command decides how to show them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/core/gemm_types.h"
#include "kernels/core/variant.h"

namespace tilescope {

// One configuration of one variant to run.
struct VariantSelection {
  const VariantDescriptor* variant = nullptr;
  int config_index = 0;
  // Added by the bench itself as the cuBLAS baseline (not named by the user): its refusals
  // (syrk on gemm, ...) are not worth reporting.
  bool baseline = false;
  // Named as id:config. A configuration that came from `id` or `all` and does not apply to a
  // problem or precision (syrk on gemm, TF32 on f64) is skipped quietly; a named one is reported.
  bool named = false;
};

struct SplitDescriptor;  // kernels/multi/split.h

// One split across GPUs to run: a split and one of its configurations.
struct SplitSelection {
  const SplitDescriptor* split = nullptr;
  int config_index = 0;
};

struct BenchOptions {
  std::string error;  // non-empty: the arguments were rejected, nothing else is meaningful
  bool ok() const { return error.empty(); }

  bool help = false;  // -h / --help: print the usage, run nothing
  bool list = false;  // --list: print the registry, run nothing
  // --roofs: measure the device's roofs (kernels/roofs/roofs.h) instead of a sweep, print them,
  // cache them; --csv / --json then receive the roofs.
  bool roofs = false;

  // Resolved, in the order given, without duplicates. Includes the cuBLAS baseline unless
  // --no-baseline (the baseline comes first, so % of cuBLAS can be computed for every shape).
  std::vector<VariantSelection> selections;
  std::vector<Problem> problems;
  std::vector<Precision> precisions;
  // The shapes each problem runs (empty for a problem not requested). Ata shapes have M == N.
  std::vector<Shape> gemm_shapes;
  std::vector<Shape> ata_shapes;
  // Whether any of --sizes, --m, --n, --k was given (without a GPU, the defaults are replaced
  // by sizes the CPU reference can do quickly).
  bool sizes_given = false;
  // Whether --variants was given. Without a CUDA GPU, the texture-shader variant (which needs
  // only OpenGL) runs when --variants names it (or says all); otherwise only the CPU reference.
  bool variants_given = false;

  // --gpus LIST: the GPU counts each split runs on (kernels/multi/); empty: one GPU, no split.
  // --split LIST: the splits (an id runs all its configurations); with --gpus alone, every split
  // of the requested problems. Each selection above also runs alone on one GPU: the bar of its
  // splits' speed-up.
  std::vector<int> gpus;
  std::vector<SplitSelection> splits;

  int repetitions = 10;
  int warmup = 2;
  // --rounds N: the whole sweep N times, each round's runs of a shape side by side, the order of
  // the configurations reversed from one round to the next (plan_bench).
  int rounds = 1;
  bool verify = true;
  bool baseline = true;
  // --profile: after the sweep, each CUDA and cuBLAS configuration that timed and passed runs
  // again under Nsight Compute for the figures that say why it is as fast as it is
  // (app/cli/profiler_worker.h). Never changes the exit code.
  bool profile = false;
  std::uint64_t seed = 1;
  std::string csv_path;   // empty: no CSV
  std::string json_path;  // empty: no JSON
  // --kernel-text ID=FILE: ID's configurations run the edited text in FILE (kernel_text_option.h),
  // installed by the command (parsing reads no file). Empty: none.
  std::string kernel_text;

  const std::vector<Shape>& shapes_for(Problem p) const { return p == Problem::Gemm ? gemm_shapes : ata_shapes; }
};

// Limits that keep a typo from asking for a sweep that would run for days.
constexpr int kMaxRepetitions = 100000;
constexpr int kMaxWarmup = 10000;
constexpr int kMaxRounds = 100;
constexpr int kMaxGpus = 64;
constexpr std::size_t kMaxShapesPerProblem = 10000;

// `args` are the options after the word `bench`.
BenchOptions parse_bench_args(const std::vector<std::string>& args);
// argv[0] is the command name (`bench`) and is skipped, as in main().
BenchOptions parse_bench_args(int argc, const char* const* argv);

// The usage lines (shown after the message for bad arguments).
std::string bench_synopsis();
// The whole --help text: the synopsis, every option, size lists, exit codes, examples.
std::string bench_usage();

}  // namespace tilescope
