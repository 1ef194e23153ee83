#include "kernels/instrument/recorded_warp.h"

#include <algorithm>

#include "kernels/instrument/recorded_streams.h"

namespace tilescope {

namespace {

// What the model says each lane of the warp records in `stream`, in order: the steps of the sites
// recorded there (step by step, in the sites' order), where the lane takes part, each step as its
// recorded_per_step neighbouring elements. One pass over the steps serves all 32 lanes.
std::vector<std::vector<std::int64_t>> expected_streams(const MappingModel& m, const std::vector<AccessSite>& sites,
                                                        int stream, int bx, int by, int warp) {
  std::vector<std::vector<std::int64_t>> lanes(kWarpLanes);
  int steps = 0;
  for (std::size_t s = 0; s < sites.size(); ++s)
    if (sites[s].recorded == stream) steps = std::max(steps, m.site_steps(static_cast<int>(s), bx, by));
  for (int step = 0; step < steps; ++step)
    for (std::size_t s = 0; s < sites.size(); ++s) {
      if (sites[s].recorded != stream || step >= m.site_steps(static_cast<int>(s), bx, by)) continue;
      WarpAccess w;
      m.warp_access(static_cast<int>(s), bx, by, warp, step, &w);
      const int per = sites[s].recorded_per_step, element = w.bytes / per;
      for (int lane = 0; lane < kWarpLanes; ++lane)
        if (w.address[lane] >= 0)
          for (int e = 0; e < per; ++e) lanes[lane].push_back(w.address[lane] + static_cast<std::int64_t>(e) * element);
    }
  return lanes;
}

}  // namespace

int steps_to_record(const MappingModel& m, int bx, int by) {
  const std::vector<AccessSite> sites = m.access_sites();
  // Per stream, the recorded accesses of all its sites.
  std::vector<int> per_stream(kRecordedStreamCount, 0);
  for (std::size_t s = 0; s < sites.size(); ++s)
    if (sites[s].recorded >= 0 && sites[s].recorded < kRecordedStreamCount)
      per_stream[sites[s].recorded] += m.site_steps(static_cast<int>(s), bx, by) * sites[s].recorded_per_step;
  return std::max(1, *std::max_element(per_stream.begin(), per_stream.end()));
}

std::string compare_recorded_warp(const MappingModel& m, const RecordedWarp& r, int bx, int by, int warp) {
  if (!r.ok()) return r.error;
  const std::vector<AccessSite> sites = m.access_sites();
  std::vector<int> streams;
  for (const AccessSite& s : sites)
    if (s.recorded >= 0 && std::find(streams.begin(), streams.end(), s.recorded) == streams.end())
      streams.push_back(s.recorded);
  // Shared memory may start past a region the system reserves (1 KB on sm_80 and later): the
  // model's offsets are from the first byte the kernel may use, so all of a recording's shared
  // addresses may sit one common distance further, a whole number of 128-byte rows of banks.
  std::int64_t shared_base = -1;
  for (int stream : streams) {
    const std::vector<std::vector<std::int64_t>> expected = expected_streams(m, sites, stream, bx, by, warp);
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const std::vector<std::int64_t>& want = expected[lane];
      if (static_cast<int>(want.size()) > r.steps) return "the recording is shorter than the model's steps";
      for (int step = 0; step < r.steps; ++step) {
        std::int64_t got = r.at(stream, step, lane);
        const std::int64_t expect = step < static_cast<int>(want.size()) ? want[step] : -1;
        if (stream >= kRecordShared && got >= 0 && expect >= 0) {
          if (shared_base < 0 && got >= expect && (got - expect) % kWavefrontBytes == 0) shared_base = got - expect;
          if (shared_base >= 0) got -= shared_base;
        }
        if (got != expect)
          return "stream " + std::to_string(stream) + ", lane " + std::to_string(lane) + ", step " +
                 std::to_string(step) + ": the kernel accessed " + std::to_string(got) + ", the model says " +
                 std::to_string(expect) + " (-1: no access)";
      }
    }
  }
  return "";
}

}  // namespace tilescope
