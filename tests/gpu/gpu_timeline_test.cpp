// The pipeline timeline's build on the GPU: for every variant with one, every configuration (the
// compiled set and the typed samples, gpu_typed_tiles_test.cpp, compiled at run time with the
// timeline's probe) and problem it runs, in 16-bit, on a ragged size and on one large enough for
// every block to walk several tiles: each block stamps every slab it moves (as many as its tiles
// times the slabs of a tile), the stamps obey the orderings the barriers impose
// (timeline_order_violation), and the ring really overlaps: some copy is issued before the slab
// ahead of it is done. Skips itself (visibly) where no CUDA device exists, or where the device's
// architecture runs no timeline build.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "kernels/cuda/device_info.h"
#include "kernels/instrument/timeline.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/variant_cases.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

std::vector<const VariantDescriptor*> timeline_variants() {
  std::vector<const VariantDescriptor*> out;
  for (const VariantDescriptor* v : variant_registry())
    if (v->launch_timeline) out.push_back(v);
  return out;
}

// Works (tiles, or groups of tiles for clusters) taker b of `takers` walks: b, b + takers, ...
int tiles_of_block(int b, int takers, std::int64_t works) {
  return b < works ? static_cast<int>((works - 1 - b) / takers + 1) : 0;
}

TEST(GpuTimeline, SomeVariantHasOne) {
  EXPECT_FALSE(timeline_variants().empty());
}

TEST(GpuTimeline, StampsEverySlabInAnOrderTheBarriersAllow) {
  SKIP_WITHOUT_GPU();
  tilescope::testing::DeviceBuilds builds(probe_device().limits);
  int checked = 0;
  for (const VariantDescriptor* v : timeline_variants())
    for (Problem problem : {Problem::Gemm, Problem::Ata})
      for (int config = 0; config < config_count(*v); ++config)
        for (Precision precision : {Precision::BF16, Precision::TF32}) {
          if (!builds.runs(*v, config, problem, precision)) continue;
          for (const Shape& raw : {Shape{300, 200, 129}, Shape{2048, 2048, 1024}}) {
            const Shape s = normalised(problem, problem == Problem::Ata ? Shape{0, raw.N, raw.K} : raw);
            SCOPED_TRACE(std::string(v->id) + ":" + config_at(*v, config).name + " " + to_string(problem) +
                         " M=" + std::to_string(s.M) + " N=" + std::to_string(s.N) + " K=" + std::to_string(s.K));
            const int records = 4096;
            const TimelineResult r = run_timeline(v->id, config, problem, precision, s, records, 5);
            ASSERT_TRUE(r.ok()) << r.error;
            ASSERT_EQ(static_cast<int>(r.blocks.size()), r.layout.blocks);
            EXPECT_GT(r.kernel_ns, 0);
            bool overlapped = false;
            for (const TimelineBlock& b : r.blocks) {
              const int cluster = r.layout.cluster;
              int slabs = tiles_of_block(b.block / cluster, r.layout.blocks / cluster, r.layout.works) *
                          r.layout.slabs_per_tile;
              // Stream-K: the block's runs, as the layout walks them.
              if (!r.layout.runs.empty()) {
                slabs = 0;
                for (const TimelineRun& run : r.layout.runs[static_cast<std::size_t>(b.block)]) slabs += run.slabs;
              }
              ASSERT_EQ(b.slabs_total, slabs) << "block " << b.block;
              ASSERT_EQ(static_cast<int>(b.slabs.size()), std::min(slabs, records));
              EXPECT_EQ(timeline_order_violation(b, r.layout), "");
              for (std::size_t n = 1; n < b.raw.size(); ++n) {
                if (b.raw[n].issued < b.raw[n - 1].done[0]) overlapped = true;
              }
              EXPECT_LE(b.begin, b.end);
            }
            // Two or more slabs in a tile (stream-K: in a run) of a block: the producer runs ahead of
            // the consumers.
            bool long_run = r.layout.runs.empty() && r.layout.slabs_per_tile > 1;
            for (const std::vector<TimelineRun>& runs : r.layout.runs)
              for (const TimelineRun& run : runs) long_run = long_run || run.slabs > 1;
            if (long_run) {
              EXPECT_TRUE(overlapped);
            }
            ++checked;
          }
        }
  // The timeline builds are sm_90a code: elsewhere a skip, with the reason.
  EXPECT_CHECKED_UNLESS_THE_ARCHITECTURE_RUNS_NONE(builds, checked, "timeline build");
}

TEST(GpuTimeline, RefusesWhatHasNoTimeline) {
  SKIP_WITHOUT_GPU();
  const TimelineResult r =
      run_timeline(tilescope::testing::baseline().id, 0, Problem::Gemm, Precision::F32, {64, 64, 64}, 16, 1);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("no timeline"), std::string::npos) << r.error;
}

}  // namespace
