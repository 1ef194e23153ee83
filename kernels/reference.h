// The CPU reference in double precision, and the error measure every check uses.
// Small sizes only: it is a straightforward O(M*N*K) loop (threaded over rows).
#pragma once

#include <cstdint>
#include <vector>

#include "gemm_types.h"

namespace tilescope {

// Gemm: c = a (M x K) * b (K x N).  Ata: c = a^T a with a (K x N), b ignored. Row-major.
void reference_gemm_f64(Problem problem, const Shape& shape, const double* a, const double* b, double* c);
// Element (i, j) of that product alone: the same sum, over k in the same order, so it equals
// reference_gemm_f64's element to the bit.
double reference_element_f64(Problem problem, const Shape& shape, const double* a, const double* b, std::int64_t i,
                             std::int64_t j);

// Fills `out` with input `stream` (0 = A, 1 = B) of the run, as the device fills it.
void fill_inputs_f64(std::uint64_t seed, int stream, std::int64_t count, double* out);

struct ErrorReport {
  double rel_error = 0;        // ||c - ref||_F / ||ref||_F over the checked part
  std::int64_t unwritten = 0;  // NaN entries (the poison) in the checked part
  std::int64_t checked = 0;
  double reference_norm = 0;  // ||ref||_F over the checked part
};
// Compares an M x N row-major result with the reference over `part`.
template <typename T>
ErrorReport compare_to_reference(const T* c, const double* ref, std::int64_t m, std::int64_t n, OutputPart part);

// The relative error over `samples` elements of the full M x N result `c` picked at random (the
// same for a given seed; all of them when C has no more), each computed by
// reference_element_f64: a check at sizes where a full CPU reference takes too long. The NaN
// poison is counted over all of C; reference_norm is estimated for all of C from the sample.
ErrorReport sampled_compare_to_reference(const float* c, Problem problem, const Shape& shape, const double* a,
                                         const double* b, std::int64_t samples, std::uint64_t seed);

}  // namespace tilescope
