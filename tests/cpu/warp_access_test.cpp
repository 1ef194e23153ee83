// Memory one warp at a time (warp_access.h): the counting rules on hand-made warps, the models'
// sites on the lessons' configurations, and the whole-kernel totals against the counts Nsight
// Compute reported for the same kernels (docs/benchmarks/h200-2026-11-27-memory/, N = 1024).
#include "kernels/models/warp_access.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>

#include "app/cli/memory_command.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "kernels/instrument/recorded_streams.h"
#include "kernels/instrument/recorded_warp.h"
#include "kernels/models/mapping_model.h"
#include "tests/support/memory_picks.h"
#include "tests/support/recording_from_model.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

WarpAccess lanes(int bytes, std::int64_t (*address)(int lane)) {
  WarpAccess w;
  w.bytes = bytes;
  for (int lane = 0; lane < kWarpLanes; ++lane) w.address[lane] = address(lane);
  return w;
}

using tilescope::testing::one_phase_kernel;
using tilescope::testing::prefetch_kernel;
using tilescope::testing::site_of;
using tilescope::testing::slab32_config;
using tilescope::testing::tiled_kernel;
using tilescope::testing::warp_row_config;

std::unique_ptr<MappingModel> model(const VariantDescriptor& v, int config, Problem p, Precision q, std::int64_t n) {
  std::string why;
  auto m = make_mapping_model(v.id, config, p, q, {n, n, n}, &why);
  EXPECT_NE(m, nullptr) << why;
  return m;
}

// The tiled kernel's configuration of TILE x TILE threads.
int tile_config(const VariantDescriptor& v, int tile) {
  return tilescope::testing::config_where(
      v, [tile](const TileConfig& c) { return c.threads_x == tile && c.threads_y == tile; }, "of the tile asked for");
}
// The prefetching kernel's seed tile: 3 x 3 outputs per thread.
int seed_tile_config(const VariantDescriptor& v) {
  return tilescope::testing::config_where(
      v, [](const TileConfig& c) { return c.tm == 3 && c.tn == 3; }, "of 3 x 3 outputs per thread");
}
constexpr MemorySpace kGlobal = MemorySpace::Global, kShared = MemorySpace::Shared;
constexpr AccessKind kLoad = AccessKind::Load, kStore = AccessKind::Store;

TEST(GlobalRequest, CountsTheSectorsAWarpTouches) {
  // 32 neighbouring floats: 128 bytes, 4 sectors of one line.
  GlobalRequest r = global_request(lanes(4, [](int l) { return std::int64_t{4} * l; }));
  EXPECT_EQ(r.sectors, 4);
  EXPECT_EQ(r.lines, 1);
  EXPECT_EQ(r.bytes_used, 128);
  // One float per row of a 1024-wide matrix: a sector (and a line) per lane.
  r = global_request(lanes(4, [](int l) { return std::int64_t{4096} * l; }));
  EXPECT_EQ(r.sectors, 32);
  EXPECT_EQ(r.lines, 32);
  // Everybody on one address: one sector.
  EXPECT_EQ(global_request(lanes(4, [](int) { return std::int64_t{64}; })).sectors, 1);
  // 16-byte vectors of 32 lanes: 512 bytes, 16 sectors; inactive lanes cost nothing.
  EXPECT_EQ(global_request(lanes(16, [](int l) { return std::int64_t{16} * l; })).sectors, 16);
  EXPECT_EQ(global_request(lanes(4, [](int l) { return l < 8 ? std::int64_t{4} * l : -1; })).sectors, 1);
  // Shifted by one float: the row straddles 5 sectors.
  EXPECT_EQ(global_request(lanes(4, [](int l) { return std::int64_t{4} * l + 4; })).sectors, 5);
}

TEST(SharedInstruction, CountsWavefrontsBankByBank) {
  // 32 floats side by side: one word in each bank, one wavefront.
  SharedInstruction s = shared_instruction(lanes(4, [](int l) { return std::int64_t{4} * l; }));
  EXPECT_EQ(s.wavefronts, 1);
  EXPECT_EQ(s.ideal, 1);
  // A column of a 32-float-wide tile: 32 words of bank 0, 32 wavefronts.
  s = shared_instruction(lanes(4, [](int l) { return std::int64_t{128} * l; }));
  EXPECT_EQ(s.wavefronts, 32);
  EXPECT_EQ(s.wavefronts - s.ideal, 31);
  // Every other word: 2 words in each even bank, a 2-way conflict.
  EXPECT_EQ(shared_instruction(lanes(4, [](int l) { return std::int64_t{8} * l; })).wavefronts, 2);
  // One padded column (33 floats per row): every lane in a bank of its own.
  EXPECT_EQ(shared_instruction(lanes(4, [](int l) { return std::int64_t{132} * l; })).wavefronts, 1);
  // A broadcast is one word.
  EXPECT_EQ(shared_instruction(lanes(4, [](int) { return std::int64_t{20}; })).wavefronts, 1);
}

TEST(SharedInstruction, ServesWideAccessesInPhases) {
  // 16 bytes a lane, 32 neighbours: 4 quarter-warps of 128 bytes, 4 wavefronts, no conflict.
  SharedInstruction s = shared_instruction(lanes(16, [](int l) { return std::int64_t{16} * l; }), true);
  EXPECT_EQ(s.phases, 4);
  EXPECT_EQ(s.wavefronts, 4);
  EXPECT_EQ(s.ideal, 4);
  ASSERT_EQ(s.banks.size(), 4u);
  EXPECT_EQ(s.banks[1][0].lanes, std::vector<int>{8});  // lane 8 opens the second quarter in bank 0
  // A 16-byte broadcast: neighbouring lanes share their address, two quarters per wavefront.
  EXPECT_EQ(shared_instruction(lanes(16, [](int) { return std::int64_t{0}; })).wavefronts, 2);
  // 16 lanes on 8 addresses, twice over (lane and lane + 8 alike, neighbours not): 4, as measured.
  EXPECT_EQ(shared_instruction(lanes(16, [](int l) { return std::int64_t{16} * (l % 8); })).wavefronts, 4);
  // 8-byte: two half-warps; a broadcast packs into one.
  EXPECT_EQ(shared_instruction(lanes(8, [](int l) { return std::int64_t{8} * l; })).wavefronts, 2);
  EXPECT_EQ(shared_instruction(lanes(8, [](int) { return std::int64_t{8}; })).wavefronts, 1);
  // 16-byte vectors one 128-byte row apart: every lane of a quarter in banks 0-3, 8 wavefronts each.
  s = shared_instruction(lanes(16, [](int l) { return std::int64_t{128} * l; }));
  EXPECT_EQ(s.wavefronts, 32);
  EXPECT_EQ(s.wavefronts - s.ideal, 28);
}

TEST(WarpAccessModel, DownTheColumnsIsUncoalesced) {
  const VariantDescriptor& v = one_phase_kernel();
  for (bool down : {false, true}) {
    auto m = model(v, warp_row_config(v, down), Problem::Gemm, Precision::F32, 1024);
    WarpAccess a, b, c;
    m->warp_access(site_of(*m, 'A', kGlobal, kLoad), 3, 5, 2, 17, &a);
    m->warp_access(site_of(*m, 'B', kGlobal, kLoad), 3, 5, 2, 17, &b);
    m->warp_access(site_of(*m, 'C', kGlobal, kStore), 3, 5, 2, 0, &c);
    SCOPED_TRACE(down ? "down the columns" : "along the rows");
    EXPECT_EQ(global_request(a).sectors, down ? 32 : 1);  // a row each, or a broadcast
    EXPECT_EQ(global_request(b).sectors, down ? 1 : 4);
    EXPECT_EQ(global_request(c).sectors, down ? 32 : 4);
  }
}

TEST(WarpAccessModel, PaddingRemovesTheTransposingStoresConflict) {
  const VariantDescriptor& v = prefetch_kernel();
  for (bool padded : {true, false}) {
    auto m = model(v, slab32_config(v, padded), Problem::Gemm, Precision::F32, 1024);
    WarpAccess w;
    m->warp_access(site_of(*m, 'A', kShared, kStore), 0, 0, 1, 0, &w);
    SCOPED_TRACE(padded ? "padded" : "not padded");
    EXPECT_EQ(w.bytes, 4);
    EXPECT_EQ(shared_instruction(w).wavefronts, padded ? 1 : 2);
  }
}

// The whole-kernel totals of the model equal what Nsight Compute counted on an H200 (N = 1024,
// float gemm; docs/benchmarks/h200-2026-11-27-memory/ holds the run): the prefetching kernel's
// shared-memory wavefronts and bank conflicts with and without padding, and the tiled kernel's
// loads, vectorised by the compiler.
TEST(AccessTotals, EqualTheProfilersCounts) {
  const VariantDescriptor& v = prefetch_kernel();
  AccessTotals t = access_totals(*model(v, slab32_config(v, false), Problem::Gemm, Precision::F32, 1024), INT64_MAX);
  EXPECT_FALSE(t.sampled);
  EXPECT_EQ(t.global_load.requests, 131072);
  EXPECT_EQ(t.global_load.sectors, 2097152);
  EXPECT_EQ(t.global_store.sectors, 131072);
  EXPECT_EQ(t.shared_load.wavefronts, 6291456);
  EXPECT_EQ(t.shared_load.conflicts(), 0);
  EXPECT_EQ(t.shared_store.wavefronts, 786432);
  EXPECT_EQ(t.shared_store.conflicts(), 262144);
  t = access_totals(*model(v, slab32_config(v, true), Problem::Gemm, Precision::F32, 1024), INT64_MAX);
  EXPECT_EQ(t.shared_store.conflicts(), 0);
  // The tiled kernel at 256, a 64th of the 1024 run's blocks x phases (its counts divide evenly):
  // 32 reads of Bs and 8 16-byte reads of As per phase (the compiler merged four As[ty][kk]), each
  // 16-byte read a broadcast packed into 2 wavefronts.
  const VariantDescriptor& tiled = tiled_kernel();
  t = access_totals(*model(tiled, tile_config(tiled, 32), Problem::Gemm, Precision::F32, 256), INT64_MAX);
  EXPECT_EQ(t.shared_load.requests, 41943040 / 64);
  EXPECT_EQ(t.shared_load.wavefronts, 50331648 / 64);
  EXPECT_EQ(t.global_load.sectors, 8388608 / 64);
}

// Double reads of the prefetching kernel's seed tile (3 x 3 per thread, 8 bytes a lane): A's are a
// broadcast per half-warp, packed into one wavefront; B's 16 neighbours per half take two. The
// profiler's 35,684,352 wavefronts for 23,789,568 reads at 1024 are these 1.5 per read.
TEST(AccessTotals, PacksBroadcastDoubles) {
  const VariantDescriptor& v = prefetch_kernel();
  auto m = model(v, seed_tile_config(v), Problem::Gemm, Precision::F64, 1024);
  WarpAccess a, b;
  m->warp_access(site_of(*m, 'A', kShared, kLoad), 3, 4, 5, 100, &a);
  m->warp_access(site_of(*m, 'B', kShared, kLoad), 3, 4, 5, 100, &b);
  EXPECT_EQ(shared_instruction(a).wavefronts, 1);
  EXPECT_EQ(shared_instruction(b).wavefronts, 2);
}

TEST(AccessTotals, SamplesLargeKernelsAndSaysSo) {
  const VariantDescriptor& v = one_phase_kernel();
  auto m = model(v, warp_row_config(v, false), Problem::Gemm, Precision::F32, 256);
  const AccessTotals exact = access_totals(*m, INT64_MAX), sampled = access_totals(*m, 1 << 17);
  EXPECT_FALSE(exact.sampled);
  EXPECT_TRUE(sampled.sampled);
  EXPECT_LT(sampled.blocks_counted, sampled.blocks);
  // Every block of this kernel alike at 256: the scaled sample is the exact count.
  EXPECT_EQ(sampled.global_load.requests, exact.global_load.requests);
  EXPECT_EQ(sampled.global_load.sectors, exact.global_load.sectors);
}

// Every CUDA kernel's model lists its memory accesses; where some of them cannot be recorded from
// the kernel (the compiler chooses a fragment's lanes), or some of the kernel's traffic has no lane
// addresses at all (the TMA), the model says so (the memory view shows it).
TEST(AccessTotals, EveryKernelListsItsAccessesAndSaysWhatItLeavesOut) {
  int unrecorded = 0;
  for (const VariantDescriptor* v : tilescope::testing::variants_where(
           [](const VariantDescriptor& d) { return d.model != nullptr && tilescope::testing::is_product_kernel(d); })) {
    auto m = model(*v, v->default_config, Problem::Gemm, v->precisions.front(), 64);
    ASSERT_NE(m, nullptr) << v->id;
    const std::vector<AccessSite> sites = m->access_sites();
    EXPECT_FALSE(sites.empty()) << v->id << ": lists no memory accesses";
    EXPECT_TRUE(std::any_of(sites.begin(), sites.end(), [](const AccessSite& s) { return s.matrix == 'C'; }))
        << v->id << ": lists no access of C";
    const bool all_recorded =
        std::all_of(sites.begin(), sites.end(), [](const AccessSite& s) { return s.recorded >= 0; });
    if (!all_recorded) {
      ++unrecorded;
      EXPECT_FALSE(m->memory_note().empty()) << v->id << ": records not every access and does not say why";
    }
  }
  EXPECT_GT(unrecorded, 0) << "every access of every kernel is recorded: this test's second half checks nothing";
}

int run(std::vector<const char*> args, std::string* out, std::string* err) {
  args.insert(args.begin(), "memory");
  std::ostringstream o, e;
  const int rc = run_memory_command(static_cast<int>(args.size()), args.data(), o, e);
  *out = o.str();
  *err = e.str();
  return rc;
}

TEST(MemoryCommand, PrintsTheCountsAndRefusesBadInput) {
  const VariantDescriptor& v = one_phase_kernel();
  const std::string rows = std::string(v.id) + ":" + v.configs[warp_row_config(v, false)].name;
  const std::string columns = std::string(v.id) + ":" + v.configs[warp_row_config(v, true)].name;
  const std::string both = rows + "," + columns;
  std::string out, err;
  EXPECT_EQ(run({"--variants", both.c_str(), "--sizes", "64", "--sites"}, &out, &err), kMemoryOk) << err;
  EXPECT_NE(out.find(v.configs[warp_row_config(v, true)].name), std::string::npos);
  EXPECT_NE(out.find("16.50"), std::string::npos) << out;  // down the columns: (1 + 32) / 2 sectors per load
  EXPECT_NE(out.find("from global memory"), std::string::npos);
  EXPECT_EQ(run({"--variants", "nosuch"}, &out, &err), kMemoryBadArguments);
  EXPECT_NE(err.find("nosuch"), std::string::npos);
  EXPECT_EQ(run({"--reps", "3"}, &out, &err), kMemoryBadArguments);
  EXPECT_EQ(run({"--record", "x"}, &out, &err), kMemoryBadArguments);
  EXPECT_EQ(run({"--variants", rows.c_str(), "--sizes", "32", "--csv", "/nonexistent-folder/x.csv"}, &out, &err),
            kMemoryOutputFailed);
  // Without arguments: every variant whose model lists its accesses, and only those.
  EXPECT_EQ(run({"--sizes", "64"}, &out, &err), kMemoryOk) << err;
  EXPECT_NE(out.find(prefetch_kernel().id), std::string::npos);
  EXPECT_EQ(out.find(tilescope::testing::baseline().id), std::string::npos);
}

}  // namespace

namespace {

using tilescope::testing::recording_from_model;

// A recording as the kernel would make it, written from the model (with the system's 1 KB of
// reserved shared memory before the kernel's): the comparison accepts it, and names one moved
// address. The GPU suite compares real recordings (tests/gpu/gpu_warp_access_test.cpp).
TEST(RecordedWarpComparison, AcceptsTheModelsAddressesAndNamesAMovedOne) {
  const VariantDescriptor& v = tiled_kernel();
  auto m = model(v, tile_config(v, 16), Problem::Gemm, Precision::F32, 40);
  RecordedWarp r = recording_from_model(*m, 1, 0, 1);
  EXPECT_EQ(compare_recorded_warp(*m, r, 1, 0, 1), "");
  const int stream = m->access_sites()[site_of(*m, 'B', kShared, kLoad)].recorded;
  r.address[(static_cast<std::size_t>(stream) * r.steps + 3) * kWarpLanes + 7] += 4;
  const std::string error = compare_recorded_warp(*m, r, 1, 0, 1);
  EXPECT_NE(error.find("lane 7, step 3"), std::string::npos) << error;
}

// Cut into sites and steps, a recording gives back the model's accesses (the reserved shared
// memory taken off), and a moved address shows at its site, step and lane.
TEST(RecordedWarpSplit, GivesBackTheModelsAccessesAndShowsAMovedOne) {
  const VariantDescriptor& v = prefetch_kernel();
  auto m = model(v, 0, Problem::Ata, Precision::F64, 75);
  ASSERT_FALSE(m->access_sites().empty());
  RecordedWarp r = recording_from_model(*m, 0, 0, 2);
  std::vector<std::vector<WarpAccess>> split = split_recording(*m, r, 0, 0, 2);
  ASSERT_EQ(split.size(), m->access_sites().size());
  int compared = 0;
  for (std::size_t s = 0; s < split.size(); ++s) {
    ASSERT_EQ(static_cast<int>(split[s].size()), m->site_steps(static_cast<int>(s), 0, 0));
    for (std::size_t step = 0; step < split[s].size(); ++step) {
      WarpAccess w;
      m->warp_access(static_cast<int>(s), 0, 0, 2, static_cast<int>(step), &w);
      if (m->access_sites()[s].recorded < 0) continue;
      EXPECT_EQ(split[s][step].address, w.address) << "site " << s << " step " << step;
      compared += w.any();
    }
  }
  EXPECT_GT(compared, 10);
  const int site = site_of(*m, 'B', kShared, kLoad), stream = m->access_sites()[site].recorded;
  const int per = m->access_sites()[site].recorded_per_step;
  const std::vector<SiteStep> order = m->recorded_order(stream, 0, 0);
  // The lane's first recorded access of this site: all lanes read at every step of it.
  int index = 0;
  while (order[index / per].site != site) ++index;
  r.address[(static_cast<std::size_t>(stream) * r.steps + index) * kWarpLanes + 5] += 8;
  split = split_recording(*m, r, 0, 0, 2);
  WarpAccess w;
  m->warp_access(site, 0, 0, 2, order[index / per].step, &w);
  EXPECT_EQ(split[site][order[index / per].step].address[5], w.address[5] + 8);
}

}  // namespace
