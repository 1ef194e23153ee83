// The GPU path of the mapping view against the host path: an instrumented run coloured on the
// GPU straight into GL textures (CUDA–GL interop) must give exactly the images the mapping
// model gives on the host. Skips itself (visibly) without a CUDA device; on the GPU machine it
// runs under EGL on the NVIDIA GPU. Also prints the refresh time of 4096 x 4096 images.
// Tensor-core variants are compared in every input type they compute and every colouring of
// their selected block (warp, lane, register), so the device evaluates viz/colors.h as the host.
#include "app/viz/interop.h"

#include <GL/gl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "app/platform/host.h"
#include "app/viz/gl_texture.h"
#include "app/viz/mapping_images.h"
#include "kernels/core/registry.h"
#include "kernels/cuda/device_info.h"
#include "kernels/instrument/trace.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

Image read_texture(const GlTexture& t) {
  Image img;
  img.width = t.width();
  img.height = t.height();
  img.rgba.assign(static_cast<std::size_t>(img.width) * img.height * 4, 0);
  glBindTexture(GL_TEXTURE_2D, t.id());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, img.rgba.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  return img;
}

std::size_t differing_pixels(const Image& a, const Image& b) {
  if (a.width != b.width || a.height != b.height) return static_cast<std::size_t>(-1);
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.rgba.size(); i += 4)
    if (!std::equal(a.rgba.begin() + i, a.rgba.begin() + i + 4, b.rgba.begin() + i)) ++n;
  return n;
}

struct Gl {
  std::unique_ptr<Host> host;
  Gl() {
    HostOptions o;
    o.width = 64;
    o.height = 64;
    std::string error;
    host = create_headless_host(o, &error);
    EXPECT_TRUE(host) << error;
  }
};

// One trace coloured on the GPU against the host path's images of the same model.
void compare_with_host(const VariantDescriptor& v, const MappingModel& model, const DeviceTrace& trace, Problem p,
                       const Shape& shape, ThreadColouring colouring) {
  std::string why;
  const int sel_x = std::min(1, model.grid().x - 1), sel_y = 0;
  const MappingImages host = render_mapping_images(model, p, shape, sel_x, sel_y, 1024, colouring);
  GlTexture c, a, b;
  c.allocate(host.c.width, host.c.height);
  a.allocate(host.a.width, host.a.height);
  CudaGlTexture rc, ra, rb;
  ASSERT_TRUE(rc.register_texture(c.id(), c.width(), c.height(), &why)) << why;
  ASSERT_TRUE(ra.register_texture(a.id(), a.width(), a.height(), &why)) << why;
  if (p == Problem::Gemm) {
    b.allocate(host.b.width, host.b.height);
    ASSERT_TRUE(rb.register_texture(b.id(), b.width(), b.height(), &why)) << why;
  }
  unsigned top = 0;
  ASSERT_TRUE(colour_trace(trace, sel_x, sel_y, p == Problem::Ata && v.model_caps.mirrored_ata, rc, ra,
                           p == Problem::Gemm ? &rb : nullptr, &why, true, &top, true, colouring))
      << why;
  EXPECT_EQ(static_cast<std::int64_t>(top), host.max_reads);
  EXPECT_EQ(differing_pixels(read_texture(c), host.c), 0u) << "C";
  EXPECT_EQ(differing_pixels(read_texture(a), host.a), 0u) << "A";
  if (p == Problem::Gemm) {
    EXPECT_EQ(differing_pixels(read_texture(b), host.b), 0u) << "B";
  }
}

}  // namespace

TEST(Interop, GpuImagesEqualTheHostPathForEveryVariant) {
  if (!probe_device().ok()) GTEST_SKIP() << "no usable GPU: " << probe_device().unavailable_reason;
  Gl gl;
  ASSERT_TRUE(gl.host);
  std::printf("interop renderer: %s\n", gl.host->renderer().c_str());
  int compared = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (!v->model) continue;
    // The kernels of the staircase in float, as the view's default; tensor-core kernels in each
    // type (their fragment layouts differ), in each colouring of the selected block.
    const std::vector<Precision> precisions =
        v->model_caps.warp_level ? v->precisions : std::vector<Precision>{Precision::F32};
    const std::vector<ThreadColouring> colourings =
        v->model_caps.warp_level
            ? std::vector<ThreadColouring>{ThreadColouring::Warp, ThreadColouring::Lane, ThreadColouring::Register}
            : std::vector<ThreadColouring>{ThreadColouring::Thread};
    for (int ci = 0; ci < static_cast<int>(v->configs.size()); ++ci)
      for (Precision precision : precisions)
        for (Problem p : {Problem::Gemm, Problem::Ata})
          for (const Shape& shape : {Shape{33, 33, 33}, Shape{129, 77, 301}}) {
            SCOPED_TRACE(std::string(v->id) + ":" + v->configs[ci].name + " " + to_string(p) + " " +
                         to_string(precision) + " " + std::to_string(shape.M) + "x" + std::to_string(shape.N) + "x" +
                         std::to_string(shape.K));
            std::string why;
            auto model = make_mapping_model(v->id, ci, p, precision, shape, &why);
            if (!model) continue;  // refused
            DeviceTrace trace;
            ASSERT_TRUE(trace.run(v->id, ci, p, precision, shape, -1, 1, &why)) << why;
            for (ThreadColouring colouring : colourings) {
              SCOPED_TRACE("colouring " + std::to_string(static_cast<int>(colouring)));
              compare_with_host(*v, *model, trace, p, shape, colouring);
              ++compared;
            }
          }
  }
  EXPECT_GT(compared, 10);
}

TEST(Interop, RefreshOf4096ImagesIsTimed) {
  if (!probe_device().ok()) GTEST_SKIP() << "no usable GPU: " << probe_device().unavailable_reason;
  Gl gl;
  ASSERT_TRUE(gl.host);
  // The prefetching kernel's 128 x 128 tiles, 32 deep: the configuration of the fastest runs.
  const VariantDescriptor* v = &tilescope::testing::prefetch_kernel();
  const int ci = tilescope::testing::config_where(
      *v, [](const TileConfig& c) { return c.bm == 128 && c.bn == 128 && c.bk == 32; }, "128 x 128 x 32");
  const Shape shape{4096, 4096, 4096};
  DeviceTrace trace;
  std::string why;
  ASSERT_TRUE(trace.run(v->id, ci, Problem::Gemm, Precision::F32, shape, -1, 1, &why)) << why;
  // 4096 x 4096 textures: one texel per element of C, A and B.
  GlTexture c, a, b;
  c.allocate(4096, 4096);
  a.allocate(4096, 4096);
  b.allocate(4096, 4096);
  CudaGlTexture rc, ra, rb;
  ASSERT_TRUE(rc.register_texture(c.id(), 4096, 4096, &why)) << why;
  ASSERT_TRUE(ra.register_texture(a.id(), 4096, 4096, &why)) << why;
  ASSERT_TRUE(rb.register_texture(b.id(), 4096, 4096, &why)) << why;
  // Two refreshes: everything after a new trace (C, A and B), and C alone when the user picks
  // another block (the read counts do not change then).
  for (const bool reads_too : {true, false}) {
    std::vector<double> ms;
    for (int i = 0; i < 25; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      ASSERT_TRUE(colour_trace(trace, i % 32, 0, false, rc, ra, &rb, &why, true, nullptr, reads_too)) << why;
      const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (i >= 5) ms.push_back(t);  // the first refreshes load the kernels
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    std::printf(
        "interop refresh at 4096 x 4096 (%s; map + colour + unmap, host wall clock): median %.3f ms, min %.3f ms\n",
        reads_too ? "C, A and B" : "C only", median, ms.front());
    RecordProperty(reads_too ? "refresh_all_median_ms" : "refresh_c_median_ms", std::to_string(median));
    // A sanity bound only; the figures are read from the output (a benchmark, not a timed test).
    EXPECT_LT(median, 100.0);
  }
}
