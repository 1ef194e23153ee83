// The history every panel reads: rows shared with readers (no copy per frame), copy-on-write
// while a reader holds them, and "% of cuBLAS" kept right as rows arrive in any order.
#include "app/runner/timing_history.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/core/variant.h"

using namespace tilescope;

namespace {

// A row of a baseline configuration (the bar for % of cuBLAS) or of a kernel, found through
// the descriptors (no ids in tests).
RunResult row(bool baseline, double gflops, int n = 1024) {
  for (const VariantDescriptor* v : variant_registry()) {
    for (std::size_t c = 0; c < v->configs.size(); ++c) {
      if (is_baseline(*v, static_cast<int>(c)) != baseline) continue;
      RunResult r;
      r.variant_id = v->id;
      r.config_name = v->configs[c].name;
      r.shape = {n, n, n};
      r.gflops = gflops;
      r.median_ms = 1;
      return r;
    }
  }
  throw std::runtime_error("the registry has no such configuration");
}

}  // namespace

TEST(TimingHistory, PctOfCublasFollowsTheBestBaselineWhateverTheOrder) {
  TimingHistory h;
  h.append(row(false, 50));
  EXPECT_EQ((*h.rows())[0].pct_of_cublas, -1) << "no baseline yet";
  h.append(row(true, 200));
  EXPECT_DOUBLE_EQ((*h.rows())[0].pct_of_cublas, 25) << "a later baseline counts for earlier rows";
  h.append_all({row(false, 100), row(true, 100)});  // a slower baseline changes nothing
  EXPECT_DOUBLE_EQ((*h.rows())[2].pct_of_cublas, 50);
  h.append(row(true, 400));
  EXPECT_DOUBLE_EQ((*h.rows())[0].pct_of_cublas, 12.5);
  EXPECT_DOUBLE_EQ((*h.rows())[2].pct_of_cublas, 25);
  h.append(row(false, 80, 2048));
  EXPECT_EQ((*h.rows())[5].pct_of_cublas, -1) << "other sizes have their own bar";
  h.clear();
  h.append(row(false, 50));
  EXPECT_EQ((*h.rows())[0].pct_of_cublas, -1) << "clear() forgets the bars too";
}

TEST(TimingHistory, ReadersShareTheRowsAndKeepTheirVersion) {
  TimingHistory h;
  h.append_all(std::vector<RunResult>(1000, row(false, 10)));
  const std::uint64_t v = h.version();
  std::shared_ptr<const std::vector<RunResult>> held = h.rows();
  EXPECT_EQ(held.get(), h.rows().get()) << "shared, not copied";
  h.append(row(false, 20));
  EXPECT_EQ(held->size(), 1000u) << "a held version does not change under its reader";
  EXPECT_EQ(h.rows()->size(), 1001u);
  EXPECT_GT(h.version(), v);
  held.reset();
  const auto* before = h.rows().get();
  h.append(row(false, 30));
  EXPECT_EQ(h.rows().get(), before) << "appended in place once no reader holds the rows";
  EXPECT_EQ(h.snapshot().size(), 1002u);
}
