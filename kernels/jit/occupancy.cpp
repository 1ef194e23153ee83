#include "kernels/jit/occupancy.h"

#include <algorithm>

namespace tilescope {

namespace {

constexpr int kWarpSize = 32;
constexpr int kRegisterUnit = 256;  // registers are allocated to a warp in units of this many
constexpr int kRegisterQuarters = 4;
constexpr std::size_t kSharedUnit = 128;

std::size_t round_up(std::size_t v, std::size_t unit) {
  return (v + unit - 1) / unit * unit;
}

}  // namespace

bool architecture_limits(const std::string& architecture, ArchitectureLimits* out) {
  ArchitectureLimits a;
  constexpr std::size_t kKiB = 1024;
  if (architecture == "sm_80") {
    a.compute_capability = 80;
    a.shared_per_sm = 164 * kKiB;
    a.shared_per_block_max = 163 * kKiB;
  } else if (architecture == "sm_86" || architecture == "sm_89") {
    a.compute_capability = architecture == "sm_86" ? 86 : 89;
    a.max_warps_per_sm = 48;
    a.max_blocks_per_sm = architecture == "sm_86" ? 16 : 24;
    a.shared_per_sm = 100 * kKiB;
    a.shared_per_block_max = 99 * kKiB;
  } else if (architecture == "sm_90" || architecture == "sm_90a") {
    a.compute_capability = 90;
    a.shared_per_sm = 228 * kKiB;
    a.shared_per_block_max = 227 * kKiB;
  } else {
    return false;
  }
  *out = a;
  return true;
}

const char* to_string(OccupancyLimiter l) {
  switch (l) {
    case OccupancyLimiter::Threads:
      return "threads";
    case OccupancyLimiter::Registers:
      return "registers";
    case OccupancyLimiter::SharedMemory:
      return "shared memory";
    case OccupancyLimiter::Blocks:
      return "blocks per SM";
    case OccupancyLimiter::None:
      break;
  }
  return "nothing";
}

Occupancy occupancy(const ArchitectureLimits& arch, int threads, int registers, std::size_t shared_bytes) {
  Occupancy o;
  if (threads <= 0 || threads > arch.max_threads_per_block) {
    o.refusal =
        std::to_string(threads) + " threads per block: the limit is " + std::to_string(arch.max_threads_per_block);
    return o;
  }
  if (registers > arch.max_regs_per_thread) {
    o.refusal =
        std::to_string(registers) + " registers per thread: the limit is " + std::to_string(arch.max_regs_per_thread);
    return o;
  }
  if (shared_bytes > arch.shared_per_block_max) {
    o.refusal = std::to_string(shared_bytes) + " bytes of shared memory per block: the limit is " +
                std::to_string(arch.shared_per_block_max);
    return o;
  }
  const int warps = (threads + kWarpSize - 1) / kWarpSize;
  const int by_threads = arch.max_warps_per_sm / warps;
  // Each quarter of the register file serves its own warps: whole warps per quarter, times four.
  const int regs_per_warp =
      static_cast<int>(round_up(static_cast<std::size_t>(std::max(registers, 1)) * kWarpSize, kRegisterUnit));
  const int warps_by_regs = (arch.regs_per_sm / kRegisterQuarters / regs_per_warp) * kRegisterQuarters;
  const int by_regs = warps_by_regs / warps;
  const std::size_t block_shared =
      std::max(round_up(shared_bytes + arch.shared_reserved_per_block, kSharedUnit), kSharedUnit);
  const int by_shared = static_cast<int>(arch.shared_per_sm / block_shared);
  o.blocks_per_sm = std::min({arch.max_blocks_per_sm, by_threads, by_regs, by_shared});
  // The tightest limit. On a tie the hardware's own caps are named first: a kernel at the most
  // warps an SM holds gains nothing from fewer registers, and a learner must not be told it would.
  if (o.blocks_per_sm == by_threads)
    o.limiter = OccupancyLimiter::Threads;
  else if (o.blocks_per_sm == arch.max_blocks_per_sm)
    o.limiter = OccupancyLimiter::Blocks;
  else if (o.blocks_per_sm == by_regs)
    o.limiter = OccupancyLimiter::Registers;
  else
    o.limiter = OccupancyLimiter::SharedMemory;
  if (o.blocks_per_sm == 0) {
    o.refusal = std::string("no block fits on a multiprocessor: too many ") + to_string(o.limiter);
    return o;
  }
  o.warps_per_sm = o.blocks_per_sm * warps;
  o.fraction = static_cast<double>(o.warps_per_sm) / arch.max_warps_per_sm;
  return o;
}

std::string occupancy_sentence(const Occupancy& o, int threads_per_block) {
  if (!o.refusal.empty()) return o.refusal;
  const int max_warps = o.fraction > 0 ? static_cast<int>(o.warps_per_sm / o.fraction + 0.5) : 0;
  return std::to_string(o.blocks_per_sm) + (o.blocks_per_sm == 1 ? " block" : " blocks") + " of " +
         std::to_string(threads_per_block) + " threads per SM: " + std::to_string(o.warps_per_sm) + " of " +
         std::to_string(max_warps) + " warps (" + std::to_string(static_cast<int>(o.fraction * 100 + 0.5)) +
         "%), limited by " + to_string(o.limiter);
}

}  // namespace tilescope
