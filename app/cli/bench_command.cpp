#include "app/cli/bench_command.h"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <exception>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "app/cli/bench_args.h"
#include "app/cli/kernel_text_option.h"
#include "app/cli/profiler_worker.h"
#include "app/cli/results_table.h"
#include "app/cli/roofs_command.h"
#include "app/cli/split_predictions.h"
#include "app/cli/wrong_element.h"
#include "app/export/atomic_file.h"
#include "app/export/count_text.h"
#include "app/export/printable_text.h"
#include "app/export/results_csv.h"
#include "app/export/results_json.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/device_info.h"
#include "kernels/measure/measure.h"
#include "kernels/measure/reference.h"
#include "kernels/multi/split_measure.h"
#include "kernels/multi/split_registry.h"
#include "version.h"

namespace tilescope {
namespace {

std::string ms_text(double ms) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, ms >= 100 ? "%.1f" : ms >= 1 ? "%.3f" : "%.4f", ms);
  return buffer;
}

std::string bytes_text(double bytes) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f GiB (%.0f bytes)", bytes / (1024.0 * 1024.0 * 1024.0), bytes);
  return buffer;
}

// "naive 16x16 gemm f32 1024x1024x1024" (run_sweep puts "[3/40] " before it and " ... " after).
std::string run_description(const std::string& variant, const std::string& config, Problem p, Precision prec,
                            const Shape& s) {
  return variant + " " + config + " " + to_string(p) + " " + to_string(prec) + " " + shape_text(s);
}

std::string progress_outcome(const RunResult& r) {
  if (!r.ok()) return "error: " + r.error;
  std::string text = ms_text(r.median_ms) + " ms";
  if (r.verified && !r.passed) text += "  FAIL";
  if (const std::string where = wrong_element_sentence(r); !where.empty()) text += "\n    " + where;
  return text;
}

bool failed(const RunResult& r) {
  return !r.ok() || (r.verified && !r.passed);
}

// ---- outputs ---------------------------------------------------------------------------------

// The last line of an interrupted sweep, after its table and files. Returns the exit code.
int report_interrupt(std::size_t done, std::size_t total, std::ostream& err) {
  err << "tilescope: interrupted; " << done << " of " << total << " runs done\n";
  return kExitInterrupted;
}

// Before any run: each file asked for can be written (its folder exists and takes a new file;
// it is no folder). kExitOutputFailed, with why on `err`, if one cannot, so that a long sweep
// never ends on "cannot write".
int check_outputs(const BenchOptions& opt, std::ostream& err) {
  int code = kExitOk;
  for (const std::string* path : {&opt.csv_path, &opt.json_path}) {
    std::string error;
    if (path->empty() || check_writable_path(*path, &error)) continue;
    err << "tilescope bench: " << printable_text(error) << "\n";
    code = kExitOutputFailed;
  }
  if (code != kExitOk) err << "tilescope bench: nothing was run; choose another file for --csv / --json\n";
  return code;
}

// Writes the files asked for; returns kExitOutputFailed if any could not be written.
int write_outputs(const BenchOptions& opt, const std::vector<RunResult>& rows, const DeviceInfo& device,
                  std::ostream& err) {
  int code = kExitOk;
  auto write = [&](const std::string& path, const std::string& text) {
    std::string error;
    if (write_file_atomically(path, text, &error)) {
      err << "wrote " << printable_text(path) << " (" << count_text(rows.size(), "result", "results") << ")\n";
    } else {
      err << "tilescope: " << printable_text(error) << "\n";
      code = kExitOutputFailed;
    }
  };
  if (!opt.csv_path.empty()) write(opt.csv_path, results_to_csv(rows));
  if (!opt.json_path.empty()) write(opt.json_path, results_to_json(rows, device, tilescope_version()));
  return code;
}

// ---- without a GPU: the CPU reference ----------------------------------------------------------

// Without size options the GPU defaults (1024, 2048) are all too large for the CPU: show
// something real instead, so that a plain `tilescope bench` still does what it can.
BenchOptions with_cpu_sizes(const BenchOptions& opt) {
  BenchOptions sized = opt;
  if (!opt.sizes_given) {
    sized.gemm_shapes.clear();
    sized.ata_shapes.clear();
    for (long long n : kCpuFallbackDefaultSizes) {
      sized.gemm_shapes.push_back(normalised(Problem::Gemm, Shape{n, n, n}));
      sized.ata_shapes.push_back(normalised(Problem::Ata, Shape{n, n, n}));
    }
  }
  return sized;
}

using CpuRun = std::pair<Problem, Shape>;

// The CPU reference's runs: the sizes up to kCpuFallbackMaxSize; the larger ones, named, into `skipped`.
std::vector<CpuRun> cpu_runs(const BenchOptions& opt, const BenchOptions& sized, std::vector<std::string>* skipped) {
  std::vector<CpuRun> todo;
  for (Problem p : opt.problems) {
    for (const Shape& s : sized.shapes_for(p)) {
      if (std::max({s.M, s.N, s.K}) <= kCpuFallbackMaxSize)
        todo.emplace_back(p, s);
      else
        skipped->push_back(std::string(to_string(p)) + " " + shape_text(s));
    }
  }
  return todo;
}

bool is_gl(const VariantDescriptor* v) {
  return v && !needs_cuda(*v);
}

// The texture-shader variant needs OpenGL, not CUDA: its runs when --variants asks for it, with
// their refusals on `err`.
std::vector<RunRequest> gl_runs_without_gpu(const BenchOptions& opt, const BenchOptions& sized, std::ostream& err) {
  std::vector<RunRequest> gl_runs;
  if (!opt.variants_given) return gl_runs;
  const BenchPlan plan = plan_bench(sized, DeviceLimits());
  for (const std::string& line : plan.refused)
    if (is_gl(find_variant(line.substr(0, line.find(':'))))) err << "refused: " << line << "\n";
  for (const PlannedRun& run : plan.runs)
    if (is_gl(run.selection->variant)) gl_runs.push_back(run.request);
  return gl_runs;
}

// What a run without a GPU does, what it skips, and how to get the texture shaders.
void print_without_gpu_intro(const BenchOptions& opt, const std::vector<std::string>& skipped, bool any_gl,
                             std::ostream& out) {
  const bool gl_selected = std::any_of(opt.selections.begin(), opt.selections.end(),
                                       [&](const VariantSelection& s) { return is_gl(s.variant); });
  out << "Without a GPU, tilescope times only the CPU reference (double precision, sizes up to " << kCpuFallbackMaxSize
      << ")";
  out << (any_gl ? ", and the texture-shader variant through OpenGL.\n" : ".\n");
  if (!skipped.empty()) {
    out << "Skipped for the CPU reference (above " << kCpuFallbackMaxSize << "):";
    for (const std::string& s : skipped) out << " " << s << ";";
    out << " try --sizes 64:512:x2\n";
  }
  if (gl_selected && !any_gl && !opt.variants_given)
    for (const VariantDescriptor* v : variant_registry())
      if (v->backend == Backend::GlShader)
        out << "The texture-shader GEMM needs only OpenGL: try --variants " << v->id << "\n";
}

int run_without_gpu(const BenchOptions& opt, const DeviceInfo& device, std::ostream& out, std::ostream& err) {
  const BenchOptions sized = with_cpu_sizes(opt);
  std::vector<std::string> skipped;
  const std::vector<CpuRun> todo = cpu_runs(opt, sized, &skipped);
  const std::vector<RunRequest> gl_runs = gl_runs_without_gpu(opt, sized, err);
  print_without_gpu_intro(opt, skipped, !gl_runs.empty(), out);
  if (opt.profile) err << "tilescope bench: --profile: without a CUDA GPU there is no kernel to profile\n";

  Measurer measurer;  // makes no CUDA call until a CUDA variant runs: none does here
  SweepOutcome sweep;
  {
    const SigintScope sigint(&measurer.cancel_flag());
    const std::size_t total = todo.size() + gl_runs.size();
    sweep = run_sweep(
        total,
        [&](std::size_t i) {
          if (i < todo.size())
            return run_description(kCpuReferenceId, "fp64", todo[i].first, Precision::F64, todo[i].second);
          const RunRequest& r = gl_runs[i - todo.size()];
          return run_description(r.variant_id, config_at(*find_variant(r.variant_id), r.config_index).name, r.problem,
                                 r.precision, r.shape);
        },
        [&](std::size_t i) {
          if (i >= todo.size()) return measurer.run(gl_runs[i - todo.size()]);
          RunRequest req;
          req.problem = todo[i].first;
          req.shape = todo[i].second;
          req.repetitions = opt.repetitions;
          req.warmup = opt.warmup;
          req.seed = opt.seed;
          return measure_cpu_reference(req, i == 0, sigint.requested());
        },
        sigint.requested(), err);
  }
  const std::vector<RunResult>& rows = sweep.rows;
  if (!rows.empty()) out << format_results_table(rows, device);

  // A failed run (a texture-shader row that erred or failed its check) outranks "no GPU".
  int code = write_outputs(opt, rows, device, err);
  if (code == kExitOk) code = std::any_of(rows.begin(), rows.end(), failed) ? kExitRunFailed : kExitNoGpu;
  return sweep.interrupted ? report_interrupt(rows.size(), todo.size() + gl_runs.size(), err) : code;
}

// ---- with a GPU --------------------------------------------------------------------------------

// The row for a run that never reached the Measurer (it would not fit in device memory).
RunResult unrun_result(const PlannedRun& job, const DeviceInfo& device, const std::string& error) {
  RunResult r = requested_row(job.request);
  record_variant(r, *job.selection->variant, job.request.config_index);
  r.error = error;
  record_device(r, device);
  r.round = job.round;
  return r;
}

// The splits' model beside their measurements: the link measured between as many GPUs as the
// splits ran on, then each split's predictions (split_forecast.h), each predicted row's predicted_ms and
// link figures filled (the file then carries what the window needs to draw the model).
std::string split_model_text(SplitMeasurer& measurer, std::vector<RunResult>& rows) {
  int most = 0;
  for (const RunResult& r : rows)
    if (r.ok() && !r.split.empty()) most = std::max(most, r.gpus);
  if (most == 0) return "";
  if (most < 2)
    return "\nno model of the splits: they ran on one GPU, so the link between GPUs was not measured (--gpus 1,2)\n";
  LinkBench link;
  std::string why;
  if (!measurer.measure_links(most, kLinkRepetitions, &link, &why))
    return "\nno model of the splits: the link: " + why + "\n";
  return "\n" + format_predictions(predict_splits(rows, link.figures), link);
}

int run_with_gpu(const BenchOptions& opt, const DeviceInfo& device, std::ostream& out, std::ostream& err) {
  const BenchPlan plan = plan_bench(opt, device.limits);
  for (const std::string& line : plan.refused) err << "refused: " << line << "\n";
  if (!plan.has_user_runs()) {
    err << "tilescope bench: nothing to run: every requested configuration was refused\n";
    return kExitRunFailed;
  }
  const std::vector<PlannedRun>& jobs = plan.runs;

  std::unique_ptr<Measurer> measurer;
  std::unique_ptr<SplitMeasurer> split_measurer;  // made for the first split run
  try {
    measurer = std::make_unique<Measurer>();
  } catch (const std::exception& e) {
    err << "tilescope: no usable GPU: cannot set up the GPU: " << e.what() << "\n";
    return kExitNoGpu;
  }

  auto run_one = [&](std::size_t i) {
    const PlannedRun& job = jobs[i];
    const RunRequest& req = job.request;
    if (!req.split.empty()) {
      if (!split_measurer) split_measurer = std::make_unique<SplitMeasurer>();
      if (measurer->cancel_flag().load()) split_measurer->cancel_flag() = true;
      RunResult r = split_measurer->run(req);
      r.round = job.round;
      return r;
    }
    // Say plainly how much memory a size needs instead of letting an allocation fail.
    const double needed = static_cast<double>(device_bytes_needed(req, 1));
    if (!is_gl(job.selection->variant) && device.global_memory_bytes > 0 &&
        needed > static_cast<double>(device.global_memory_bytes)) {
      return unrun_result(job, device,
                          "does not fit in device memory: needs " + bytes_text(needed) + ", the device has " +
                              bytes_text(static_cast<double>(device.global_memory_bytes)));
    }
    try {
      RunResult r = measurer->run(req);
      r.round = job.round;
      return r;
    } catch (const std::exception& e) {
      // Measurer::run promises not to throw; keep the sweep going if it ever does.
      return unrun_result(job, device, e.what());
    }
  };
  auto describe = [&](std::size_t i) {
    const RunRequest& req = jobs[i].request;
    std::string run = run_description(req.variant_id, config_at(*jobs[i].selection->variant, req.config_index).name,
                                      req.problem, req.precision, req.shape);
    if (!req.split.empty()) {
      const SplitDescriptor* split = find_split(req.split);
      run += " split " + req.split + ":" + split->configs[req.split_config].name + " on " + std::to_string(req.gpus) +
             (req.gpus == 1 ? " GPU" : " GPUs");
    }
    return opt.rounds > 1 ? "round " + std::to_string(jobs[i].round) + ": " + run : run;
  };

  SweepOutcome sweep;
  {
    // Declared after the Measurer, so it restores the handler before the flag it sets goes.
    const SigintScope sigint(&measurer->cancel_flag());
    sweep = run_sweep(jobs.size(), describe, run_one, sigint.requested(), err);
  }
  std::vector<RunResult>& rows = sweep.rows;
  // The splits' link and model on the GPUs the sweep used, before anything else runs on them.
  const std::string model = split_measurer && !sweep.interrupted ? split_model_text(*split_measurer, rows) : "";

  // Profiled after the whole sweep, so that no profile runs between two timed runs; the measurers'
  // buffers are freed first, for the profiled process to allocate its own.
  bool profile_interrupted = false;
  if (opt.profile && !sweep.interrupted) {
    measurer.reset();
    split_measurer.reset();
    const SigintScope sigint;
    profile_interrupted = !profile_rows(rows, opt.kernel_text, sigint.requested(), err);
  }

  fill_pct_of_cublas(rows);
  fill_speedup_over_one_gpu(rows);
  if (!rows.empty()) out << format_results_table(rows, device) << model;
  const bool any_failed = std::any_of(rows.begin(), rows.end(), failed);
  const int code = std::max<int>(any_failed ? kExitRunFailed : kExitOk, write_outputs(opt, rows, device, err));
  if (profile_interrupted) {
    err << "tilescope: interrupted while profiling; all " << rows.size()
        << " runs are timed, the figures of those not profiled yet stay empty\n";
    return kExitInterrupted;
  }
  return sweep.interrupted ? report_interrupt(rows.size(), jobs.size(), err) : code;
}

int run_bench_unguarded(int argc, char** argv, std::ostream& out, std::ostream& err) {
  BenchOptions opt = parse_bench_args(argc, argv);
  if (std::string error; opt.ok() && !opt.help && !use_kernel_text(&opt, &error)) opt.error = error;
  if (opt.help) {
    out << bench_usage();
    return kExitOk;
  }
  if (!opt.ok()) {
    err << "tilescope bench: " << opt.error << "\n"
        << bench_synopsis() << "Run 'tilescope bench --help' for details.\n";
    return kExitBadArguments;
  }
  if (opt.list) {
    out << format_registry_listing();
    return kExitOk;
  }
  if (const int code = check_outputs(opt, err); code != kExitOk) return code;
  if (opt.roofs) return run_roofs(opt, out, err);
  const DeviceInfo& device = probe_device();
  if (!device.ok()) {
    err << "tilescope: no usable GPU: "
        << (device.unavailable_reason.empty() ? "the CUDA device probe failed" : device.unavailable_reason) << "\n";
    return run_without_gpu(opt, device, out, err);
  }
  return run_with_gpu(opt, device, out, err);
}

}  // namespace

namespace {

// A refusal not worth a line: the baseline's, or a configuration the user did not name that
// does not apply to this problem or precision by the variant's own rule (cublas:syrk on gemm
// under `--variants all`). Refusals for device limits are always reported.
bool quietly_skipped(const VariantSelection& sel, Problem problem, Precision precision) {
  if (sel.baseline) return true;
  if (sel.named) return false;
  return !variant_refusal(*sel.variant, sel.config_index, problem, precision).empty();
}

}  // namespace

// ---- Ctrl-C --------------------------------------------------------------------------------------

namespace {

// Only lock-free atomics may be touched from a signal handler.
static_assert(std::atomic<bool>::is_always_lock_free, "the SIGINT handler needs a lock-free atomic<bool>");
static_assert(std::atomic<std::atomic<bool>*>::is_always_lock_free,
              "the SIGINT handler needs a lock-free atomic pointer");

std::atomic<bool> g_sigint_requested{false};
std::atomic<std::atomic<bool>*> g_sigint_cancel{nullptr};

void on_sigint(int) {
  g_sigint_requested.store(true);
  if (std::atomic<bool>* cancel = g_sigint_cancel.load()) cancel->store(true);
}

}  // namespace

SigintScope::SigintScope(std::atomic<bool>* cancel) {
  g_sigint_requested.store(false);
  g_sigint_cancel.store(cancel);
  if (sigaction(SIGINT, nullptr, &previous_) != 0) return;
  // Started with Ctrl-C ignored (nohup, `cmd &` in a script): the caller meant it that way.
  if (!(previous_.sa_flags & SA_SIGINFO) && previous_.sa_handler == SIG_IGN) return;
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  // SA_RESTART: a write to the terminal or a wait that the signal interrupts carries on instead
  // of failing with EINTR. SA_RESETHAND: the second Ctrl-C gets the default action (stop now).
  action.sa_flags = SA_RESTART | SA_RESETHAND;
  installed_ = sigaction(SIGINT, &action, nullptr) == 0;
}

SigintScope::~SigintScope() {
  if (installed_) sigaction(SIGINT, &previous_, nullptr);
  g_sigint_cancel.store(nullptr);
}

const std::atomic<bool>& SigintScope::requested() const {
  return g_sigint_requested;
}

SweepOutcome run_sweep(std::size_t count, const std::function<std::string(std::size_t)>& describe,
                       const std::function<RunResult(std::size_t)>& run_one, const std::atomic<bool>& stop,
                       std::ostream& err) {
  SweepOutcome outcome;
  for (std::size_t i = 0; i < count; ++i) {
    if (stop.load()) {
      outcome.interrupted = true;
      break;
    }
    err << "[" << i + 1 << "/" << count << "] " << describe(i) << " ... " << std::flush;
    RunResult r = run_one(i);
    if (stop.load() && !r.ok()) {
      // Cut short ("cancelled"), or failed while being stopped: either way not a result.
      err << "interrupted\n";
      outcome.interrupted = true;
      break;
    }
    err << progress_outcome(r) << "\n";
    outcome.rows.push_back(std::move(r));
  }
  return outcome;
}

// ---- the plan ------------------------------------------------------------------------------------

namespace {

// Whether a split runs a selection's kernel on this problem: its problems, then its own refusal
// (said once in `refused` when the user named the kernel and the split does not take it; the
// library's own split, which takes cuBLAS alone, passes the other kernels by quietly).
bool split_takes(const SplitSelection& split, Problem problem, Precision precision, const Shape& shape,
                 const VariantSelection& sel, std::vector<std::string>* refused) {
  const SplitDescriptor& s = *split.split;
  if (!supports(s, problem)) return false;
  SplitQuery q;
  q.problem = problem;
  q.precision = precision;
  q.shape = normalised(problem, shape);
  q.gpus = 1;
  q.kernel = sel.variant;
  q.kernel_config = sel.config_index;
  const std::string why = s.refuses ? s.refuses(q, split.config_index) : "";
  if (why.empty()) return true;
  if (refused && !s.own_kernel && !sel.baseline) {
    const std::string line = std::string(s.id) + ":" + s.configs[split.config_index].name + " with " + sel.variant->id +
                             ":" + config_at(*sel.variant, sel.config_index).name + " " + to_string(problem) + " " +
                             to_string(precision) + ": " + why;
    if (std::find(refused->begin(), refused->end(), line) == refused->end()) refused->push_back(line);
  }
  return false;
}

}  // namespace

BenchPlan plan_bench(const BenchOptions& opt, const DeviceLimits& limits) {
  BenchPlan plan;
  // The configurations each problem and input type can run (refusals said once, not per round).
  struct UsableSelections {
    Problem problem;
    Precision precision;
    std::vector<const VariantSelection*> selections;
  };
  std::vector<UsableSelections> usable_by_case;
  for (Problem problem : opt.problems) {
    for (Precision precision : opt.precisions) {
      std::vector<const VariantSelection*> usable;
      std::set<const VariantDescriptor*> told;  // variants refused as a whole for this input type
      for (const VariantSelection& sel : opt.selections) {
        const std::string why = unsupported_reason(*sel.variant, sel.config_index, problem, precision, limits);
        if (why.empty()) {
          usable.push_back(&sel);
        } else if (!quietly_skipped(sel, problem, precision)) {
          plan.refused.push_back(std::string(sel.variant->id) + ":" + config_at(*sel.variant, sel.config_index).name +
                                 " " + to_string(problem) + " " + to_string(precision) + ": " + why);
        } else if (opt.variants_given && !sel.baseline && !supports(*sel.variant, precision) &&
                   told.insert(sel.variant).second) {
          // A variant the user chose that does not compute this input type: said once, with why.
          plan.refused.push_back(std::string(sel.variant->id) + ":* " + to_string(problem) + " " +
                                 to_string(precision) + ": " + why);
        }
      }
      usable_by_case.push_back({problem, precision, usable});
    }
  }
  // Round by round, each shape's configurations side by side; every other round in the reverse
  // order, so that a clock that drifts within a round (a board heating up) favours none of them.
  for (int round = 1; round <= opt.rounds; ++round) {
    for (const UsableSelections& c : usable_by_case) {
      const Problem problem = c.problem;
      const Precision precision = c.precision;
      std::vector<const VariantSelection*> order = c.selections;
      if (round % 2 == 0) std::reverse(order.begin(), order.end());
      for (const Shape& shape : opt.shapes_for(problem)) {
        for (const VariantSelection* sel : order) {
          PlannedRun run;
          run.round = round;
          run.selection = sel;
          run.request.variant_id = sel->variant->id;
          run.request.config_index = sel->config_index;
          run.request.problem = problem;
          run.request.precision = precision;
          run.request.shape = shape;
          run.request.repetitions = opt.repetitions;
          run.request.warmup = opt.warmup;
          run.request.verify = opt.verify;
          run.request.seed = opt.seed;
          plan.runs.push_back(run);
          // Then the same product split across GPUs, each split and count after the kernel alone.
          for (const SplitSelection& split : opt.splits) {
            if (!split_takes(split, problem, precision, shape, *sel, round == 1 ? &plan.refused : nullptr)) continue;
            for (int gpus : opt.gpus) {
              PlannedRun split_run = run;
              split_run.request.split = split.split->id;
              split_run.request.split_config = split.config_index;
              split_run.request.gpus = gpus;
              plan.runs.push_back(split_run);
            }
          }
        }
      }
    }
  }
  return plan;
}

bool BenchPlan::has_user_runs() const {
  return std::any_of(runs.begin(), runs.end(), [](const PlannedRun& r) { return !r.selection->baseline; });
}

const char* tilescope_version() {
  return kTilescopeVersion;
}

int run_bench(int argc, char** argv, std::ostream& out, std::ostream& err) {
  try {
    return run_bench_unguarded(argc, argv, out, err);
  } catch (const std::exception& e) {
    err << "tilescope bench: internal error: " << e.what() << "\n";
  } catch (...) {
    err << "tilescope bench: internal error\n";
  }
  return kExitRunFailed;
}

}  // namespace tilescope
