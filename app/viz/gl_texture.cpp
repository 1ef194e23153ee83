#include "app/viz/gl_texture.h"

#include <GL/gl.h>
#include <GL/glext.h>

#include <cstdint>

#include "app/platform/gl_texture_storage.h"

namespace tilescope {

GlTexture::~GlTexture() {
  if (id_) glDeleteTextures(1, &id_);
}

bool GlTexture::allocate(int width, int height) {
  if (width <= 0 || height <= 0) return false;
  if (id_ && width == width_ && height == height_) return false;
  // A fresh texture object: a registered CUDA resource keeps referring to the old storage.
  if (id_) glDeleteTextures(1, &id_);
  id_ = new_rgba8_texture(width, height, GL_NEAREST);
  width_ = width;
  height_ = height;
  return true;
}

void GlTexture::upload(const Image& image) {
  if (image.width <= 0 || image.height <= 0) return;
  allocate(image.width, image.height);
  glBindTexture(GL_TEXTURE_2D, id_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, image.width, image.height, GL_RGBA, GL_UNSIGNED_BYTE, image.rgba.data());
  glBindTexture(GL_TEXTURE_2D, 0);
}

}  // namespace tilescope
