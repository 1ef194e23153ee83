// A recording as the instrumented kernel would make it (kernels/instrument/recorded_warp.h),
// written from the mapping model instead, for tests without a GPU: each lane's addresses in the
// order the kernel records them (recorded_order), the system's 1 KB of reserved shared memory
// before the kernel's, as on the hardware. And the same as a file's record
// (app/export/recorded_warp_file.h), as `tilescope memory --recording` would write it.
#pragma once

#include <string>
#include <vector>

#include "app/export/recorded_warp_file.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "kernels/instrument/recorded_streams.h"
#include "kernels/instrument/recorded_warp.h"
#include "kernels/models/mapping_model.h"

namespace tilescope::testing {

inline RecordedWarp recording_from_model(const MappingModel& m, int bx, int by, int warp) {
  RecordedWarp r;
  r.steps = steps_to_record(m, bx, by);
  r.address.assign(static_cast<std::size_t>(kRecordedStreamCount) * r.steps * kWarpLanes, -1);
  const std::vector<AccessSite> sites = m.access_sites();
  std::vector<std::vector<int>> next(kRecordedStreamCount, std::vector<int>(kWarpLanes, 0));
  for (int stream = 0; stream < kRecordedStreamCount; ++stream)
    for (const SiteStep& at : m.recorded_order(stream, bx, by)) {
      WarpAccess w;
      m.warp_access(at.site, bx, by, warp, at.step, &w);
      const int per = sites[at.site].recorded_per_step;
      const std::int64_t base = sites[at.site].space == MemorySpace::Shared ? 1024 : 0;
      for (int lane = 0; lane < kWarpLanes; ++lane)
        for (int e = 0; w.address[lane] >= 0 && e < per; ++e)
          r.address[(static_cast<std::size_t>(stream) * r.steps + next[stream][lane]++) * kWarpLanes + lane] =
              base + w.address[lane] + static_cast<std::int64_t>(e) * (w.bytes / per);
    }
  return r;
}

// The file's record of warp `warp` of block (bx, by) of configuration `config` of v, written from
// `m` (the model of that configuration, or another's: a learner's edit moves addresses) and said to
// come from `device`; `edit`: the tag of the edit it stands for, "" for the shipped text.
inline WarpRecord record_from_model(const MappingModel& m, const VariantDescriptor& v, int config, Problem problem,
                                    Precision precision, const Shape& shape, int bx, int by, int warp,
                                    const std::string& edit = "",
                                    const std::string& device = "the mapping model (written by a test)") {
  WarpRecord w;
  w.device = device;
  w.variant = v.id;
  w.config = config_at(v, config).name;
  w.edit = edit;
  w.problem = problem;
  w.precision = precision;
  w.shape = shape;
  w.block = by * m.grid().x + bx;
  w.warp = warp;
  w.recorded = recording_from_model(m, bx, by, warp);
  return w;
}

}  // namespace tilescope::testing
