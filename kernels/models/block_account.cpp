#include "kernels/models/block_account.h"

#include <algorithm>

#include "kernels/core/text_format.h"

namespace tilescope {

namespace {

long long ll(std::int64_t v) {
  return static_cast<long long>(v);
}

// The loads of the block's threads in the phases before `phases_done`, every piece of each;
// the phases `counted` lacks are counted into it first.
void sum_global_loads(const MappingModel& m, int bx, int by, int phases_done, PhaseLoads* counted, BlockAccount* out) {
  const Dim2 block = m.block();
  std::vector<ElementRef> a, b;
  for (int phase = static_cast<int>(counted->a.size()); phase < phases_done; ++phase) {
    std::int64_t na = 0, nb = 0;
    for (int piece = 0; piece < m.pieces(); ++piece)
      for (int ty = 0; ty < block.y; ++ty)
        for (int tx = 0; tx < block.x; ++tx) {
          m.thread_loads(bx, by, tx, ty, phase, piece, &a, &b);
          na += static_cast<std::int64_t>(a.size());
          nb += static_cast<std::int64_t>(b.size());
        }
    counted->a.push_back(na);
    counted->b.push_back(nb);
  }
  for (int phase = 0; phase < phases_done; ++phase) {
    out->a_loads += counted->a[static_cast<std::size_t>(phase)];
    out->b_loads += counted->b[static_cast<std::size_t>(phase)];
  }
}

CounterLine global_line(const BlockAccount& acc, const PerK& per_k) {
  CounterLine line;
  line.text = format("global loads: %lld elements: %lld for the A operand, %lld for the B operand",
                     ll(acc.global_loads()), ll(acc.a_loads), ll(acc.b_loads));
  line.help =
      "Elements of A and B the block's threads loaded from global memory in the phases done (a vector load counts "
      "each of its elements; nothing is loaded outside the matrices). With a GPU, the instrumented run of the kernel "
      "counts exactly these.";
  if (per_k.value <= 0 || acc.phases_done == 0) return line;
  const std::int64_t whole = per_k.value * acc.k_done;
  if (whole == acc.global_loads())
    line.formula = format("= (%s) x k = (%s) x %lld", per_k.symbols.c_str(), per_k.numbers.c_str(), ll(acc.k_done));
  else
    line.formula = format("whole tiles would load (%s) x k = (%s) x %lld = %lld: this block's reach past the edge",
                          per_k.symbols.c_str(), per_k.numbers.c_str(), ll(acc.k_done), ll(whole));
  return line;
}

CounterLine shared_line(const BlockAccount& acc, const PerK& per_step) {
  CounterLine line;
  line.text = format("shared-memory loads: %lld elements", ll(acc.shared_loads));
  if (acc.steps_run > 0)
    line.formula =
        format("= (%s) x k steps = (%s) x %lld", per_step.symbols.c_str(), per_step.numbers.c_str(), ll(acc.steps_run));
  line.help =
      "Elements of A and B read from shared memory (by the block's threads, or by the tensor cores) to multiply the "
      "phases done. A last slab that reaches past K is read whole, the zeros staged there included.";
  return line;
}

void add_counters(const PerK& global, const PerK& shared, Precision precision, BlockAccount* acc) {
  acc->counters.push_back(global_line(*acc, global));
  if (acc->through_shared) acc->counters.push_back(shared_line(*acc, shared));
  const int element = static_cast<int>(element_bytes(precision));
  acc->counters.push_back({format("bytes from global memory: %lld", ll(acc->bytes)),
                           format("= %d bytes x %lld elements", element, ll(acc->global_loads())), ""});
  acc->counters.push_back(
      {format("FLOPs: %lld", ll(acc->flops)),
       format("= 2 x outputs x k = 2 x %lld x %lld", ll(acc->outputs), ll(acc->k_done)),
       "A multiply-add counts two: each of the block's outputs inside C took one per k multiplied."});
  CounterLine intensity{format("arithmetic intensity: %.2f FLOP/byte", acc->intensity), "",
                        "FLOPs per byte loaded from global memory: the higher, the less the block waits for memory."};
  if (acc->bytes > 0) intensity.formula = format("= %lld / %lld", ll(acc->flops), ll(acc->bytes));
  acc->counters.push_back(intensity);
}

}  // namespace

BlockAccount block_account(const MappingModel& m, Precision precision, int bx, int by, int phases_done,
                           PhaseLoads* counted) {
  PhaseLoads own;
  BlockAccount acc;
  acc.block_x = bx;
  acc.block_y = by;
  acc.phases = m.phases();
  acc.phases_done = std::clamp(phases_done, 0, acc.phases);
  acc.active = m.block_active(bx, by);
  PerK global, shared;
  if (!acc.active) {
    acc.words.push_back(
        "This block exits at once: it lies below the diagonal of AᵀA, whose elements are stored as the mirrors of "
        "the upper triangle's.");
  } else {
    const PhaseWork first = m.phase_work(bx, by, 0);
    acc.outputs = first.outputs;
    acc.through_shared = first.shared.value > 0;
    global = first.global;
    shared = first.shared;
    for (int phase = 0; phase < acc.phases_done; ++phase) {
      const PhaseWork w = m.phase_work(bx, by, phase);
      acc.k_done = w.k1;
      acc.steps_run += w.steps;
      acc.shared_loads += w.shared.value * w.steps;
      if (phase + 1 == acc.phases_done) {
        acc.words.push_back(
            format("Phase %d of %d: k = %lld ... %lld.", phase + 1, acc.phases, ll(w.k0), ll(w.k1 - 1)));
        acc.words.insert(acc.words.end(), w.words.begin(), w.words.end());
      }
    }
    if (acc.phases_done == 0)
      acc.words.push_back("Before the K loop: the accumulators are zero, nothing is loaded yet.");
    sum_global_loads(m, bx, by, acc.phases_done, counted ? counted : &own, &acc);
  }
  acc.bytes = acc.global_loads() * static_cast<std::int64_t>(element_bytes(precision));
  acc.flops = 2 * acc.outputs * acc.k_done;
  acc.intensity = acc.bytes > 0 ? static_cast<double>(acc.flops) / static_cast<double>(acc.bytes) : 0.0;
  add_counters(global, shared, precision, &acc);
  return acc;
}

}  // namespace tilescope
