// Timing the CPU double reference: what bench and the window show when there is no usable GPU
// (the product still does something real), and the timestamp every result carries.
#include <chrono>
#include <ctime>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/measure/measure.h"
#include "kernels/measure/reference.h"

namespace tilescope {

std::string utc_timestamp_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

OutputType request_output_type(const RunRequest& r) {
  const VariantDescriptor* v = find_variant(r.variant_id);
  const bool narrow =
      v && config_index_error(*v, r.config_index).empty() && config_at(*v, r.config_index).c_in_input_type;
  return output_type(r.precision, narrow);
}

RunResult requested_row(const RunRequest& req) {
  RunResult r;
  r.variant_id = req.variant_id;
  r.problem = req.problem;
  r.precision = req.precision;
  r.c_type = request_output_type(req);
  r.shape = normalised(req.problem, req.shape);
  r.repetitions = req.repetitions;
  r.warmup = req.warmup;
  r.seed = req.seed;
  r.split = req.split;
  r.gpus = req.gpus;
  r.timestamp = utc_timestamp_now();
  return r;
}

std::string variant_words(const std::string& id) {
  if (id == kCpuReferenceId) return "the CPU reference";
  const VariantDescriptor* v = find_variant(id);
  return v ? v->label : id;
}

RunResult cpu_reference_row(const RunRequest& req, bool first_in_process) {
  RunResult r = requested_row(req);
  r.variant_id = kCpuReferenceId;
  r.variant_label = "CPU reference (double)";
  r.config_name = "fp64";
  r.backend = "cpu";
  r.timer = "cpu_wall_clock";
  r.math = "FP64 on the host: the reference that GPU results are checked against";
  r.precision = Precision::F64;
  r.device_name = "host CPU (no usable GPU)";
  r.first_was_cold = first_in_process;
  return r;
}

RunResult measure_cpu_reference(const RunRequest& req, bool first_in_process, const std::atomic<bool>& stop) {
  RunResult r = cpu_reference_row(req, first_in_process);
  const Shape& shape = r.shape;
  if (shape.M < 1 || shape.N < 1 || shape.K < 1) {
    r.error = "sizes must be at least 1";
    return r;
  }
  try {
    std::vector<double> a(static_cast<std::size_t>(a_elements(req.problem, shape)));
    std::vector<double> b(static_cast<std::size_t>(b_elements(req.problem, shape)));
    std::vector<double> c(static_cast<std::size_t>(c_elements(req.problem, shape)));
    fill_inputs_f64(req.seed, 0, static_cast<std::int64_t>(a.size()), a.data());
    fill_inputs_f64(req.seed, 1, static_cast<std::int64_t>(b.size()), b.data());
    const double* b_ptr = req.problem == Problem::Gemm ? b.data() : a.data();

    using Clock = std::chrono::steady_clock;
    auto timed = [&] {
      const auto t0 = Clock::now();
      reference_gemm_f64(req.problem, shape, a.data(), b_ptr, c.data());
      return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    };
    r.first_ms = timed();
    for (int i = 0; i < req.warmup && !stop.load(); ++i) timed();
    std::vector<double> times;
    for (int i = 0; i < req.repetitions && !stop.load(); ++i) times.push_back(timed());
    if (times.empty() || times.size() < static_cast<std::size_t>(req.repetitions)) {
      r.error = "cancelled";
      return r;
    }
    record_timings(r, times, 0);  // no % of peak: the host's is not known
  } catch (const std::exception& e) {
    r.error = std::string("CPU reference failed: ") + e.what();
  }
  return r;
}

}  // namespace tilescope
