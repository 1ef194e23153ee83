#include "app/gl_gemm/shader_gemm.h"

#include <GL/gl.h>
#include <GL/glext.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <utility>

#include "app/platform/gl_check.h"
#include "kernels/core/enum_names.h"
#include "kernels/core/gemm_types.h"

namespace tilescope {
namespace {

// ---- small helpers ---------------------------------------------------------------------------

int round_up(int value, int multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

bool read_text_file(const std::string& path, std::string* text, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  return true;
}

GLuint compile_shader(GLenum type, const std::string& path, std::string* error) {
  std::string source;
  if (!read_text_file(path, &source, error)) return 0;
  const GLuint shader = glCreateShader(type);
  if (shader == 0) {
    *error = "glCreateShader failed for " + path;
    return 0;
  }
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  // gl_check_shader puts the whole compile log into *error, prefixed with the file's path.
  const std::string what = "compiling " + path;
  if (!gl_check_shader(shader, what.c_str(), error)) {
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

// Owners of GL names, so that every early return frees what was made.
struct Textures {
  std::vector<GLuint> names;
  ~Textures() {
    if (!names.empty()) glDeleteTextures(static_cast<GLsizei>(names.size()), names.data());
  }
};
struct Framebuffer {
  GLuint name = 0;
  ~Framebuffer() {
    if (name) glDeleteFramebuffers(1, &name);
  }
};
struct VertexArray {
  GLuint name = 0;
  ~VertexArray() {
    if (name) glDeleteVertexArrays(1, &name);
  }
};
struct Query {
  GLuint name = 0;
  ~Query() {
    if (name) glDeleteQueries(1, &name);
  }
};

// The GL state run_shader_gemm changes, put back on destruction: the engine runs inside the
// window's context between ImGui frames, and ImGui's backend assumes nothing else moved.
class StateGuard {
 public:
  StateGuard() {
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fbo_);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fbo_);
    glGetIntegerv(GL_VIEWPORT, viewport_);
    glGetIntegerv(GL_SCISSOR_BOX, scissor_);
    glGetIntegerv(GL_CURRENT_PROGRAM, &program_);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao_);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active_texture_);
    glActiveTexture(GL_TEXTURE0);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &texture0_);
    glActiveTexture(GL_TEXTURE1);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &texture1_);
    glActiveTexture(static_cast<GLenum>(active_texture_));
    glGetIntegerv(GL_BLEND_SRC_RGB, &blend_[0]);
    glGetIntegerv(GL_BLEND_DST_RGB, &blend_[1]);
    glGetIntegerv(GL_BLEND_SRC_ALPHA, &blend_[2]);
    glGetIntegerv(GL_BLEND_DST_ALPHA, &blend_[3]);
    glGetIntegerv(GL_BLEND_EQUATION_RGB, &equation_[0]);
    glGetIntegerv(GL_BLEND_EQUATION_ALPHA, &equation_[1]);
    glGetFloatv(GL_COLOR_CLEAR_VALUE, clear_color_);
    glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buffer_);
    glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &unpack_buffer_);
    glGetIntegerv(GL_PACK_ALIGNMENT, &pack_alignment_);
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &unpack_alignment_);
    glGetIntegerv(GL_UNPACK_ROW_LENGTH, &unpack_row_length_);
    for (int i = 0; i < kCaps; ++i) enabled_[i] = glIsEnabled(kCapList[i]);
  }
  ~StateGuard() {
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(draw_fbo_));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_fbo_));
    glViewport(viewport_[0], viewport_[1], viewport_[2], viewport_[3]);
    glScissor(scissor_[0], scissor_[1], scissor_[2], scissor_[3]);
    glUseProgram(static_cast<GLuint>(program_));
    glBindVertexArray(static_cast<GLuint>(vao_));
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(texture0_));
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(texture1_));
    glActiveTexture(static_cast<GLenum>(active_texture_));
    glBlendFuncSeparate(static_cast<GLenum>(blend_[0]), static_cast<GLenum>(blend_[1]), static_cast<GLenum>(blend_[2]),
                        static_cast<GLenum>(blend_[3]));
    glBlendEquationSeparate(static_cast<GLenum>(equation_[0]), static_cast<GLenum>(equation_[1]));
    glClearColor(clear_color_[0], clear_color_[1], clear_color_[2], clear_color_[3]);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, static_cast<GLuint>(pack_buffer_));
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, static_cast<GLuint>(unpack_buffer_));
    glPixelStorei(GL_PACK_ALIGNMENT, pack_alignment_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, unpack_alignment_);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, unpack_row_length_);
    for (int i = 0; i < kCaps; ++i) {
      if (enabled_[i])
        glEnable(kCapList[i]);
      else
        glDisable(kCapList[i]);
    }
    TILESCOPE_GL_DEBUG("restoring the state around the shader GEMM");
  }
  StateGuard(const StateGuard&) = delete;
  StateGuard& operator=(const StateGuard&) = delete;

 private:
  static constexpr int kCaps = 5;
  static constexpr GLenum kCapList[kCaps] = {GL_BLEND, GL_SCISSOR_TEST, GL_DEPTH_TEST, GL_STENCIL_TEST, GL_CULL_FACE};
  GLint draw_fbo_ = 0, read_fbo_ = 0, viewport_[4] = {}, scissor_[4] = {}, program_ = 0, vao_ = 0;
  GLint active_texture_ = GL_TEXTURE0, texture0_ = 0, texture1_ = 0, blend_[4] = {}, equation_[2] = {};
  GLint pack_buffer_ = 0, unpack_buffer_ = 0, pack_alignment_ = 4, unpack_alignment_ = 4, unpack_row_length_ = 0;
  GLfloat clear_color_[4] = {};
  GLboolean enabled_[kCaps] = {};
};

// A 2D float texture of width x height texels, `channels` floats each (1: GL_R32F,
// 4: GL_RGBA32F), NEAREST filtered and without mipmaps: texelFetch on a texture whose
// minification filter wants mipmaps it lacks reads zeros (incomplete texture).
GLuint make_texture(Textures* owner, int width, int height, int channels, const float* data) {
  GLuint name = 0;
  glGenTextures(1, &name);
  owner->names.push_back(name);
  glBindTexture(GL_TEXTURE_2D, name);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
  glTexImage2D(GL_TEXTURE_2D, 0, channels == 1 ? GL_R32F : GL_RGBA32F, width, height, 0,
               channels == 1 ? GL_RED : GL_RGBA, GL_FLOAT, data);
  return name;
}

// ---- what a mode draws -----------------------------------------------------------------------

// A rectangle of target texels one draw writes (viewport and scissor).
struct Quad {
  int x, y, w, h;
};
// A k-range, in the mode's k units (k, k/2 or k/4).
struct KChunk {
  int k0, klen;
};

// Everything a mode decides; the common runner clears, draws, times and reads back.
struct Plan {
  int target_width = 0, target_height = 0;
  int targets = 1;   // colour attachments
  int channels = 1;  // 1: GL_R32F targets, 4: GL_RGBA32F
  // Texture sizes, for the limit check before anything is allocated.
  int a_width = 0, a_height = 0, b_width = 0, b_height = 0;
  int a_channels = 1, b_channels = 1;
  std::vector<float> a_data, b_data;  // packed copies; empty = use the caller's arrays as they are
  // The passes: every quad gets every k-chunk, all chunks of one quad before the next quad
  // (blocked: tile by tile, so each tile's strips of A and B stay in the texture cache).
  std::vector<Quad> quads;
  std::vector<KChunk> chunks;
  // Texels one fragment fetches per k unit of a pass (2: a texel of A and one of B; MRT modes:
  // 4 of A and `width` of B). Every count of fetches below derives from it.
  double fetches_per_fragment_step = 2;
  double fetches = 0;  // texels fetched by all passes of one run (make_plan sums them)
};

// The texels one pass fetches when it draws `rows` rows of `quad` over `chunk`.
double band_fetches(const Plan& p, const Quad& quad, int rows, const KChunk& chunk) {
  return p.fetches_per_fragment_step * quad.w * rows * chunk.klen;
}

// k-chunks over k_units, each `chunk_units` long (the last one shorter).
std::vector<KChunk> k_chunks(int k_units, int chunk_units) {
  std::vector<KChunk> out;
  for (int k0 = 0; k0 < k_units; k0 += chunk_units) out.push_back({k0, std::min(chunk_units, k_units - k0)});
  return out;
}

// ---- mode 1: multipass (Larsen & McAllister 2001) ---------------------------------------------
// One scalar output per fragment, one full-target pass per k-chunk, partial sums added by the
// blender into a cleared GL_R32F target (no ping-pong: (GL_ONE, GL_ONE) blending reads the old
// value, which is what the ping-pong copy did on hardware without float blending). Fetches:
// two scalar texels per FMA, so the texture unit bounds it.
Plan plan_multipass(int M, int N, int K, int chunk) {
  Plan p;
  p.target_width = N;
  p.target_height = M;
  p.a_width = K, p.a_height = M;  // texel (k, i) = A[i][k]: the caller's row-major array as is
  p.b_width = N, p.b_height = K;  // texel (j, k) = B[k][j]
  p.quads = {{0, 0, N, M}};
  p.chunks = k_chunks(K, chunk);
  return p;
}

// ---- mode 2: RGBA packing (Hall, Carr & Hart 2003; Fatahalian et al. 2004) --------------------
// 2 x 2 blocks of A, B and C in RGBA32F texels (r, g, b, a) = (x00, x01, x10, x11), sizes
// padded to even with zeros. A fragment computes a 2 x 2 block of C: two fetched texels feed
// eight FMAs (0.25 fetches per FMA), still fetch-bound but four times less so.
std::vector<float> pack_2x2(const float* x, int rows, int cols) {
  const int br = ceil_div(rows, 2), bc = ceil_div(cols, 2);
  std::vector<float> out(static_cast<std::size_t>(br) * bc * 4, 0.0f);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      out[(static_cast<std::size_t>(r / 2) * bc + c / 2) * 4 + (r % 2) * 2 + c % 2] =
          x[static_cast<std::size_t>(r) * cols + c];
  return out;
}

Plan plan_rgba_packed(const float* a, const float* b, int M, int N, int K, int chunk) {
  Plan p;
  const int mb = ceil_div(M, 2), nb = ceil_div(N, 2), kb = ceil_div(K, 2);
  p.target_width = nb;
  p.target_height = mb;
  p.channels = 4;
  p.a_width = kb, p.a_height = mb, p.a_channels = 4;
  p.b_width = nb, p.b_height = kb, p.b_channels = 4;
  if (a && b) {  // null: only describing the plan
    p.a_data = pack_2x2(a, M, K);
    p.b_data = pack_2x2(b, K, N);
  }
  p.quads = {{0, 0, nb, mb}};
  p.chunks = k_chunks(kb, ceil_div(chunk, 2));
  return p;
}

// ---- mode 3: blocked passes (Govindaraju et al. 2006) -----------------------------------------
// C cut into T x T tiles; per tile, one quad (viewport + scissor = the tile) per D-long k-block,
// all k-blocks of a tile before the next tile, so each pass reads a T x D strip of A and a
// D x T strip of B that fits the texture cache. Each fragment: a D-long partial dot product,
// added by blending. Fetches as multipass (2 per FMA); the lesson is locality and the cost of
// many small draws.
Plan plan_blocked(int M, int N, int K, int chunk, int tile) {
  Plan p;
  p.target_width = N;
  p.target_height = M;
  p.a_width = K, p.a_height = M;
  p.b_width = N, p.b_height = K;
  for (int y = 0; y < M; y += tile)
    for (int x = 0; x < N; x += tile) p.quads.push_back({x, y, std::min(tile, N - x), std::min(tile, M - y)});
  p.chunks = k_chunks(K, chunk);
  return p;
}

// A copy of a rows x cols row-major matrix in a zero-padded padded_rows x padded_cols one.
std::vector<float> pad_rows(const float* x, int rows, int cols, int padded_rows, int padded_cols) {
  std::vector<float> out(static_cast<std::size_t>(padded_rows) * padded_cols, 0.0f);
  for (int r = 0; r < rows; ++r)
    std::copy(x + static_cast<std::size_t>(r) * cols, x + static_cast<std::size_t>(r + 1) * cols,
              out.begin() + static_cast<std::ptrdiff_t>(r) * padded_cols);
  return out;
}

// ---- modes 4 and 5: several render targets ------------------------------------------------------
// A as (K/4) x M and B as (N/4) x K RGBA32F textures: row-major with the row length padded to a
// multiple of 4 is exactly the RGBA layout, four consecutive k of a row of A / four consecutive
// columns of a row of B per texel. A fragment (jo, iq) computes rows 4iq .. 4iq+3 and `width`
// columns from width * jo of C into `width` targets (row r, texel h of the row -> target
// (width / 4) * r + h): per 4-k step 4 fetches of A and `width` of B feed 16 * width FMAs.
// k-chunked passes add into the cleared targets by blending.
//   mrt:  width 4, 4 targets, 8 fetches for 64 FMAs (4 x 4 per fragment);
//   mrt8: width 8, 8 targets, 12 fetches for 128 FMAs (4 x 8). B texels 2jo and 2jo+1 are
//         contiguous, so the fragments of a 2 x 2 quad fetch texels close together.
Plan plan_multi_target(const float* a, const float* b, int M, int N, int K, int chunk, int width) {
  Plan p;
  const int mp = round_up(M, 4), np = round_up(N, width), kp = round_up(K, 4);
  p.target_width = np / width;
  p.target_height = mp / 4;
  p.targets = width;  // 4 rows x width columns = width RGBA targets
  p.channels = 4;
  p.a_width = kp / 4, p.a_height = mp, p.a_channels = 4;
  p.b_width = np / 4, p.b_height = kp, p.b_channels = 4;
  if (a && b) {  // null: only describing the plan
    p.a_data = pad_rows(a, M, K, mp, kp);
    p.b_data = pad_rows(b, K, N, kp, np);
  }
  p.quads = {{0, 0, np / width, mp / 4}};
  p.chunks = k_chunks(kp / 4, ceil_div(chunk, 4));
  p.fetches_per_fragment_step = 4.0 + width;
  return p;
}

// Sizes the GL must accept: every texture and target dimension within GL_MAX_TEXTURE_SIZE, the
// targets within GL_MAX_VIEWPORT_DIMS, enough colour attachments and draw buffers.
std::string check_limits(const Plan& p, ShaderMode mode, int M, int N, int K) {
  GLint max_texture = 0, max_viewport[2] = {0, 0}, max_attachments = 0, max_draw_buffers = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture);
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, max_viewport);
  glGetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &max_attachments);
  glGetIntegerv(GL_MAX_DRAW_BUFFERS, &max_draw_buffers);
  const std::string what = std::string(shader_mode_fragment_file(mode)) + " at M=" + std::to_string(M) +
                           " N=" + std::to_string(N) + " K=" + std::to_string(K) + ": ";
  const struct {
    const char* name;
    int w, h;
  } sizes[] = {{"texture of A", p.a_width, p.a_height},
               {"texture of B", p.b_width, p.b_height},
               {"render target of C", p.target_width, p.target_height}};
  for (const auto& s : sizes) {
    if (s.w > max_texture || s.h > max_texture)
      return what + "the " + s.name + " would be " + std::to_string(s.w) + " x " + std::to_string(s.h) +
             " texels, beyond GL_MAX_TEXTURE_SIZE = " + std::to_string(max_texture) +
             " of this GL (long rows are not split across texture rows)";
  }
  if (p.target_width > max_viewport[0] || p.target_height > max_viewport[1])
    return what + "the render target would be " + std::to_string(p.target_width) + " x " +
           std::to_string(p.target_height) + ", beyond GL_MAX_VIEWPORT_DIMS = " + std::to_string(max_viewport[0]) +
           " x " + std::to_string(max_viewport[1]);
  if (p.targets > max_attachments || p.targets > max_draw_buffers)
    return what + "needs " + std::to_string(p.targets) +
           " render targets; this GL has GL_MAX_DRAW_BUFFERS = " + std::to_string(max_draw_buffers) +
           " and GL_MAX_COLOR_ATTACHMENTS = " + std::to_string(max_attachments);
  return "";
}

// Copies the read-back targets into the M x N row-major C.
void unpack_result(ShaderMode mode, const std::vector<std::vector<float>>& targets, int target_width, int M, int N,
                   std::vector<float>* c) {
  c->assign(static_cast<std::size_t>(M) * N, 0.0f);
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      float value = 0;
      switch (mode) {
        case ShaderMode::kMultipass:
        case ShaderMode::kBlocked:  // texel (j, i), one float
          value = targets[0][static_cast<std::size_t>(i) * target_width + j];
          break;
        case ShaderMode::kRgbaPacked:  // texel (j/2, i/2), channel 2 (i%2) + j%2
          value = targets[0][(static_cast<std::size_t>(i / 2) * target_width + j / 2) * 4 + (i % 2) * 2 + j % 2];
          break;
        case ShaderMode::kMrt:  // target i%4, texel (j/4, i/4), channel j%4
          value = targets[i % 4][(static_cast<std::size_t>(i / 4) * target_width + j / 4) * 4 + j % 4];
          break;
        case ShaderMode::kMrt8:  // target 2 (i%4) + (j%8)/4, texel (j/8, i/4), channel j%4
          value =
              targets[2 * (i % 4) + (j % 8) / 4][(static_cast<std::size_t>(i / 4) * target_width + j / 8) * 4 + j % 4];
          break;
      }
      (*c)[static_cast<std::size_t>(i) * N + j] = value;
    }
  }
}

// The mode's plan. a and b may be null (describing only): then the packed copies are not made.
Plan plan_mode(ShaderMode mode, const float* a, const float* b, int M, int N, int K, const ShaderGemmOptions& options) {
  const int chunk = options.k_chunk > 0 ? options.k_chunk : default_k_chunk(mode);
  const int tile = options.tile > 0 ? options.tile : default_tile();
  switch (mode) {
    case ShaderMode::kMultipass:
      return plan_multipass(M, N, K, chunk);
    case ShaderMode::kRgbaPacked:
      return plan_rgba_packed(a, b, M, N, K, chunk);
    case ShaderMode::kBlocked:
      return plan_blocked(M, N, K, chunk, tile);
    case ShaderMode::kMrt:
      return plan_multi_target(a, b, M, N, K, chunk, 4);
    case ShaderMode::kMrt8:
      return plan_multi_target(a, b, M, N, K, chunk, 8);
  }
  return Plan();
}

// The plan with its fetch count: every quad is drawn over every chunk.
Plan make_plan(ShaderMode mode, const float* a, const float* b, int M, int N, int K, const ShaderGemmOptions& options) {
  Plan p = plan_mode(mode, a, b, M, N, K, options);
  double texels = 0, k_units = 0;
  for (const Quad& q : p.quads) texels += static_cast<double>(q.w) * q.h;
  for (const KChunk& c : p.chunks) k_units += c.klen;
  p.fetches = p.fetches_per_fragment_step * texels * k_units;
  return p;
}

}  // namespace

// ---- names and defaults ----------------------------------------------------------------------

const std::vector<ShaderMode>& all_shader_modes() {
  static const std::vector<ShaderMode> modes = {ShaderMode::kMultipass, ShaderMode::kRgbaPacked, ShaderMode::kBlocked,
                                                ShaderMode::kMrt, ShaderMode::kMrt8};
  return modes;
}

const char* shader_mode_fragment_file(ShaderMode mode) {
  static constexpr EnumName<ShaderMode> kFiles[] = {{ShaderMode::kMultipass, "gemm_multipass.frag"},
                                                    {ShaderMode::kRgbaPacked, "gemm_rgba_packed.frag"},
                                                    {ShaderMode::kBlocked, "gemm_blocked.frag"},
                                                    {ShaderMode::kMrt, "gemm_mrt.frag"},
                                                    {ShaderMode::kMrt8, "gemm_mrt8.frag"}};
  return enum_name(mode, kFiles, "?");
}

const char* shader_vertex_file() {
  return "gemm_quad.vert";
}

// Chunk lengths in k. Multipass is the "one pass per k-chunk" mode, so its chunk is short
// enough to show many passes (8 at K = 512) yet long enough that llvmpipe's per-pass cost
// (clear-free, but a full-target blend each) stays small. The others use longer chunks: on the
// H100 chunking costs nothing and lowers the error (gpu-machine.md), and it keeps any one draw
// short, away from display-driver watchdogs at N = 4096.
int default_k_chunk(ShaderMode mode) {
  switch (mode) {
    case ShaderMode::kMultipass:
      return 64;
    case ShaderMode::kRgbaPacked:
      return 256;
    case ShaderMode::kBlocked:
      return 128;  // D
    case ShaderMode::kMrt:
      return 256;
    case ShaderMode::kMrt8:
      return 256;
  }
  return 64;
}

int default_tile() {
  return 64;
}  // T

ShaderPass ShaderPlanSummary::pass(long long p) const {
  const long long c = static_cast<long long>(chunks.size());
  const ShaderPass& q = quads[static_cast<std::size_t>(p / c)];
  const ShaderPass& k = chunks[static_cast<std::size_t>(p % c)];
  return {q.x, q.y, q.w, q.h, k.k0, k.klen};
}

ShaderPlanSummary describe_shader_plan(ShaderMode mode, int M, int N, int K, const ShaderGemmOptions& options) {
  ShaderPlanSummary out = describe_shader_layout(mode, M, N, K, options);
  out.passes.reserve(static_cast<std::size_t>(out.total()));
  for (long long p = 0; p < out.total(); ++p) out.passes.push_back(out.pass(p));
  return out;
}

ShaderPlanSummary describe_shader_layout(ShaderMode mode, int M, int N, int K, const ShaderGemmOptions& options) {
  ShaderPlanSummary out;
  if (M < 1 || N < 1 || K < 1) return out;
  const Plan p = make_plan(mode, nullptr, nullptr, M, N, K, options);
  out.target_width = p.target_width;
  out.target_height = p.target_height;
  out.targets = p.targets;
  out.channels = p.channels;
  out.a_width = p.a_width, out.a_height = p.a_height, out.a_channels = p.a_channels;
  out.b_width = p.b_width, out.b_height = p.b_height, out.b_channels = p.b_channels;
  switch (mode) {
    case ShaderMode::kMultipass:
    case ShaderMode::kBlocked:
      out.k_per_unit = 1;
      break;
    case ShaderMode::kRgbaPacked:
      out.k_per_unit = 2, out.outputs_per_fragment_rows = 2, out.outputs_per_fragment_cols = 2;
      break;
    case ShaderMode::kMrt:
      out.k_per_unit = 4, out.outputs_per_fragment_rows = 4, out.outputs_per_fragment_cols = 4;
      break;
    case ShaderMode::kMrt8:
      out.k_per_unit = 4, out.outputs_per_fragment_rows = 4, out.outputs_per_fragment_cols = 8;
      break;
  }
  for (const Quad& q : p.quads) out.quads.push_back({q.x, q.y, q.w, q.h, 0, 0});
  for (const KChunk& c : p.chunks) out.chunks.push_back({0, 0, 0, 0, c.k0, c.klen});
  out.fetches = p.fetches;
  out.fetches_per_fma = p.fetches / (static_cast<double>(M) * N * K);
  return out;
}

// ---- ShaderLibrary ---------------------------------------------------------------------------

DataDirs ShaderLibrary::data_dirs() {
  // Any shaders/ of this program holds the vertex shader: it marks the folder as ours.
  return find_data_dirs(shader_vertex_file());
}

std::string ShaderLibrary::default_directory() {
  return data_dirs().shaders;
}

ShaderLibrary::ShaderLibrary(std::string directory) : directory_(std::move(directory)) {
  for (std::string& e : errors_) e = "shader not loaded yet (call ShaderLibrary::reload())";
}

ShaderLibrary::~ShaderLibrary() {
  release();
}

void ShaderLibrary::release() {
  for (unsigned& p : programs_) {
    if (p) glDeleteProgram(p);
    p = 0;
  }
}

bool ShaderLibrary::reload(std::string* error) {
  release();
  if (directory_.empty()) {
    // No shader folder was found: say where the lookup looked, in every mode's error.
    const std::string why = "no shader folder: " + describe_shader_dir(data_dirs());
    for (std::string& e : errors_) e = why;
    if (error) *error = why;
    return false;
  }
  gl_clear_stale_errors("before loading the GEMM shaders");
  std::string all_errors;
  std::string vertex_error;
  const GLuint vertex = compile_shader(GL_VERTEX_SHADER, directory_ + "/" + shader_vertex_file(), &vertex_error);
  for (ShaderMode mode : all_shader_modes()) {
    std::string& e = errors_[index(mode)];
    e.clear();
    const std::string path = directory_ + "/" + shader_mode_fragment_file(mode);
    if (vertex == 0) {
      e = vertex_error;
    } else if (const GLuint fragment = compile_shader(GL_FRAGMENT_SHADER, path, &e)) {
      const GLuint program = glCreateProgram();
      glAttachShader(program, vertex);
      glAttachShader(program, fragment);
      glLinkProgram(program);
      const std::string what = "linking " + path;
      if (gl_check_program(program, what.c_str(), &e)) {
        // The samplers never move: A on unit 0, B on unit 1.
        glUseProgram(program);
        glUniform1i(glGetUniformLocation(program, "u_a"), 0);
        glUniform1i(glGetUniformLocation(program, "u_b"), 1);
        glUseProgram(0);
        programs_[index(mode)] = program;
      } else {
        glDeleteProgram(program);
      }
      glDeleteShader(fragment);  // the program keeps what it needs
    }
    if (programs_[index(mode)] == 0) {
      if (e.empty()) e = "could not build the program of " + path;
      all_errors += (all_errors.empty() ? "" : "\n") + std::string(shader_mode_fragment_file(mode)) + ": " + e;
    }
  }
  if (vertex) glDeleteShader(vertex);
  std::string gl_error;
  if (!gl_ok("loading the GEMM shaders", &gl_error)) all_errors += (all_errors.empty() ? "" : "\n") + gl_error;
  if (all_errors.empty()) return true;
  if (error) *error = all_errors;
  return false;
}

// ---- the runner ------------------------------------------------------------------------------

namespace {

// Why run_shader_gemm cannot run these arguments ("" = it can).
std::string argument_error(ShaderMode mode, const float* a, const float* b, int M, int N, int K, int repetitions,
                           const ShaderLibrary& library, const ShaderGemmOptions& options) {
  if (M < 1 || N < 1 || K < 1) return "M, N and K must be at least 1";
  if (!a || !b) return "no input matrices";
  if (repetitions < 1 || options.warmup < 0) return "repetitions must be at least 1 and warmup at least 0";
  if (library.program(mode) == 0) return std::string(shader_mode_fragment_file(mode)) + ": " + library.error(mode);
  return "";
}

// Pixel transfers from and to client memory (no pixel buffer bound), rows tightly packed.
void use_client_pixel_store() {
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
}

// Float render targets on a new framebuffer, one colour attachment and draw buffer each.
// Blending on 32-bit float colour buffers is core GL 3.0 (no clamping for float targets), which
// is what lets the passes add without ping-pong.
bool make_render_targets(ShaderMode mode, const Plan& plan, Textures* textures, Framebuffer* fbo, std::string* error) {
  glGenFramebuffers(1, &fbo->name);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo->name);
  std::vector<GLenum> draw_buffers;
  glActiveTexture(GL_TEXTURE0);  // the targets are made on unit 0, which A takes over next
  for (int t = 0; t < plan.targets; ++t) {
    const GLuint target = make_texture(textures, plan.target_width, plan.target_height, plan.channels, nullptr);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + t, GL_TEXTURE_2D, target, 0);
    draw_buffers.push_back(GL_COLOR_ATTACHMENT0 + t);
  }
  glDrawBuffers(static_cast<GLsizei>(draw_buffers.size()), draw_buffers.data());
  if (!gl_ok("creating the float render targets", error)) return false;
  if (!gl_framebuffer_complete(GL_FRAMEBUFFER, error)) {
    *error = std::string(shader_mode_fragment_file(mode)) + ": " + *error;
    return false;
  }
  return true;
}

// A on texture unit 0, B on unit 1: the plan's packed copies, or the caller's arrays as they are.
bool upload_inputs(const Plan& plan, const float* a, const float* b, Textures* textures, std::string* error) {
  glActiveTexture(GL_TEXTURE0);
  make_texture(textures, plan.a_width, plan.a_height, plan.a_channels, plan.a_data.empty() ? a : plan.a_data.data());
  glActiveTexture(GL_TEXTURE1);
  make_texture(textures, plan.b_width, plan.b_height, plan.b_channels, plan.b_data.empty() ? b : plan.b_data.data());
  return gl_ok("uploading A and B as textures", error);
}

// Where a pass's k-range goes in the program.
struct KRangeUniforms {
  GLint k0 = -1, klen = -1;
};

// The program, a vertex array, additive blending and the NaN clear colour, for every pass.
bool set_up_passes(GLuint program, VertexArray* vao, KRangeUniforms* uniforms, std::string* error) {
  glGenVertexArrays(1, &vao->name);  // the core profile draws nothing without one, even with no attributes
  glBindVertexArray(vao->name);
  glUseProgram(program);
  uniforms->k0 = glGetUniformLocation(program, "u_k0");
  uniforms->klen = glGetUniformLocation(program, "u_klen");
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_STENCIL_TEST);
  glDisable(GL_CULL_FACE);
  glBlendEquationSeparate(GL_FUNC_ADD, GL_FUNC_ADD);
  glBlendFuncSeparate(GL_ONE, GL_ONE, GL_ONE, GL_ONE);
  // The poison: NaN in every texel of every target. A region's first k-chunk (k0 == 0) writes
  // with blending off, replacing it; the later chunks add to what is there.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  glClearColor(nan, nan, nan, nan);
  return gl_ok("setting up the passes", error);
}

bool cancelled(const ShaderGemmOptions& options) {
  return options.cancel && options.cancel->load();
}

// The work of one call as it is drawn: where the waits inside a run go (options.slice_fetches)
// and the progress it publishes (options.progress).
class WorkMeter {
 public:
  WorkMeter(const ShaderGemmOptions& options, double total_fetches)
      : slice_(options.slice_fetches), total_(total_fetches), progress_(options.progress) {
    publish();
  }

  // The rows of `quad` one draw covers over `chunk`: all of them, or without a slice, or bands
  // that fetch at most a slice each. Whole multiples of 64 rows where a band has that many:
  // llvmpipe shares a draw among its threads by 64 x 64 tiles.
  int band_rows(const Plan& plan, const Quad& quad, const KChunk& chunk) const {
    if (slice_ <= 0) return quad.h;
    const double per_row = band_fetches(plan, quad, 1, chunk);
    int rows = static_cast<int>(std::min<double>(quad.h, std::max(1.0, slice_ / per_row)));
    if (rows >= kTileRows) rows = rows / kTileRows * kTileRows;
    return rows;
  }

  // After a draw: once the draws since the last wait fetch a slice, waits for them.
  void drew(double fetches) {
    drawn_ += fetches;
    since_wait_ += fetches;
    if (slice_ > 0 && since_wait_ >= slice_) {
      glFinish();
      since_wait_ = 0;
      publish();
    }
  }

  // At the end of a run (drawn, perhaps not finished: the next wait finishes it).
  void run_drawn() { publish(); }

 private:
  static constexpr int kTileRows = 64;
  void publish() {
    if (progress_) progress_->store(total_ > 0 ? std::min(1.0, drawn_ / total_) : 1.0);
  }
  double slice_, total_;
  std::atomic<double>* progress_;
  double drawn_ = 0, since_wait_ = 0;
};

// One run: the clear (no scissor: the whole of every target), then every pass added into it,
// each pass in the bands of rows the meter asks for. Stops between draws once cancelled.
void draw_run(const Plan& plan, const KRangeUniforms& uniforms, const ShaderGemmOptions& options, WorkMeter* meter) {
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_BLEND);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_SCISSOR_TEST);  // the viewport alone would do; the scissor makes the tile (and band) exact
  for (const Quad& quad : plan.quads) {
    glViewport(quad.x, quad.y, quad.w, quad.h);
    glDisable(GL_BLEND);  // the quad's first chunk replaces the poison; the later ones add
    for (std::size_t c = 0; c < plan.chunks.size(); ++c) {
      const KChunk& chunk = plan.chunks[c];
      if (c == 1) glEnable(GL_BLEND);
      glUniform1i(uniforms.k0, chunk.k0);
      glUniform1i(uniforms.klen, chunk.klen);
      const int rows = meter->band_rows(plan, quad, chunk);
      for (int y = 0; y < quad.h; y += rows) {
        if (cancelled(options)) return;
        const int band = std::min(rows, quad.h - y);
        glScissor(quad.x, quad.y + y, quad.w, band);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        meter->drew(band_fetches(plan, quad, band, chunk));
      }
    }
  }
}

// The warm-up and timed runs: each timed run's GL and CPU time into `result`, and first_ms from
// `call_start` to the end of the first run. False, with result->error, when cancelled or GL failed.
bool draw_runs(ShaderMode mode, const Plan& plan, const KRangeUniforms& uniforms, int repetitions,
               const ShaderGemmOptions& options, std::chrono::steady_clock::time_point call_start,
               ShaderGemmResult* result) {
  Query query;
  glGenQueries(1, &query.name);
  const int runs = options.warmup + repetitions;
  WorkMeter meter(options, plan.fetches * runs);
  for (int run = 0; run < runs; ++run) {
    const bool timed = run >= options.warmup;
    // Warm-up matters beyond lazy shader compilation: on Mesa 22's llvmpipe a timed run with
    // no draw before it in the context returned a timestamp (~6e6 ms) instead of a duration.
    // Finish what earlier runs queued, so that the CPU-side time below holds this run only
    // (llvmpipe defers the warm-up's draws until something waits for them).
    if (timed) glFinish();
    const auto cpu_start = std::chrono::steady_clock::now();
    if (timed) glBeginQuery(GL_TIME_ELAPSED, query.name);
    draw_run(plan, uniforms, options, &meter);
    meter.run_drawn();
    if (cancelled(options)) {
      if (timed) glEndQuery(GL_TIME_ELAPSED);
      glFinish();  // let what was queued drain before the objects go
      result->error = "cancelled";
      return false;
    }
    if (timed) {
      glEndQuery(GL_TIME_ELAPSED);
      GLuint64 nanoseconds = 0;
      // Waits for the GPU. NVIDIA's timer covers every pass (it agrees with wall_ms); llvmpipe's undercounts
      // runs of several passes (multipass at 512: ~16 ms against ~330 ms of wall_ms, while
      // one-pass runs agree), so on Mesa only wall_ms means anything.
      glGetQueryObjectui64v(query.name, GL_QUERY_RESULT, &nanoseconds);
      result->gpu_ms_all.push_back(static_cast<double>(nanoseconds) * 1e-6);
      result->wall_ms_all.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - cpu_start).count());
    }
    if (!gl_ok("drawing the GEMM passes", &result->error)) {
      result->error = std::string(shader_mode_fragment_file(mode)) + ": " + result->error;
      return false;
    }
    if (run == 0) {
      glFinish();  // the first run's end, for first_ms (the timed runs finish before they start anyway)
      result->first_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - call_start).count();
    }
  }
  return true;
}

// Every target of the last run, read back and unpacked into the M x N result->c.
bool read_back(ShaderMode mode, const Plan& plan, int M, int N, ShaderGemmResult* result) {
  std::vector<std::vector<float>> targets(static_cast<std::size_t>(plan.targets));
  for (int t = 0; t < plan.targets; ++t) {
    targets[t].resize(static_cast<std::size_t>(plan.target_width) * plan.target_height * plan.channels);
    glReadBuffer(GL_COLOR_ATTACHMENT0 + t);
    glReadPixels(0, 0, plan.target_width, plan.target_height, plan.channels == 1 ? GL_RED : GL_RGBA, GL_FLOAT,
                 targets[t].data());
  }
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  if (!gl_ok("reading the result back", &result->error)) return false;
  unpack_result(mode, targets, plan.target_width, M, N, &result->c);
  return true;
}

}  // namespace

ShaderGemmResult run_shader_gemm(ShaderMode mode, const float* a, const float* b, int M, int N, int K, int repetitions,
                                 const ShaderLibrary& library, const ShaderGemmOptions& options) {
  const auto call_start = std::chrono::steady_clock::now();
  ShaderGemmResult result;
  result.error = argument_error(mode, a, b, M, N, K, repetitions, library, options);
  if (!result.error.empty()) return result;
  const Plan plan = make_plan(mode, a, b, M, N, K, options);
  gl_clear_stale_errors("before the shader GEMM");
  result.error = check_limits(plan, mode, M, N, K);
  if (!result.error.empty()) return result;
  result.passes = static_cast<int>(plan.quads.size() * plan.chunks.size());
  result.fetches_per_fma = plan.fetches / (static_cast<double>(M) * N * K);

  StateGuard guard;  // declared before the owners below, so it restores after they are deleted
  use_client_pixel_store();
  Textures textures;  // the targets, then A and B
  Framebuffer fbo;
  VertexArray vao;
  KRangeUniforms uniforms;
  if (!make_render_targets(mode, plan, &textures, &fbo, &result.error)) return result;
  if (!upload_inputs(plan, a, b, &textures, &result.error)) return result;
  if (!set_up_passes(library.program(mode), &vao, &uniforms, &result.error)) return result;
  if (!draw_runs(mode, plan, uniforms, repetitions, options, call_start, &result)) return result;
  result.gpu_ms = median_of(result.gpu_ms_all);
  result.wall_ms = median_of(result.wall_ms_all);
  read_back(mode, plan, M, N, &result);
  return result;
}

}  // namespace tilescope
