// The pure logic behind the History tab's pictures and tables (tested in
// tests/gui/history_panel_test.cpp): the texture-shader passes of a size, where each element
// lives in the textures, the best measured row of a mode, and the texture-fetch bound.
#pragma once

#include <string>
#include <vector>

#include "app/gl_gemm/shader_gemm.h"
#include "kernels/core/variant.h"
#include "kernels/cuda/device_info.h"
#include "kernels/measure/measure.h"

namespace tilescope {

// The passes of a mode at a size: its quads and k-chunks (pass p = chunk p % chunks of quad
// p / chunks), the engine's own plan without the expanded list, so it is cheap at any size.
using PassSchedule = ShaderPlanSummary;
PassSchedule shader_pass_schedule(ShaderMode mode, int M, int N, int K);

// Where element (row, col) of the M x N matrix A, B or C ('A', 'B', 'C') lives in the textures
// of a mode: render target (C only), texel (x, y) and channel (0..3 = r, g, b, a). A is
// M x K (col = k), B is K x N (row = k). The same formulas as shader_gemm.cpp's packing and
// unpack_result.
struct TexelSlot {
  int target = 0, x = 0, y = 0, channel = 0;
};
TexelSlot shader_texel_of(ShaderMode mode, char matrix, int row, int col);

// The variant the History tab shows: the registry's texture-shader variant (Backend::GlShader);
// nullptr when there is none. Its configurations name the engine's modes (TileConfig::engine_mode).
const VariantDescriptor* shader_variant();
ShaderMode shader_mode_of(const TileConfig& config);

// The fastest measured texture-shader row of one configuration: variant shader_variant(), float,
// the run happened and did not fail its check. nullptr when there is none.
const RunResult* best_shader_row(const std::vector<RunResult>& rows, const std::string& config_name);

// The texture-fetch bound of a fragment-shader GEMM, in GFLOP/s: SMs running fragment work x
// RGBA32F fetches per clock per SM x clock x flops per fetched texel (2 / fetches_per_fma).
// The defaults are the H100 probe's (docs: 4 of 132 SMs, about 4 fetches per clock each).
constexpr int kFragmentSms = 4;
constexpr double kFetchesPerClockPerSm = 4.0;
constexpr double kAssumedClockMhz = 1980.0;
double fetch_bound_gflops(double fetches_per_fma, double clock_mhz, int sms = kFragmentSms,
                          double fetches_per_clock = kFetchesPerClockPerSm);
// The clock for that bound: the measured row's SM clock when recorded, else this GPU's maximum
// clock, else 1980 MHz (an H100 SXM's boost clock) — with the word saying which.
struct BoundClock {
  double mhz = kAssumedClockMhz;
  const char* source = "assumed";  // "measured" | "this GPU" | "assumed"
};
BoundClock fetch_bound_clock(const RunResult* row, const DeviceInfo& device);

}  // namespace tilescope
