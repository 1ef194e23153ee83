// An offscreen RGBA8 framebuffer object (one colour texture, no depth: ImGui needs none) that
// ImGui draw data can be rendered into and read back: the headless host's screen, and the PNG
// export of the timing plot at a chosen resolution. Needs a current GL context, and must be
// destroyed while that context is still current.
#pragma once

#include <string>

#include "app/platform/image.h"

namespace tilescope {

class RenderTarget {
 public:
  RenderTarget() = default;
  ~RenderTarget();
  RenderTarget(const RenderTarget&) = delete;
  RenderTarget& operator=(const RenderTarget&) = delete;

  // (Re)creates the FBO at width x height; false and *error on failure (non-positive or larger
  // than GL_MAX_TEXTURE_SIZE / GL_MAX_RENDERBUFFER_SIZE, out of memory, incomplete). Leaves the
  // framebuffer and texture bindings as they were.
  bool resize(int width, int height, std::string* error);
  void bind() const;     // glBindFramebuffer(GL_FRAMEBUFFER, fbo) + glViewport
  static void unbind();  // back to framebuffer 0
  // glReadPixels of the whole target, rows flipped to top-to-bottom. Alpha is kept as drawn.
  bool read(Image* out, std::string* error) const;
  // The colour texture (GL name), e.g. to show an offscreen plot with ImGui::Image.
  unsigned texture() const { return color_; }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  void release();
  unsigned fbo_ = 0, color_ = 0;
  int width_ = 0, height_ = 0;
};

// Reads width x height RGBA8 pixels from the framebuffer and buffer currently selected for
// reading (GL_READ_FRAMEBUFFER + glReadBuffer) into *out, top row first. Packs with alignment 1
// and no pixel-pack buffer, whatever the caller had set (CUDA interop code binds PBOs).
bool read_framebuffer_rgba(int width, int height, Image* out, std::string* error);

}  // namespace tilescope
