// The wgmma roofs of the roofs table (roofs.h): Hopper's warpgroup MMA, which only
// sm_90a code may issue. roofs_wgmma.cu is compiled for sm_90a alone, and only when the
// build's architectures include 90 (CMakeLists.txt); elsewhere its kernel is empty and
// wgmma_roofs_built() says so.
#pragma once

#include <cuda_runtime.h>

namespace tilescope {

struct CycleSample;  // roofs_device.cuh

enum class WgmmaRoof { F16, Bf16, Tf32 };

// True when this program holds sm_90a code for the wgmma roofs (it runs on compute capability
// 9.0 exactly: an sm_90a cubin runs on no other).
bool wgmma_roofs_built();

// The microbenchmark's shape: threads per block (two warpgroups), and the wgmma instructions a
// block issues per loop iteration (each warpgroup two commit groups of four); the FLOPs of one
// instruction are its row's (TensorRoofSpec::flops_per_instruction).
constexpr int kWgmmaRoofThreads = 256;
constexpr int kWgmmaRoofPerGroup = 4;
constexpr int kWgmmaRoofInstructionsPerIteration = kWgmmaRoofThreads / 128 * 2 * kWgmmaRoofPerGroup;

// Blocks per SM the kernel of `roof` can keep resident.
int wgmma_roof_blocks_per_sm(WgmmaRoof roof);

// One launch of the kernel of `roof`: `blocks` blocks, `iterations` each; every thread writes
// its sum to out[block * kWgmmaRoofThreads + thread], every block its CycleSample.
void launch_wgmma_roof(WgmmaRoof roof, int blocks, int iterations, double* out, CycleSample* cycles,
                       cudaStream_t stream);

}  // namespace tilescope
