#include "app/ui/source/kernel_edit_job.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/cli/bench_command.h"
#include "app/cli/compile_command.h"
#include "app/cli/wrong_element.h"
#include "app/export/atomic_file.h"
#include "app/export/results_csv.h"
#include "kernels/core/typed_configs.h"
#include "kernels/jit/edited_texts.h"

namespace tilescope {

namespace fs = std::filesystem;

std::vector<std::string> edit_worker_arguments(const std::string& program, const EditRequest& r,
                                               const std::string& text_path, const std::string& csv_path) {
  const std::string id = r.variant->id;
  const std::string edit = id + "=" + text_path;
  std::vector<std::string> args = {program, r.action == EditAction::Check ? "compile" : "bench"};
  args.insert(args.end(), {r.action == EditAction::Check ? "--variant" : "--variants", id + ":" + r.config_name});
  if (r.edited) args.insert(args.end(), {"--kernel-text", edit});
  args.insert(args.end(), {"--problem", to_string(r.problem), "--precision", to_string(r.precision)});
  if (r.action == EditAction::Check) {
    args.insert(args.end(), {"--arch", r.architecture});
    return args;
  }
  // AᵀA takes N and K alone (M is N).
  if (r.problem == Problem::Gemm) args.insert(args.end(), {"--m", std::to_string(r.shape.M)});
  args.insert(args.end(), {"--n", std::to_string(r.shape.N), "--k", std::to_string(r.shape.K), "--reps",
                           std::to_string(r.repetitions), "--warmup", std::to_string(r.warmup), "--no-baseline",
                           "--csv", csv_path});
  return args;
}

std::vector<EditDiagnostic> edit_diagnostics(const std::string& output, const std::string& kernel_text) {
  std::vector<EditDiagnostic> out;
  std::istringstream in(output);
  std::string line;
  const std::string prefix = kernel_text + ":";
  while (std::getline(in, line)) {
    if (line.compare(0, prefix.size(), prefix) != 0) continue;
    std::size_t at = prefix.size();
    int number = 0;
    while (at < line.size() && line[at] >= '0' && line[at] <= '9') number = number * 10 + (line[at++] - '0');
    if (number < 1 || line.compare(at, 2, ": ") != 0) continue;
    const std::size_t colon = line.find(": ", at + 2);
    if (colon == std::string::npos) continue;
    out.push_back({number - 1, line.substr(at + 2, colon - at - 2), line.substr(colon + 2)});
  }
  return out;
}

bool KernelEditJob::start(const EditRequest& request, std::string* error) {
  if (busy()) {
    *error = "the edited kernel is still being worked on";
    return false;
  }
  if (!request.variant || !request.variant->kernel_text) {
    *error = "no kernel text to edit";
    return false;
  }
  const std::string& dir = folder_.path(error);
  if (dir.empty()) return false;
  const std::string text_path = dir + "/" + fs::path(request.variant->kernel_text).filename().string();
  const std::string csv_path = dir + "/run.csv";
  std::error_code ec;
  fs::remove(csv_path, ec);
  if (!write_file_atomically(text_path, request.text, error)) return false;
  if (!launch(edit_worker_arguments(program_, request, text_path, csv_path), dir + "/output.txt", request.time_limit_s,
              error))
    return false;
  request_ = request;
  return true;
}

namespace {

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", s);
  return text;
}

// A Run's rows explained: passed, failed its check (and where), or failed to run (and why).
std::string run_summary(const EditRequest& request, const std::vector<RunResult>& rows) {
  const RunResult& r = rows.front();
  if (!r.ok())
    return r.error.find("did not compile") != std::string::npos
               ? "does not compile: the errors are marked at their lines"
               : "the edited kernel failed: " + r.error.substr(0, r.error.find('\n')) +
                     " (it ran in a worker process: the window and its GPU work go on)";
  char figures[160];
  std::snprintf(figures, sizeof figures, "%.1f GFLOP/s, median %.3f ms", r.gflops, r.median_ms);
  if (!r.verified || r.passed) return std::string("ran and passed its check: ") + figures;
  std::string why = "FAIL: wrong results";
  char error[96];
  std::snprintf(error, sizeof error, " (max error %.2e of the largest element, tolerance %.2e)", r.rel_error,
                r.tolerance);
  why += error;
  if (r.unwritten > 0) why += ", " + std::to_string(r.unwritten) + " elements never written";
  std::string ignored;
  const int base = config_named_or_typed(*request.variant, request.config_name, &ignored);
  if (const std::string where = base >= 0 ? wrong_element_sentence(r, *request.variant, base) : ""; !where.empty())
    why += "; " + where;
  return why;
}

}  // namespace

EditOutcome KernelEditJob::finish() {
  EditOutcome o;
  o.action = request_.action;
  o.seconds = seconds();
  o.tag = request_.edited ? edit_tag(request_.text) : "";
  std::string unused;
  const std::string& dir = folder_.path(&unused);  // made by start()
  o.output = read_text(dir + "/output.txt");
  o.diagnostics = edit_diagnostics(o.output, request_.variant->kernel_text);
  o.cancelled = cancelled();
  o.timed_out = timed_out();
  const ChildProcess::Ending& e = ending();
  if (request_.action == EditAction::Run && fs::exists(dir + "/run.csv")) {
    std::string error;
    read_results_csv_file(dir + "/run.csv", &o.rows, &error);
  }
  if (o.timed_out) {
    o.summary = "stopped after " + seconds_text(request_.time_limit_s) +
                (request_.action == EditAction::Check ? ": the compile ran too long"
                                                      : ": the kernel (or its compile) ran too long; a loop that never "
                                                        "ends?");
  } else if (o.cancelled) {
    o.summary = "cancelled";
  } else if (!o.rows.empty()) {
    o.summary = run_summary(request_, o.rows);
    o.ok = o.rows.front().ok() && (!o.rows.front().verified || o.rows.front().passed);
  } else if (e.exited && e.code == 0) {
    o.ok = true;
    o.summary = request_.action == EditAction::Check ? "compiles for " + request_.architecture : "ran";
  } else if (e.exited && request_.action == EditAction::Check && e.code == kCompileFailed) {
    o.summary = "does not compile: the errors are marked at their lines";
  } else if (e.exited && request_.action == EditAction::Run && e.code == kExitNoGpu) {
    o.summary = "no usable GPU: Check compiles the edit without one";
  } else {
    // The worker's last line that says why it stopped ("tilescope compile: ..."), for a failure
    // with no rows to explain it.
    const std::string said = last_line_starting(o.output, "tilescope");
    o.summary = "the worker ended with " + ending_text(e) + (said.empty() ? "" : ": " + said);
  }
  return o;
}

}  // namespace tilescope
