#include "app/cli/recorded_difference.h"

#include <algorithm>

#include "kernels/core/text_format.h"

namespace tilescope {

MovedAddress first_moved_address(const MappingModel& m, const std::vector<std::vector<WarpAccess>>& split, int bx,
                                 int by, int warp) {
  const std::vector<AccessSite> sites = m.access_sites();
  MovedAddress moved;
  for (std::size_t s = 0; s < sites.size() && s < split.size(); ++s) {
    if (sites[s].recorded < 0) continue;
    const int steps = std::min<int>(m.site_steps(static_cast<int>(s), bx, by), static_cast<int>(split[s].size()));
    for (int step = 0; step < steps; ++step) {
      WarpAccess w;
      m.warp_access(static_cast<int>(s), bx, by, warp, step, &w);
      for (int lane = 0; lane < kWarpLanes; ++lane) {
        const std::int64_t got = split[s][static_cast<std::size_t>(step)].address[lane];
        if (got == w.address[lane]) continue;
        moved.found = true;
        moved.site = static_cast<int>(s), moved.step = step, moved.lane = lane;
        moved.recorded = got, moved.modelled = w.address[lane];
        return moved;
      }
    }
  }
  return moved;
}

std::string moved_address_words(const MappingModel& m, const MovedAddress& moved) {
  if (!moved.found) return "";
  const std::vector<AccessSite> sites = m.access_sites();
  auto byte = [](std::int64_t a) { return a < 0 ? std::string("no access") : "byte " + std::to_string(a); };
  return format("at site '%s', step %d, lane %d: recorded %s, the model says %s",
                sites[static_cast<std::size_t>(moved.site)].name.c_str(), moved.step, moved.lane,
                byte(moved.recorded).c_str(), byte(moved.modelled).c_str());
}

}  // namespace tilescope
