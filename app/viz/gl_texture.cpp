#include "viz/gl_texture.h"

#include <GL/gl.h>
#include <GL/glext.h>

#include <cstdint>

namespace tilescope {

GlTexture::~GlTexture() {
  if (id_) glDeleteTextures(1, &id_);
}

void GlTexture::upload(const Image& image) {
  if (image.width <= 0 || image.height <= 0) return;
  if (!id_) glGenTextures(1, &id_);
  glBindTexture(GL_TEXTURE_2D, id_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  if (image.width != width_ || image.height != height_) {
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, image.width, image.height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    width_ = image.width;
    height_ = image.height;
  }
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, image.width, image.height, GL_RGBA, GL_UNSIGNED_BYTE, image.rgba.data());
  glBindTexture(GL_TEXTURE_2D, 0);
}

}  // namespace tilescope
