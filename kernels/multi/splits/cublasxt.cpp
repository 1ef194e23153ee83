// cublasxt — the library's answer: cuBLASXt splits the product itself.
//
// Idea: hand the whole product to cuBLASXt with the GPUs it may use. It cuts C into square tiles
// of a block size (the configuration: 1024, 2048 or 4096 rows and columns), deals them out to the
// GPUs, copies each tile's rows of A and columns of B to the GPU that computes it and the tile of
// C back, on streams of its own, and returns when C is whole. A, B and C start and end on GPU 0.
//
// What travels: for every tile, its panels of A and B (K x block each) to its GPU and the tile
// back: a GPU other than GPU 0 receives about (its share of C) x 2K / block elements, far more than
// a split that keeps C where it is computed. It is the baseline the NCCL splits are measured against.
//
// What to look for: cuBLASXt's streams are its own, so the timeline shows the call as one span;
// the host's clock times it (the call returns when C is whole).
#include <cublasXt.h>

#include <map>
#include <mutex>

#include "kernels/core/variant.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/multi/split.h"

namespace tilescope {
namespace {

const int kBlockDims[] = {1024, 2048, 4096};

// One cuBLASXt handle per set of GPUs, kept for the process: making one starts a context and
// streams on every GPU it uses.
cublasXtHandle_t handle_for(int gpus) {
  static std::mutex mutex;
  static std::map<int, cublasXtHandle_t> handles;
  std::lock_guard<std::mutex> lock(mutex);
  cublasXtHandle_t& h = handles[gpus];
  if (!h) {
    cublasXtHandle_t made = nullptr;
    CUBLAS_CHECK(cublasXtCreate(&made));
    std::vector<int> devices;
    for (int d = 0; d < gpus; ++d) devices.push_back(d);
    const cublasStatus_t st = cublasXtDeviceSelect(made, gpus, devices.data());
    if (st != CUBLAS_STATUS_SUCCESS) {
      cublasXtDestroy(made);
      CUBLAS_CHECK(st);
    }
    h = made;
  }
  return h;
}

SplitLayout xt_layout(const SplitQuery& q, int) {
  const Shape& s = q.shape;
  SplitLayout layout;
  for (int g = 0; g < q.gpus; ++g) {
    GpuLayout l;
    if (g == 0) {  // everything on GPU 0
      l.a.push_back(q.problem == Problem::Gemm ? Block{0, 0, s.M, s.K} : Block{0, 0, s.K, s.N});
      if (q.problem == Problem::Gemm) l.b.push_back({0, 0, s.K, s.N});
      l.c.push_back({0, 0, s.M, s.N});
      l.a_elements = l.a[0].elements();
      l.b_elements = q.problem == Problem::Gemm ? s.K * s.N : 0;
      l.c_elements = s.M * s.N;
    }
    layout.gpus.push_back(l);
  }
  return layout;
}

// Row-major storage seen column-major, as the cuBLAS baseline does (00_cublas.cu): gemm computes
// C^T = B^T A^T; AᵀA is X X^T with X = A^T (N x K), as a gemm (N, T) or a syrk of C's lower
// column-major triangle (the row-major upper one).
void xt_launch(const SplitArgs& args, int config) {
  cublasXtHandle_t h = handle_for(static_cast<int>(args.gpus.size()));
  CUBLAS_CHECK(cublasXtSetBlockDim(h, kBlockDims[config]));
  const GpuShare& root = args.gpus[0];
  const std::size_t M = args.shape.M, N = args.shape.N, K = args.shape.K;
  const bool f32 = args.precision == Precision::F32;
  const bool syrk = args.kernel->configs.at(args.kernel_config).output == OutputPart::UpperTriangle;
  const float one_f = 1.f, zero_f = 0.f;
  const double one_d = 1.0, zero_d = 0.0;
  auto* fa = static_cast<const float*>(root.a);
  auto* da = static_cast<const double*>(root.a);
  if (args.problem == Problem::Gemm) {
    if (f32)
      CUBLAS_CHECK(cublasXtSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one_f, static_cast<const float*>(root.b), N, fa,
                                 K, &zero_f, static_cast<float*>(root.c), N));
    else
      CUBLAS_CHECK(cublasXtDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one_d, static_cast<const double*>(root.b), N,
                                 da, K, &zero_d, static_cast<double*>(root.c), N));
  } else if (syrk) {
    if (f32)
      CUBLAS_CHECK(cublasXtSsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, N, K, &one_f, fa, N, &zero_f,
                                 static_cast<float*>(root.c), N));
    else
      CUBLAS_CHECK(cublasXtDsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, N, K, &one_d, da, N, &zero_d,
                                 static_cast<double*>(root.c), N));
  } else {
    if (f32)
      CUBLAS_CHECK(cublasXtSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, N, N, K, &one_f, fa, N, fa, N, &zero_f,
                                 static_cast<float*>(root.c), N));
    else
      CUBLAS_CHECK(cublasXtDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, N, N, K, &one_d, da, N, da, N, &zero_d,
                                 static_cast<double*>(root.c), N));
  }
}

std::string xt_refuses(const SplitQuery& q, int) {
  if (q.kernel->backend != Backend::Cublas)
    return std::string("cuBLASXt multiplies with cuBLAS itself; choose the ") + "cuBLAS kernel";
  if (q.precision != Precision::F32 && q.precision != Precision::F64)
    return std::string("cuBLASXt's gemm and syrk take f32 and f64; ") + to_string(q.precision) + " is not one of them";
  const TileConfig& cfg = q.kernel->configs.at(q.kernel_config);
  if (cfg.tf32 || cfg.c_in_input_type) return "cuBLASXt has no TF32 mode or 16-bit C: choose cuBLAS's gemm or syrk";
  return "";
}

}  // namespace

extern const SplitDescriptor kCublasXtSplit = [] {
  SplitDescriptor s;
  s.id = "cublasxt";
  s.label = "cuBLASXt";
  s.summary =
      "NVIDIA's multi-GPU BLAS: the whole product handed over with the GPUs it may use; it cuts C into square "
      "blocks, sends each block's panels of A and B to a GPU and the block back. The library's answer, and the bar "
      "of the NCCL splits.";
  s.configs = {{"block_1024", "cuBLASXt's blocks of 1024 x 1024 elements of C"},
               {"block_2048", "cuBLASXt's blocks of 2048 x 2048 elements of C"},
               {"block_4096", "cuBLASXt's blocks of 4096 x 4096 elements of C"}};
  s.problems = {Problem::Gemm, Problem::Ata};
  s.needs_nccl = false;
  s.own_kernel = true;
  s.host_timed = true;
  s.refuses = xt_refuses;
  s.layout = xt_layout;
  s.launch = xt_launch;
  return s;
}();

}  // namespace tilescope
