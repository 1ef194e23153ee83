// Products split across GPUs (kernels/multi/): every split, on every count of GPUs this machine has
// (up to 4), checked against the FP64 reference on sizes that are no multiple of a tile, with its
// timeline; more GPUs than exist refused with the reason and the next run unharmed; a split that
// leaves a piece wrong failed by the check.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "kernels/core/registry.h"
#include "kernels/cuda/cuda_libraries.h"
#include "kernels/cuda/nccl_api.h"
#include "kernels/multi/split_measure.h"
#include "kernels/multi/split_registry.h"
#include "tests/support/variant_cases.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

int gpu_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) return 0;
  return n;
}

// The kernels a split is tried with: cuBLAS (the library takes only it) and the first FP32 product
// kernel of ours that computes the problem.
std::vector<std::pair<const VariantDescriptor*, int>> kernels_for(const SplitDescriptor& s, Problem p) {
  std::vector<std::pair<const VariantDescriptor*, int>> out;
  const VariantDescriptor& base = tilescope::testing::baseline();
  out.push_back({&base, base.default_config});
  if (s.own_kernel) return out;
  for (const VariantDescriptor* v : tilescope::testing::variants_where([&](const VariantDescriptor& d) {
         return tilescope::testing::is_product_kernel(d) && d.model && supports(d, p) && supports(d, Precision::F32) &&
                unsupported_reason(d, d.default_config, p, Precision::F32, probe_device().limits).empty();
       })) {
    out.push_back({v, v->default_config});
    break;
  }
  return out;
}

// Ragged sizes: no multiple of a tile, two column panels for the row split (N above twice the
// smallest panel), K slabs of unequal length.
RunRequest request_for(const SplitDescriptor& s, int config, Problem p, const VariantDescriptor& kernel, int cfg,
                       int gpus) {
  RunRequest r;
  r.variant_id = kernel.id;
  r.config_index = cfg;
  r.problem = p;
  r.precision = Precision::F32;
  r.shape = p == Problem::Gemm ? Shape{1000, 4500, 300} : Shape{700, 700, 1000};
  r.repetitions = 2;
  r.warmup = 1;
  r.split = s.id;
  r.split_config = config;
  r.gpus = gpus;
  return r;
}

bool nccl_usable() {
  return nccl() != nullptr;
}

}  // namespace

TEST(GpuSplits, EverySplitOnEveryCountOfGpusMatchesTheReference) {
  SKIP_WITHOUT_GPU();
  const int most = std::min(gpu_count(), 4);
  SplitMeasurer measurer;
  int checked = 0;
  for (const SplitDescriptor* s : split_registry()) {
    if (s->needs_nccl && !nccl_usable()) {
      ADD_FAILURE() << s->id << ": NCCL is missing on a GPU machine: " << missing_nccl_sentence();
      continue;
    }
    for (Problem p : s->problems)
      for (int config = 0; config < static_cast<int>(s->configs.size()); ++config)
        for (const auto& [kernel, cfg] : kernels_for(*s, p))
          for (int gpus = 1; gpus <= most; ++gpus) {
            const RunRequest req = request_for(*s, config, p, *kernel, cfg, gpus);
            const RunResult r = measurer.run(req);
            const std::string what = std::string(s->id) + ":" + s->configs[config].name + " " + to_string(p) +
                                     " with " + kernel->id + " on " + std::to_string(gpus) + " GPUs";
            ASSERT_TRUE(r.ok()) << what << ": " << r.error;
            EXPECT_TRUE(r.verified && r.passed)
                << what << ": error " << r.rel_error << " > " << r.tolerance << ", unwritten " << r.unwritten;
            EXPECT_EQ(r.gpus, gpus);
            EXPECT_EQ(r.split, s->id);
            EXPECT_EQ(std::count(r.gpu_names.begin(), r.gpu_names.end(), ';'), gpus - 1) << r.gpu_names;
            EXPECT_GT(r.median_ms, 0) << what;
            if (s->host_timed) {
              EXPECT_TRUE(r.spans.empty()) << what << ": the library's streams are its own";
            } else {
              // Every GPU has products on its rows, and transfers where there are two GPUs or more
              // (on one, a split may have nothing to send), each inside the run.
              for (int g = 0; g < gpus; ++g)
                for (SpanStream stream : {SpanStream::Compute, SpanStream::Transfer})
                  if (gpus > 1 || stream == SpanStream::Compute) {
                    EXPECT_TRUE(std::any_of(r.spans.begin(), r.spans.end(),
                                            [&](const RunSpan& x) { return x.gpu == g && x.stream == stream; }))
                        << what << ": GPU " << g << " has no " << to_string(stream) << " span";
                  }
              for (const RunSpan& x : r.spans) {
                EXPECT_LE(x.start_ms, x.end_ms) << what << ": " << x.what;
                EXPECT_GE(x.start_ms, 0) << what << ": " << x.what;
              }
            }
            ++checked;
          }
  }
  EXPECT_GT(checked, 0);
}

TEST(GpuSplits, MoreGpusThanTheMachineHasIsRefusedAndTheNextRunWorks) {
  SKIP_WITHOUT_GPU();
  const SplitDescriptor& s = **std::find_if(split_registry().begin(), split_registry().end(),
                                            [](const SplitDescriptor* d) { return !d->needs_nccl || nccl_usable(); });
  const Problem p = s.problems.front();
  const auto kernel = kernels_for(s, p).front();
  SplitMeasurer measurer;
  const RunResult too_many = measurer.run(request_for(s, 0, p, *kernel.first, kernel.second, gpu_count() + 1));
  EXPECT_FALSE(too_many.ok());
  EXPECT_NE(too_many.error.find("this machine has " + std::to_string(gpu_count())), std::string::npos)
      << too_many.error;
  const RunResult next = measurer.run(request_for(s, 0, p, *kernel.first, kernel.second, 1));
  EXPECT_TRUE(next.ok() && next.passed) << next.error;
}

namespace {

// A split that does what the row split does and then spoils one element of GPU 0's C: the check
// must fail it (and the span rows are still drawn).
const SplitDescriptor& row_split() {
  return **std::find_if(split_registry().begin(), split_registry().end(), [](const SplitDescriptor* d) {
    return d->needs_nccl && std::find(d->problems.begin(), d->problems.end(), Problem::Gemm) != d->problems.end();
  });
}

void spoiled_launch(const SplitArgs& args, int config) {
  row_split().launch(args, config);
  const GpuShare& root = args.gpus[0];
  cudaSetDevice(root.device);
  const float wrong = 12345.f;
  ASSERT_EQ(cudaMemcpyAsync(root.c, &wrong, sizeof wrong, cudaMemcpyHostToDevice, root.compute), cudaSuccess);
}

const SplitDescriptor& spoiled_split() {
  static const SplitDescriptor s = [] {
    SplitDescriptor d = row_split();
    d.id = "spoiled_row_split";
    d.launch = spoiled_launch;
    return d;
  }();
  return s;
}

}  // namespace

TEST(GpuSplits, TheCheckFailsASplitThatSpoilsOneElement) {
  SKIP_WITHOUT_GPU();
  if (!nccl_usable()) GTEST_FAIL() << "NCCL is missing on a GPU machine: " << missing_nccl_sentence();
  add_example_split(spoiled_split());
  SplitMeasurer measurer;
  const auto kernel = kernels_for(spoiled_split(), Problem::Gemm).front();
  for (int gpus = 1; gpus <= std::min(gpu_count(), 2); ++gpus) {
    const RunResult r =
        measurer.run(request_for(spoiled_split(), 0, Problem::Gemm, *kernel.first, kernel.second, gpus));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_TRUE(r.verified);
    EXPECT_FALSE(r.passed) << "the spoiled element passed the check on " << gpus << " GPUs: error " << r.rel_error;
  }
}

// The link microbenchmark between two GPUs: every size of both collectives timed, the figures read
// off them positive and the larger transfers faster per byte (latency amortised).
TEST(GpuSplits, TheLinkBetweenTwoGpusIsMeasured) {
  SKIP_WITHOUT_GPU();
  if (gpu_count() < 2) GTEST_SKIP() << "the link is between two GPUs: this machine has " << gpu_count();
  if (!nccl_usable()) GTEST_FAIL() << "NCCL is missing on a GPU machine: " << missing_nccl_sentence();
  SplitMeasurer measurer;
  LinkBench link;
  std::string why;
  ASSERT_TRUE(measurer.measure_links(2, 3, &link, &why)) << why;
  EXPECT_EQ(link.samples.size(), 2 * link_bench_sizes().size());
  for (const LinkSample& s : link.samples) EXPECT_GT(s.median_ms, 0) << s.collective << " " << s.bytes;
  EXPECT_TRUE(link.figures.known());
  EXPECT_GT(link.figures.latency_us, 0);
  EXPECT_GT(link.samples.back().gbs(), link.samples.front().gbs());
  // One GPU has no link to measure: said, not thrown.
  EXPECT_FALSE(measurer.measure_links(1, 3, &link, &why));
  EXPECT_FALSE(why.empty());
}
