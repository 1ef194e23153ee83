// What the splits' launch files share: a piece's launch through the kernel's own launch, offsets
// into packed buffers, NCCL's name of C's type, the words of a span.
#pragma once

#include <cstdint>
#include <string>

#include "kernels/core/variant.h"
#include "kernels/multi/split.h"

namespace tilescope {

// The address `elements` elements of `bytes` each into `base`.
inline char* element_at(void* base, std::int64_t elements, std::size_t bytes) {
  return static_cast<char*>(base) + elements * static_cast<std::int64_t>(bytes);
}

// One product on one GPU with the run's kernel: C (packed, `shape`.M x N) = A x B, or AᵀA of an A
// of `shape`.K rows, enqueued on the GPU's compute stream (its device current). `config`: the
// kernel's configuration, the run's own when -1.
void multiply_piece(const SplitArgs& args, const GpuShare& gpu, Problem problem, const Shape& shape, const void* a,
                    const void* b, void* c, int config = -1);

// The configuration of `kernel` that multiplies the plain gemm pieces of an AᵀA split run with
// `config`: that one where it computes gemm, else the kernel's first that does in the same
// arithmetic (cuBLAS's syrk: its gemm). -1: none.
int gemm_piece_config(const VariantDescriptor& kernel, int config, Precision precision);

// The transpose of a row-major `rows` x `cols` matrix `in` into `out` (cols x rows), on the GPU's
// compute stream, by cuBLAS's geam: float and double elements (4 and 8 bytes) only.
void transpose_on(const GpuShare& gpu, std::size_t element_bytes, std::int64_t rows, std::int64_t cols, const void* in,
                  void* out);

// NCCL's type of C's elements, for reductions.
int nccl_type_of(OutputType t);

// "0-8191": the elements [begin, end) as a span's words name them.
std::string range_words(std::int64_t begin, std::int64_t end);

}  // namespace tilescope
