#include "app/platform/render_target.h"

#include <GL/gl.h>
#include <GL/glext.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "app/platform/gl_check.h"
#include "app/platform/gl_texture_storage.h"

namespace tilescope {
namespace {

// Restores a binding when a function returns, whichever way it returns: ImGui and the UI code
// assume the bindings they set stay set.
class FramebufferBindingGuard {
 public:
  FramebufferBindingGuard() {
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_);
  }
  ~FramebufferBindingGuard() {
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(draw_));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_));
  }

 private:
  GLint draw_ = 0, read_ = 0;
};

}  // namespace

RenderTarget::~RenderTarget() {
  release();
}

void RenderTarget::release() {
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (color_) glDeleteTextures(1, &color_);
  fbo_ = color_ = 0;
  width_ = height_ = 0;
}

bool RenderTarget::resize(int width, int height, std::string* error) {
  GLint max_texture = 0, max_renderbuffer = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture);
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_renderbuffer);
  const int limit = std::min(max_texture, max_renderbuffer);
  if (width <= 0 || height <= 0 || width > limit || height > limit) {
    *error = "cannot make a " + std::to_string(width) + "x" + std::to_string(height) +
             " offscreen image: each side must be between 1 and " + std::to_string(limit) + " pixels";
    return false;
  }
  if (width == width_ && height == height_ && fbo_) return true;
  release();
  gl_clear_stale_errors("before RenderTarget::resize");

  FramebufferBindingGuard keep_framebuffers;
  color_ = new_rgba8_texture(width, height, GL_LINEAR);

  glGenFramebuffers(1, &fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color_, 0);
  const GLenum draw_buffer = GL_COLOR_ATTACHMENT0;
  glDrawBuffers(1, &draw_buffer);
  glReadBuffer(GL_COLOR_ATTACHMENT0);

  std::string why;
  // Out of memory shows up as a GL error on glTexImage2D, not as an incomplete framebuffer.
  if (!gl_ok("glTexImage2D", &why) || !gl_framebuffer_complete(GL_FRAMEBUFFER, &why)) {
    release();
    *error = "cannot make a " + std::to_string(width) + "x" + std::to_string(height) + " offscreen image: " + why;
    return false;
  }
  width_ = width;
  height_ = height;
  return true;
}

void RenderTarget::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, width_, height_);
  TILESCOPE_GL_DEBUG("RenderTarget::bind");
}

void RenderTarget::unbind() {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

bool RenderTarget::read(Image* out, std::string* error) const {
  if (!fbo_) {
    *error = "cannot read an offscreen image that was never made (RenderTarget::resize failed or was not called)";
    return false;
  }
  FramebufferBindingGuard keep_framebuffers;
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  return read_framebuffer_rgba(width_, height_, out, error);
}

bool read_framebuffer_rgba(int width, int height, Image* out, std::string* error) {
  if (width <= 0 || height <= 0) {
    *error = "cannot read a " + std::to_string(width) + "x" + std::to_string(height) + " framebuffer";
    return false;
  }
  gl_clear_stale_errors("before glReadPixels");
  GLint pack_alignment = 4, pack_row_length = 0, pack_buffer = 0;
  glGetIntegerv(GL_PACK_ALIGNMENT, &pack_alignment);
  glGetIntegerv(GL_PACK_ROW_LENGTH, &pack_row_length);
  glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buffer);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glPixelStorei(GL_PACK_ROW_LENGTH, 0);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);

  const std::size_t row = static_cast<std::size_t>(width) * 4;
  std::vector<std::uint8_t> pixels(row * static_cast<std::size_t>(height));
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());

  glPixelStorei(GL_PACK_ALIGNMENT, pack_alignment);
  glPixelStorei(GL_PACK_ROW_LENGTH, pack_row_length);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, static_cast<GLuint>(pack_buffer));
  std::string why;
  if (!gl_ok("glReadPixels", &why)) {
    *error = "cannot read the rendered image back: " + why;
    return false;
  }

  // GL's rows run bottom to top; images and PNG files run top to bottom.
  out->width = width;
  out->height = height;
  out->rgba.resize(pixels.size());
  for (int y = 0; y < height; ++y) {
    std::memcpy(out->rgba.data() + static_cast<std::size_t>(y) * row,
                pixels.data() + static_cast<std::size_t>(height - 1 - y) * row, row);
  }
  return true;
}

}  // namespace tilescope
