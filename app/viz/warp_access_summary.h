// What the Mapping tab's "Memory (one warp)" view says about one warp's access
// (kernels/models/warp_access.h): the counters and the sentence under the picture, and the
// layout of a global request as the 128-byte lines and 32-byte sectors it touches. Computed apart
// from drawing, plain C++, so that a CPU test checks the numbers and the words
// (app/ui/mapping/warp_access_view.cpp draws them).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/models/warp_access.h"

namespace tilescope {

struct WarpAccessSummary {
  MemorySpace space = MemorySpace::Global;
  int active_lanes = 0;
  // Global: sectors and lines of this request; bytes moved (sectors x 32) against the bytes the
  // lanes asked for (active lanes x bytes) and the distinct bytes among them (lanes that ask for the
  // same address share it); efficiency = distinct bytes / bytes moved.
  int sectors = 0, lines = 0;
  bool coalesced = false;  // no more sectors than the distinct bytes need (a broadcast included)
  std::int64_t bytes_moved = 0, bytes_asked = 0, bytes_distinct = 0;
  double efficiency = 0;
  // Shared: phases, wavefronts (passes through the banks), the ideal, the extra wavefronts
  // (conflicts) and the degree: the most distinct words one bank gives in one phase. The worst
  // bank is where the degree is (its phase and the lanes on it); -1 where nothing conflicts.
  int phases = 0, wavefronts = 0, ideal = 0, conflicts = 0, degree = 0;
  int worst_phase = -1, worst_bank = -1, worst_lanes = 0;
  // A cp.async's shared side: the global lines its data arrive in (0 for any other access), and
  // the wavefronts the banks alone would need.
  int arrival_lines = 0, bank_wavefronts = 0;
  std::string sentence;  // what it means, in plain words
};
// `async_global`: for the shared side of a cp.async (AccessSite::async_copy_of), the same step of
// its global side, whose lines decide the wavefronts (async_copy_instruction); null otherwise.
WarpAccessSummary summarize(const AccessSite& site, const WarpAccess& w, const WarpAccess* async_global = nullptr);

// One 128-byte line a global request touches, its four sectors, and the lanes on each.
struct LineRow {
  std::int64_t line = 0;  // the line's index: bytes line * 128 ... line * 128 + 127
  std::array<std::vector<int>, 4> lanes;
};
// The lines a request touches, in address order.
std::vector<LineRow> touched_lines(const WarpAccess& w);

// Lanes as a learner reads them: "0-7", "0, 8, 16", "3".
std::string lane_ranges(const std::vector<int>& lanes);
// The lanes of a shared-memory phase: "lanes 0-31", "lanes 8-15".
std::string phase_lanes(int phase, int phases);

}  // namespace tilescope
