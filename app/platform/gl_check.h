// Error checks for our own OpenGL calls (ImGui's backend checks its own).
//   gl_ok()                  always: drains glGetError() and says what went wrong, for the few
//                            calls whose failure we must report (allocations, read-backs).
//   TILESCOPE_GL_DEBUG(what) debug builds only: glGetError() can stall the pipeline, so release
//                            builds skip the per-call checks; a debug build prints each error
//                            with the call site.
//   gl_framebuffer_complete  always: an incomplete FBO draws nothing and reads garbage silently.
//   gl_check_shader/program  always print the info log: drivers put warnings there even when
//                            compiling succeeds, and a failure is useless without it.
// Needs a current GL context.
#pragma once

#include <GL/gl.h>

#include <string>

namespace tilescope {

// "GL_INVALID_OPERATION", or "0x1234" for codes we don't name.
std::string gl_error_name(GLenum code);

// True if no GL error is pending. Otherwise reads every pending error (so that the next check
// starts clean), sets *error to "<what>: GL_OUT_OF_MEMORY[, ...]" and returns false.
bool gl_ok(const char* what, std::string* error);

// Debug-build check: prints "tilescope: GL error GL_INVALID_ENUM after <what> (file:line)".
void gl_debug_check(const char* what, const char* file, int line);
#ifdef NDEBUG
#define TILESCOPE_GL_DEBUG(what) ((void)0)
#else
#define TILESCOPE_GL_DEBUG(what) ::tilescope::gl_debug_check((what), __FILE__, __LINE__)
#endif

// Drains errors left by earlier calls, so that the next gl_ok() only sees ours: debug builds
// print them (someone else's bug), release builds drop them quietly.
void gl_clear_stale_errors(const char* where);

// Checks glCheckFramebufferStatus(target) for the framebuffer bound to `target`; false and
// *error ("framebuffer incomplete: GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT") otherwise.
bool gl_framebuffer_complete(GLenum target, std::string* error);

// After glCompileShader / glLinkProgram: prints a non-empty info log to stderr (prefixed with
// `what`), returns the compile/link status; on failure *error holds the log.
bool gl_check_shader(GLuint shader, const char* what, std::string* error);
bool gl_check_program(GLuint program, const char* what, std::string* error);

}  // namespace tilescope
