// CUDA–GL interop for the mapping view: colour an instrumented run's buffers on the GPU,
// straight into registered GL textures. Compiled with --fmad=false (see CMakeLists.txt) so the
// device evaluates the colour formulas of viz/colors.h exactly as the host does.
#include <GL/gl.h>
// cuda_gl_interop.h needs the GL types declared first.
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <string>

#include "app/viz/colors.h"
#include "app/viz/interop.h"
#include "kernels/cuda/cuda_check.h"

namespace tilescope {

namespace {

__device__ __forceinline__ std::int64_t sample(int pixel, int pixels, std::int64_t n) {
  return static_cast<std::int64_t>(pixel) * n / pixels;
}

__device__ __forceinline__ void put(cudaSurfaceObject_t surf, int x, int y, unsigned c) {
  const uchar4 v = make_uchar4(c & 0xFF, (c >> 8) & 0xFF, (c >> 16) & 0xFF, 0xFF);
  surf2Dwrite(v, surf, x * static_cast<int>(sizeof(uchar4)), y);
}

// C: the block that wrote each (sampled) element, or, for the selected block, the thread (or
// the warp, lane or register: `colouring`).
__global__ void colour_writers(const int* writer, std::int64_t m, std::int64_t n, int width, int height, Dim2 grid,
                               Dim2 block, int slots, int sel_x, int sel_y, bool mirrored_below_diagonal,
                               ThreadColouring colouring, cudaSurfaceObject_t surf) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const std::int64_t i = sample(y, height, m), j = sample(x, width, n);
  const int id = writer[i * n + j];
  unsigned colour = 0xFF000000u;  // never written: black
  if (id >= 0) {
    const int threads = block.x * block.y;
    const int thread = (id / slots) % threads, blk = (id / slots) / threads;
    const int bx = blk % grid.x, by = blk / grid.x;
    const bool mirrored = mirrored_below_diagonal && i > j;
    colour = (bx == sel_x && by == sel_y) ? selected_block_color(colouring, thread, block.x, id % slots)
                                          : block_color(blk, sel_x >= 0 || mirrored);
  }
  put(surf, x, y, colour);
}

// The maximum over the sampled elements: a reduction per block, then one atomic per block (an
// atomic per pixel on one address would serialise 16 million of them at 4096 x 4096).
__global__ void max_of_reads(const unsigned* reads, std::int64_t rows, std::int64_t cols, int width, int height,
                             unsigned* max_out) {
  __shared__ unsigned block_max[256];
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  block_max[t] = (x < width && y < height) ? reads[sample(y, height, rows) * cols + sample(x, width, cols)] : 0u;
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (t < stride) block_max[t] = max(block_max[t], block_max[t + stride]);
    __syncthreads();
  }
  if (t == 0) atomicMax(max_out, block_max[0]);
}

__global__ void colour_reads(const unsigned* reads, std::int64_t rows, std::int64_t cols, int width, int height,
                             const unsigned* max_reads, cudaSurfaceObject_t surf) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const unsigned n = reads[sample(y, height, rows) * cols + sample(x, width, cols)];
  const unsigned top = *max_reads;
  put(surf, x, y, heat_color(top > 0 ? static_cast<double>(n) / top : 0.0));
}

dim3 grid_for(int w, int h) {
  return dim3((w + 15) / 16, (h + 15) / 16);
}

}  // namespace

bool CudaGlTexture::register_texture(unsigned gl_texture, int width, int height, std::string* error) {
  release();
  const cudaError_t e =
      cudaGraphicsGLRegisterImage(&resource_, gl_texture, GL_TEXTURE_2D, cudaGraphicsRegisterFlagsSurfaceLoadStore);
  if (e != cudaSuccess) {
    resource_ = nullptr;
    if (error) *error = std::string("cudaGraphicsGLRegisterImage failed: ") + cudaGetErrorString(e);
    cudaGetLastError();
    return false;
  }
  texture_ = gl_texture;
  width_ = width;
  height_ = height;
  return true;
}

void CudaGlTexture::release() {
  if (resource_) cudaGraphicsUnregisterResource(resource_);
  resource_ = nullptr;
  texture_ = 0;
  width_ = height_ = 0;
}

CudaGlTexture::~CudaGlTexture() {
  release();
}

CudaGlTexture::Mapped::Mapped(CudaGlTexture& t, CUstream_st* stream) : t_(t), stream_(stream) {
  if (!t_.resource_) {
    error_ = "texture not registered with CUDA";
    return;
  }
  cudaError_t e = cudaGraphicsMapResources(1, &t_.resource_, stream_);
  if (e != cudaSuccess) {
    error_ = std::string("cudaGraphicsMapResources: ") + cudaGetErrorString(e);
    return;
  }
  mapped_ = true;
  cudaArray_t array = nullptr;
  e = cudaGraphicsSubResourceGetMappedArray(&array, t_.resource_, 0, 0);
  if (e != cudaSuccess) {
    error_ = std::string("cudaGraphicsSubResourceGetMappedArray: ") + cudaGetErrorString(e);
    return;
  }
  cudaResourceDesc desc{};
  desc.resType = cudaResourceTypeArray;
  desc.res.array.array = array;
  cudaSurfaceObject_t surf = 0;
  e = cudaCreateSurfaceObject(&surf, &desc);
  if (e != cudaSuccess) {
    error_ = std::string("cudaCreateSurfaceObject: ") + cudaGetErrorString(e);
    return;
  }
  surface_ = surf;
  ok_ = true;
}

CudaGlTexture::Mapped::~Mapped() {
  if (surface_) cudaDestroySurfaceObject(surface_);
  // Unmapping orders the CUDA writes before any later GL use of the texture.
  if (mapped_) cudaGraphicsUnmapResources(1, &t_.resource_, stream_);
}

bool colour_trace(const DeviceTrace& trace, int sel_x, int sel_y, bool mirrored_below_diagonal, CudaGlTexture& c_tex,
                  CudaGlTexture& a_tex, CudaGlTexture* b_tex, std::string* error, bool wait, unsigned* max_reads,
                  bool reads_too, ThreadColouring colouring) {
  if (!trace.valid()) {
    if (error) *error = "no trace to draw";
    return false;
  }
  try {
    const Shape s = trace.shape();
    const bool gemm = trace.problem() == Problem::Gemm;
    const std::int64_t a_rows = gemm ? s.M : s.K, a_cols = gemm ? s.K : s.N;
    cudaStream_t st = trace.stream();
    // One scratch word for the heatmaps' shared maximum (A and B on one scale, as the host path);
    // allocated once per process, like a cuBLAS workspace, and never freed.
    static unsigned* d_max = nullptr;
    if (!d_max) CUDA_CHECK(cudaMalloc(&d_max, sizeof(unsigned)));
    if (reads_too) {
      CUDA_CHECK(cudaMemsetAsync(d_max, 0, sizeof(unsigned), st));
      max_of_reads<<<grid_for(a_tex.width(), a_tex.height()), dim3(16, 16), 0, st>>>(
          trace.a_reads(), a_rows, a_cols, a_tex.width(), a_tex.height(), d_max);
      CUDA_CHECK_LAUNCH("max_of_reads");
      if (gemm && b_tex) {
        max_of_reads<<<grid_for(b_tex->width(), b_tex->height()), dim3(16, 16), 0, st>>>(
            trace.b_reads(), s.K, s.N, b_tex->width(), b_tex->height(), d_max);
        CUDA_CHECK_LAUNCH("max_of_reads");
      }
    }
    {
      CudaGlTexture::Mapped c(c_tex, st);
      if (!c.ok()) {
        if (error) *error = c.error();
        return false;
      }
      colour_writers<<<grid_for(c_tex.width(), c_tex.height()), dim3(16, 16), 0, st>>>(
          trace.writer(), s.M, s.N, c_tex.width(), c_tex.height(), trace.grid(), trace.block(), trace.slots(), sel_x,
          sel_y, mirrored_below_diagonal, colouring, c.surface());
      CUDA_CHECK_LAUNCH("colour_writers");
    }
    // The read counts do not change with the selected block: recoloured only after a new trace.
    if (reads_too) {
      CudaGlTexture::Mapped a(a_tex, st);
      if (!a.ok()) {
        if (error) *error = a.error();
        return false;
      }
      colour_reads<<<grid_for(a_tex.width(), a_tex.height()), dim3(16, 16), 0, st>>>(
          trace.a_reads(), a_rows, a_cols, a_tex.width(), a_tex.height(), d_max, a.surface());
      CUDA_CHECK_LAUNCH("colour_reads");
      if (gemm && b_tex) {
        CudaGlTexture::Mapped b(*b_tex, st);
        if (!b.ok()) {
          if (error) *error = b.error();
          return false;
        }
        colour_reads<<<grid_for(b_tex->width(), b_tex->height()), dim3(16, 16), 0, st>>>(
            trace.b_reads(), s.K, s.N, b_tex->width(), b_tex->height(), d_max, b.surface());
        CUDA_CHECK_LAUNCH("colour_reads");
      }
    }
    if (max_reads && reads_too)
      CUDA_CHECK(cudaMemcpyAsync(max_reads, d_max, sizeof(unsigned), cudaMemcpyDeviceToHost, st));
    if (wait || (max_reads && reads_too)) CUDA_CHECK(cudaStreamSynchronize(st));
    return true;
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    cudaGetLastError();
    return false;
  }
}

}  // namespace tilescope
