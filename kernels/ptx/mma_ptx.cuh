// The warp-level tensor-core instructions, asynchronous copies and shared-memory matrix loads as
// the PTX ISA names them, one small wrapper each, for the tensor-core kernels and the probes.
// (The roof benchmarks, roofs.cu, still spell their instructions out themselves, with the
// shapes this header lacks: FP64 m8n8k4 and m16n8k16.)
//
// mma.sync.aligned.m16n8kK: the 32 lanes of a warp together multiply a 16 x K tile of A by a
// K x 8 tile of B into a 16 x 8 tile of C. Lane l is "group" g = l / 4 and "thread in group"
// t = l % 4; each lane holds a fixed piece of each operand in its registers (the fragment
// layouts of the PTX ISA):
//   C (every type): c[r] = C(g + 8 * (r / 2), 2 * t + r % 2), r < 4.
//   16-bit A (K = 16): 4 registers of 2 values, a[i] = A(g + 8 * (i % 2), 2 * t + 8 * (i / 2) + {0, 1}).
//   16-bit B (K = 16): 2 registers of 2 values, b[i] = B(2 * t + 8 * i + {0, 1}, g).
//   tf32 and f64 A (K = 8): a[i] = A(g + 8 * (i % 2), t + 4 * (i / 2)), i < 4.
//   tf32 and f64 B (K = 8): b[i] = B(t + 4 * i, g), i < 2.
// Each wrapper is compiled only for the architectures that have its instruction; elsewhere it
// traps (the descriptors refuse those devices before anything is launched).
#pragma once

#include "kernels/ptx/device_types.cuh"

namespace tilescope {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define TILESCOPE_SM80_PTX 1
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TILESCOPE_SM90_PTX 1
#endif

// The shared-memory address PTX wants (32 bits) of a generic pointer into shared memory.
__device__ __forceinline__ std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// ---- mma.sync ------------------------------------------------------------------------------------

__device__ __forceinline__ void mma_m16n8k16_f16(float (&d)[4], const std::uint32_t (&a)[4],
                                                 const std::uint32_t (&b)[2]) {
#ifdef TILESCOPE_SM80_PTX
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
  __trap();
#endif
}

__device__ __forceinline__ void mma_m16n8k16_bf16(float (&d)[4], const std::uint32_t (&a)[4],
                                                  const std::uint32_t (&b)[2]) {
#ifdef TILESCOPE_SM80_PTX
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
  __trap();
#endif
}

// The operands are float bit patterns; the tensor core reads their top 19 bits (TF32).
__device__ __forceinline__ void mma_m16n8k8_tf32(float (&d)[4], const std::uint32_t (&a)[4],
                                                 const std::uint32_t (&b)[2]) {
#ifdef TILESCOPE_SM80_PTX
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
  __trap();
#endif
}

// FP64 on the DMMA units at their full rate (sm_90).
__device__ __forceinline__ void mma_m16n8k8_f64(double (&d)[4], const double (&a)[4], const double (&b)[2]) {
#ifdef TILESCOPE_SM90_PTX
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
      : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
#else
  __trap();
#endif
}

// ---- ldmatrix: four 8 x 8 matrices of 16-bit values from shared memory ------------------------------
// Lanes 8q .. 8q + 7 give the addresses of the 8 rows (16 bytes each) of matrix q; register q of
// lane l receives row l / 4, values 2 * (l % 4) and + 1 of matrix q. With .trans, matrix q is
// transposed on the way: lane l receives column l / 4, rows 2 * (l % 4) and + 1.

__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], std::uint32_t address) {
#ifdef TILESCOPE_SM80_PTX
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
#else
  __trap();
#endif
}

__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&r)[4], std::uint32_t address) {
#ifdef TILESCOPE_SM80_PTX
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
#else
  __trap();
#endif
}

// ---- cp.async: global -> shared without passing through registers --------------------------------
// 16 bytes, of which the first `src_bytes` (0..16) are read and the rest zero-filled: a copy
// with src_bytes 0 reads nothing and writes 16 zero bytes (the ragged edges of a matrix).

__device__ __forceinline__ void cp_async_16(void* shared_dst, const void* global_src, int src_bytes) {
#ifdef TILESCOPE_SM80_PTX
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(shared_dst)), "l"(global_src),
               "r"(src_bytes));
#else
  __trap();
#endif
}

// Closes the group of copies issued since the last commit.
__device__ __forceinline__ void cp_async_commit() {
#ifdef TILESCOPE_SM80_PTX
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}

// Waits until at most kPending committed groups are still in flight. The "memory" clobber keeps
// the compiler from moving a read of the landed data above the wait.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
#ifdef TILESCOPE_SM80_PTX
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
#endif
}

// ---- mbarrier: a barrier in shared memory that counts arrivals, phase by phase ---------------------
// A phase completes when `count` arrivals have come; waiting names the phase by its parity (the
// phases of one barrier alternate 0, 1, 0, ...). Arrive releases what the thread wrote or read
// before it; a completed wait acquires what the arriving threads released.

__device__ __forceinline__ void mbarrier_init(std::uint64_t* bar, int count) {
#ifdef TILESCOPE_SM80_PTX
  asm volatile("mbarrier.init.shared.b64 [%0], %1;\n" ::"r"(shared_address(bar)), "r"(count));
#endif
}

__device__ __forceinline__ void mbarrier_arrive(std::uint64_t* bar) {
#ifdef TILESCOPE_SM80_PTX
  asm volatile("{\n .reg .b64 state;\n mbarrier.arrive.shared.b64 state, [%0];\n}\n" ::"r"(shared_address(bar))
               : "memory");
#endif
}

// This thread's arrival, made when every cp.async it issued so far has landed (.noinc: the
// arrival is one of the `count` the barrier expects, not an extra one).
__device__ __forceinline__ void cp_async_mbarrier_arrive(std::uint64_t* bar) {
#ifdef TILESCOPE_SM80_PTX
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];\n" ::"r"(shared_address(bar)) : "memory");
#endif
}

__device__ __forceinline__ void mbarrier_wait(std::uint64_t* bar, int parity) {
#ifdef TILESCOPE_SM80_PTX
  std::uint32_t done = 0;
  do {
    asm volatile("{\n .reg .pred p;\n mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done)
                 : "r"(shared_address(bar)), "r"(parity)
                 : "memory");
  } while (!done);
#endif
}

}  // namespace tilescope
