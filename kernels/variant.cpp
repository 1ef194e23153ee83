#include "variant.h"

#include <string>

namespace tilescope {

const char* to_string(Backend b) {
  switch (b) {
    case Backend::Cuda: return "cuda";
    case Backend::Cublas: return "cublas";
    case Backend::GlShader: return "gl_shader";
  }
  return "?";
}

std::string unsupported_reason(const VariantDescriptor& v, int config_index, Problem problem,
                               Precision precision, const DeviceLimits& limits) {
  if (config_index < 0 || config_index >= static_cast<int>(v.configs.size()))
    return std::string(v.id) + " has no configuration #" + std::to_string(config_index);
  const TileConfig& cfg = v.configs[config_index];
  if (v.refuses) {
    std::string why = v.refuses(problem, precision, cfg);
    if (!why.empty()) return why;
  }
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
