#include "app/ui/history/history_model.h"

#include <algorithm>

#include "kernels/core/registry.h"

namespace tilescope {

PassSchedule shader_pass_schedule(ShaderMode mode, int M, int N, int K) {
  return describe_shader_layout(mode, M, N, K);
}

TexelSlot shader_texel_of(ShaderMode mode, char matrix, int row, int col) {
  TexelSlot t;
  switch (mode) {
    case ShaderMode::kMultipass:
    case ShaderMode::kBlocked:  // GL_R32F, the row-major array as it is: texel (col, row)
      t.x = col, t.y = row;
      break;
    case ShaderMode::kRgbaPacked:  // 2 x 2 blocks: (r, g, b, a) = (x00, x01, x10, x11)
      t.x = col / 2, t.y = row / 2, t.channel = (row % 2) * 2 + col % 2;
      break;
    case ShaderMode::kMrt:
    case ShaderMode::kMrt8: {
      if (matrix != 'C') {  // A: four consecutive k of a row; B: four consecutive columns of a row
        t.x = col / 4, t.y = row, t.channel = col % 4;
        break;
      }
      const int width = mode == ShaderMode::kMrt ? 4 : 8;  // columns of C per fragment
      t.target = (width / 4) * (row % 4) + (col % width) / 4;
      t.x = col / width, t.y = row / 4, t.channel = col % 4;
      break;
    }
  }
  return t;
}

const VariantDescriptor* shader_variant() {
  for (const VariantDescriptor* v : variant_registry())
    if (v->backend == Backend::GlShader) return v;
  return nullptr;
}

ShaderMode shader_mode_of(const TileConfig& config) {
  return static_cast<ShaderMode>(std::clamp(config.engine_mode, 0, kShaderModeCount - 1));
}

const RunResult* best_shader_row(const std::vector<RunResult>& rows, const std::string& config_name) {
  const VariantDescriptor* v = shader_variant();
  const RunResult* best = nullptr;
  for (const RunResult& r : rows) {
    if (!v || r.variant_id != v->id || r.config_name != config_name || !r.ok() || r.precision != Precision::F32)
      continue;
    if (r.verified && !r.passed) continue;  // a wrong answer is not a speed
    if (!(r.gflops > 0)) continue;
    if (!best || r.gflops > best->gflops) best = &r;
  }
  return best;
}

double fetch_bound_gflops(double fetches_per_fma, double clock_mhz, int sms, double fetches_per_clock) {
  if (!(fetches_per_fma > 0) || !(clock_mhz > 0)) return 0;
  const double flops_per_fetch = 2.0 / fetches_per_fma;
  return sms * fetches_per_clock * clock_mhz * 1e-3 * flops_per_fetch;
}

BoundClock fetch_bound_clock(const RunResult* row, const DeviceInfo& device) {
  BoundClock c;
  if (row && row->sm_clock_mhz > 0) {
    c.mhz = row->sm_clock_mhz;
    c.source = "measured";
  } else if (device.ok() && device.sm_clock_khz > 0) {
    c.mhz = device.sm_clock_khz / 1000.0;
    c.source = "this GPU";
  }
  return c;
}

}  // namespace tilescope
