// A first look at the texture-shader GEMM on a real GPU (not its benchmark: bench measures the
// texture shaders like every variant). Skips itself without a CUDA device (the GL path then is Mesa, covered by
// shader_gemm_test.cpp); on the GPU machine it runs each mode at N = 1024 and 4096 through EGL on
// the NVIDIA GPU, checks a sample of elements against a double dot product, and prints
// GFLOP/s from GL_TIME_ELAPSED and from the wall clock.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "app/gl_gemm/shader_gemm.h"
#include "app/platform/host.h"
#include "kernels/cuda/device_info.h"
#include "kernels/measure/random_inputs.h"

using namespace tilescope;

TEST(ShaderGemmOnGpu, EveryModeAt1024And4096) {
  if (!probe_device().ok()) GTEST_SKIP() << "no usable GPU: " << probe_device().unavailable_reason;
  HostOptions o;
  o.width = o.height = 64;
  std::string error;
  auto host = create_headless_host(o, &error);
  ASSERT_TRUE(host) << error;
  std::printf("shader GEMM renderer: %s\n", host->renderer().c_str());
  ShaderLibrary lib;
  ASSERT_TRUE(lib.reload(&error)) << error;
  for (int n : {1024, 4096}) {
    std::vector<float> a(static_cast<std::size_t>(n) * n), b(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      a[i] = static_cast<float>(input_value(1, 0, i));
      b[i] = static_cast<float>(input_value(1, 1, i));
    }
    for (ShaderMode mode : all_shader_modes()) {
      const ShaderGemmResult r = run_shader_gemm(mode, a.data(), b.data(), n, n, n, 5, lib);
      ASSERT_TRUE(r.error.empty()) << shader_mode_fragment_file(mode) << ": " << r.error;
      // 256 sampled elements against a double dot product.
      double diff2 = 0, ref2 = 0;
      for (int s = 0; s < 256; ++s) {
        const int i = static_cast<int>((s * 7919LL) % n), j = static_cast<int>((s * 104729LL) % n);
        double ref = 0;
        for (int k = 0; k < n; ++k)
          ref += static_cast<double>(a[static_cast<std::size_t>(i) * n + k]) * b[static_cast<std::size_t>(k) * n + j];
        const double got = r.c[static_cast<std::size_t>(i) * n + j];
        diff2 += (got - ref) * (got - ref);
        ref2 += ref * ref;
      }
      const double rel = std::sqrt(diff2 / ref2);
      const double flops = 2.0 * n * n * static_cast<double>(n);
      std::printf(
          "shader GEMM %-12s N = %5d: %8.1f GFLOP/s (GL timer %.3f ms), %8.1f GFLOP/s (wall %.3f ms), "
          "%d passes, rel. error (sampled) %.1e\n",
          shader_mode_fragment_file(mode), n, flops / (r.gpu_ms * 1e6), r.gpu_ms, flops / (r.wall_ms * 1e6), r.wall_ms,
          r.passes, rel);
      EXPECT_LT(rel, 4 * std::ldexp(1.0, -24) * std::sqrt(n) * 4) << shader_mode_fragment_file(mode);
    }
  }
}
