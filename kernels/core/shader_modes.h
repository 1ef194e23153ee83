// The drawing modes of the texture-shader engine (app/gl_gemm/shader_gemm.h). The gl_shader
// variant's configurations name one each (TileConfig::engine_mode), so neither side matches the
// other by name. Plain C++, no GL.
#pragma once

namespace tilescope {

enum class ShaderMode { kMultipass, kRgbaPacked, kBlocked, kMrt, kMrt8 };
constexpr int kShaderModeCount = 5;

}  // namespace tilescope
