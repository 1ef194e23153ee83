#include "app/viz/stage_handshake.h"

#include <algorithm>

#include "kernels/core/enum_names.h"

namespace tilescope {

Handshake stage_handshake(int phase, int stages, int in_flight, int slabs) {
  Handshake h;
  h.stages = std::max(stages, 1);
  h.slabs = std::max(slabs, 0);
  h.phase = std::clamp(phase, 0, h.slabs);
  in_flight = std::clamp(in_flight, 0, h.stages - 1);
  // Slabs behind the one multiplied whose stages are not released yet (wgmma: one).
  const int lag = h.stages - 1 - in_flight;
  const int c = h.phase - 1;
  h.multiplying = c;
  h.finishing = c >= 1 && lag > 0 ? c - 1 : -1;
  // The prologue copies into every stage; after it, each released stage is refilled at once: the
  // producer is blocked on the stage of the slab `stages` before the next one it copies.
  h.issued = std::min(h.slabs, std::max(h.stages, c + in_flight + 1));
  h.buffers.assign(static_cast<std::size_t>(h.stages), RingBuffer{});
  for (int t = std::max(0, h.issued - h.stages); t < h.issued; ++t) {
    RingBuffer& b = h.buffers[static_cast<std::size_t>(t % h.stages)];
    if (t < c - lag) continue;  // released, and nothing left to copy into it (the ring drains)
    b.slab = t;
    if (t == c) {
      b.state = BufferState::Multiplying;
    } else if (t < c) {
      b.state = BufferState::Finishing;
    } else {
      // The phase whose consumers freed the stage the copy went into (-1: the prologue's).
      const int issued_in = t < h.stages ? -1 : t - in_flight - 1;
      b.state = issued_in >= c - 1 ? BufferState::InFlight : BufferState::Full;
    }
  }
  if (h.slabs > 0) {
    const int next = std::max(c, 0);  // phase 0: they wait for slab 0
    h.consumers = BarrierWait{true, next % h.stages, (next / h.stages) % 2, next};
  }
  if (h.issued < h.slabs)
    h.producer = BarrierWait{true, h.issued % h.stages, ((h.issued / h.stages) % 2) ^ 1, h.issued};
  return h;
}

namespace {

std::string consumer_groups_words(const FragmentPicture& pic) {
  const int first = pic.producer_warps / std::max(1, pic.group_warps), n = std::max(1, pic.consumer_groups());
  return n == 1 ? "warpgroup " + std::to_string(first)
                : "warpgroups " + std::to_string(first) + "-" + std::to_string(first + n - 1);
}

std::string barrier(const char* name, const BarrierWait& w) {
  return std::string(name) + "[" + std::to_string(w.stage) + "] (parity " + std::to_string(w.parity) + ")";
}

}  // namespace

std::string producer_words(const FragmentPicture& pic, const Handshake& h) {
  (void)pic;
  std::string out = "producer (thread 0 of warpgroup 0): ";
  if (h.phase == 0 && h.issued > 0)
    out += "copied slab" + std::string(h.issued > 1 ? "s 0-" + std::to_string(h.issued - 1) : " 0") +
           " without waiting (every empty barrier starts free); ";
  if (!h.producer.waits)
    return out + "every slab of this tile is copied: it goes on to the block's next tile, if it has one";
  return out + "waits on " + barrier("empty", h.producer) + " to copy slab " + std::to_string(h.producer.slab) +
         " into stage " + std::to_string(h.producer.stage);
}

std::string consumer_words(const FragmentPicture& pic, const Handshake& h) {
  std::string out = "consumers (" + consumer_groups_words(pic) + "): ";
  if (!h.consumers.waits) return out + "no slab to multiply";
  if (h.multiplying < 0)
    return out + "wait on " + barrier("full", h.consumers) + " for slab " + std::to_string(h.consumers.slab);
  out += "waited on " + barrier("full", h.consumers) + " and multiply slab " + std::to_string(h.multiplying);
  const int next = h.multiplying + 1;
  if (next >= h.slabs) return out + ", the last: then they wait for all their products and store C";
  const BarrierWait w{true, next % h.stages, (next / h.stages) % 2, next};
  return out + "; next they wait on " + barrier("full", w) + " for slab " + std::to_string(next);
}

const char* buffer_state_name(BufferState s) {
  static constexpr EnumName<BufferState> kNames[] = {{BufferState::InFlight, "in flight (TMA)"},
                                                     {BufferState::Full, "full (landed)"},
                                                     {BufferState::Multiplying, "multiplied"},
                                                     {BufferState::Finishing, "finishing"}};
  return enum_name(s, kNames, "free");
}

std::string buffer_words(const Handshake& h, int stage) {
  if (stage < 0 || stage >= static_cast<int>(h.buffers.size())) return "";
  const RingBuffer& b = h.buffers[static_cast<std::size_t>(stage)];
  const std::string slab = "slab " + std::to_string(b.slab) + ": ";
  switch (b.state) {
    case BufferState::InFlight:
      return slab + "in flight (TMA); full[" + std::to_string(stage) + "] completes when its bytes land";
    case BufferState::Full:
      return slab + "full, waiting for the consumers";
    case BufferState::Multiplying:
      return slab + "multiplied by the consumers (wgmma reads it)";
    case BufferState::Finishing:
      return slab + "its last products are in the tensor cores; then every consumer warp arrives on empty[" +
             std::to_string(stage) + "]";
    default:
      return "free";
  }
}

}  // namespace tilescope
