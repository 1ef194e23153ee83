#include "app/ui/mapping/memory_record_job.h"

#include <cstdio>
#include <filesystem>

#include "app/cli/memory_command.h"
#include "app/export/atomic_file.h"

namespace tilescope {

namespace fs = std::filesystem;

std::vector<std::string> memory_worker_arguments(const std::string& program, const MemoryRecordRequest& r,
                                                 const std::string& text_path, const std::string& recording_path) {
  const std::string id = r.variant->id;
  std::vector<std::string> args = {program,       "memory",
                                   "--variants",  id + ":" + r.config_name,
                                   "--problem",   to_string(r.problem),
                                   "--precision", to_string(r.precision)};
  // AᵀA takes N and K alone (M is N).
  if (r.problem == Problem::Gemm) args.insert(args.end(), {"--m", std::to_string(r.shape.M)});
  args.insert(args.end(), {"--n", std::to_string(r.shape.N), "--k", std::to_string(r.shape.K), "--record",
                           std::to_string(r.block) + "," + std::to_string(r.warp), "--recording", recording_path});
  if (!r.edited_text.empty()) args.insert(args.end(), {"--kernel-text", id + "=" + text_path});
  return args;
}

bool MemoryRecordJob::start(const MemoryRecordRequest& request, std::string* error) {
  if (busy()) {
    *error = "a warp is being recorded already";
    return false;
  }
  if (!request.variant || program_.empty()) {
    *error = !request.variant ? "no variant to record" : "no program to record with";
    return false;
  }
  const std::string& dir = folder_.path(error);
  if (dir.empty()) return false;
  const std::string text_path =
      dir + "/" +
      (request.variant->kernel_text ? fs::path(request.variant->kernel_text).filename().string()
                                    : std::string("kernel.cuh"));
  const std::string recording_path = dir + "/recording.txt";
  std::error_code ec;
  fs::remove(recording_path, ec);  // an earlier recording must not pass for this one
  if (!request.edited_text.empty() && !write_file_atomically(text_path, request.edited_text, error)) return false;
  if (!launch(memory_worker_arguments(program_, request, text_path, recording_path), dir + "/output.txt",
              request.time_limit_s, error))
    return false;
  request_ = request;
  return true;
}

namespace {}  // namespace

MemoryRecordOutcome MemoryRecordJob::finish() {
  MemoryRecordOutcome o;
  o.request = request_;
  o.seconds = seconds();
  o.cancelled = cancelled();
  o.timed_out = timed_out();
  std::string unused;
  const std::string& dir = folder_.path(&unused);  // made by start()
  o.output = read_text(dir + "/output.txt");
  const ChildProcess::Ending& e = ending();
  // The worker writes the recording when it recorded, whether or not every address is the
  // model's (exit 5: the view says where they part).
  const bool recorded = e.exited && (e.code == kMemoryOk || e.code == kMemoryRecordDiffers);
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f s", request_.time_limit_s);
  if (o.timed_out) {
    o.summary = std::string("stopped after ") + seconds +
                ": the kernel (or its compile) ran too long; a loop that never "
                "ends?";
  } else if (o.cancelled) {
    o.summary = "cancelled";
  } else if (recorded) {
    std::string error;
    o.ok = read_recorded_warps_file(dir + "/recording.txt", &o.records, &error);
    o.summary = o.ok ? "recorded" : "the worker's recording could not be read: " + error;
  } else {
    // The worker's last line that says why it stopped ("tilescope memory: ..."), without the prefix.
    const std::string prefix = "tilescope memory: ", line = last_line_starting(o.output, prefix);
    const std::string said = line.empty() ? line : line.substr(prefix.size());
    o.summary = e.exited && !said.empty()
                    ? said
                    : "the worker ended with " + ending_text(e) + (said.empty() ? "" : ": " + said);
  }
  return o;
}

}  // namespace tilescope
