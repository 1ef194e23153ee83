// 07 gl_shader — the legacy texture-shader GEMM: matrix multiplication by drawing (2001-2006).
//
// Idea: before CUDA, a GPU could only draw. A and B are float textures, C is a float render
//   target; drawing a rectangle over C runs a fragment shader once per pixel, and that shader
//   computes its element (or block) of C from texel fetches. Rendering passes add partial
//   sums with the blender. The shaders are GLSL files in shaders/, read at run time (the
//   History tab's Reload button recompiles them after a learner's edit); the engine is
//   app/gl_gemm/shader_gemm.cpp, which this file does not link: see external_runner.h.
// Changed from the CUDA variants: no threads, blocks, shared memory or registers to program.
//   The only reuse a fragment shader controls is how many outputs it computes from what it
//   fetched, so the configurations are the history of that number:
//     multipass    Larsen & McAllister 2001: one output per fragment, one pass per k-chunk.
//     rgba_packed  Hall, Carr & Hart 2003; Fatahalian et al. 2004: 2 x 2 blocks in RGBA texels.
//     blocked      Govindaraju et al. 2006: T x T tiles, one D-long partial sum per pass.
//     mrt          four render targets (GeForce 6 era): a 4 x 4 block of C per fragment.
//     mrt8         eight render targets: a 4 x 8 block of C per fragment.
// Fragment -> C: the fragment at target texel (x, y) owns C rows [r*y, r*y + r) and columns
//   [c*x, c*x + c) for its r x c block (1 x 1, 2 x 2, 1 x 1, 4 x 4, 4 x 8); MRT modes spread the
//   block's rows over the targets (shader_gemm.cpp, unpack_result).
// What to look for: texel fetches per multiply-add fall from 2 to 0.09 across the modes and the
//   GFLOP/s rise with them. On an H100 the fragment work runs on 4 of the 132 SMs, each issuing
//   about 4 RGBA32F fetches per clock: speed ≈ fetch rate × multiply-adds per fetched texel —
//   the argument Fatahalian et al. made in 2004. Float only: the fragment pipeline has no double
//   textures or double blending. AᵀA is computed as the full product of Aᵀ and A (both triangles).
#include <string>

#include "kernels/core/shader_modes.h"
#include "kernels/core/variant.h"

namespace tilescope {
namespace {

// bm x bn: the block of C one fragment computes; `mode` is the engine's mode that draws it.
TileConfig shader_config(const char* name, ShaderMode mode, int rows, int cols, const char* description) {
  TileConfig c;
  c.name = name;
  c.description = description;
  c.engine_mode = static_cast<int>(mode);
  c.bm = rows;
  c.bn = cols;
  c.tm = rows;
  c.tn = cols;
  c.math = "FP32 multiply-add in GLSL fragment shaders; float textures and blending";
  return c;
}

}  // namespace

extern const VariantDescriptor kGlShaderVariant = [] {
  VariantDescriptor v;
  v.id = "gl_shader";
  v.label = "Texture shaders (OpenGL)";
  v.summary =
      "How GPUs multiplied matrices before CUDA (2001-2006): A and B are float textures, drawing "
      "a rectangle over C runs a fragment shader per element, and rendering passes add partial sums "
      "by blending. The configurations follow the history: one output per fragment, 2 x 2 RGBA "
      "packing, blocked passes, 4 and 8 render targets. Float only.";
  v.role = Role::History;
  v.backend = Backend::GlShader;
  v.configs = {
      shader_config("multipass", ShaderMode::kMultipass, 1, 1,
                    "one element of C per fragment, k summed over passes by blending (Larsen & McAllister, 2001)"),
      shader_config("rgba_packed", ShaderMode::kRgbaPacked, 2, 2,
                    "2 x 2 blocks packed in RGBA texels: a quarter of the fetches per multiply-add (2003-2004)"),
      shader_config("blocked", ShaderMode::kBlocked, 1, 1,
                    "cache blocking by drawing: one quad per tile of C and k-block (Govindaraju et al., 2006)"),
      shader_config("mrt", ShaderMode::kMrt, 4, 4, "a 4 x 4 block of C per fragment, written to 4 render targets"),
      shader_config("mrt8", ShaderMode::kMrt8, 4, 8,
                    "a 4 x 8 block of C per fragment, written to 8 render targets: the fewest fetches per FMA"),
  };
  // The fastest: the figure the History tab compares with today's.
  v.default_config = config_named(v.configs, "mrt8");
  v.precisions = {Precision::F32};
  v.precision_note =
      "float only: the texture shaders have no double, half or bfloat16 textures and blending (GL_R32F / "
      "GL_RGBA32F)";
  v.no_model_reason = "the texture shaders have no threads to map: the History tab draws their passes";
  return v;
}();

}  // namespace tilescope
