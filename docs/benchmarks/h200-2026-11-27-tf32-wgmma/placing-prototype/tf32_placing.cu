// Prototype, not the product: tf32 on wgmma with no transposing pass before the kernel. wgmma
// takes tf32 operands K-major only; here the producer warpgroup's 128 threads place each slab of
// the row-major (N-major) B into the K-major, 128-byte swizzled layout themselves, one 4-byte
// cp.async per element, while its thread 0 still has the TMA copy A. Everything else is
// wgmma_tma's own code (06_wgmma_tma.cuh: the ring, the consumers, the TMA stores of C), at the
// tile of tf32_128x256_s4_st.
//
// The placement: a warp's instruction covers 8 columns n x 4 k of the slab; lanes 0-7 read 8
// neighbouring floats of one row of B (a 32-byte sector), and in shared memory the 8 columns are
// 8 rows of the K-major tile, whose swizzle (16-byte chunk k / 4 XOR n % 8) puts them in 8
// different chunks: 32 banks, no conflict. Ordering: a producer thread waits for its copies of a
// slab (cp.async.wait_group, one slab behind), fences them for the async proxy that wgmma reads
// through, then arrives on the stage's "full" barrier (129 arrivals: the 128 threads and thread
// 0's expect_tx for A's bytes).
//
// Build (from the repository root): nvcc -O3 -std=c++17 -arch=sm_90a -I. -o tf32_placing
//   docs/benchmarks/h200-2026-11-27-tf32-wgmma/placing-prototype/tf32_placing.cu -lcublas -lcuda
#include <cublas_v2.h>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernels/variants/06_wgmma_tma.cuh"

using namespace tilescope;

#define CK(x)                                                          \
  do {                                                                 \
    cudaError_t ck_err = (x);                                          \
    if (ck_err != cudaSuccess) {                                       \
      printf("CUDA %s at %d\n", cudaGetErrorString(ck_err), __LINE__); \
      exit(1);                                                         \
    }                                                                  \
  } while (0)

using Tile = WgShape<128, 256, 32, 256, 4, 2, 1, true, true>;  // tf32_128x256_s4_st
using S = WgLayout<Precision::TF32, Tile>;
constexpr int kPlacers = 128;         // the producer warpgroup
constexpr int kPlacerRegisters = 56;  // more than the TMA-only producer's 40: the placement's addresses
constexpr int kConsumerRegisters = (65536 - 128 * kPlacerRegisters) / (128 * S::p.consumers) / 8 * 8;

__device__ __forceinline__ void cp_async_4(void* dst, const float* src, bool inside) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(shared_address(dst)), "l"(src),
               "r"(inside ? 4 : 0)
               : "memory");
}
// cp_async_commit and cp_async_wait<n> are the product's (kernels/ptx/mma_ptx.cuh).

// The slab's copies are complete (this thread's), seen by the async proxy, and announced.
__device__ __forceinline__ void announce(const Ring<S>& ring, int stage) {
  fence_proxy_async();
  mbarrier_arrive(&ring.full[stage]);
}

__device__ void produce_placing_b(const Ring<S>& ring, const BlockWork<S, false>& work, const CUtensorMap& a_map,
                                  const float* __restrict__ B, int tid) {
  constexpr WgmmaParams p = S::p;
  static_assert(p.bk == 32 && p.bn % 8 == 0, "one K-major block of 32 k, whole groups of 8 columns");
  constexpr int kGroups = p.bn / 8 * (p.bk / 4);  // blocks of 8 n x 4 k
  const int warp = tid / 32, lane = tid % 32, n_in = lane % 8, k_in = lane / 8;
  RingCursor<p.stages> at;
  int behind = -1;  // the stage whose copies are announced next
  for (int w = work.first; w < work.works; w += work.step) {
    const BlockTile tile = work.tile(w);
    const int row0 = tile.row * p.bm, col0 = tile.col * p.bn;
    for (int slab = 0; slab < work.slabs; ++slab) {
      mbarrier_wait_parity(&ring.empty[at.stage], at.phase ^ 1);
      const int k0 = slab * p.bk;
      if (tid == 0) {
        mbarrier_arrive_expect_tx(&ring.full[at.stage], S::kATileBytes);
        tma_load_2d(ring.a_tile(at.stage), &a_map, k0, row0, &ring.full[at.stage]);
      }
      unsigned char* const b_tile = ring.b_tile(at.stage);
#pragma unroll 4
      for (int g = warp; g < kGroups; g += kPlacers / 32) {
        const int n = 8 * (g % (p.bn / 8)) + n_in, k = 4 * (g / (p.bn / 8)) + k_in;
        const int gk = k0 + k, gn = col0 + n;
        const bool inside = gk < work.K && gn < work.N;
        const float* src = inside ? B + static_cast<std::int64_t>(gk) * work.N + gn : B;
        cp_async_4(b_tile + n * 128 + (((k / 4) ^ (n % 8)) * 16) + (k % 4) * 4, src, inside);
      }
      cp_async_commit();
      if (behind >= 0) {
        cp_async_wait<1>();
        announce(ring, behind);
      }
      behind = at.stage;
      at.advance();
    }
  }
  if (behind >= 0) {
    cp_async_wait<0>();
    announce(ring, behind);
  }
}

__global__ void __launch_bounds__(S::kThreads, 1)
    tf32_placing_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap c_map,
                        const float* __restrict__ B, float* C, int M, int N, int K) {
  constexpr WgmmaParams p = S::p;
  extern __shared__ unsigned char shared_raw[];
  const Ring<S> ring(shared_raw);
  NoProbe probe;
  const BlockWork<S, false> work(M, N, K, K, p.bk);
  if (threadIdx.x == 0) {
    for (int s = 0; s < p.stages; ++s) {
      mbarrier_init(&ring.full[s], 1 + kPlacers);
      mbarrier_init(&ring.empty[s], 4 * p.consumers);
    }
    fence_mbarrier_init();
  }
  __syncthreads();
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  if (warpgroup == 0) {
    release_registers<kPlacerRegisters>();
    produce_placing_b(ring, work, a_map, B, static_cast<int>(threadIdx.x));
  } else {
    claim_registers<kConsumerRegisters>();
    const ConsumerThread me(warpgroup);
    const CDestination out{C, true, &c_map, &c_map, true};
    RingCursor<p.stages> at;
    int boxes = 0;
    float acc[S::kSlices][S::kAcc];
    for (int w = work.first; w < work.works; w += work.step) {
      const BlockTile tile = work.tile(w);
      consume<Precision::TF32>(ring, work, me, at, acc, probe);
      store_tile(acc, tile, me, work, out, ring.c_boxes, boxes, probe);
    }
    if (me.leader) bulk_wait_all();
  }
}

// ---- host -----------------------------------------------------------------------------------------
PFN_cuTensorMapEncodeTiled_v12000 encoder() {
  static PFN_cuTensorMapEncodeTiled_v12000 f = nullptr;
  if (!f) {
    cudaDriverEntryPointQueryResult q;
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", reinterpret_cast<void**>(&f), 12000,
                                        cudaEnableDefault, &q));
  }
  return f;
}
CUtensorMap float_map(const float* base, int rows, int cols, int box_cols, int box_rows) {
  CUtensorMap m;
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(cols) * 4};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t es[2] = {1, 1};
  const CUresult r = encoder()(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(base), dims, strides, box, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                               CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    printf("cuTensorMapEncodeTiled: %d\n", static_cast<int>(r));
    exit(1);
  }
  return m;
}

struct Bufs {
  float *a, *b, *c;
};

void launch_placing(const Bufs& s, int n, int sms) {
  const CUtensorMap a_map = float_map(s.a, n, n, 32, S::p.bm);
  const CUtensorMap c_map = float_map(s.c, n, n, kCBoxCols, 64);
  const int tiles = static_cast<int>(ceil_div(n, S::p.bm) * ceil_div(n, S::p.bn));
  tf32_placing_kernel<<<std::min(tiles, sms), S::kThreads, S::kShared>>>(a_map, c_map, s.b, s.c, n, n, n);
}

float random_tf32() {
  float x = (rand() / static_cast<float>(RAND_MAX)) * 2 - 1;
  unsigned u;
  std::memcpy(&u, &x, 4);
  u &= ~0x1FFFu;  // 10 mantissa bits: a value tf32 holds exactly
  std::memcpy(&x, &u, 4);
  return x;
}

int main(int argc, char** argv) {
  std::vector<int> sizes = {4000, 4096, 8192};
  if (argc > 1) {
    sizes.clear();
    for (int i = 1; i < argc; ++i) sizes.push_back(atoi(argv[i]));
  }
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  CK(cudaFuncSetAttribute(tf32_placing_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S::kShared));
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
  printf("device,N,round,kernel,median_ms,tflops,pct_of_cublas,max_rel_diff_vs_cublas\n");
  for (int n : sizes) {
    const size_t e = static_cast<size_t>(n) * n;
    const int nsets = std::min(4, std::max(1, static_cast<int>(200e6 / (3.0 * e * 4))));  // past the L2
    std::vector<Bufs> sets(nsets);
    std::vector<float> h_a(e), h_b(e);
    srand(1);
    for (float& x : h_a) x = random_tf32();
    for (float& x : h_b) x = random_tf32();
    for (Bufs& s : sets) {
      CK(cudaMalloc(&s.a, e * 4));
      CK(cudaMalloc(&s.b, e * 4));
      CK(cudaMalloc(&s.c, e * 4));
      CK(cudaMemcpy(s.a, h_a.data(), e * 4, cudaMemcpyHostToDevice));
      CK(cudaMemcpy(s.b, h_b.data(), e * 4, cudaMemcpyHostToDevice));
    }
    const int reps = n >= 8192 ? 15 : 30;
    std::vector<float> ref(e), out(e);
    const float one = 1, zero = 0;
    // Row-major C = A B is column-major C^T = B^T A^T.
    auto cublas = [&](const Bufs& s) {
      return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, s.b, CUDA_R_32F, n, s.a, CUDA_R_32F, n, &zero,
                          s.c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
    };
    auto time = [&](auto run) {
      for (int w = 0; w < 3; ++w) run(sets[w % nsets]);
      CK(cudaDeviceSynchronize());
      cudaEvent_t e0, e1;
      cudaEventCreate(&e0);
      cudaEventCreate(&e1);
      std::vector<float> t;
      for (int r = 0; r < reps; ++r) {
        cudaEventRecord(e0);
        run(sets[r % nsets]);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        t.push_back(ms);
      }
      CK(cudaGetLastError());
      std::sort(t.begin(), t.end());
      return t[t.size() / 2];
    };
    const double flops = 2.0 * n * n * static_cast<double>(n);
    for (int round = 1; round <= 3; ++round) {
      const float tc = time([&](const Bufs& s) {
        if (cublas(s) != CUBLAS_STATUS_SUCCESS) exit(1);
      });
      CK(cudaMemcpy(ref.data(), sets[0].c, e * 4, cudaMemcpyDeviceToHost));
      printf("%s,%d,%d,cublasGemmEx TF32,%.4f,%.1f,100.0,0\n", prop.name, n, round, tc, flops / (tc * 1e-3) / 1e12);
      for (Bufs& s : sets) CK(cudaMemset(s.c, 0xff, e * 4));  // poisoned: NaN where nothing is written
      const float tk = time([&](const Bufs& s) { launch_placing(s, n, sms); });
      CK(cudaMemcpy(out.data(), sets[0].c, e * 4, cudaMemcpyDeviceToHost));
      double worst = 0;
      for (size_t i = 0; i < e; ++i) {
        const double d = std::fabs(static_cast<double>(out[i]) - ref[i]) / (std::fabs(ref[i]) + 1e-2 * std::sqrt(n));
        if (!(d <= worst)) worst = std::isnan(d) ? INFINITY : d;
      }
      printf("%s,%d,%d,placing tf32_128x256_s4_st,%.4f,%.1f,%.1f,%.2e\n", prop.name, n, round, tk,
             flops / (tk * 1e-3) / 1e12, 100.0 * tc / tk, worst);
    }
    for (Bufs& s : sets) {
      cudaFree(s.a);
      cudaFree(s.b);
      cudaFree(s.c);
    }
  }
  return 0;
}
