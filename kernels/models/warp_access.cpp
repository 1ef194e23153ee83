#include "kernels/models/warp_access.h"

#include <algorithm>
#include <thread>

#include "kernels/models/mapping_model.h"

namespace tilescope {

const char* to_string(MemorySpace s) {
  return s == MemorySpace::Global ? "global" : "shared";
}
const char* to_string(AccessKind k) {
  return k == AccessKind::Load ? "load" : "store";
}

bool WarpAccess::any() const {
  return std::any_of(address.begin(), address.end(), [](std::int64_t a) { return a >= 0; });
}

namespace {

// The distinct values of `v` (sorted in place), counted.
int distinct(std::int64_t* v, int n) {
  std::sort(v, v + n);
  return static_cast<int>(std::unique(v, v + n) - v);
}

}  // namespace

GlobalRequest global_request(const WarpAccess& w) {
  GlobalRequest r;
  // A lane's access of `bytes` may cross a sector (an unaligned ragged row never does for the
  // element-aligned accesses here, but the count stays right if it does).
  std::int64_t sectors[kWarpLanes * 4], lines[kWarpLanes * 4];
  int n = 0, m = 0;
  for (std::int64_t a : w.address) {
    if (a < 0) continue;
    r.bytes_used += w.bytes;
    for (std::int64_t s = a / kSectorBytes; s <= (a + w.bytes - 1) / kSectorBytes; ++s) sectors[n++] = s;
    for (std::int64_t l = a / kLineBytes; l <= (a + w.bytes - 1) / kLineBytes; ++l) lines[m++] = l;
  }
  r.sectors = distinct(sectors, n);
  r.lines = distinct(lines, m);
  return r;
}

namespace {

// The words of lanes [first, first + count) (each lane's access split into its 4-byte words),
// sorted and distinct; how many.
int phase_words(const WarpAccess& w, int first, int count, std::int64_t* words) {
  const int words_per_lane = std::max(1, w.bytes / kBankBytes);
  int n = 0;
  for (int lane = first; lane < first + count; ++lane) {
    if (w.address[lane] < 0) continue;
    for (int k = 0; k < words_per_lane; ++k) words[n++] = w.address[lane] / kBankBytes + k;
  }
  return distinct(words, n);
}

// Wavefronts of a set of distinct words: its busiest bank's count.
int busiest_bank(const std::int64_t* words, int n) {
  int per_bank[kSharedBanks] = {};
  int busiest = 0;
  for (int i = 0; i < n; ++i) busiest = std::max(busiest, ++per_bank[words[i] % kSharedBanks]);
  return busiest;
}

// Whether every active lane shares its address with lane ^ `step` (or that lane is inactive).
bool pairs_uniform(const WarpAccess& w, int step) {
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    const std::int64_t a = w.address[lane], b = w.address[lane ^ step];
    if (a >= 0 && b >= 0 && a != b) return false;
  }
  return true;
}

}  // namespace

SharedInstruction shared_instruction(const WarpAccess& w, bool with_picture) {
  SharedInstruction out;
  // Shared memory returns (or takes) 128 bytes a cycle, 4 bytes to each lane: an access of 8 or 16
  // bytes is served by half-warps or quarter-warps, one phase after the other.
  out.phases = w.bytes <= 4 ? 1 : w.bytes <= 8 ? 2 : 4;
  const int lanes_per_phase = kWarpLanes / out.phases;
  std::int64_t words[kWarpLanes * 4];
  for (int phase = 0; phase < out.phases; ++phase) {
    const int unique = phase_words(w, phase * lanes_per_phase, lanes_per_phase, words);
    if (unique == 0) continue;
    out.wavefronts += busiest_bank(words, unique);
    out.ideal += 1;
  }
  // Lanes that pair up on one address (lane and lane ^ 1, or lane and lane ^ 2, for every active
  // lane: a broadcast is the extreme case) let the hardware pack two lanes' data into one return:
  // half the phases. Nsight Compute counts 2 wavefronts for a 16-byte broadcast, 4 for 16 lanes
  // on 8 addresses twice over.
  if (out.phases > 1 && (pairs_uniform(w, 1) || pairs_uniform(w, 2))) {
    out.wavefronts = (out.wavefronts + 1) / 2;
    out.ideal = (out.ideal + 1) / 2;
  }
  if (with_picture) {
    out.banks.resize(out.phases);
    const int words_per_lane = std::max(1, w.bytes / kBankBytes);
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      if (w.address[lane] < 0) continue;
      for (int k = 0; k < words_per_lane; ++k) {
        const std::int64_t word = w.address[lane] / kBankBytes + k;
        SharedInstruction::Bank& b = out.banks[lane / lanes_per_phase][word % kSharedBanks];
        if (b.lanes.empty() || b.lanes.back() != lane) b.lanes.push_back(lane);
        if (std::find(b.words.begin(), b.words.end(), word) == b.words.end()) b.words.push_back(word);
      }
    }
  }
  return out;
}

SharedInstruction async_copy_instruction(const WarpAccess& shared, const WarpAccess& global, bool with_picture) {
  SharedInstruction out = shared_instruction(shared, with_picture);
  out.lines = global_request(global).lines;
  out.wavefronts = std::max(out.wavefronts, out.lines);
  out.ideal = std::max(out.ideal, out.lines);
  return out;
}

namespace {

void add(AccessCounts* c, const AccessSite& site, const WarpAccess& w, const WarpAccess* global = nullptr) {
  if (!w.any()) return;
  ++c->requests;
  if (site.space == MemorySpace::Global) {
    // The common case first: lanes in address order, each access within one sector, counted in
    // one pass; anything else goes through the full count.
    std::int64_t last = -1, sectors = 0, used = 0;
    bool ordered = true;
    for (std::int64_t a : w.address) {
      if (a < 0) continue;
      const std::int64_t s = a / kSectorBytes;
      if (s < last || (a + w.bytes - 1) / kSectorBytes != s) {
        ordered = false;
        break;
      }
      sectors += s != last;
      last = s;
      used += w.bytes;
    }
    if (!ordered) {
      const GlobalRequest r = global_request(w);
      sectors = r.sectors;
      used = r.bytes_used;
    }
    c->sectors += sectors;
    c->bytes_used += used;
  } else {
    const SharedInstruction s = global ? async_copy_instruction(w, *global) : shared_instruction(w);
    c->wavefronts += s.wavefronts;
    c->ideal_wavefronts += s.ideal;
    for (std::int64_t a : w.address)
      if (a >= 0) c->bytes_used += w.bytes;
  }
}

void scale(AccessCounts* c, std::int64_t num, std::int64_t den) {
  for (std::int64_t* v : {&c->requests, &c->sectors, &c->wavefronts, &c->ideal_wavefronts, &c->bytes_used})
    *v = static_cast<std::int64_t>(static_cast<double>(*v) * num / den + 0.5);
}

void sum_into(AccessCounts* into, const AccessCounts& c) {
  into->requests += c.requests;
  into->sectors += c.sectors;
  into->wavefronts += c.wavefronts;
  into->ideal_wavefronts += c.ideal_wavefronts;
  into->bytes_used += c.bytes_used;
}

AccessCounts* totals_slot(AccessTotals* t, const AccessSite& s) {
  if (s.async_copy_of >= 0) return &t->async_copy;
  if (s.space == MemorySpace::Global) return s.kind == AccessKind::Load ? &t->global_load : &t->global_store;
  return s.kind == AccessKind::Load ? &t->shared_load : &t->shared_store;
}

}  // namespace

AccessTotals access_totals(const MappingModel& model, std::int64_t budget) {
  AccessTotals t;
  const std::vector<AccessSite> sites = model.access_sites();
  t.per_site.resize(sites.size());
  if (sites.empty()) return t;
  const Dim2 grid = model.grid(), block = model.block();
  const int warps = (block.x * block.y + kWarpLanes - 1) / kWarpLanes;
  t.blocks = static_cast<std::int64_t>(grid.x) * grid.y;
  // The work of one block, from the first: how many warp accesses the whole grid costs.
  std::int64_t per_block = 0;
  for (std::size_t s = 0; s < sites.size(); ++s) per_block += model.site_steps(static_cast<int>(s), 0, 0);
  per_block = std::max<std::int64_t>(1, per_block * warps);
  const std::int64_t whole = per_block * t.blocks;
  const std::int64_t stride = whole > budget ? (whole + budget - 1) / budget : 1;
  t.sampled = stride > 1;
  std::vector<std::int64_t> counted;
  for (std::int64_t linear = 0; linear < t.blocks; linear += stride) counted.push_back(linear);
  if (counted.back() != t.blocks - 1) counted.push_back(t.blocks - 1);
  t.blocks_counted = static_cast<std::int64_t>(counted.size());
  // The blocks are independent: each thread counts every n-th of them into its own totals.
  const unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), 16));
  std::vector<std::vector<AccessCounts>> partial(threads, std::vector<AccessCounts>(sites.size()));
  auto count = [&](unsigned id) {
    WarpAccess w, g;
    for (std::size_t i = id; i < counted.size(); i += threads) {
      const int bx = static_cast<int>(counted[i] % grid.x), by = static_cast<int>(counted[i] / grid.x);
      if (!model.block_active(bx, by)) continue;
      for (std::size_t s = 0; s < sites.size(); ++s) {
        const int steps = model.site_steps(static_cast<int>(s), bx, by);
        for (int warp = 0; warp < warps; ++warp)
          for (int step = 0; step < steps; ++step) {
            w = WarpAccess();
            model.warp_access(static_cast<int>(s), bx, by, warp, step, &w);
            const int of = sites[s].async_copy_of;
            if (of >= 0) {
              g = WarpAccess();
              model.warp_access(of, bx, by, warp, step, &g);
            }
            add(&partial[id][s], sites[s], w, of >= 0 ? &g : nullptr);
          }
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned id = 1; id < threads; ++id) pool.emplace_back(count, id);
  count(0);
  for (std::thread& th : pool) th.join();
  for (std::size_t s = 0; s < sites.size(); ++s) {
    AccessCounts& c = t.per_site[s];
    for (const std::vector<AccessCounts>& p : partial) sum_into(&c, p[s]);
    if (t.sampled) scale(&c, t.blocks, t.blocks_counted);
    sum_into(totals_slot(&t, sites[s]), c);
  }
  return t;
}

}  // namespace tilescope
