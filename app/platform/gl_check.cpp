#include "app/platform/gl_check.h"

#include <GL/glext.h>

#include <cstdio>
#include <vector>

#include "app/platform/code_names.h"

namespace tilescope {
namespace {

// The codes our messages name: glGetError's errors and glCheckFramebufferStatus's answers (the
// two sets share no value, so one table serves both).
const CodeName kGlCodeNames[] = {TILESCOPE_CODE_NAME(GL_NO_ERROR),
                                 TILESCOPE_CODE_NAME(GL_INVALID_ENUM),
                                 TILESCOPE_CODE_NAME(GL_INVALID_VALUE),
                                 TILESCOPE_CODE_NAME(GL_INVALID_OPERATION),
                                 TILESCOPE_CODE_NAME(GL_INVALID_FRAMEBUFFER_OPERATION),
                                 TILESCOPE_CODE_NAME(GL_OUT_OF_MEMORY),
                                 TILESCOPE_CODE_NAME(GL_STACK_UNDERFLOW),
                                 TILESCOPE_CODE_NAME(GL_STACK_OVERFLOW),
                                 TILESCOPE_CODE_NAME(GL_FRAMEBUFFER_UNDEFINED),
                                 TILESCOPE_CODE_NAME(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT),
                                 TILESCOPE_CODE_NAME(GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT),
                                 TILESCOPE_CODE_NAME(GL_FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER),
                                 TILESCOPE_CODE_NAME(GL_FRAMEBUFFER_INCOMPLETE_READ_BUFFER),
                                 TILESCOPE_CODE_NAME(GL_FRAMEBUFFER_UNSUPPORTED),
                                 TILESCOPE_CODE_NAME(GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE),
                                 TILESCOPE_CODE_NAME(GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS)};

// Shader and program logs share everything but the two query functions.
template <typename GetIv, typename GetLog>
bool check_log(GLuint object, GLenum status_query, const char* what, std::string* error, GetIv get_iv, GetLog get_log) {
  GLint status = GL_FALSE, length = 0;
  get_iv(object, status_query, &status);
  get_iv(object, GL_INFO_LOG_LENGTH, &length);
  std::string log;
  if (length > 1) {
    std::vector<GLchar> text(static_cast<std::size_t>(length) + 1, 0);
    get_log(object, length, nullptr, text.data());
    log = text.data();
    std::fprintf(stderr, "tilescope: %s log:\n%s\n", what, log.c_str());
  }
  if (status == GL_TRUE) return true;
  if (error) *error = std::string(what) + " failed" + (log.empty() ? std::string() : ": " + log);
  return false;
}

}  // namespace

std::string gl_error_name(GLenum code) {
  return code_name(code, kGlCodeNames);
}

bool gl_ok(const char* what, std::string* error) {
  std::string names;
  // A lost context keeps returning errors forever; a bounded loop cannot hang on it.
  for (int i = 0; i < 16; ++i) {
    const GLenum code = glGetError();
    if (code == GL_NO_ERROR) break;
    names += (names.empty() ? "" : ", ") + gl_error_name(code);
  }
  if (names.empty()) return true;
  if (error) *error = std::string(what) + ": " + names;
  return false;
}

void gl_debug_check(const char* what, const char* file, int line) {
  std::string error;
  if (!gl_ok(what, &error)) std::fprintf(stderr, "tilescope: GL error %s (%s:%d)\n", error.c_str(), file, line);
}

void gl_clear_stale_errors(const char* where) {
  std::string error;
  const bool clean = gl_ok(where, &error);
#ifdef NDEBUG
  (void)clean;
#else
  if (!clean) std::fprintf(stderr, "tilescope: GL error left over %s\n", error.c_str());
#endif
}

bool gl_framebuffer_complete(GLenum target, std::string* error) {
  const GLenum status = glCheckFramebufferStatus(target);
  if (status == GL_FRAMEBUFFER_COMPLETE) return true;
  if (error) *error = "framebuffer incomplete: " + gl_error_name(status);
  return false;
}

bool gl_check_shader(GLuint shader, const char* what, std::string* error) {
  return check_log(shader, GL_COMPILE_STATUS, what, error, glGetShaderiv, glGetShaderInfoLog);
}

bool gl_check_program(GLuint program, const char* what, std::string* error) {
  return check_log(program, GL_LINK_STATUS, what, error, glGetProgramiv, glGetProgramInfoLog);
}

}  // namespace tilescope
