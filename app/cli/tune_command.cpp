#include "app/cli/tune_command.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "app/cli/bench_command.h"
#include "app/cli/tune_args.h"
#include "app/export/atomic_file.h"
#include "app/export/count_text.h"
#include "app/export/printable_text.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/device_info.h"
#include "kernels/jit/jit_kernels.h"
#include "kernels/jit/kernel_cache.h"

namespace tilescope {
namespace {

std::string duration_text(double s) {
  char text[32];
  if (s < 60)
    std::snprintf(text, sizeof text, "%.0f s", s);
  else
    std::snprintf(text, sizeof text, "%dm %02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  return text;
}

// The first compiler message of a failed compile, or its error.
std::string compile_failure(const CompiledProgram& p) {
  for (const SourceDiagnostic& d : p.diagnostics)
    if (d.severity == "error") return "does not compile: " + d.file + ":" + std::to_string(d.line) + ": " + d.message;
  return "does not compile: " + p.error;
}

bool read_text(const std::string& path, std::string* text, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  if (!in) {
    *error = "cannot read it";
    return false;
  }
  *text = s.str();
  return true;
}

int default_jobs() {
  return std::max(1u, std::thread::hardware_concurrency());
}

// The refused points, one line each.
void list_refused(const TuneTable& t, std::ostream& err) {
  std::size_t refused = 0;
  for (const TunePoint& p : t.points) {
    if (p.status != TuneStatus::Refused) continue;
    err << "refused: " << tile_values_text(p.values) << ": " << printable_text(p.reason) << "\n";
    ++refused;
  }
  err << refused << " of " << count_text(t.points.size(), "point", "points") << " refused\n";
}

TuneTable plan_table(const TuneOptions& o, const DeviceLimits* limits) {
  TuneTable t;
  t.variant = o.variant->id;
  for (const TuneParam& p : o.params) t.keys.push_back(p.key);
  t.problem = o.problem;
  t.precision = o.precision;
  t.shape = normalised(o.problem, Shape{o.size, o.size, o.size});
  t.points = check_tune_points(*o.variant, tune_grid(o.params), o.problem, o.precision, limits);
  return t;
}

// The summary on `out`: the best points, cuBLAS, the counts.
void print_summary(const TuneTable& t, std::ostream& out) {
  std::vector<const TunePoint*> ok;
  std::size_t failed = 0, errors = 0, refused = 0;
  for (const TunePoint& p : t.points) {
    if (p.status == TuneStatus::Ok) ok.push_back(&p);
    failed += p.status == TuneStatus::Failed;
    errors += p.status == TuneStatus::Error;
    refused += p.status == TuneStatus::Refused;
  }
  std::sort(ok.begin(), ok.end(), [](const TunePoint* a, const TunePoint* b) { return a->gflops > b->gflops; });
  char line[256];
  out << t.variant << " " << to_string(t.problem) << " " << to_string(t.precision) << " " << shape_text(t.shape)
      << " on " << t.device << "\n";
  if (t.baseline.status == TuneStatus::Ok) {
    std::snprintf(line, sizeof line, "  %-44s %10.1f GFLOP/s  %8.3f ms\n", t.baseline_variant.c_str(),
                  t.baseline.gflops, t.baseline.median_ms);
    out << line;
  }
  for (std::size_t i = 0; i < std::min<std::size_t>(ok.size(), 10); ++i) {
    const TunePoint& p = *ok[i];
    std::snprintf(line, sizeof line, "  %-44s %10.1f GFLOP/s  %8.3f ms  %5.1f%% of cuBLAS  %3d regs\n",
                  tile_values_text(p.values).c_str(), p.gflops, p.median_ms, p.pct_of_cublas, p.registers);
    out << line;
  }
  out << ok.size() << " ok, " << failed << " failed, " << errors << " in error, " << refused << " refused\n";
}

int write_outputs(const TuneOptions& o, const TuneTable& t, const TunePngWriter& png, std::ostream& err) {
  int code = kTuneOk;
  std::string error;
  if (!o.csv_path.empty()) {
    TuneTable finished = t;  // what finished: the points an interrupt left pending are not results
    finished.points.erase(std::remove_if(finished.points.begin(), finished.points.end(),
                                         [](const TunePoint& p) { return p.status == TuneStatus::Pending; }),
                          finished.points.end());
    if (write_file_atomically(o.csv_path, tune_to_csv(finished), &error))
      err << "wrote " << printable_text(o.csv_path) << " (" << count_text(finished.points.size(), "point", "points")
          << ")\n";
    else
      err << "tilescope tune: " << printable_text(error) << "\n", code = kTuneOutputFailed;
  }
  if (!o.png_path.empty()) {
    if (png(o.png_path, o.png_width, o.png_height, t, o.x_key, o.y_key, &error))
      err << "wrote " << printable_text(o.png_path) << "\n";
    else
      err << "tilescope tune: " << printable_text(error) << "\n", code = kTuneOutputFailed;
  }
  return code;
}

int check_outputs(const TuneOptions& o, const TunePngWriter& png, std::ostream& err) {
  if (!o.png_path.empty() && !png) {
    err << "tilescope tune: --png needs the window build (tilescope built with its GUI); use --csv and draw it there "
           "with `tilescope tune --from-csv FILE --png OUT.png`\n";
    return kTuneOutputFailed;
  }
  for (const std::string* path : {&o.csv_path, &o.png_path}) {
    std::string error;
    if (!path->empty() && !check_writable_path(*path, &error)) {
      err << "tilescope tune: " << printable_text(error) << "\n";
      return kTuneOutputFailed;
    }
  }
  return kTuneOk;
}

int run_from_csv(const TuneOptions& o, const TunePngWriter& png, std::ostream& err) {
  std::string text, error;
  TuneTable t;
  if (!read_text(o.from_csv, &text, &error) || !tune_from_csv(text, &t, &error)) {
    err << "tilescope tune: " << printable_text(o.from_csv) << ": " << printable_text(error) << "\n";
    return kTuneRunFailed;
  }
  std::vector<TuneParam> params;
  for (const std::string& key : t.keys) {
    TuneParam p{key, {}};
    for (const TunePoint& point : t.points) {
      const int v = tile_value(point.values, key, 0);
      if (std::find(p.values.begin(), p.values.end(), v) == p.values.end()) p.values.push_back(v);
    }
    params.push_back(p);
  }
  TuneOptions drawn = o;
  if (drawn.x_key.empty() && drawn.y_key.empty()) default_tune_axes(params, &drawn.x_key, &drawn.y_key);
  if (const std::string e = tune_axes_error(params, drawn.x_key, drawn.y_key); !e.empty()) {
    err << "tilescope tune: " << e << "\n";
    return kTuneBadArguments;
  }
  if (const int code = check_outputs(drawn, png, err); code != kTuneOk) return code;
  return write_outputs(drawn, t, png, err);
}

int run_without_gpu(const TuneOptions& o, const DeviceInfo& device, const TunePngWriter& png, std::ostream& err) {
  err << "tilescope: no usable GPU: "
      << (device.unavailable_reason.empty() ? "the CUDA device probe failed" : device.unavailable_reason) << "\n"
      << "Nothing is timed. What the variant's own rules refuse (the device's limits are not checked):\n";
  TuneTable t = plan_table(o, nullptr);
  list_refused(t, err);
  (void)png;
  return kTuneNoGpu;
}

// The baseline, then every accepted point, as run_sweep's runs.
int run_with_gpu(const TuneOptions& o, const DeviceInfo& device, const TunePngWriter& png, std::ostream& out,
                 std::ostream& err) {
  TuneTable t = plan_table(o, &device.limits);
  t.device = device.name;
  list_refused(t, err);
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < t.points.size(); ++i)
    if (t.points[i].status == TuneStatus::Pending) todo.push_back(i);
  if (todo.empty()) {
    err << "tilescope tune: nothing to run: every point was refused\n";
    const int written = write_outputs(o, t, png, err);
    return std::max<int>(kTuneRunFailed, written);
  }

  std::unique_ptr<Measurer> measurer;
  try {
    measurer = std::make_unique<Measurer>();
  } catch (const std::exception& e) {
    err << "tilescope: no usable GPU: cannot set up the GPU: " << e.what() << "\n";
    return kTuneNoGpu;
  }
  const VariantDescriptor* base = nullptr;
  int base_config = 0;
  const bool has_base = tune_baseline(o.problem, o.precision, tune_output_type(t), device.limits, &base, &base_config);
  if (has_base) {
    t.baseline_variant = base->id;
    t.baseline_config = config_at(*base, base_config).name;
  }

  SweepOutcome sweep;
  {
    const SigintScope sigint(&measurer->cancel_flag());
    const int jobs = o.jobs > 0 ? o.jobs : default_jobs();
    err << "compiling " << count_text(todo.size(), "point", "points") << " on " << count_text(jobs, "thread", "threads")
        << " ...\n";
    const auto compile_start = std::chrono::steady_clock::now();
    precompile_tune_points(*o.variant, &t, jobs, sigint.requested(), [&](std::size_t done, std::size_t total) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - compile_start).count();
      err << "\rcompiled " << done << "/" << total << " (" << duration_text(s / done * (total - done)) << " left)   "
          << std::flush;
    });
    err << "\n";
    todo.erase(std::remove_if(todo.begin(), todo.end(),
                              [&](std::size_t i) { return t.points[i].status != TuneStatus::Pending; }),
               todo.end());

    const std::size_t first = has_base ? 1 : 0, total = todo.size() + first;
    const auto start = std::chrono::steady_clock::now();
    auto request = [&](std::size_t i) {
      RunRequest r;
      r.variant_id = i < first ? base->id : o.variant->id;
      r.config_index = i < first ? base_config : t.points[todo[i - first]].config_index;
      r.problem = o.problem;
      r.precision = o.precision;
      r.shape = t.shape;
      r.repetitions = o.repetitions;
      r.warmup = o.warmup;
      r.verify = true;  // a wrong tile is a FAIL, never a fast one
      return r;
    };
    auto describe = [&](std::size_t i) {
      const std::string what =
          i < first ? t.baseline_variant + " " + t.baseline_config : tile_values_text(t.points[todo[i - first]].values);
      if (i == 0) return what;
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return what + " (" + duration_text(s / static_cast<double>(i) * static_cast<double>(total - i)) + " left)";
    };
    auto run_one = [&](std::size_t i) {
      RunResult r = measurer->run(request(i));
      record_tune_result(r, i < first ? &t.baseline : &t.points[todo[i - first]]);
      return r;
    };
    sweep = run_sweep(total, describe, run_one, sigint.requested(), err);
  }
  // A point cut short by the interrupt is not a result.
  for (TunePoint& p : t.points)
    if (p.status == TuneStatus::Error && sweep.interrupted && p.reason == "cancelled") p.status = TuneStatus::Pending;
  fill_tune_pct(&t);
  print_summary(t, out);
  const bool any_failed = std::any_of(t.points.begin(), t.points.end(), [](const TunePoint& p) {
    return p.status == TuneStatus::Failed || p.status == TuneStatus::Error;
  });
  const int code = std::max<int>(any_failed ? kTuneRunFailed : kTuneOk, write_outputs(o, t, png, err));
  if (!sweep.interrupted) return code;
  err << "tilescope: interrupted; " << sweep.rows.size() << " of " << todo.size() + (has_base ? 1 : 0)
      << " runs done\n";
  return kTuneInterrupted;
}

int run_unguarded(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const TunePngWriter& png) {
  const TuneOptions o = parse_tune_args(argc, argv);
  if (o.help) {
    out << tune_usage();
    return kTuneOk;
  }
  if (!o.ok()) {
    err << "tilescope tune: " << o.error << "\nRun 'tilescope tune --help' for details.\n";
    return kTuneBadArguments;
  }
  if (!o.from_csv.empty()) return run_from_csv(o, png, err);
  if (const int code = check_outputs(o, png, err); code != kTuneOk) return code;
  const DeviceInfo& device = probe_device();
  return device.ok() ? run_with_gpu(o, device, png, out, err) : run_without_gpu(o, device, png, err);
}

}  // namespace

void precompile_tune_points(const VariantDescriptor& v, TuneTable* table, int jobs, const std::atomic<bool>& stop,
                            const std::function<void(std::size_t done, std::size_t total)>& progress) {
  std::vector<TunePoint*> todo;
  for (TunePoint& p : table->points)
    if (p.status == TuneStatus::Pending) todo.push_back(&p);
  // The timed launch's own compiles (compile_for_launch), so that each launch then loads from the cache.
  std::mutex mutex;
  std::size_t next = 0, done = 0;
  auto work = [&] {
    for (;;) {
      TunePoint* p = nullptr;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (next == todo.size() || stop.load()) return;
        p = todo[next++];
      }
      const TileConfig& cfg = config_at(v, p->config_index);
      double seconds = 0;
      std::string failure;
      for (const std::string& name : v.kernel_names(cfg, table->precision, table->problem)) {
        const CompiledProgram compiled = compile_for_launch(v, name);
        seconds += compiled.elapsed_seconds;
        if (!compiled.compiled) {
          failure = compile_failure(compiled);
          break;
        }
      }
      std::lock_guard<std::mutex> lock(mutex);
      p->compile_seconds = seconds;
      if (!failure.empty()) p->status = TuneStatus::Error, p->reason = failure;
      if (progress) progress(++done, todo.size());
    }
  };
  std::vector<std::thread> threads;
  for (int i = 1; i < std::min<int>(jobs, static_cast<int>(todo.size())); ++i) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
}

int run_tune_command(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
                     const TunePngWriter& png) {
  try {
    return run_unguarded(argc, argv, out, err, png);
  } catch (const std::exception& e) {
    err << "tilescope tune: internal error: " << e.what() << "\n";
  } catch (...) {
    err << "tilescope tune: internal error\n";
  }
  return kTuneRunFailed;
}

}  // namespace tilescope
