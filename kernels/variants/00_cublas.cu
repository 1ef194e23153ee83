// 00 cuBLAS — the reference and the bar to reach.
//
// Idea: NVIDIA's library GEMM. Opaque: we can time it but not look inside, so it has no mapping
// picture. Every other variant is compared with the best of these baselines in the same run.
//
// Storage: tilescope keeps matrices row-major; cuBLAS is column-major. A row-major M x N matrix is
// the column-major N x M matrix of its transpose, so
//   gemm  C = A B      is computed as  C^T = B^T A^T : gemm(N, N, n=N, m=M, k=K, B, A)
//   ata   C = A^T A    with A (K x N) row-major = X = A^T column-major (N x K):  C = X X^T
//                      gemm(N, T) (the seed, storing A column-major, calls it gemm(T, N): the same
//                      bytes and the same work), or syrk(uplo, N), which writes one triangle only.
// Row-major upper triangle = column-major lower triangle, hence CUBLAS_FILL_MODE_LOWER below.
//
// Math modes, stated: "gemm" and "syrk" run in CUBLAS_DEFAULT_MATH — plain FP32 FMA for float
// (TF32 is not used unless asked for; the NVIDIA_TF32_OVERRIDE environment variable must not be
// set to 1), FP64 for double (on A100/H100 cuBLAS uses the FP64 tensor cores, which are IEEE FP64).
// "gemm_tf32" (float only, opt-in) allows TF32 tensor cores: ~10 bits of mantissa, much faster,
// a different arithmetic — never the baseline for "% of cuBLAS".
//
// The tensor-core input types run "gemm" as cublasGemmEx with FP32 accumulation and a float C:
//   tf32: A, B, C in CUDA_R_32F (the inputs hold TF32 values), CUBLAS_COMPUTE_32F_FAST_TF32
//   f16:  A, B in CUDA_R_16F,  C in CUDA_R_32F, CUBLAS_COMPUTE_32F
//   bf16: A, B in CUDA_R_16BF, C in CUDA_R_32F, CUBLAS_COMPUTE_32F
// AᵀA in those types runs the same GemmEx (N, T) on A; syrk exists in float and double only.
// "gemm_c16" is the same GemmEx writing C in the 16-bit input type itself (CUDA_R_16F, CUDA_R_16BF),
// as most libraries write it: the bar of the configurations that store C so
// (TileConfig::c_in_input_type). Where its heuristics split K (517 and 1023 here, on an H200) the
// partial sums are rounded to that type before they are added, and its error reaches 1.3 of the
// type's unit roundoff, where a single rounding stays below 1: its check allows two roundings.
// Each is the baseline of its own type: "% of cuBLAS" always compares runs of one input type that
// store C alike.
//
// What to look for: the first call costs ~100 ms (library load, heuristics): the "first" column.
// On AᵀA, syrk does half the multiply-adds, yet is credited with 2·N²·K like every variant.
#include <cublas_v2.h>

#include "kernels/core/variant.h"
#include "kernels/cuda/cuda_check.h"

namespace tilescope {
namespace {

enum CublasConfig { kGemm = 0, kSyrk = 1, kGemmTf32 = 2, kGemmC16 = 3 };

// The configurations by index (the descriptor lists them in this order).
bool is_syrk(const TileConfig& cfg) {
  return cfg.output == OutputPart::UpperTriangle;
}

// The plain types run cublasSgemm/Dgemm/Ssyrk/Dsyrk; the others cublasGemmEx.
bool runs_gemm_ex(Precision p) {
  return p != Precision::F32 && p != Precision::F64;
}

std::string cublas_refuses(Problem problem, Precision precision, const TileConfig& cfg) {
  if (is_syrk(cfg) && problem != Problem::Ata) return "syrk computes A^T A only (choose the ata problem)";
  if (is_syrk(cfg) && runs_gemm_ex(precision))
    return std::string("cuBLAS has syrk in float and double only; for ") + to_string(precision) +
           " choose the gemm configuration (GemmEx on A and its transpose)";
  if (cfg.c_in_input_type && !has_narrow_output(precision))
    return std::string("gemm_c16 stores C in the 16-bit input type (f16, bf16); ") + to_string(precision) +
           " stores C in " + to_string(output_type(precision, false)) + ": choose the gemm configuration";
  if (cfg.tf32 && precision != Precision::F32)
    return std::string("gemm_tf32 rounds float (f32) inputs to TF32; for ") + to_string(precision) +
           " choose the gemm configuration" +
           (precision == Precision::TF32 ? " (it already computes tf32 inputs on the TF32 tensor cores)" : "");
  return "";
}

// GemmEx's types for an input type: data of A and B, of C, and the compute type.
struct GemmExTypes {
  cudaDataType ab = CUDA_R_32F, c = CUDA_R_32F;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
};
GemmExTypes gemm_ex_types(Precision p, bool c_in_input_type) {
  switch (p) {
    case Precision::TF32:
      return {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32};
    case Precision::F16:
      return {CUDA_R_16F, c_in_input_type ? CUDA_R_16F : CUDA_R_32F, CUBLAS_COMPUTE_32F};
    case Precision::BF16:
      return {CUDA_R_16BF, c_in_input_type ? CUDA_R_16BF : CUDA_R_32F, CUBLAS_COMPUTE_32F};
    case Precision::F64:
      return {CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F};
    case Precision::F32:
      break;
  }
  return {};
}

// The product in the tensor-core input types (float alpha and beta: the compute type is FP32).
void gemm_ex_launch(const GemmArgs& g, cublasHandle_t h, bool c_in_input_type) {
  const int M = static_cast<int>(g.shape.M), N = static_cast<int>(g.shape.N), K = static_cast<int>(g.shape.K);
  const GemmExTypes t = gemm_ex_types(g.precision, c_in_input_type);
  const float one = 1.f, zero = 0.f;
  if (g.problem == Problem::Gemm)
    CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, g.b, t.ab, N, g.a, t.ab, K, &zero, g.c, t.c,
                              N, t.compute, CUBLAS_GEMM_DEFAULT));
  else  // X = A^T column-major (N x K): C = X X^T
    CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_T, N, N, K, &one, g.a, t.ab, N, g.a, t.ab, N, &zero, g.c, t.c,
                              N, t.compute, CUBLAS_GEMM_DEFAULT));
}

void cublas_launch(const GemmArgs& g, int config_index) {
  cublasHandle_t h = g.cublas;
  if (!h) throw GpuError("cuBLAS variant launched without a cuBLAS handle");
  CUBLAS_CHECK(cublasSetStream(h, g.stream));
  CUBLAS_CHECK(cublasSetMathMode(h, config_index == kGemmTf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));
  if (runs_gemm_ex(g.precision)) {
    gemm_ex_launch(g, h, config_index == kGemmC16);
    return;
  }
  const int M = static_cast<int>(g.shape.M), N = static_cast<int>(g.shape.N), K = static_cast<int>(g.shape.K);
  const bool f32 = g.precision == Precision::F32;
  const float one_f = 1.f, zero_f = 0.f;
  const double one_d = 1.0, zero_d = 0.0;

  if (g.problem == Problem::Gemm) {
    if (f32)
      CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one_f, static_cast<const float*>(g.b), N,
                               static_cast<const float*>(g.a), K, &zero_f, static_cast<float*>(g.c), N));
    else
      CUBLAS_CHECK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one_d, static_cast<const double*>(g.b), N,
                               static_cast<const double*>(g.a), K, &zero_d, static_cast<double*>(g.c), N));
    return;
  }
  // Ata: X = A^T column-major, N x K, leading dimension N.
  if (config_index == kSyrk) {
    if (f32)
      CUBLAS_CHECK(cublasSsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, N, K, &one_f, static_cast<const float*>(g.a), N,
                               &zero_f, static_cast<float*>(g.c), N));
    else
      CUBLAS_CHECK(cublasDsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, N, K, &one_d, static_cast<const double*>(g.a), N,
                               &zero_d, static_cast<double*>(g.c), N));
    return;
  }
  if (f32)
    CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, N, N, K, &one_f, static_cast<const float*>(g.a), N,
                             static_cast<const float*>(g.a), N, &zero_f, static_cast<float*>(g.c), N));
  else
    CUBLAS_CHECK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, N, N, K, &one_d, static_cast<const double*>(g.a), N,
                             static_cast<const double*>(g.a), N, &zero_d, static_cast<double*>(g.c), N));
}

KernelLaunchShape cublas_kernel_for(const GemmArgs&, int) {
  return {};
}

TileConfig cublas_config(const char* name, const char* description, const char* math, bool tf32, OutputPart output,
                         bool c_in_input_type = false) {
  TileConfig c;
  c.c_in_input_type = c_in_input_type;
  c.c_roundings = 2;  // its split-K kernels round partial sums into C's type, then the sum
  c.name = name;
  c.description = description;
  c.math = math;
  c.opt_in = tf32;  // TF32 is another arithmetic: only when asked for, never the baseline
  c.tf32 = tf32;
  c.output = output;
  return c;
}

}  // namespace

extern const VariantDescriptor kCublasVariant = [] {
  VariantDescriptor v;
  v.id = "cublas";
  v.label = "cuBLAS";
  v.summary =
      "NVIDIA's library GEMM: the reference every kernel here is measured against. It is tuned per "
      "GPU and closed, so tilescope can time it but cannot show how it maps threads to C.";
  v.role = Role::Baseline;
  v.backend = Backend::Cublas;
  v.configs = {
      cublas_config("gemm", "the full product (AᵀA: the product of Aᵀ and A, both triangles): the bar of % of cuBLAS",
                    "FP32 FMA, tensor cores off / FP64; tf32, f16, bf16: GemmEx on the tensor cores, FP32 "
                    "accumulation",
                    false, OutputPart::Full),
      cublas_config("syrk", "AᵀA's upper triangle alone (cublasSsyrk, cublasDsyrk): half the work of gemm",
                    "FP32 FMA, tensor cores off / FP64; writes the upper triangle only", false,
                    OutputPart::UpperTriangle),
      cublas_config("gemm_tf32", "float inputs through the tensor cores as TF32: another arithmetic, only when named",
                    "TF32 tensor cores (10-bit mantissa inputs), float only", true, OutputPart::Full),
      cublas_config("gemm_c16",
                    "f16 and bf16: C written in the input type, rounded from FP32 (as libraries write it): the bar "
                    "of the configurations that store C so",
                    "GemmEx on the tensor cores, FP32 accumulation, C in f16 / bf16", false, OutputPart::Full, true),
  };
  v.default_config = config_named(v.configs, "gemm");  // also the FP64 reference (cublasDgemm) of large checks
  v.precisions = all_precisions();
  v.architecture_note =
      "tf32 and bf16 use tensor cores from sm_80 and f16 from sm_70; on an older GPU cuBLAS computes them "
      "without tensor cores (correct, much slower), so no GPU is refused";
  v.refuses = cublas_refuses;
  v.launch = cublas_launch;
  v.kernel_for = cublas_kernel_for;
  v.no_model_reason = "cuBLAS is closed: its mapping is not known";
  return v;
}();

}  // namespace tilescope
