// The pipeline timeline: a pipelined kernel's instrumented build (a TimelineProbe instead of the
// timed build's NoProbe, probe.cuh) stamps, per block and per k slab it moves through its ring of
// shared-memory stages, when the copy was issued, when its bytes had arrived, and when each
// consumer began and finished multiplying it. run_timeline runs it once and returns the stamps in
// nanoseconds since the launch's first stamp, for the Mapping tab's timeline bars; a GPU test
// checks the orderings the barriers impose. Plain C++ header; what the kernel stamps into is in
// timeline_buffers.h, which NVRTC compiles too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/core/gemm_types.h"
#include "kernels/instrument/timeline_buffers.h"

namespace tilescope {

// The timeline build's probe as a template argument of a name expression (kernel_names.h), and
// the header NVRTC appends to a kernel text to compile it (variant_launch.cuh: probe_spelling).
inline constexpr const char* kTimelineProbeName = "tilescope::TimelineProbe";
inline constexpr const char* kTimelineProbeHeader = "kernels/instrument/timeline_probe.cuh";

// Where a block begins a run of slabs of one tile, where its runs are not whole tiles (stream-K).
struct TimelineRun {
  int first = 0;  // the block's slab that begins the run
  int slab0 = 0;  // the tile's slab it is
  int slabs = 0;  // in the run
};

// What a launch of a variant's timeline build looks like, from the variant (before the launch).
struct TimelineLayout {
  int blocks = 0;          // of the launch (a persistent kernel: at most one per SM)
  int stages = 0;          // buffers in the ring: slab n of a block uses stage n % stages
  int consumers = 0;       // warpgroups that multiply each slab (<= kTimelineMaxConsumers)
  int slabs_per_tile = 0;  // k slabs of one tile of C: a block's slab n is of its tile n / slabs_per_tile
  int slab_depth = 0;      // k per slab
  std::int64_t tiles = 0;  // tiles of C in the launch
  // What the blocks share out, in turn (block b takes b, b + blocks, ..., or in clusters of
  // `cluster` blocks: cluster c takes c, c + clusters, ...): tiles, or groups of `cluster` tiles.
  std::int64_t works = 0;
  int cluster = 1;
  // Per block, its runs, where they may begin or end inside a tile (stream-K); empty: every block's
  // tiles are slabs_per_tile slabs each.
  std::vector<std::vector<TimelineRun>> runs;
};

// One slab on the host, in nanoseconds since the earliest block began; negative = not stamped.
struct TimelineSlab {
  int index = 0;           // the block's n-th slab
  int stage = 0;           // n % stages
  int tile = 0;            // the block's tile (0 = its first; stream-K: its run), n / slabs_per_tile
  int in_tile = 0;         // the slab's place in its tile: k from in_tile x slab depth
  bool run_start = false;  // the first slab of the block's tile (or run)
  double issued = -1, arrived = -1;
  double started[kTimelineMaxConsumers] = {-1, -1, -1, -1};
  double done[kTimelineMaxConsumers] = {-1, -1, -1, -1};
};

struct TimelineBlock {
  int block = 0;
  int sm = 0;
  double begin = 0, end = 0;  // ns, the block's first and last stamp
  int slabs_total = 0;        // slabs it moved; slabs holds the first records_per_block of them
  std::vector<TimelineSlab> slabs;
  std::vector<TimelineStamps> raw;  // the same slabs in cycles, for the ordering checks
};

struct TimelineResult {
  std::string error;  // empty when the run happened
  bool ok() const { return error.empty(); }
  std::string variant_id, config_name;
  Problem problem = Problem::Gemm;
  Precision precision = Precision::BF16;
  Shape shape;
  TimelineLayout layout;
  double kernel_ns = 0;  // the earliest begin to the latest end
  std::vector<TimelineBlock> blocks;
};

// Runs the timeline build of one configuration once on random inputs (fill_random with `seed`),
// stamping at most `records_per_block` slabs per block. Throws nothing: on failure the result
// holds the reason (no GPU, no timeline build, refused, a CUDA error).
TimelineResult run_timeline(const std::string& variant_id, int config_index, Problem problem, Precision precision,
                            const Shape& shape, int records_per_block, std::uint64_t seed);

// Where slab s.index of block `block` lies: its tile (the block's count of its tiles, or of its runs
// where the layout has them), its place in that tile, and whether it begins the tile or the run.
void place_slab(TimelineSlab& s, const TimelineLayout& layout, int block);

// The orderings a correct pipeline obeys, from the raw cycles of one block (the GPU test and the
// view's caption use them): "" when all hold, else the first broken one in words.
//  - every slab: issued <= arrived (the observer may see the barrier late, never early) and
//    issued <= started[c] <= done[c] for each consumer c;
//  - a stage is refilled only after every consumer finished its previous slab:
//    done[c] of slab n <= issued of slab n + stages;
//  - each consumer takes the slabs in order: started[c] and done[c] do not decrease with n.
std::string timeline_order_violation(const TimelineBlock& block, const TimelineLayout& layout);

}  // namespace tilescope
