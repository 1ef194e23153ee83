// Hopper's asynchronous tensor-core path as the PTX ISA names it, one small wrapper each: the
// warpgroup MMA (wgmma.mma_async), which reads its operands from shared memory through matrix
// descriptors and runs while the warpgroup goes on; the bulk tensor copy (TMA), which fills a tile
// of shared memory from a tensor map and reports the bytes to an mbarrier; and the register
// reallocation (setmaxnreg) that moves registers from a copying warpgroup to computing ones.
// All of it is sm_90a code (it runs on compute capability 9.0 alone); compiled for anything else,
// each wrapper is empty, and the variants that use it refuse other GPUs before any launch.
//
// Terms:
//   warpgroup: 4 consecutive warps (128 threads), the first a multiple of 4; wgmma is issued by
//     all of them together and each thread holds a fixed part of the 64 x N accumulator tile:
//     warp w of the group rows 16 w .. 16 w + 15; lane 4 g + t, register 4 j + r:
//     D(16 w + g + 8 (r / 2), 8 j + 2 t + r % 2).
//   K-major / MN-major: which index runs along a 128-byte row of the shared tile. A row-major A
//     (M x K) is K-major; a row-major B (K x N) is N-major, which wgmma reads with its transpose bit.
//   128-byte swizzle: in each group of 8 rows of 128 bytes (1024 bytes), 16-byte chunk c of row r
//     sits at chunk c ^ (r % 8). The TMA writes tiles this way and wgmma reads them this way, so no
//     two of the 8 rows a tensor core reads at once share a bank.
// This header is device-only (no host header, so NVRTC compiles it as a kernel text's include);
// the host's kSm90aCodeBuilt is in sm90a_build.h.
#pragma once

#include "kernels/ptx/device_types.cuh"
#include "kernels/ptx/mma_ptx.cuh"     // shared_address, mbarrier_init, mbarrier_arrive
#include "kernels/ptx/tensor_map.cuh"  // CUtensorMap
#ifndef __CUDACC_RTC__
#include "kernels/cuda/sm90a_build.h"  // for the launch files that still reach kSm90aCodeBuilt through here
#endif

namespace tilescope {

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TILESCOPE_SM90A_PTX 1
#endif

// ---- matrix descriptors -------------------------------------------------------------------------
// The 128-byte swizzle repeats every 8 rows of 128 bytes: a swizzled tile starts on a multiple of
// this, and a descriptor strides by it from one group of 8 rows to the next.
constexpr int kSwizzleAtom = 1024;

// A 64-bit description of one operand tile in shared memory, laid out with the 128-byte swizzle:
// start address, leading byte offset, stride byte offset (all in 16-byte units) and the layout
// (bits 62-63: 1 = 128-byte swizzle). For a K-major tile (rows of 64 K values): the stride is
// 1024, from one group of 8 rows to the next; the leading offset is unused. For an MN-major tile
// (rows of 64 M or N values, one per k): the stride is 1024 again, from one group of 8 k rows to
// the next, and the leading offset is the distance between the 64-wide column blocks of a tile
// wider than 64. The tile must start on a 1024-byte boundary, except that a K-major tile's start
// may move by 32 bytes per 16 k inside its 128-byte rows (the swizzle works on the address bits).
__device__ __forceinline__ std::uint64_t sw128_descriptor(const void* tile, std::uint32_t leading_bytes,
                                                          std::uint32_t stride_bytes) {
  return static_cast<std::uint64_t>((shared_address(tile) >> 4) & 0x3FFF) |
         static_cast<std::uint64_t>((leading_bytes >> 4) & 0x3FFF) << 16 |
         static_cast<std::uint64_t>((stride_bytes >> 4) & 0x3FFF) << 32 | std::uint64_t{1} << 62;
}

// ---- wgmma ------------------------------------------------------------------------------------------
// D (64 x N, FP32, in the warpgroup's registers) = A (64 x k) * B (k x N) + (scale_d ? D : 0), A and
// B by descriptor: 16-bit (bf16 or f16) with k = 16, or tf32 with k = 8 (32 bytes of a row either
// way). kTransA / kTransB = 1: that operand is MN-major, which the PTX ISA allows the 16-bit types
// alone: tf32 operands are K-major, both of them.
// The instruction only starts the product: wgmma_commit groups what was issued, wgmma_wait<n>
// waits until at most n groups are pending, and only then may D or the tiles be touched.
// The operand lists are written out: asm takes no loops. `scale` names scale_d's operand,
// `operands` A's and B's (two descriptors, or A's four registers and B's descriptor), `trans` the
// transpose immediates (the 16-bit types) or nothing (tf32, which has none); the inputs follow.
#define TILESCOPE_WGMMA_M64N64(shape, type, scale, operands, trans, ...)                                               \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " scale                                                               \
               ", 0;\n"                                                                                                \
               "wgmma.mma_async.sync.aligned.m64n64" shape ".f32." type "." type                                       \
               " {"                                                                                                    \
               "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, "  \
               "%22, %23, %24, %25, %26, %27, %28, %29, %30, %31 "                                                     \
               "}, " operands ", p, 1, 1" trans ";\n}\n"                                                               \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),       \
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
                 "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]),            \
                 "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),            \
                 "+f"(d[30]), "+f"(d[31])                                                                              \
               : __VA_ARGS__)

#define TILESCOPE_WGMMA_M64N128(shape, type, scale, operands, trans, ...)                                              \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " scale                                                               \
               ", 0;\n"                                                                                                \
               "wgmma.mma_async.sync.aligned.m64n128" shape ".f32." type "." type                                      \
               " {"                                                                                                    \
               "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, "       \
               "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, "       \
               "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, "       \
               "%59, %60, %61, %62, %63 "                                                                              \
               "}, " operands ", p, 1, 1" trans ";\n}\n"                                                               \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),       \
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
                 "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]),            \
                 "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),            \
                 "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]),            \
                 "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]),            \
                 "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]),            \
                 "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]),            \
                 "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])                          \
               : __VA_ARGS__)

#define TILESCOPE_WGMMA_M64N192(shape, type, scale, operands, trans, ...)                                           \
  asm volatile(                                                                                                     \
      "{\n.reg .pred p;\nsetp.ne.b32 p, " scale                                                                     \
      ", 0;\n"                                                                                                      \
      "wgmma.mma_async.sync.aligned.m64n192" shape ".f32." type "." type                                            \
      " {"                                                                                                          \
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, "             \
      "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, "             \
      "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, "             \
      "%59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, "             \
      "%78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95 "                   \
      "}, " operands ", p, 1, 1" trans ";\n}\n"                                                                     \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), \
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),      \
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),     \
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),     \
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),     \
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),     \
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),     \
        "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]),     \
        "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]),     \
        "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]),     \
        "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]),     \
        "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])                   \
      : __VA_ARGS__)

#define TILESCOPE_WGMMA_M64N256(shape, type, scale, operands, trans, ...)                                              \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " scale                                                               \
               ", 0;\n"                                                                                                \
               "wgmma.mma_async.sync.aligned.m64n256" shape ".f32." type "." type                                      \
               " {"                                                                                                    \
               "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, "       \
               "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, "       \
               "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, "       \
               "%59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, "       \
               "%78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, "       \
               "%97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, "         \
               "%113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127 "             \
               "}, " operands ", p, 1, 1" trans ";\n}\n"                                                               \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),       \
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
                 "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]),            \
                 "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),            \
                 "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]),            \
                 "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]),            \
                 "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]),            \
                 "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]),            \
                 "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]),            \
                 "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),            \
                 "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]),            \
                 "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]),            \
                 "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]),            \
                 "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]),            \
                 "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]),     \
                 "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]),     \
                 "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]),     \
                 "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])      \
               : __VA_ARGS__)

// The input types wrapped here.
enum class WgmmaInput { F16, BF16, TF32 };
// The k of one instruction: 16 (f16, bf16) or 8 (tf32).
__host__ __device__ constexpr int wgmma_k(WgmmaInput t) {
  return t == WgmmaInput::TF32 ? 8 : 16;
}

// The instruction of width kN (64, 128, 192 or 256) for input type T: d holds kN / 2 accumulators per
// thread.
template <int kN, WgmmaInput T, int kTransA, int kTransB>
__device__ __forceinline__ void wgmma_m64(float (&d)[kN / 2], std::uint64_t a, std::uint64_t b, int scale_d) {
  static_assert(kN == 64 || kN == 128 || kN == 192 || kN == 256, "the widths wrapped here");
  static_assert(T != WgmmaInput::TF32 || (kTransA == 0 && kTransB == 0), "tf32 operands are K-major");
#ifdef TILESCOPE_SM90A_PTX
// The operands' numbers follow the accumulators: a, b, scale_d and the transpose immediates.
#define TILESCOPE_WGMMA_OF_TYPE(width, scale, operands, trans)                                                     \
  if constexpr (T == WgmmaInput::BF16)                                                                             \
    TILESCOPE_WGMMA_M64N##width("k16", "bf16", scale, operands, trans, "l"(a), "l"(b), "r"(scale_d), "n"(kTransA), \
                                "n"(kTransB));                                                                     \
  else if constexpr (T == WgmmaInput::F16)                                                                         \
    TILESCOPE_WGMMA_M64N##width("k16", "f16", scale, operands, trans, "l"(a), "l"(b), "r"(scale_d), "n"(kTransA),  \
                                "n"(kTransB));                                                                     \
  else                                                                                                             \
    TILESCOPE_WGMMA_M64N##width("k8", "tf32", scale, operands, "", "l"(a), "l"(b), "r"(scale_d));
  if constexpr (kN == 64) {
    TILESCOPE_WGMMA_OF_TYPE(64, "%34", "%32, %33", ", %35, %36")
  } else if constexpr (kN == 128) {
    TILESCOPE_WGMMA_OF_TYPE(128, "%66", "%64, %65", ", %67, %68")
  } else if constexpr (kN == 192) {
    TILESCOPE_WGMMA_OF_TYPE(192, "%98", "%96, %97", ", %99, %100")
  } else {
    TILESCOPE_WGMMA_OF_TYPE(256, "%130", "%128, %129", ", %131, %132")
  }
#undef TILESCOPE_WGMMA_OF_TYPE
#endif
}

// The register-sourced form, tf32: A (64 x 8) comes from the warpgroup's registers, four per
// thread in the layout of the accumulators' first 8 columns (lane 4 g + t of warp w: a[0] =
// A(16 w + g, t), a[1] = A(16 w + g + 8, t), a[2] = A(16 w + g, t + 4), a[3] = A(16 w + g + 8, t + 4)),
// and B (8 x kN) by descriptor, K-major. The instruction reads those registers while it runs:
// they must not change before a wgmma_wait says it is done.
template <int kN>
__device__ __forceinline__ void wgmma_m64_tf32_registers(float (&d)[kN / 2], const std::uint32_t (&a)[4],
                                                         std::uint64_t b, int scale_d) {
  static_assert(kN == 64 || kN == 128 || kN == 192 || kN == 256, "the widths wrapped here");
#ifdef TILESCOPE_SM90A_PTX
#define TILESCOPE_WGMMA_REGISTERS(width, scale, operands)                                                            \
  TILESCOPE_WGMMA_M64N##width("k8", "tf32", scale, operands, "", "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), \
                              "r"(scale_d))
  if constexpr (kN == 64) {
    TILESCOPE_WGMMA_REGISTERS(64, "%37", "{%32, %33, %34, %35}, %36");
  } else if constexpr (kN == 128) {
    TILESCOPE_WGMMA_REGISTERS(128, "%69", "{%64, %65, %66, %67}, %68");
  } else if constexpr (kN == 192) {
    TILESCOPE_WGMMA_REGISTERS(192, "%101", "{%96, %97, %98, %99}, %100");
  } else {
    TILESCOPE_WGMMA_REGISTERS(256, "%133", "{%128, %129, %130, %131}, %132");
  }
#undef TILESCOPE_WGMMA_REGISTERS
#endif
}
#undef TILESCOPE_WGMMA_M64N64
#undef TILESCOPE_WGMMA_M64N128
#undef TILESCOPE_WGMMA_M64N192
#undef TILESCOPE_WGMMA_M64N256

// Before a wgmma reads registers or shared memory that ordinary instructions wrote.
__device__ __forceinline__ void wgmma_fence() {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void wgmma_commit() {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
#endif
}
// Keeps the compiler from moving accesses of the accumulators across a wgmma_wait: to it, each
// register is read and written here.
template <int kN>
__device__ __forceinline__ void fence_accumulators(float (&d)[kN]) {
#pragma unroll
  for (int i = 0; i < kN; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// ---- ordering between the generic and the async proxy ---------------------------------------------
// Shared memory written by ordinary stores and read next by wgmma or the TMA.
__device__ __forceinline__ void fence_proxy_async() {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}
// Makes freshly initialised mbarriers visible to the TMA unit (and the other threads).
__device__ __forceinline__ void fence_mbarrier_init() {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}

// ---- TMA and mbarrier transactions -----------------------------------------------------------------
// The producer's arrival on a stage's "full" barrier, announcing `bytes` that copies will deliver:
// the phase completes when the arrival has come and all those bytes have landed.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(std::uint64_t* bar, std::uint32_t bytes) {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
#endif
}
// Waits for the phase of parity `parity` to complete (try_wait lets the hardware suspend the
// thread for a while instead of spinning).
__device__ __forceinline__ void mbarrier_wait_parity(std::uint64_t* bar, std::uint32_t parity) {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile(
      "{\n.reg .pred done;\nWAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra WAIT_%=;\n}\n" ::"r"(shared_address(bar)),
      "r"(parity)
      : "memory");
#endif
}
// One box of a 2-D tensor map, its first element at (x = inner index, y = outer index), copied
// into shared memory at `dst` (laid out as the map says: here 128-byte swizzled rows); its bytes
// are counted on `bar`. Elements outside the tensor arrive as zeros and count all the same.
__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* map, int x, int y, std::uint64_t* bar) {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
      "[%4];\n" ::"r"(shared_address(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(shared_address(bar))
      : "memory");
#endif
}

// The other way: one box of shared memory `src` (laid out as the map says) written to the tensor
// at (x, y); what lies outside the tensor is not written. The copy is asynchronous: commit it as a
// bulk group, then wait for the group to have read its shared memory (before writing it again) or
// to be complete (before the block exits).
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, const void* src, int x, int y) {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(
                   reinterpret_cast<std::uint64_t>(map)),
               "r"(shared_address(src)), "r"(x), "r"(y)
               : "memory");
#endif
}
__device__ __forceinline__ void bulk_commit() {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
#endif
}
// At most kPending committed bulk groups still reading their shared memory.
template <int kPending>
__device__ __forceinline__ void bulk_wait_read() {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(kPending) : "memory");
#endif
}
// Every committed bulk group complete, its writes done.
__device__ __forceinline__ void bulk_wait_all() {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
#endif
}
// A barrier for `threads` threads (a multiple of 32) of the block under id `id` (1-15; 0 is
// __syncthreads'): one warpgroup can wait for its own warps without stopping the others.
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// ---- thread-block clusters -------------------------------------------------------------------------
// This block's rank in its cluster (0 .. cluster size - 1).
__device__ __forceinline__ unsigned cluster_rank() {
  unsigned rank = 0;
#ifdef TILESCOPE_SM90A_PTX
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
#endif
  return rank;
}
// Every thread of every block of the cluster arrives, then waits for all the others: what one
// block wrote before it (its barriers' initialisation, its remote arrivals) is seen by the others.
__device__ __forceinline__ void cluster_sync() {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
#endif
}
// An arrival on the mbarrier at the same place in the shared memory of block `rank` of the cluster.
// Its ordering is the default, the block's (.release.cta): a consumer only says it is done reading
// a stage, which wgmma.wait_group has already ensured; a cluster-wide release would wait for the
// thread's memory operations to be seen across the cluster, several hundred nanoseconds per slab.
__device__ __forceinline__ void mbarrier_arrive_remote(std::uint64_t* bar, unsigned rank) {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile(
      "{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(shared_address(bar)),
      "r"(rank)
      : "memory");
#endif
}
// tma_load_2d for every block of the cluster in `mask` (bit r: rank r) at once: one read of global
// memory lands at `dst` in each of their shared memories, its bytes counted on the barrier at
// `bar`'s place in each.
__device__ __forceinline__ void tma_load_2d_multicast(void* dst, const CUtensorMap* map, int x, int y,
                                                      std::uint64_t* bar, std::uint16_t mask) {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
      "[%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(shared_address(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(shared_address(bar)), "h"(mask)
      : "memory");
#endif
}

// ---- register reallocation -------------------------------------------------------------------------
// Every thread of the warpgroup gives up registers down to kCount, or takes them up to kCount.
template <int kCount>
__device__ __forceinline__ void release_registers() {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kCount));
#endif
}
template <int kCount>
__device__ __forceinline__ void claim_registers() {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kCount));
#endif
}

}  // namespace tilescope
