// The handshake of a ring whose stages each have a "full" and an "empty" mbarrier (a producer that
// copies, consumers that multiply: wgmma_tma), at one phase of the tile animation, as plain data:
// which slab each buffer holds and what is happening to it, and which barrier each side waits on.
// No ImGui here, so the states are tested without a window (app/ui/mapping/stage_ring_view.cpp draws them).
//
// The moment shown, in phase p (p slabs done, slab c = p - 1 multiplied; p = 0 before the loop):
// the consumers have waited on full[c % stages] and issued slab c's products, and wait for slab
// c - 1's to finish (its stage is still read by the tensor cores; once they are done every consumer
// warp arrives on its empty barrier); the producer waits on the empty barrier of the stage it
// refills next. The prologue fills every stage without waiting (an mbarrier's "previous phase"
// counts as complete). Copies take time the picture cannot know: a slab is drawn in flight during
// the phase it was issued in and the next one, full (landed) after that; the pipeline timeline
// shows the real times.
#pragma once

#include <string>
#include <vector>

#include "kernels/models/fragment_model.h"

namespace tilescope {

enum class BufferState {
  Free,         // holds nothing the kernel still needs, and nothing is copied into it
  InFlight,     // the TMA is writing a slab into it
  Full,         // the slab has landed (full barrier complete) and waits for the consumers
  Multiplying,  // the consumers' wgmma read it now
  Finishing,    // the previous slab's products are still in the tensor cores; released next
};

struct RingBuffer {
  int slab = -1;  // the k slab it holds or receives (-1: none)
  BufferState state = BufferState::Free;
};

// One side's wait: mbarrier_wait_parity(&barrier[stage], parity).
struct BarrierWait {
  bool waits = false;  // false: this side has nothing left to wait for in this tile
  int stage = 0;
  int parity = 0;
  int slab = 0;  // the slab the wait is for (consumers: to multiply it; producer: to copy it)
};

struct Handshake {
  int phase = 0, stages = 1, slabs = 0;
  int multiplying = -1;             // the slab the consumers multiply (-1: before the loop)
  int finishing = -1;               // the slab whose products are still in the tensor cores (-1: none)
  int issued = 0;                   // slabs whose copies the producer has issued so far
  std::vector<RingBuffer> buffers;  // one per stage
  BarrierWait consumers;            // on full[...]: waited (before the slab), or waiting (phase 0)
  BarrierWait producer;             // on empty[...]
};

// The ring of `stages` buffers after `phase` of `slabs` phases, with `in_flight` slabs copied
// ahead of the one multiplied (wgmma_tma: stages - 2, since the stage of the slab before it is
// released only when that slab's products are done). Out-of-range arguments are clamped.
Handshake stage_handshake(int phase, int stages, int in_flight, int slabs);

// The sides in words, for the picture's warps: "producer (warpgroup 0, one thread): waits on
// empty[3] (parity 0) to copy slab 7 into stage 3"; "consumers (warpgroups 1-2): waited on full[0]
// (parity 1), multiplying slab 4".
std::string producer_words(const FragmentPicture& pic, const Handshake& h);
std::string consumer_words(const FragmentPicture& pic, const Handshake& h);
// What one buffer does, in words: "slab 6: in flight (TMA)", "slab 3: finishing, then released".
std::string buffer_words(const Handshake& h, int stage);
// "full", "in flight", ... for a legend.
const char* buffer_state_name(BufferState s);

}  // namespace tilescope
