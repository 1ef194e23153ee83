#include "kernels/multi/split_pieces.h"

#include <cublas_v2.h>

#include "kernels/cuda/cuda_check.h"

namespace tilescope {

void multiply_piece(const SplitArgs& args, const GpuShare& gpu, Problem problem, const Shape& shape, const void* a,
                    const void* b, void* c, int config) {
  GemmArgs g;
  g.problem = problem;
  g.precision = args.precision;
  g.shape = shape;
  g.a = a;
  g.b = b;
  g.c = c;
  g.stream = gpu.compute;
  g.cublas = gpu.cublas;
  args.kernel->launch(g, config < 0 ? args.kernel_config : config);
}

int gemm_piece_config(const VariantDescriptor& kernel, int config, Precision precision) {
  if (variant_refusal(kernel, config, Problem::Gemm, precision).empty()) return config;
  const TileConfig& own = kernel.configs.at(config);
  for (std::size_t i = 0; i < kernel.configs.size(); ++i) {
    const TileConfig& c = kernel.configs[i];
    if (c.tf32 == own.tf32 && c.c_in_input_type == own.c_in_input_type &&
        variant_refusal(kernel, static_cast<int>(i), Problem::Gemm, precision).empty())
      return static_cast<int>(i);
  }
  return -1;
}

void transpose_on(const GpuShare& gpu, std::size_t element_bytes, std::int64_t rows, std::int64_t cols, const void* in,
                  void* out) {
  // Row-major rows x cols is column-major cols x rows (leading dimension cols); its transpose,
  // column-major rows x cols (leading dimension rows), is the row-major cols x rows wanted.
  CUBLAS_CHECK(cublasSetStream(gpu.cublas, gpu.compute));
  const int m = static_cast<int>(rows), n = static_cast<int>(cols);
  if (element_bytes == sizeof(double)) {
    const double one = 1, zero = 0;
    CUBLAS_CHECK(cublasDgeam(gpu.cublas, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, static_cast<const double*>(in), n, &zero,
                             static_cast<const double*>(out), m, static_cast<double*>(out), m));
  } else {
    const float one = 1, zero = 0;
    CUBLAS_CHECK(cublasSgeam(gpu.cublas, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, static_cast<const float*>(in), n, &zero,
                             static_cast<const float*>(out), m, static_cast<float*>(out), m));
  }
}

int nccl_type_of(OutputType t) {
  switch (t) {
    case OutputType::F64:
      return kNcclFloat64;
    case OutputType::F16:
      return kNcclFloat16;
    case OutputType::BF16:
      return kNcclBfloat16;
    case OutputType::F32:
      break;
  }
  return kNcclFloat32;
}

std::string range_words(std::int64_t begin, std::int64_t end) {
  return std::to_string(begin) + "-" + std::to_string(end - 1);
}

}  // namespace tilescope
