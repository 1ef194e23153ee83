// The shared-memory-fed mma.sync roofs of the roofs table (roofs.h). The mma.sync rows
// measure the instruction on operands that stay in registers; a GEMM's operands do not: each
// slab of A and B is copied global -> shared (cp.async) once per block and read shared ->
// registers (ldmatrix) by every warp that multiplies it. On an H100 these writes and reads of
// shared memory, not the tensor pipe, bound an mma.sync GEMM: this roof is the rate of the same
// instruction with that traffic and nothing else (no barrier, no edges, no epilogue, the copies'
// source in L2). It is the roof the mma_sync kernels can hope for; wgmma, which reads its
// operands from shared memory itself, once per warpgroup, is how Hopper gets past it.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace tilescope {

struct CycleSample;  // roofs_device.cuh

enum class FedMmaRoof { F16, Bf16, Tf32 };

// The traffic of the mma_sync variant's fastest 16-bit tiles (05_mma_sync.cu): a block of 8
// warps of 64 x 64 (a 128 x 256 tile of C), slabs 128 bytes deep (64 halves or 32 tf32 values),
// so a slab is 48 KB, copied once and read by the warps as 128 KB of ldmatrix, and feeds
// 8 x 4 x 32 mma.sync. Shared memory: the slab multiplied, and the landing slabs of the copies.
constexpr int kFedRoofThreads = 256;
constexpr int kFedRoofInstructionsPerSlab = 8 * 4 * 32;
constexpr std::size_t kFedRoofSlabBytes = (128 + 256) * 128;

// Landing slabs that fit beside the multiplied one in `shared_optin_bytes` per block: up to 3
// (two slabs of copies in flight, as in a 4-stage ring), at least 1 (0: not even two slabs fit,
// the roof is not measured); and the shared memory they take with it.
int fed_roof_landings(std::size_t shared_optin_bytes);
std::size_t fed_roof_shared_bytes(int landings);

// Once before the launches of `roof` with `landings` landing slabs: lets its kernel have that
// shared memory, and fills `words` 32-bit words at `source` with random operands of its type
// (values in [0.5, 1) with random signs, as the other roofs' operands).
void prepare_fed_mma_roof(FedMmaRoof roof, int landings, std::uint32_t* source, std::size_t words, cudaStream_t stream);

// One launch: `blocks` blocks of kFedRoofThreads, each multiplying `slabs` slabs while copying
// as many from `source`, `windows` slabs of kFedRoofSlabBytes; every thread writes its sum to
// out[block * kFedRoofThreads + thread], every block its CycleSample.
void launch_fed_mma_roof(FedMmaRoof roof, int landings, int blocks, int slabs, const void* source, int windows,
                         double* out, CycleSample* cycles, cudaStream_t stream);

}  // namespace tilescope
