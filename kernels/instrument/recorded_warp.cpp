#include "kernels/instrument/recorded_warp.h"

#include <algorithm>

#include "kernels/instrument/recorded_streams.h"

namespace tilescope {

namespace {

// What the model says each lane of the warp records in `stream`, in order: the steps of the sites
// recorded there, in the kernel's order (recorded_order), where the lane takes part, each step as
// its recorded_per_step neighbouring elements. One pass over the steps serves all 32 lanes; `from`
// (may be null) receives, per lane, the (site, step) each expected address belongs to.
std::vector<std::vector<std::int64_t>> expected_streams(const MappingModel& m, const std::vector<AccessSite>& sites,
                                                        int stream, int bx, int by, int warp,
                                                        std::vector<std::vector<SiteStep>>* from = nullptr) {
  std::vector<std::vector<std::int64_t>> lanes(kWarpLanes);
  if (from) from->assign(kWarpLanes, {});
  for (const SiteStep& at : m.recorded_order(stream, bx, by)) {
    WarpAccess w;
    m.warp_access(at.site, bx, by, warp, at.step, &w);
    const int per = sites[at.site].recorded_per_step, element = w.bytes / per;
    for (int lane = 0; lane < kWarpLanes; ++lane)
      if (w.address[lane] >= 0)
        for (int e = 0; e < per; ++e) {
          lanes[lane].push_back(w.address[lane] + static_cast<std::int64_t>(e) * element);
          if (from) (*from)[lane].push_back(at);
        }
  }
  return lanes;
}

// The streams the sites are recorded in, each once.
std::vector<int> recorded_streams(const std::vector<AccessSite>& sites) {
  std::vector<int> streams;
  for (const AccessSite& s : sites)
    if (s.recorded >= 0 && s.recorded < kRecordedStreamCount &&
        std::find(streams.begin(), streams.end(), s.recorded) == streams.end())
      streams.push_back(s.recorded);
  return streams;
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
  const std::vector<int> streams = recorded_streams(sites);
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

std::vector<std::vector<WarpAccess>> split_recording(const MappingModel& m, const RecordedWarp& r, int bx, int by,
                                                     int warp) {
  const std::vector<AccessSite> sites = m.access_sites();
  std::vector<std::vector<WarpAccess>> out(sites.size());
  for (std::size_t s = 0; s < sites.size(); ++s) {
    out[s].resize(static_cast<std::size_t>(std::max(0, m.site_steps(static_cast<int>(s), bx, by))));
    for (WarpAccess& w : out[s]) w.bytes = sites[s].bytes;
  }
  if (!r.ok() || r.steps <= 0) return out;
  std::int64_t shared_base = -1;  // as compare_recorded_warp finds it
  for (int stream : recorded_streams(sites)) {
    std::vector<std::vector<SiteStep>> from;
    const std::vector<std::vector<std::int64_t>> expected = expected_streams(m, sites, stream, bx, by, warp, &from);
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const std::vector<SiteStep>& at = from[lane];
      // A step of recorded_per_step elements is one access: its first element's address.
      for (std::size_t i = 0; i < at.size() && static_cast<int>(i) < r.steps; ++i) {
        const SiteStep& ss = at[i];
        if (i > 0 && at[i - 1].site == ss.site && at[i - 1].step == ss.step) continue;
        std::int64_t got = r.at(stream, static_cast<int>(i), lane);
        if (stream >= kRecordShared && got >= 0) {
          const std::int64_t expect = expected[lane][i];
          if (shared_base < 0 && got >= expect && (got - expect) % kWavefrontBytes == 0) shared_base = got - expect;
          if (shared_base > 0 && got >= shared_base) got -= shared_base;
        }
        if (ss.step < static_cast<int>(out[ss.site].size())) out[ss.site][ss.step].address[lane] = got;
      }
    }
  }
  return out;
}

}  // namespace tilescope
