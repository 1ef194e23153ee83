// The GPU path of the mapping view: an instrumented run's buffers (kernels/instrument/trace.h) are turned
// into colours by CUDA kernels that write straight into OpenGL textures through CUDA–GL
// interop — no copy through the host. The colours and the sampling are those of the host path
// (viz/colors.h, mapping_images.cpp), so both paths give the same pictures (a GPU test checks).
#pragma once

#include <memory>
#include <string>

#include "app/viz/colors.h"
#include "kernels/instrument/trace.h"

namespace tilescope {

// One GL texture registered with CUDA, spelled out in the order the interop needs:
// register (once, in the constructor) -> map -> write through a surface -> unmap (the Mapped
// scope) -> unregister (destructor). The texture must be GL_RGBA8 and stay the same size while
// registered; make a new one after a resize.
class CudaGlTexture {
 public:
  // False and *error when registration fails (no CUDA device, a GL context not on it).
  bool register_texture(unsigned gl_texture, int width, int height, std::string* error);
  ~CudaGlTexture();
  bool registered() const { return resource_ != nullptr; }
  int width() const { return width_; }
  int height() const { return height_; }
  unsigned gl_texture() const { return texture_; }

  // Maps the texture for CUDA while it lives; surface() is valid inside this scope only.
  class Mapped {
   public:
    Mapped(CudaGlTexture& t, CUstream_st* stream);
    ~Mapped();
    Mapped(const Mapped&) = delete;
    Mapped& operator=(const Mapped&) = delete;
    unsigned long long surface() const { return surface_; }
    bool ok() const { return ok_; }
    const std::string& error() const { return error_; }

   private:
    CudaGlTexture& t_;
    CUstream_st* stream_;
    unsigned long long surface_ = 0;
    bool mapped_ = false, ok_ = false;
    std::string error_;
  };

 private:
  void release();
  struct cudaGraphicsResource* resource_ = nullptr;
  unsigned texture_ = 0;
  int width_ = 0, height_ = 0;
};

// Colours the trace into the three textures (each registered at the image size the host path
// would make for `max_side`): C by writer block / selected block's threads, A and B by reads.
// `mirrored_below_diagonal`: AᵀA kernels that write the lower triangle as mirrors (dimmed, as
// the model's Owner::mirrored). Returns false and *error on failure. Synchronous on the trace's
// stream when `wait` (for timing and tests).
// `max_reads` (optional): the heatmaps' top value, read back (4 bytes) for the legend.
// `reads_too` false: only C is recoloured (a new selected block; the read counts are unchanged).
// `colouring`: what tells the selected block's elements apart, as render_mapping_images.
bool colour_trace(const DeviceTrace& trace, int selected_block_x, int selected_block_y, bool mirrored_below_diagonal,
                  CudaGlTexture& c_tex, CudaGlTexture& a_tex, CudaGlTexture* b_tex, std::string* error,
                  bool wait = false, unsigned* max_reads = nullptr, bool reads_too = true,
                  ThreadColouring colouring = ThreadColouring::Thread);

}  // namespace tilescope
