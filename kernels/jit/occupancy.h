// How many blocks of a kernel fit on one multiprocessor, from what the compiled code needs
// (registers per thread, shared memory per block, threads per block) and the architecture's limits,
// so that a tile's occupancy shows the moment it is compiled, with or without a GPU. It follows
// the rules the CUDA occupancy calculator applies (registers are allocated per warp in units of 256
// within each of the four quarters of the register file; every block's shared memory carries 1 KB
// the system reserves, allocated in 128-byte units); a GPU test compares it with the driver's own
// answer (cudaOccupancyMaxActiveBlocksPerMultiprocessor).
#pragma once

#include <cstddef>
#include <string>

namespace tilescope {

struct ArchitectureLimits {
  int compute_capability = 0;  // 90
  int regs_per_sm = 65536;
  int max_regs_per_thread = 255;
  int max_warps_per_sm = 64;
  int max_blocks_per_sm = 32;
  int max_threads_per_block = 1024;
  std::size_t shared_per_sm = 0;         // the largest shared-memory carve-out
  std::size_t shared_per_block_max = 0;  // with the opt-in attribute
  std::size_t shared_reserved_per_block = 1024;
};

// The limits of "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"; false for another name.
bool architecture_limits(const std::string& architecture, ArchitectureLimits* out);

enum class OccupancyLimiter { None, Threads, Registers, SharedMemory, Blocks };
const char* to_string(OccupancyLimiter l);

struct Occupancy {
  int blocks_per_sm = 0;
  int warps_per_sm = 0;
  double fraction = 0;  // warps_per_sm / max_warps_per_sm
  OccupancyLimiter limiter = OccupancyLimiter::None;
  std::string refusal;  // why no block fits at all ("" when one does)
};

Occupancy occupancy(const ArchitectureLimits& arch, int threads_per_block, int registers_per_thread,
                    std::size_t shared_bytes_per_block);

// "2 blocks of 256 threads per SM: 16 of 64 warps (25%), limited by registers".
std::string occupancy_sentence(const Occupancy& o, int threads_per_block);

}  // namespace tilescope
