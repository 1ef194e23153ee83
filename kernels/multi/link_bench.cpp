#include "kernels/multi/link_bench.h"

#include <cuda_runtime.h>

#include <algorithm>

#include "kernels/core/gemm_types.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/device_scope.h"
#include "kernels/cuda/nccl_api.h"
#include "kernels/measure/gpu_buffers.h"
#include "kernels/multi/gpu_group.h"

namespace tilescope {

const std::vector<double>& link_bench_sizes() {
  static const std::vector<double> sizes = {4096.0, 65536.0, 1048576.0, 16777216.0, 67108864.0, 268435456.0};
  return sizes;
}

LinkFigures link_figures_of(const std::vector<LinkSample>& samples) {
  LinkFigures f;
  auto of = [&](const char* collective, bool largest) {
    const LinkSample* best = nullptr;
    for (const LinkSample& s : samples)
      if (s.collective == collective && (!best || (largest ? s.bytes > best->bytes : s.bytes < best->bytes))) best = &s;
    return best;
  };
  const LinkSample* small_b = of("broadcast", false);
  const LinkSample* large_b = of("broadcast", true);
  const LinkSample* small_r = of("reduce", false);
  const LinkSample* large_r = of("reduce", true);
  if (!small_b || !large_b || !small_r || !large_r) return f;
  f.latency_us = 1e3 * std::min(small_b->median_ms, small_r->median_ms);
  auto bandwidth = [&](const LinkSample& large) {
    const double ms = large.median_ms - f.latency_us * 1e-3;
    return ms > 0 ? large.bytes / (ms * 1e6) : large.gbs();
  };
  f.broadcast_gbs = bandwidth(*large_b);
  f.reduce_gbs = bandwidth(*large_r);
  return f;
}

LinkBench measure_links(GpuGroup& group, int repetitions) {
  group.ensure_communicators();
  const NcclApi& api = *nccl();
  const double largest = link_bench_sizes().back();
  // One buffer per GPU, in the group's scratch (its layout asked for none: sized here).
  SplitLayout layout{std::vector<GpuLayout>(group.size())};
  for (GpuLayout& l : layout.gpus) l.scratch_bytes = static_cast<std::size_t>(largest);
  const std::vector<GpuShare> gpus = group.shares_for(layout, 1, 1);
  for (const GpuShare& g : gpus) {
    DeviceScope on(g.device);
    CUDA_CHECK(cudaMemsetAsync(g.scratch, 0, static_cast<std::size_t>(largest), g.transfer));
  }
  group.synchronize();

  std::vector<cudaEvent_t> ends(gpus.size(), nullptr);
  cudaEvent_t start = nullptr, stop = nullptr;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    DeviceScope on(gpus[i].device);
    CUDA_CHECK(cudaEventCreateWithFlags(&ends[i], cudaEventDisableTiming));
  }
  {
    DeviceScope on(gpus[0].device);
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
  }
  auto once = [&](bool broadcast, double bytes) {
    group.synchronize();
    {
      DeviceScope on(gpus[0].device);
      CUDA_CHECK(cudaEventRecord(start, gpus[0].transfer));
    }
    for (const GpuShare& g : gpus) {
      DeviceScope on(g.device);
      CUDA_CHECK(cudaStreamWaitEvent(g.transfer, start, 0));
    }
    NCCL_CHECK(api.group_start());
    for (const GpuShare& g : gpus) {
      if (broadcast)
        NCCL_CHECK(
            api.broadcast(g.scratch, g.scratch, static_cast<std::size_t>(bytes), kNcclUint8, 0, g.comm, g.transfer));
      else
        NCCL_CHECK(api.reduce(g.scratch, g.scratch, static_cast<std::size_t>(bytes / 4), kNcclFloat32, kNcclSum, 0,
                              g.comm, g.transfer));
    }
    NCCL_CHECK(api.group_end());
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      DeviceScope on(gpus[i].device);
      CUDA_CHECK(cudaEventRecord(ends[i], gpus[i].transfer));
    }
    DeviceScope on(gpus[0].device);
    for (cudaEvent_t e : ends) CUDA_CHECK(cudaStreamWaitEvent(gpus[0].transfer, e, 0));
    CUDA_CHECK(cudaEventRecord(stop, gpus[0].transfer));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return static_cast<double>(ms);
  };

  LinkBench out;
  for (bool broadcast : {true, false})
    for (double bytes : link_bench_sizes()) {
      for (int i = 0; i < 2; ++i) once(broadcast, bytes);  // warm-up
      std::vector<double> times;
      for (int i = 0; i < std::max(1, repetitions); ++i) times.push_back(once(broadcast, bytes));
      out.samples.push_back({broadcast ? "broadcast" : "reduce", group.size(), bytes, median_of(times)});
    }
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    DeviceScope on(gpus[i].device);
    cudaEventDestroy(ends[i]);
  }
  {
    DeviceScope on(gpus[0].device);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  out.figures = link_figures_of(out.samples);
  return out;
}

}  // namespace tilescope
