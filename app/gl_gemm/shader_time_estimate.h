// How long a texture-shader run would draw, from a fetch rate measured on the renderer that
// draws it. On a software renderer (Mesa's llvmpipe, a CPU) the texture shaders are slow: every
// texel fetch costs about a nanosecond, much the same in every mode (2-core EPYC, `bench` at 512:
// 0.95 ns in multipass, 1.04 blocked, 1.07 mrt, 1.1 rgba_packed, 1.13 mrt8; about four times that
// while other builds shared the cores), so multipass at 4096 (2 x 4096³ fetches a run, 13 runs)
// would draw for half an hour to two hours. The window refuses such runs before they start, with
// this estimate and the size that would fit (gl_shader_runner.h: set_gl_shader_time_limit).
// Plain C++, no GL.
#pragma once

#include <string>

#include "kernels/core/shader_modes.h"

namespace tilescope {

// One call of the engine: every run it draws, the first, the warm-ups and the timed ones.
struct ShaderTimeRequest {
  ShaderMode mode = ShaderMode::kMultipass;
  std::string variant;  // the variant's id (its descriptor's), for the message
  std::string config;   // the variant's configuration name ("multipass"), for the message
  int M = 1, N = 1, K = 1;
  int runs = 1;
};

// Texel fetches per second of one mode on one renderer, and where that was measured.
struct ShaderFetchRate {
  double fetches_per_second = 0;
  std::string renderer;     // GL_RENDERER ("llvmpipe (LLVM 15.0.6, 256 bits)")
  std::string measured_on;  // "a run at 256", "the last run at 1024"
};

// Seconds the request draws at `fetches_per_second` (its fetches counted from the mode's passes,
// describe_shader_layout).
double estimated_shader_seconds(const ShaderTimeRequest& request, double fetches_per_second);

// "" when the request draws within limit_seconds at `rate` (or no rate or limit is known);
// otherwise why it is refused, for the results and the status line:
//   "gl_shader multipass at 4096 would take about 2.0 h on this renderer (llvmpipe ...): 13 runs
//   of about 9 min at 250 million texel fetches/s, measured here on a run at 256; the limit for
//   the texture shaders on a software renderer is 60 s: choose N <= 832 (or fewer repetitions)"
std::string shader_time_refusal(const ShaderTimeRequest& request, const ShaderFetchRate& rate, double limit_seconds);

// "4096" for a square size, else "4096 x 2048 x 8192": a size as the messages say it.
std::string shader_size_text(int M, int N, int K);

// "45 s", "12 min", "1.7 h": a duration as a person reads it.
std::string readable_duration(double seconds);

}  // namespace tilescope
