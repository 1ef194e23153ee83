// The Mapping tab's account of one block after some phases of its K loop, taken from the
// variant's mapping model alone: the k multiplied, the global loads (its threads'
// thread_loads() summed, which is what the instrumented run records), the shared-memory reads,
// the bytes, FLOPs and arithmetic intensity, what the last phase did in words, and the formula of
// each count where one applies. Plain C++ (no ImGui): the panel prints it, the tests check it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/core/gemm_types.h"
#include "kernels/models/mapping_model.h"

namespace tilescope {

// One counter as the panel prints it: the count, how it follows ("" where no formula applies)
// and what it means (a tooltip).
struct CounterLine {
  std::string text;     // "global loads: 16384 elements: 8192 for the A operand, 8192 for the B operand"
  std::string formula;  // "= (BM + BN) x k = (128 + 128) x 64"
  std::string help;
};

struct BlockAccount {
  int block_x = 0, block_y = 0;
  int phases_done = 0, phases = 0;
  bool active = true;                     // false: the block exits at once (AᵀA's lower triangle)
  std::int64_t k_done = 0;                // k < k_done is multiplied
  std::int64_t steps_run = 0;             // k steps its loop ran (a last slab reaching past K runs whole)
  std::int64_t outputs = 0;               // elements of C it accumulates
  std::int64_t a_loads = 0, b_loads = 0;  // global loads of the A and B operands, in elements
  bool through_shared = false;            // its operands are read from shared memory
  std::int64_t shared_loads = 0;          // elements read from shared memory
  std::int64_t bytes = 0;                 // bytes loaded from global memory
  std::int64_t flops = 0;                 // 2 x outputs x k_done
  double intensity = 0;                   // flops / bytes (0 before anything is loaded)
  std::vector<std::string> words;         // what the last phase done did, one sentence each
  std::vector<CounterLine> counters;

  std::int64_t global_loads() const { return a_loads + b_loads; }
};

// A block's global loads phase by phase (elements of the A and B operands), each phase counted
// once: a caller stepping through the phases of one block keeps it between calls, so that a
// step counts one phase instead of all the phases before it. Empty it when the model or the
// block changes.
struct PhaseLoads {
  std::vector<std::int64_t> a, b;
};

// Block (bx, by) of `model` after `phases_done` phases (clamped to 0 .. phases()); `precision`
// gives the bytes of an element. Sums thread_loads() over the block's threads, the phases done
// and their pieces: O(loads) for the phases not in `counted` yet (nullptr: none are).
BlockAccount block_account(const MappingModel& model, Precision precision, int block_x, int block_y, int phases_done,
                           PhaseLoads* counted = nullptr);

}  // namespace tilescope
