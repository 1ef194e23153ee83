#include "kernels/multi/split_pieces.h"

#include "kernels/cuda/cuda_check.h"

namespace tilescope {

void multiply_piece(const SplitArgs& args, const GpuShare& gpu, Problem problem, const Shape& shape, const void* a,
                    const void* b, void* c) {
  GemmArgs g;
  g.problem = problem;
  g.precision = args.precision;
  g.shape = shape;
  g.a = a;
  g.b = b;
  g.c = c;
  g.stream = gpu.compute;
  g.cublas = gpu.cublas;
  args.kernel->launch(g, args.kernel_config);
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
