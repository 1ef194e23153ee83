#include "kernels/core/variant.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels/core/typed_configs.h"

namespace tilescope {

const char* to_string(Role r) {
  static constexpr EnumName<Role> kNames[] = {
      {Role::Baseline, "baseline"}, {Role::Kernel, "kernel"}, {Role::History, "history"}, {Role::Extra, "extra"}};
  return enum_name(r, kNames, "?");
}

std::string config_index_error(const VariantDescriptor& v, int config_index) {
  if (config_index >= 0 && config_index < config_count(v)) return "";
  return std::string(v.id) + " has no configuration #" + std::to_string(config_index);
}

bool is_baseline(const VariantDescriptor& v, int config_index) {
  return v.role == Role::Baseline && config_index_error(v, config_index).empty() && !config_at(v, config_index).opt_in;
}

int narrow_c_baseline(const VariantDescriptor& v) {
  for (int i = 0; i < static_cast<int>(v.configs.size()); ++i)
    if (is_baseline(v, i) && v.configs[i].c_in_input_type) return i;
  return -1;
}

bool runs_by_default(const VariantDescriptor& v, int config_index) {
  return v.role != Role::Extra && config_index_error(v, config_index).empty() && !config_at(v, config_index).opt_in;
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

// Why v does not run `p`: its note, or for a variant without one (the kernels of ours in float
// and double) where the other input types run.
std::string precision_refusal(const VariantDescriptor& v, Precision p) {
  const std::string why = std::string(v.id) + " runs " + joined(v.precisions) + " only, not " + to_string(p);
  if (v.precision_note && *v.precision_note) return with_note(why, v.precision_note);
  std::string others;
  for (Precision q : all_precisions())
    if (!supports(v, q)) others += (others.empty() ? "" : ", ") + std::string(to_string(q));
  return why + ": " + v.label + " computes in float or double FMA; for " + others +
         " choose the cuBLAS baseline, which runs every input type (tensor-core kernels come as variants of their "
         "own)";
}

std::string cc_text(int cc) {
  return std::to_string(cc / 10) + "." + std::to_string(cc % 10);
}

std::string architecture_refusal(const VariantDescriptor& v, Precision p, const DeviceLimits& limits) {
  if (limits.compute_capability <= 0) return "";  // unknown: not checked
  if (v.min_compute_capability > 0 && limits.compute_capability < v.min_compute_capability)
    return with_note(std::string(v.id) + " needs compute capability " + cc_text(v.min_compute_capability) +
                         " or newer; this GPU has " + cc_text(limits.compute_capability),
                     v.architecture_note);
  if (v.max_compute_capability > 0 && limits.compute_capability > v.max_compute_capability)
    return with_note(
        std::string(v.id) + " runs on compute capability " + cc_text(v.min_compute_capability) +
            (v.max_compute_capability == v.min_compute_capability ? " only"
                                                                  : " to " + cc_text(v.max_compute_capability)) +
            "; this GPU has " + cc_text(limits.compute_capability),
        v.architecture_note);
  const int tensor_cc = precision_facts(p).min_tensor_core_cc;
  if (v.precisions_need_tensor_cores && tensor_cc > 0 && limits.compute_capability < tensor_cc)
    return with_note(std::string(v.id) + " computes " + to_string(p) + " on tensor cores, which take " +
                         precision_facts(p).label + " from compute capability " + cc_text(tensor_cc) +
                         "; this GPU has " + cc_text(limits.compute_capability),
                     v.architecture_note);
  const int type_cc = v.min_compute_capability_for ? v.min_compute_capability_for(p) : 0;
  if (type_cc > 0 && limits.compute_capability < type_cc)
    return with_note(std::string(v.id) + " computes " + to_string(p) + " with an instruction of compute capability " +
                         cc_text(type_cc) + " or newer; this GPU has " + cc_text(limits.compute_capability),
                     v.architecture_note);
  return "";
}

}  // namespace

std::string variant_refusal(const VariantDescriptor& v, int config_index, Problem problem, Precision precision) {
  if (std::string why = config_index_error(v, config_index); !why.empty()) return why;
  if (!supports(v, problem)) return std::string(v.id) + " computes " + joined(v.problems) + " only";
  if (!supports(v, precision)) return precision_refusal(v, precision);
  return v.refuses ? v.refuses(problem, precision, config_at(v, config_index)) : "";
}

std::string unsupported_reason(const VariantDescriptor& v, int config_index, Problem problem, Precision precision,
                               const DeviceLimits& limits) {
  if (std::string why = variant_refusal(v, config_index, problem, precision); !why.empty()) return why;
  if (std::string why = architecture_refusal(v, precision, limits); !why.empty()) return why;
  const TileConfig& cfg = config_at(v, config_index);
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

int config_named(const std::vector<TileConfig>& configs, const std::string& name) {
  for (std::size_t i = 0; i < configs.size(); ++i)
    if (configs[i].name == name) return static_cast<int>(i);
  throw std::logic_error("no configuration is named " + name);
}

}  // namespace tilescope
