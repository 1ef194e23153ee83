// The legacy texture-shader GEMM: C = A * B computed by drawing, the way GPUs
// multiplied matrices before CUDA. Matrices are float textures, a fragment shader computes one
// output element (or a block of them), and rendering passes accumulate partial sums into float
// framebuffers with additive blending. Five modes, each a step in that history:
//   multipass    Larsen & McAllister 2001: one pass per k-chunk, one output per fragment.
//   rgba_packed  Hall, Carr & Hart 2003 / Fatahalian et al. 2004: 2 x 2 blocks in RGBA texels.
//   blocked      Govindaraju et al. 2006: T x T tiles, D-long partial dot products per pass.
//   mrt          multiple render targets: a 4 x 4 block of C per fragment into 4 targets.
//   mrt8         eight render targets: a 4 x 8 block of C per fragment (12 fetches, 128 FMAs).
// The shaders are files in shaders/ loaded at run time (ShaderLibrary), so a learner can edit
// one and reload it.
//
// Everything here needs a current OpenGL 3.3 core context (the headless host's EGL context in
// tests and `bench`, the window's in the app), and GL objects must be destroyed while it is
// current. Float only: the fragment pipeline has no double textures or double blending.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "app/platform/data_dirs.h"
#include "kernels/core/no_copy.h"
#include "kernels/core/shader_modes.h"

namespace tilescope {

// The modes (ShaderMode) are declared with the variant that lists them as its configurations.
const std::vector<ShaderMode>& all_shader_modes();
// The fragment shader file of a mode ("gemm_multipass.frag"); all modes share gemm_quad.vert.
const char* shader_mode_fragment_file(ShaderMode mode);
const char* shader_vertex_file();

// Loads, compiles and links the GEMM programs from a directory of .glsl sources.
class ShaderLibrary : NoCopy {
 public:
  // Where the program finds its shaders (platform/data_dirs.h): $TILESCOPE_SHADERS when set
  // and non-empty, else <program folder>/../share/tilescope/shaders when installed, else the
  // shaders/ of the source tree the program was run from. "" when none was found: reload()
  // then says where it looked.
  static std::string default_directory();
  // The whole lookup, for messages and `tilescope --version`.
  static DataDirs data_dirs();

  explicit ShaderLibrary(std::string directory = default_directory());
  ~ShaderLibrary();  // deletes the programs: destroy while the GL context is current

  const std::string& directory() const { return directory_; }

  // (Re)reads every shader file and rebuilds every program (the constructor makes no GL
  // calls: call this once the context is current). Goes on past failures, so one broken
  // shader leaves the other modes usable. A mode that fails loses its old program (a learner
  // must not time the old shader believing it is the edited one). False if any failed;
  // *error then names each failing file with its compile or link log.
  bool reload(std::string* error);

  bool loaded(ShaderMode mode) const { return program(mode) != 0; }
  unsigned program(ShaderMode mode) const { return programs_[index(mode)]; }
  // Why the mode has no program: "not loaded yet (call reload())", or the file and its log.
  const std::string& error(ShaderMode mode) const { return errors_[index(mode)]; }

 private:
  static int index(ShaderMode mode) { return static_cast<int>(mode); }
  void release();
  std::string directory_;
  unsigned programs_[kShaderModeCount] = {};
  std::string errors_[kShaderModeCount];
};

// Tuning knobs; 0 = the mode's default (see default_k_chunk).
struct ShaderGemmOptions {
  int k_chunk = 0;  // k values (of the unpadded K) per pass; rounded up to the mode's packing
  int tile = 0;     // blocked only: the T of the T x T output tiles, in output elements
  int warmup = 1;   // untimed runs before the timed ones (drivers compile lazily)
  // Set from another thread to stop between draws; the result then says "cancelled".
  const std::atomic<bool>* cancel = nullptr;
  // Texels fetched between two waits for the renderer (glFinish); 0: none inside a run. Mesa's
  // llvmpipe draws everything queued since its last wait as one batch that runs to its end once
  // started: a run at 4096 was one batch of seconds, through which a cancel waited. With a slice,
  // a pass that fetches more is drawn in bands of rows (scissored), and the engine waits whenever
  // the draws since the last wait fetched a slice: a cancel lands within one slice, and
  // `progress` moves during a run. On a GPU the waits would only add idle gaps to the timings.
  double slice_fetches = 0;
  // When set, the engine stores the fraction of the call's work drawn so far (warm-up runs
  // included), from 0 to 1, for a progress bar on another thread.
  std::atomic<double>* progress = nullptr;
};
int default_k_chunk(ShaderMode mode);
int default_tile();

struct ShaderGemmResult {
  std::vector<float> c;  // M x N row-major; empty when error is set
  // Median over the repetitions of GL_TIME_ELAPSED (clear + all passes). On the NVIDIA driver it
  // agrees with wall_ms (H100, H200); Mesa's llvmpipe undercounts runs of several passes.
  double gpu_ms = 0;
  std::string error;  // empty on success; otherwise one message (with the GL log if any)
  int passes = 0;     // draw calls per run
  // Texels fetched per useful multiply-add, counted from the passes drawn: M*N*K FMAs are
  // useful; padding and packing change the numerator. 2 for one scalar output per fragment,
  // 0.25 for 2 x 2 RGBA packing, 0.125 for 4 x 4 per fragment, 0.09375 (12/128) for 4 x 8 per
  // fragment (at sizes needing no padding).
  double fetches_per_fma = 0;
  std::vector<double> gpu_ms_all;  // each repetition's time, in order
  // CPU time from before the clear until the query's result was available (which waits for
  // the GPU), median and per repetition: an upper bound on gpu_ms plus submission overhead,
  // and a cross-check where a driver's timer queries are doubtful (llvmpipe: see the .cpp).
  double wall_ms = 0;
  std::vector<double> wall_ms_all;
  // Wall clock from the call until the first run (warm-up or not) had finished: packing, the
  // textures and targets, and the driver's lazy shader compile included, like a cold CUDA launch.
  double first_ms = 0;
};

// What a mode draws for given sizes, without drawing it (no GL): for the history pane's
// picture of the passes and for the counts shown beside the measurements.
struct ShaderPass {
  int x, y, w, h;  // the rectangle of target texels it writes (viewport and scissor)
  int k0, klen;    // its k-range, in the mode's k units (k, k/2 or k/4: see k_per_unit)
};
// Every mode draws each of its quads once per k-chunk, all chunks of a quad before the next
// quad: pass p is chunk p % chunks of quad p / chunks.
struct ShaderPlanSummary {
  int target_width = 0, target_height = 0;        // texels of each render target
  int targets = 1;                                // colour attachments (MRT modes: 4 or 8)
  int channels = 1;                               // 1: GL_R32F targets, 4: GL_RGBA32F
  int a_width = 0, a_height = 0, a_channels = 1;  // the textures of A and B, texels
  int b_width = 0, b_height = 0, b_channels = 1;
  int k_per_unit = 1;                                                // k values per k unit of a pass (1, 2 or 4)
  int outputs_per_fragment_rows = 1, outputs_per_fragment_cols = 1;  // the block of C per fragment
  std::vector<ShaderPass> quads;                                     // the rectangles, in drawing order (k0 = klen = 0)
  std::vector<ShaderPass> chunks;                                    // the k-ranges, in drawing order (rectangles 0)
  long long total() const { return static_cast<long long>(quads.size()) * static_cast<long long>(chunks.size()); }
  ShaderPass pass(long long p) const;  // p in [0, total())
  std::vector<ShaderPass> passes;      // every pass in drawing order (describe_shader_plan only)
  double fetches = 0;                  // texels fetched by all passes of one run
  double fetches_per_fma = 0;          // fetches / (M*N*K)
};
// Refuses nothing: sizes are the caller's to check (run_shader_gemm checks the GL limits).
// describe_shader_layout leaves `passes` empty, so it is cheap at any size (blocked at 16384
// draws 8 M passes); describe_shader_plan also lists them.
ShaderPlanSummary describe_shader_layout(ShaderMode mode, int M, int N, int K,
                                         const ShaderGemmOptions& options = ShaderGemmOptions());
ShaderPlanSummary describe_shader_plan(ShaderMode mode, int M, int N, int K,
                                       const ShaderGemmOptions& options = ShaderGemmOptions());

// C = A * B with A M x K and B K x N, row-major floats, any M, N, K >= 1. Runs warmup + repetitions
// times (each a full clear and all passes, timed with GL_TIME_ELAPSED) and returns the last
// result. Refuses, with a message naming the limit, sizes whose textures or targets exceed
// GL_MAX_TEXTURE_SIZE / GL_MAX_VIEWPORT_DIMS, and modes needing more render targets than
// GL_MAX_DRAW_BUFFERS / GL_MAX_COLOR_ATTACHMENTS (mrt8 needs 8). The targets are cleared to NaN
// (the poison) and each region's first k-chunk overwrites it (blending off), the later ones add:
// a texel no pass covers stays NaN and fails the check. Restores the GL state it changes (framebuffer,
// viewport, scissor, blending, program, VAO, textures, pixel-store), so it can run between
// the window's frames.
ShaderGemmResult run_shader_gemm(ShaderMode mode, const float* a, const float* b, int M, int N, int K, int repetitions,
                                 const ShaderLibrary& library, const ShaderGemmOptions& options = ShaderGemmOptions());

}  // namespace tilescope
