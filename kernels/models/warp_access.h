// Memory, one warp at a time: the addresses the 32 lanes of a warp give one memory instruction,
// and what the memory system makes of them. Global memory serves a warp's request in 32-byte
// sectors (of 128-byte lines): 32 neighbouring 4-byte loads take 4 sectors, 32 loads that each
// fall in a sector of their own take 32. Shared memory is 32 banks of 4-byte words: the lanes of
// one phase that hit different words of one bank are served one after the other, one wavefront
// per word (the conflict's degree), while lanes that read the same word share it (a broadcast).
// A variant's mapping model lists its kernel's access sites and gives, for any warp and step, the
// lanes' addresses (mapping_model.h); the functions here count sectors and wavefronts, one warp at
// a time and summed over a whole kernel. The counting rules are the ones Nsight Compute's counters
// follow on sm_80 and sm_90, checked against them instruction by instruction (docs/MEMORY.md).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tilescope {

class MappingModel;

constexpr int kWarpLanes = 32;
constexpr int kSharedBanks = 32;
constexpr int kBankBytes = 4;
constexpr int kSectorBytes = 32;
constexpr int kLineBytes = 128;
// Shared memory serves 128 bytes per wavefront: one word from each bank.
constexpr int kWavefrontBytes = kSharedBanks * kBankBytes;

enum class MemorySpace { Global, Shared };
enum class AccessKind { Load, Store };
const char* to_string(MemorySpace s);
const char* to_string(AccessKind k);

// One memory instruction of a kernel (an unrolled loop's copies are one site, told apart by the
// step), as a learner names it.
struct AccessSite {
  std::string name;   // "B from global memory"
  char matrix = 'A';  // 'A', 'B' or 'C': which matrix's data it moves
  MemorySpace space = MemorySpace::Global;
  AccessKind kind = AccessKind::Load;
  int bytes = 4;          // per lane: 4, 8 or 16 (a vector)
  std::string what;       // one sentence: the source line it stands for, and what the compiler made of it
  std::string step_unit;  // what one step is: "k", "slab", "k of a slab, vector i"
  // Where the instrumented build records it (RecordedStream, recorded_streams.h: 0 A loaded, 1 B
  // loaded, 2 C stored, then the kernel's shared-memory accesses), and how many recorded accesses
  // one step is (the compiler merged that many neighbouring elements into this one vector); -1:
  // not recorded. Sites that share a stream are recorded step by step in the order listed.
  int recorded = -1;
  int recorded_per_step = 1;
  // The shared side of a cp.async (the site, an index into access_sites(), of the global load whose
  // data it writes; -1: an ordinary access). Its data land as the global side's 128-byte lines
  // arrive, one wavefront per line at least, and the profiler counts these writes apart from the
  // stores (LDGSTS): see async_copy_instruction.
  int async_copy_of = -1;
};

// The addresses of one warp at one step of a site: bytes from the start of the matrix (global) or
// of the block's shared memory; -1 where the lane does not take part (guarded off, or its
// thread has exited).
struct WarpAccess {
  std::array<std::int64_t, kWarpLanes> address;
  int bytes = 4;
  WarpAccess() { address.fill(-1); }
  bool any() const;
};

// One step of one access site (an index into MappingModel::access_sites()).
struct SiteStep {
  int site = 0;
  int step = 0;
};

// What global memory makes of one request.
struct GlobalRequest {
  int sectors = 0;              // distinct 32-byte sectors touched
  int lines = 0;                // distinct 128-byte lines
  std::int64_t bytes_used = 0;  // bytes the active lanes asked for (moved: sectors x 32)
};
GlobalRequest global_request(const WarpAccess& w);

// What shared memory makes of one instruction. It moves 128 bytes a cycle, 4 to each lane, so
// 4-byte accesses are one phase of 32 lanes, 8-byte ones two phases of 16 (half-warps), 16-byte
// ones four of 8 (quarter-warps). In a phase a bank serves one word per wavefront: the phase takes
// as many wavefronts as its busiest bank has distinct words (lanes on the same word share it),
// ideally one. Where every lane shares its address with its neighbour (lane ^ 1 or lane ^ 2, as in
// a broadcast), two lanes' data travel together and the phases halve.
struct SharedInstruction {
  int phases = 1;
  int wavefronts = 0;
  int ideal = 0;  // one per phase (halved as above); wavefronts - ideal = the bank conflicts
  // For the picture: per phase and bank, the lanes that touch it and the distinct words.
  struct Bank {
    std::vector<int> lanes;
    std::vector<std::int64_t> words;
  };
  std::vector<std::array<Bank, kSharedBanks>> banks;  // [phase][bank]
  int lines = 0;  // a cp.async's write: the global lines its data arrive in (0: an ordinary access)
};
SharedInstruction shared_instruction(const WarpAccess& w, bool with_picture = false);
// The shared side of a cp.async whose global side is `global`: written line by line as the data
// arrive, so at least as many wavefronts as the global side has 128-byte lines. That many are the
// ideal too: Nsight Compute counts no bank conflict for them (its per-instruction "ideal", from the
// shared addresses alone, does). A warp copying 8 rows of 64 bytes takes 8 wavefronts; 4 rows of
// 128 bytes, 4.
SharedInstruction async_copy_instruction(const WarpAccess& shared, const WarpAccess& global, bool with_picture = false);

// A whole kernel's counts for one direction of one space, as the profiler reports them.
struct AccessCounts {
  std::int64_t requests = 0;    // warp-level instructions with at least one active lane
  std::int64_t sectors = 0;     // global: 32-byte sectors
  std::int64_t wavefronts = 0;  // shared
  std::int64_t ideal_wavefronts = 0;
  std::int64_t bytes_used = 0;
  std::int64_t conflicts() const { return wavefronts - ideal_wavefronts; }
};
struct AccessTotals {
  // Global loads include cp.async's global side; shared stores do not include its shared side,
  // which is counted apart (async_copy), as the profiler counts LDGSTS apart from STS.
  AccessCounts global_load, global_store, shared_load, shared_store, async_copy;
  bool sampled = false;  // counted on every `stride`-th block and scaled
  std::int64_t blocks_counted = 0;
  std::int64_t blocks = 0;
  std::vector<AccessCounts> per_site;  // the same, site by site (scaled alike)
};
// Every access of every warp of every active block, through the model; when that would exceed
// `budget` warp accesses, every stride-th block only (the last block always), scaled by blocks /
// blocks counted. A model without access sites gives all zeros.
AccessTotals access_totals(const MappingModel& model, std::int64_t budget = std::int64_t{1} << 22);

}  // namespace tilescope
