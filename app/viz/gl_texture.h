// An RGBA8 OpenGL texture that an Image is uploaded into (the host path of the mapping view:
// glTexSubImage2D), drawn with ImGui::Image. NEAREST filtering: one element, one crisp square.
#pragma once

#include <imgui.h>

#include <cstdint>

#include "app/platform/image.h"
#include "kernels/core/no_copy.h"

namespace tilescope {

class GlTexture : NoCopy {
 public:
  ~GlTexture();

  // (Re)allocates when the size changes; needs a current GL context.
  void upload(const Image& image);
  // Storage only (the CUDA–GL interop path writes the texels); true when it was (re)allocated,
  // so a CUDA registration of the old storage must be renewed.
  bool allocate(int width, int height);
  unsigned id() const { return id_; }
  ImTextureID imgui_id() const { return reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(id_)); }
  int width() const { return width_; }
  int height() const { return height_; }
  bool valid() const { return id_ != 0 && width_ > 0 && height_ > 0; }

 private:
  unsigned id_ = 0;
  int width_ = 0, height_ = 0;
};

}  // namespace tilescope
