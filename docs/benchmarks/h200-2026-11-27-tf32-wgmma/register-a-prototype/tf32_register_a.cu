// Prototype, not the product: tf32 on wgmma reading B where it lies, with no transposing pass
// before the kernel. wgmma takes tf32 operands K-major when it reads them from shared memory,
// and a row-major B is N-major; but its A operand may come from registers, laid out by the
// threads themselves. So this kernel computes Cᵀ = Bᵀ Aᵀ: the instruction's A (64 x 8, from
// registers) is a 64-column slice of B's slab, which the consumers read from its N-major stage
// into their fragments, and its B (8 x 256, by descriptor) is 256 rows of A, K-major in shared
// memory as the TMA copies them. A block computes 256 rows x 128 columns of C: two consumer
// warpgroups of 64 columns each, every instruction m64n256k8, 128 accumulators per thread.
// The producer (thread 0) copies each 32-k slab by TMA: A as one K-major box of 32 k x 256
// rows, B as four N-major boxes of 32 columns x 32 k, all 128-byte swizzled.
// A consumer's fragments for step kk (8 k) of a slab, lane 4 g + t of warp q: B(k, n) at
// k = 8 kk + t (+ 4), n = 64 group + 16 q + g (+ 8), read from the swizzled box n / 32 (the
// PTX ISA's tf32 A fragment: a0 (g, t), a1 (g + 8, t), a2 (g, t + 4), a3 (g + 8, t + 4)). The
// fragments of two slabs alternate: an instruction in flight still reads the other set.
// The accumulators hold Cᵀ: register 4 j + r of lane 4 g + t of warp q is
// C(8 j + 2 t + r % 2, 16 q + g + 8 (r / 2)) of the consumer's 256 x 64 part, stored straight
// from the registers (eight lanes fill 32 bytes of a row of C).
//
// Build (from the repository root): nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -I. -o tf32_register_a
//   docs/benchmarks/h200-2026-11-27-tf32-wgmma/register-a-prototype/tf32_register_a.cu -lcublas -lcuda
#include <cublas_v2.h>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernels/ptx/wgmma_ptx.cuh"

using namespace tilescope;

#define CK(x)                                                          \
  do {                                                                 \
    cudaError_t ck_err = (x);                                          \
    if (ck_err != cudaSuccess) {                                       \
      printf("CUDA %s at %d\n", cudaGetErrorString(ck_err), __LINE__); \
      exit(1);                                                         \
    }                                                                  \
  } while (0)

constexpr int kBM = 256, kBN = 128, kBK = 32, kStages = 4, kConsumers = 2;
constexpr int kThreads = 128 * (kConsumers + 1);
constexpr int kABytes = kBM * 128;              // 32 k x 256 rows of A, K-major
constexpr int kBBoxBytes = kBK * 128;           // 32 k rows x 32 columns of B, N-major
constexpr int kBBytes = kBN / 32 * kBBoxBytes;  // four boxes
constexpr int kStageBytes = kABytes + kBBytes;
constexpr int kShared = 1024 + kStages * kStageBytes + 1024;  // alignment, the ring, the barriers

// One wgmma.mma_async m64n256k8 tf32 with A from registers (four .b32: a[0..3]) and B by descriptor:
// d (128 accumulators) += A (64 x 8) x B (8 x 256). The operand list is written out: asm takes no loops.
__device__ __forceinline__ void wgmma_rs_m64n256k8_tf32(float (&d)[128], const std::uint32_t (&a)[4], std::uint64_t b) {
#ifdef TILESCOPE_SM90A_PTX
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, "
      "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, "
      "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, "
      "%60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, "
      "%100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, "
      "%118, %119, "
      "%120, %121, %122, %123, %124, %125, %126, %127"
      "}, {%128, %129, %130, %131}, %132, p, 1, 1;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
        "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]),
        "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]),
        "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]),
        "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]),
        "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]),
        "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]),
        "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]),
        "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]),
        "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b));
#endif
}

// Byte offset of B(k, n) of a slab (n from the block's first column) in its four N-major boxes.
__device__ __forceinline__ int b_offset(int k, int n) {
  const int c = n % 32;
  return (n / 32) * kBBoxBytes + k * 128 + (((c / 4) ^ (k % 8)) * 16) + (c % 4) * 4;
}

struct Fragments {
  std::uint32_t a[kBK / 8][4];
};

__device__ __forceinline__ void load_fragments(const unsigned char* b_tile, int n, int t, Fragments& f) {
#pragma unroll
  for (int kk = 0; kk < kBK / 8; ++kk) {
    const int k = 8 * kk + t;
    f.a[kk][0] = *reinterpret_cast<const std::uint32_t*>(b_tile + b_offset(k, n));
    f.a[kk][1] = *reinterpret_cast<const std::uint32_t*>(b_tile + b_offset(k, n + 8));
    f.a[kk][2] = *reinterpret_cast<const std::uint32_t*>(b_tile + b_offset(k + 4, n));
    f.a[kk][3] = *reinterpret_cast<const std::uint32_t*>(b_tile + b_offset(k + 4, n + 8));
  }
}

__device__ __forceinline__ void multiply_slab(const unsigned char* a_tile, const Fragments& f, float (&d)[128]) {
  wgmma_fence();  // the fragments were written by plain loads
#pragma unroll
  for (int kk = 0; kk < kBK / 8; ++kk)
    wgmma_rs_m64n256k8_tf32(d, f.a[kk], sw128_descriptor(a_tile + kk * 32, 16, kSwizzleAtom));
  wgmma_commit();
}

// The tile order: bands of kBand block rows walked column by column (each slab of B is read by
// the row panels of a band while it is in L2); kBand 0: rows of tiles across C.
template <int kBand>
__device__ __forceinline__ void tile_at(int tile, int grid_m, int grid_n, int* row0, int* col0) {
  if (kBand == 0) {
    *row0 = (tile / grid_n) * kBM, *col0 = (tile % grid_n) * kBN;
    return;
  }
  const int band = tile / (kBand * grid_n), first = band * kBand, rows = min(kBand, grid_m - first);
  const int in_band = tile % (kBand * grid_n);
  *row0 = (first + in_band % rows) * kBM, *col0 = (in_band / rows) * kBN;
}

// kOverlap: the next slab's fragments load while this slab's products run (two fragment sets, and
// ptxas then serialises the wgmma: C7513); otherwise each slab's products are waited for first.
template <bool kOverlap, int kBands>
__global__ void __launch_bounds__(kThreads, 1)
    tf32_register_a_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                           float* __restrict__ C, int M, int N, int K) {
  extern __shared__ unsigned char raw[];
  const std::uint32_t raw_addr = shared_address(raw);
  unsigned char* const base = raw + ((raw_addr + 1023) / 1024 * 1024 - raw_addr);
  std::uint64_t* const full = reinterpret_cast<std::uint64_t*>(base + kStages * kStageBytes);
  std::uint64_t* const empty = full + kStages;
  const int grid_m = (M + kBM - 1) / kBM, grid_n = (N + kBN - 1) / kBN, tiles = grid_m * grid_n;
  const int slabs = (K + kBK - 1) / kBK;
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      mbarrier_init(&full[s], 1);
      mbarrier_init(&empty[s], 4 * kConsumers);
    }
    fence_mbarrier_init();
  }
  __syncthreads();
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  if (warpgroup == 0) {
    release_registers<40>();
    if (threadIdx.x != 0) return;
    int stage = 0;
    std::uint32_t phase = 0;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      int row0, col0;
      tile_at<kBands>(tile, grid_m, grid_n, &row0, &col0);
      for (int slab = 0; slab < slabs; ++slab) {
        mbarrier_wait_parity(&empty[stage], phase ^ 1);
        unsigned char* const a_tile = base + stage * kStageBytes;
        mbarrier_arrive_expect_tx(&full[stage], kStageBytes);
        tma_load_2d(a_tile, &a_map, slab * kBK, row0, &full[stage]);
#pragma unroll
        for (int box = 0; box < kBN / 32; ++box)
          tma_load_2d(a_tile + kABytes + box * kBBoxBytes, &b_map, col0 + 32 * box, slab * kBK, &full[stage]);
        if (++stage == kStages) stage = 0, phase ^= 1;
      }
    }
    return;
  }
  claim_registers<232>();
  const int group = warpgroup - 1, q = (static_cast<int>(threadIdx.x) / 32) % 4,
            lane = static_cast<int>(threadIdx.x) % 32;
  const int g = lane / 4, t = lane % 4;
  const int n_frag = 64 * group + 16 * q + g;  // the fragment's column within the block's 128
  int stage = 0;
  std::uint32_t phase = 0;
  Fragments f[2];
  float d[128];
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    int row0, col0;
    tile_at<kBands>(tile, grid_m, grid_n, &row0, &col0);
#pragma unroll
    for (int i = 0; i < 128; ++i) d[i] = 0.0f;
    int previous = -1;
    // Slabs in pairs, so that each fragment set has a fixed name (registers, not local memory).
    for (int slab = 0; slab < slabs; slab += 2) {
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        if (slab + half >= slabs) break;
        mbarrier_wait_parity(&full[stage], phase);
        const unsigned char* const a_tile = base + stage * kStageBytes;
        load_fragments(a_tile + kABytes, n_frag, t, f[kOverlap ? half : 0]);
        multiply_slab(a_tile, f[kOverlap ? half : 0], d);
        if (kOverlap) {
          wgmma_wait<1>();  // the slab before is done: its stage and its fragment set are free
          fence_accumulators(d);
          if (previous >= 0 && lane == 0) mbarrier_arrive(&empty[previous]);
          previous = stage;
        } else {
          wgmma_wait<0>();  // this slab is done: its stage and the fragments are free
          fence_accumulators(d);
          if (lane == 0) mbarrier_arrive(&empty[stage]);
        }
        if (++stage == kStages) stage = 0, phase ^= 1;
      }
    }
    wgmma_wait<0>();
    fence_accumulators(d);
    if (previous >= 0 && lane == 0) mbarrier_arrive(&empty[previous]);
    const int n_base = col0 + n_frag;
#pragma unroll
    for (int j = 0; j < 32; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const int m = row0 + 8 * j + 2 * t + r % 2, n = n_base + 8 * (r / 2);
        if (m < M && n < N) C[static_cast<std::int64_t>(m) * N + n] = d[4 * j + r];
      }
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

template <bool kOverlap, int kBands>
void launch_register_a(const Bufs& s, int n, int sms) {
  const CUtensorMap a_map = float_map(s.a, n, n, kBK, kBM);  // A: M x K, boxes of 32 k x 256 rows
  const CUtensorMap b_map = float_map(s.b, n, n, 32, kBK);   // B: K x N, boxes of 32 columns x 32 k
  const int tiles = ((n + kBM - 1) / kBM) * ((n + kBN - 1) / kBN);
  tf32_register_a_kernel<kOverlap, kBands><<<std::min(tiles, sms), kThreads, kShared>>>(a_map, b_map, s.c, n, n, n);
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
  CK(cudaFuncSetAttribute(tf32_register_a_kernel<true, 8>, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
  CK(cudaFuncSetAttribute(tf32_register_a_kernel<false, 0>, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
  CK(cudaFuncSetAttribute(tf32_register_a_kernel<false, 4>, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
  CK(cudaFuncSetAttribute(tf32_register_a_kernel<false, 8>, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
  CK(cudaFuncSetAttribute(tf32_register_a_kernel<false, 16>, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
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
      std::vector<float> ts;
      for (int r = 0; r < reps; ++r) {
        cudaEventRecord(e0);
        run(sets[r % nsets]);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        ts.push_back(ms);
      }
      CK(cudaGetLastError());
      std::sort(ts.begin(), ts.end());
      return ts[ts.size() / 2];
    };
    const double flops = 2.0 * n * n * static_cast<double>(n);
    for (int round = 1; round <= 3; ++round) {
      const float tc = time([&](const Bufs& s) {
        if (cublas(s) != CUBLAS_STATUS_SUCCESS) exit(1);
      });
      CK(cudaMemcpy(ref.data(), sets[0].c, e * 4, cudaMemcpyDeviceToHost));
      printf("%s,%d,%d,cublasGemmEx TF32,%.4f,%.1f,100.0,0\n", prop.name, n, round, tc, flops / (tc * 1e-3) / 1e12);
      auto measure = [&](const char* name, auto launch) {
        for (Bufs& s : sets) CK(cudaMemset(s.c, 0xff, e * 4));  // poisoned: NaN where nothing is written
        const float tk = time([&](const Bufs& s) { launch(s); });
        CK(cudaMemcpy(out.data(), sets[0].c, e * 4, cudaMemcpyDeviceToHost));
        double worst = 0;
        for (size_t i = 0; i < e; ++i) {
          const double dif =
              std::fabs(static_cast<double>(out[i]) - ref[i]) / (std::fabs(ref[i]) + 1e-2 * std::sqrt(n));
          if (!(dif <= worst)) worst = std::isnan(dif) ? INFINITY : dif;
        }
        printf("%s,%d,%d,%s,%.4f,%.1f,%.1f,%.2e\n", prop.name, n, round, name, tk, flops / (tk * 1e-3) / 1e12,
               100.0 * tc / tk, worst);
        fflush(stdout);
      };
      measure("register-sourced A 256x128 overlapped bands of 8",
              [&](const Bufs& s) { launch_register_a<true, 8>(s, n, sms); });
      measure("register-sourced A 256x128 waited rows", [&](const Bufs& s) { launch_register_a<false, 0>(s, n, sms); });
      measure("register-sourced A 256x128 waited bands of 4",
              [&](const Bufs& s) { launch_register_a<false, 4>(s, n, sms); });
      measure("register-sourced A 256x128 waited bands of 8",
              [&](const Bufs& s) { launch_register_a<false, 8>(s, n, sms); });
      measure("register-sourced A 256x128 waited bands of 16",
              [&](const Bufs& s) { launch_register_a<false, 16>(s, n, sms); });
    }
    for (Bufs& s : sets) {
      cudaFree(s.a);
      cudaFree(s.b);
      cudaFree(s.c);
    }
  }
  return 0;
}
