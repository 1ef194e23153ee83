#include "variant.h"

#include <algorithm>
#include <string>

namespace tilescope {

const char* to_string(Role r) {
  switch (r) {
    case Role::Baseline:
      return "baseline";
    case Role::Kernel:
      return "kernel";
    case Role::History:
      return "history";
    case Role::Extra:
      return "extra";
  }
  return "?";
}

std::string config_index_error(const VariantDescriptor& v, int config_index) {
  if (config_index >= 0 && config_index < static_cast<int>(v.configs.size())) return "";
  return std::string(v.id) + " has no configuration #" + std::to_string(config_index);
}

bool is_baseline(const VariantDescriptor& v, int config_index) {
  return v.role == Role::Baseline && config_index_error(v, config_index).empty() && !v.configs[config_index].opt_in;
}

bool runs_by_default(const VariantDescriptor& v, int config_index) {
  return v.role != Role::Extra && config_index_error(v, config_index).empty() && !v.configs[config_index].opt_in;
}

bool needs_cuda(const VariantDescriptor& v) {
  return v.backend == Backend::Cuda || v.backend == Backend::Cublas;
}

bool supports(const VariantDescriptor& v, Problem p) {
  return std::find(v.problems.begin(), v.problems.end(), p) != v.problems.end();
}

bool supports(const VariantDescriptor& v, Precision p) {
  return std::find(v.precisions.begin(), v.precisions.end(), p) != v.precisions.end();
}

namespace {

template <typename T>
std::string joined(const std::vector<T>& items) {
  std::string out;
  for (const T& item : items) out += (out.empty() ? "" : ", ") + std::string(to_string(item));
  return out;
}

std::string with_note(std::string text, const char* note) {
  return note && *note ? text + ": " + note : text;
}

std::string architecture_refusal(const VariantDescriptor& v, const DeviceLimits& limits) {
  if (v.min_compute_capability > 0 && limits.compute_capability > 0 &&
      limits.compute_capability < v.min_compute_capability)
    return with_note(std::string(v.id) + " needs compute capability " + std::to_string(v.min_compute_capability / 10) +
                         "." + std::to_string(v.min_compute_capability % 10) + " or newer; this GPU has " +
                         std::to_string(limits.compute_capability / 10) + "." +
                         std::to_string(limits.compute_capability % 10),
                     v.architecture_note);
  return "";
}

}  // namespace

std::string variant_refusal(const VariantDescriptor& v, int config_index, Problem problem, Precision precision) {
  if (std::string why = config_index_error(v, config_index); !why.empty()) return why;
  if (!supports(v, problem)) return std::string(v.id) + " computes " + joined(v.problems) + " only";
  if (!supports(v, precision))
    return with_note(std::string(v.id) + " runs " + joined(v.precisions) + " only", v.precision_note);
  return v.refuses ? v.refuses(problem, precision, v.configs[config_index]) : "";
}

std::string unsupported_reason(const VariantDescriptor& v, int config_index, Problem problem, Precision precision,
                               const DeviceLimits& limits) {
  if (std::string why = variant_refusal(v, config_index, problem, precision); !why.empty()) return why;
  if (std::string why = architecture_refusal(v, limits); !why.empty()) return why;
  const TileConfig& cfg = v.configs[config_index];
  if (cfg.threads() > limits.max_threads_per_block)
    return std::to_string(cfg.threads()) + " threads per block, the device allows " +
           std::to_string(limits.max_threads_per_block);
  if (v.shared_bytes) {
    const std::size_t need = v.shared_bytes(cfg, precision);
    if (need > limits.shared_per_block_optin)
      return std::to_string(need) + " bytes of shared memory per block, the device allows " +
             std::to_string(limits.shared_per_block_optin);
  }
  return "";
}

}  // namespace tilescope
