#include "app/viz/warp_access_summary.h"

#include <algorithm>
#include <map>

#include "kernels/core/text_format.h"

namespace tilescope {

namespace {

// The bytes the active lanes cover, each byte counted once.
std::int64_t distinct_bytes(const WarpAccess& w) {
  std::vector<std::pair<std::int64_t, std::int64_t>> spans;
  for (std::int64_t a : w.address)
    if (a >= 0) spans.push_back({a, a + w.bytes});
  std::sort(spans.begin(), spans.end());
  std::int64_t total = 0, reached = -1;
  for (const auto& s : spans) {
    const std::int64_t from = std::max(s.first, reached);
    if (s.second > from) total += s.second - from;
    reached = std::max(reached, s.second);
  }
  return total;
}

std::string plural(std::int64_t n, const char* one, const char* many) {
  return format("%lld %s", static_cast<long long>(n), n == 1 ? one : many);
}

void summarize_global(const AccessSite& site, const WarpAccess& w, WarpAccessSummary* s) {
  const GlobalRequest r = global_request(w);
  s->sectors = r.sectors;
  s->lines = r.lines;
  s->bytes_moved = static_cast<std::int64_t>(r.sectors) * kSectorBytes;
  s->bytes_asked = r.bytes_used;
  s->bytes_distinct = distinct_bytes(w);
  s->efficiency = s->bytes_moved > 0 ? static_cast<double>(s->bytes_distinct) / static_cast<double>(s->bytes_moved) : 0;
  const char* verb = site.kind == AccessKind::Load ? "read" : "write";
  const std::string lanes = plural(s->active_lanes, "lane", "lanes");
  // The fewest sectors that could hold the bytes the lanes need.
  const std::int64_t fewest = (s->bytes_distinct + kSectorBytes - 1) / kSectorBytes;
  s->coalesced = s->sectors == fewest;
  if (s->bytes_distinct == w.bytes && s->active_lanes > 1)
    s->sentence =
        format("all %s %s the same %d bytes: 1 sector serves them all (a broadcast)", lanes.c_str(), verb, w.bytes);
  else if (s->sectors == fewest)
    s->sentence = format("%s %s %lld bytes in %s: coalesced", lanes.c_str(), verb,
                         static_cast<long long>(s->bytes_distinct), plural(s->sectors, "sector", "sectors").c_str());
  else if (s->sectors == s->active_lanes)
    s->sentence = format("each lane has a sector of its own: %d sectors for %lld bytes used (uncoalesced)", s->sectors,
                         static_cast<long long>(s->bytes_distinct));
  else
    s->sentence = format(
        "%s %s %lld bytes in %d sectors where %lld would do: %lld bytes moved, %.0f%% of them used "
        "(partly coalesced)",
        lanes.c_str(), verb, static_cast<long long>(s->bytes_distinct), s->sectors, static_cast<long long>(fewest),
        static_cast<long long>(s->bytes_moved), 100 * s->efficiency);
}

void summarize_shared(const AccessSite& site, const WarpAccess& w, const WarpAccess* async_global,
                      WarpAccessSummary* s) {
  const SharedInstruction in =
      async_global ? async_copy_instruction(w, *async_global, true) : shared_instruction(w, true);
  s->arrival_lines = in.lines;
  s->bank_wavefronts = shared_instruction(w).wavefronts;
  s->phases = in.phases;
  s->wavefronts = in.wavefronts;
  s->ideal = in.ideal;
  s->conflicts = in.wavefronts - in.ideal;
  for (int p = 0; p < static_cast<int>(in.banks.size()); ++p)
    for (int b = 0; b < kSharedBanks; ++b) {
      const SharedInstruction::Bank& bank = in.banks[p][b];
      if (static_cast<int>(bank.words.size()) > s->degree) {
        s->degree = static_cast<int>(bank.words.size());
        s->worst_phase = p, s->worst_bank = b, s->worst_lanes = static_cast<int>(bank.lanes.size());
      }
    }
  if (s->degree < 2) s->worst_phase = s->worst_bank = -1, s->worst_lanes = 0;
  const std::string waves = plural(s->wavefronts, "wavefront", "wavefronts");
  if (in.lines > 0 && s->wavefronts > s->bank_wavefronts) {
    s->sentence = format(
        "the copy's data arrive in %s of global memory and are written line by line: %s where the banks alone "
        "would need %d (not a bank conflict; rows of 128 bytes would arrive in fewer lines)",
        plural(in.lines, "128-byte line", "128-byte lines").c_str(), waves.c_str(), s->bank_wavefronts);
    return;
  }
  if (s->conflicts > 0 && s->worst_bank >= 0) {
    const std::string where =
        s->phases == 1 ? std::string() : "in the phase of " + phase_lanes(s->worst_phase, s->phases) + ", ";
    // "an 8-way", "an 11-way", "an 18-way": the article follows the number as it is said.
    const int d = s->degree;
    const char* article = d == 8 || d == 11 || d == 18 || (d >= 80 && d < 90) ? "an" : "a";
    s->sentence =
        format("%s%d lanes need %d different words of bank %d: %s instead of %d (%s %d-way bank conflict)",
               where.c_str(), s->worst_lanes, s->degree, s->worst_bank, waves.c_str(), s->ideal, article, s->degree);
    return;
  }
  const char* verb = site.kind == AccessKind::Load ? "read" : "write";
  const std::string lanes = plural(s->active_lanes, "lane", "lanes");
  const std::int64_t asked = static_cast<std::int64_t>(s->active_lanes) * w.bytes, distinct = distinct_bytes(w);
  const std::string bytes = distinct == asked ? format("%lld bytes", static_cast<long long>(asked))
                                              : format("%lld bytes (%lld different: lanes on the same word share it)",
                                                       static_cast<long long>(asked), static_cast<long long>(distinct));
  const std::string phases =
      s->phases == 1 ? std::string() : format(" in %d phases of %d lanes", s->phases, kWarpLanes / s->phases);
  // Lanes that pair up on one address let two phases go in one wavefront (shared_instruction).
  const char* paired = s->ideal < s->phases ? ", the phases going two at a time" : "";
  s->sentence = format("%s %s %s%s: no bank gives more than one word per phase, %s%s (no bank conflict)", lanes.c_str(),
                       verb, bytes.c_str(), phases.c_str(), waves.c_str(), paired);
}

}  // namespace

WarpAccessSummary summarize(const AccessSite& site, const WarpAccess& w, const WarpAccess* async_global) {
  WarpAccessSummary s;
  s.space = site.space;
  for (std::int64_t a : w.address) s.active_lanes += a >= 0;
  if (s.active_lanes == 0) {
    s.sentence = "no lane of this warp takes part at this step (its threads lie outside the matrix, or have exited)";
    return s;
  }
  if (site.space == MemorySpace::Global)
    summarize_global(site, w, &s);
  else
    summarize_shared(site, w, async_global, &s);
  return s;
}

std::vector<LineRow> touched_lines(const WarpAccess& w) {
  std::map<std::int64_t, LineRow> rows;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    const std::int64_t a = w.address[lane];
    if (a < 0) continue;
    // An access may reach into the next sector (or line): every sector it touches lists the lane.
    for (std::int64_t sector = a / kSectorBytes; sector <= (a + w.bytes - 1) / kSectorBytes; ++sector) {
      const std::int64_t line = sector * kSectorBytes / kLineBytes;
      LineRow& row = rows[line];
      row.line = line;
      row.lanes[static_cast<std::size_t>(sector % (kLineBytes / kSectorBytes))].push_back(lane);
    }
  }
  std::vector<LineRow> out;
  for (auto& r : rows) out.push_back(std::move(r.second));
  return out;
}

std::string lane_ranges(const std::vector<int>& lanes) {
  std::string out;
  for (std::size_t i = 0; i < lanes.size();) {
    std::size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += j == i ? std::to_string(lanes[i]) : std::to_string(lanes[i]) + "-" + std::to_string(lanes[j]);
    i = j + 1;
  }
  return out;
}

std::string phase_lanes(int phase, int phases) {
  const int per = kWarpLanes / std::max(1, phases);
  return format("lanes %d-%d", phase * per, phase * per + per - 1);
}

}  // namespace tilescope
