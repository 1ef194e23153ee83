// One warp's addresses, recorded by the instrumented kernels (TraceProbe, TraceBuffers::addresses),
// against the mapping models' access sites (warp_access.h), on the GPU: for every CUDA variant
// whose model lists its accesses, every configuration, problem and input type, on ragged sizes,
// four warps (the first of the first block, one in the middle, one of the last block of the first
// row, the last of the last block), each lane's addresses at every step of every site must be
// exactly the model's, in the lane's order.
// This is what lets the Mapping tab's memory view draw the model without a GPU and mean the
// kernel. Skips itself (visibly) without a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/device_info.h"
#include "kernels/instrument/recorded_warp.h"
#include "kernels/instrument/trace.h"
#include "kernels/models/mapping_model.h"
#include "kernels/models/warp_access.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/memory_picks.h"
#include "tests/support/variant_case_suites.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

std::vector<tilescope::testing::VariantCase> recorded_cases() {
  return tilescope::testing::variant_cases([](const VariantDescriptor& v) { return v.launch_traced != nullptr; });
}

class EveryRecordedWarp : public tilescope::testing::VariantCaseTest {};

TEST_P(EveryRecordedWarp, EqualsTheModelsAddresses) {
  SKIP_WITHOUT_GPU();
  if (!supports(v, c.precision)) GTEST_SKIP() << c.variant << " does not compute " << to_string(c.precision);
  tilescope::testing::DeviceBuilds builds(probe_device().limits);
  int checked = 0;
  // Ragged against every tile; the second with rows of whole 16-byte vectors (the vector paths).
  const std::vector<Shape> shapes = {c.problem == Problem::Gemm ? Shape{150, 133, 141} : Shape{0, 150, 141},
                                     c.problem == Problem::Gemm ? Shape{136, 200, 72} : Shape{0, 200, 72}};
  for (const Shape& raw : shapes)
    for (int config = 0; config < config_count(v); ++config) {
      if (!builds.runs(v, config, c.problem, c.precision)) continue;
      const Shape s = normalised(c.problem, raw);
      std::string why;
      const auto model = make_mapping_model(c.variant, config, c.problem, c.precision, s, &why);
      ASSERT_NE(model, nullptr) << why;
      const std::vector<AccessSite> sites = model->access_sites();
      if (sites.empty()) continue;
      const Dim2 grid = model->grid(), block = model->block();
      const int warps = (block.x * block.y + kWarpLanes - 1) / kWarpLanes;
      const int blocks = grid.x * grid.y;
      struct Pick {
        int linear, warp;
      };
      // The last of the first row of blocks too: in AᵀA's 2-D grids, a tile above the diagonal.
      for (const Pick& p :
           {Pick{0, 0}, Pick{blocks / 2, warps / 2}, Pick{grid.x - 1, warps / 2}, Pick{blocks - 1, warps - 1}}) {
        const int bx = p.linear % grid.x, by = p.linear / grid.x;
        if (!model->block_active(bx, by)) continue;
        const int steps = steps_to_record(*model, bx, by);
        SCOPED_TRACE(c.variant + ":" + config_at(v, config).name + " " + to_string(c.problem) + " " +
                     to_string(c.precision) + " M=" + std::to_string(s.M) + " N=" + std::to_string(s.N) + " K=" +
                     std::to_string(s.K) + " block " + std::to_string(p.linear) + " warp " + std::to_string(p.warp));
        const RecordedWarp r = record_warp(c.variant, config, c.problem, c.precision, s, {p.linear, p.warp, steps}, 5);
        ASSERT_TRUE(r.ok()) << r.error;
        EXPECT_EQ(compare_recorded_warp(*model, r, bx, by, p.warp), "");
        ++checked;
      }
    }
  if (checked == 0) GTEST_SKIP() << c.variant << ": no configuration whose model lists its accesses runs here";
}

// The comparison can fail: one address of a real recording moved by 4 bytes is found and named.
TEST(GpuWarpAccess, ACorruptedRecordingIsCaught) {
  SKIP_WITHOUT_GPU();
  const VariantDescriptor& v = tilescope::testing::tiled_kernel();
  const int config = tilescope::testing::config_where(
      v, [](const TileConfig& c) { return c.threads_x == 16 && c.threads_y == 16; }, "of 16 x 16 threads");
  const Shape s{40, 40, 40};
  std::string why;
  const auto model = make_mapping_model(v.id, config, Problem::Gemm, Precision::F32, s, &why);
  ASSERT_NE(model, nullptr) << why;
  RecordedWarp r =
      record_warp(v.id, config, Problem::Gemm, Precision::F32, s, {0, 1, steps_to_record(*model, 0, 0)}, 5);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(compare_recorded_warp(*model, r, 0, 0, 1), "");
  const int stream =
      model->access_sites()[tilescope::testing::site_of(*model, 'B', MemorySpace::Shared, AccessKind::Load)].recorded;
  ASSERT_GE(stream, 0);
  r.address[(static_cast<std::size_t>(stream) * r.steps + 3) * kWarpLanes + 7] += 4;
  const std::string error = compare_recorded_warp(*model, r, 0, 0, 1);
  EXPECT_NE(error.find("lane 7, step 3"), std::string::npos) << error;
}

INSTANTIATE_TEST_SUITE_P(Gpu, EveryRecordedWarp, ::testing::ValuesIn(recorded_cases()), tilescope::testing::case_name);

}  // namespace
