#include "app/export/results_json.h"

#include <nlohmann/json.hpp>

#include "app/export/results_csv.h"

namespace tilescope {
namespace {

// Key order as written here, so that the file reads like the table.
using Json = nlohmann::ordered_json;

Json device_json(const DeviceInfo& d) {
  Json limits = {
      {"max_threads_per_block", d.limits.max_threads_per_block},
      {"shared_per_block_default", d.limits.shared_per_block_default},
      {"shared_per_block_optin", d.limits.shared_per_block_optin},
      {"regs_per_block", d.limits.regs_per_block},
      {"max_regs_per_thread", d.limits.max_regs_per_thread},
  };
  return Json{
      {"availability", to_string(d.availability)},
      {"unavailable_reason", d.unavailable_reason},
      {"device", d.device},
      {"name", d.name},
      {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
      {"cc_major", d.cc_major},
      {"cc_minor", d.cc_minor},
      {"sm_count", d.sm_count},
      {"sm_clock_khz", d.sm_clock_khz},
      {"memory_clock_khz", d.memory_clock_khz},
      {"memory_bus_bits", d.memory_bus_bits},
      {"global_memory_bytes", d.global_memory_bytes},
      {"l2_bytes", d.l2_bytes},
      {"max_threads_per_sm", d.max_threads_per_sm},
      {"limits", limits},
      {"driver_version", d.driver_version},
      {"driver_version_string", d.driver_version > 0 ? version_string(d.driver_version) : ""},
      {"runtime_version", d.runtime_version},
      {"runtime_version_string", d.runtime_version > 0 ? version_string(d.runtime_version) : ""},
      {"cublas_version", d.cublas_version},
      {"peak_fp32_gflops", d.peak_fp32_gflops},
      {"peak_fp64_gflops", d.peak_fp64_gflops},
  };
}

// Each piece of a split run: its GPU, stream, what it did, and when (ms from the run's start).
Json spans_json(const std::vector<RunSpan>& spans) {
  Json out = Json::array();
  for (const RunSpan& s : spans)
    out.push_back(Json{{"gpu", s.gpu},
                       {"stream", to_string(s.stream)},
                       {"what", s.what},
                       {"start_ms", s.start_ms},
                       {"end_ms", s.end_ms}});
  return out;
}

Json result_json(const RunResult& r) {
  return Json{
      {"variant_id", r.variant_id},
      {"variant_label", r.variant_label},
      {"config_name", r.config_name},
      {"backend", r.backend},
      {"math", r.math},
      {"problem", to_string(r.problem)},
      {"precision", to_string(r.precision)},
      {"c_type", to_string(r.c_type)},
      {"M", r.shape.M},
      {"N", r.shape.N},
      {"K", r.shape.K},
      {"repetitions", r.repetitions},
      {"warmup", r.warmup},
      {"seed", r.seed},
      {"timestamp", r.timestamp},
      {"error", r.error},
      {"first_ms", r.first_ms},
      {"first_was_cold", r.first_was_cold},
      {"median_ms", r.median_ms},
      {"min_ms", r.min_ms},
      {"max_ms", r.max_ms},
      {"gflops", r.gflops},
      {"pct_of_peak", r.pct_of_peak},
      {"pct_of_cublas", r.pct_of_cublas},
      {"verified", r.verified},
      {"passed", r.passed},
      {"rel_error", r.rel_error},
      {"tolerance", r.tolerance},
      {"unwritten", r.unwritten},
      {"reference", r.reference},
      {"registers_per_thread", r.registers_per_thread},
      {"static_shared_bytes", r.static_shared_bytes},
      {"dynamic_shared_bytes", r.dynamic_shared_bytes},
      {"threads_per_block", r.threads_per_block},
      {"active_blocks_per_sm", r.active_blocks_per_sm},
      {"occupancy", r.occupancy},
      {"input_sets", r.input_sets},
      {"timer", r.timer},
      {"passes", r.passes},
      {"fetches_per_fma", r.fetches_per_fma},
      {"device_name", r.device_name},
      {"sm_clock_mhz", r.sm_clock_mhz},
      {"run_clock_mhz", r.run_clock_mhz},
      {"driver_version", r.driver_version},
      {"runtime_version", r.runtime_version},
      {"cublas_version", r.cublas_version},
      {"wrong_row", r.wrong_row},
      {"wrong_col", r.wrong_col},
      {"wrong_value", r.wrong_value},
      {"wrong_expected", r.wrong_expected},
      {"load_sectors_per_request", r.load_sectors_per_request},
      {"store_sectors_per_request", r.store_sectors_per_request},
      {"shared_conflicts_per_instruction", r.shared_conflicts_per_instruction},
      {"round", r.round},
      // bench --profile's figures: null where there is none (NaN).
      {"fma_pipe_pct", r.profile.fma_pipe_pct},
      {"fp64_pipe_pct", r.profile.fp64_pipe_pct},
      {"tensor_pipe_pct", r.profile.tensor_pipe_pct},
      {"issue_active_pct", r.profile.issue_active_pct},
      {"cycles_per_issue", r.profile.cycles_per_issue},
      {"ffma_share_pct", r.profile.ffma_share_pct},
      // A product split across GPUs: the split, its GPUs, and its timeline (the last timed run).
      {"split", r.split},
      {"split_config", r.split_config},
      {"gpus", r.gpus},
      {"gpu_names", r.gpu_names},
      {"speedup_over_one_gpu", r.speedup_over_one_gpu},
      {"predicted_ms", r.predicted_ms},
      {"link_latency_us", r.link_latency_us},
      {"link_broadcast_gbs", r.link_broadcast_gbs},
      {"link_reduce_gbs", r.link_reduce_gbs},
      {"spans", spans_json(r.spans)},
  };
}

// A JSON value as the CSV writes the field: strings as they are, numbers and flags as text, null
// (a NaN) as the empty field.
std::string field_text(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return v.dump();
}

bool span_from_json(const Json& j, RunSpan* s) {
  if (!j.is_object() || !j.contains("gpu") || !j.contains("stream") || !j.contains("start_ms") || !j.contains("end_ms"))
    return false;
  if (!j["stream"].is_string() || !parse_span_stream(j["stream"].get<std::string>(), &s->stream)) return false;
  if (!j["gpu"].is_number_integer() || !j["start_ms"].is_number() || !j["end_ms"].is_number()) return false;
  s->gpu = j["gpu"].get<int>();
  s->start_ms = j["start_ms"].get<double>();
  s->end_ms = j["end_ms"].get<double>();
  s->what = j.value("what", "");
  return true;
}

}  // namespace

bool results_from_json(const std::string& text, std::vector<RunResult>* out, std::string* error) {
  const Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object() || doc.value("tool", "") != "tilescope" || !doc.contains("results") ||
      !doc["results"].is_array()) {
    *error = "not a tilescope results file (JSON with \"tool\": \"tilescope\" and \"results\")";
    return false;
  }
  std::vector<RunResult> rows;
  for (std::size_t i = 0; i < doc["results"].size(); ++i) {
    const Json& j = doc["results"][i];
    if (!j.is_object()) {
      *error = "result " + std::to_string(i + 1) + " is not an object";
      return false;
    }
    RunResult r;
    for (const std::string& column : results_csv_columns()) {
      if (!j.contains(column)) continue;
      if (!set_result_field(column, field_text(j[column]), r)) {
        *error = "result " + std::to_string(i + 1) + ": \"" + column + "\" has a bad value " + j[column].dump();
        return false;
      }
    }
    if (j.contains("spans") && j["spans"].is_array())
      for (const Json& s : j["spans"]) {
        RunSpan span;
        if (!span_from_json(s, &span)) {
          *error = "result " + std::to_string(i + 1) + ": a span lacks its gpu, stream, start_ms or end_ms";
          return false;
        }
        r.spans.push_back(span);
      }
    rows.push_back(std::move(r));
  }
  *out = std::move(rows);
  return true;
}

std::string results_to_json(const std::vector<RunResult>& rows, const DeviceInfo& device,
                            const std::string& tool_version) {
  Json results = Json::array();
  for (const RunResult& r : rows) results.push_back(result_json(r));
  const Json doc = {
      {"tool", "tilescope"},
      {"version", tool_version},
      {"device", device_json(device)},
      {"results", std::move(results)},
  };
  // Replace rather than throw on invalid UTF-8 (an error message from a driver, a device name).
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace tilescope
