// The CPU reference in double precision, and the error measure every check uses.
// Small sizes only: it is a straightforward O(M*N*K) loop (threaded over rows).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/core/gemm_types.h"

namespace tilescope {

// Gemm: c = a (M x K) * b (K x N).  Ata: c = a^T a with a (K x N), b ignored. Row-major.
void reference_gemm_f64(Problem problem, const Shape& shape, const double* a, const double* b, double* c);
// Element (i, j) of that product alone: the same sum, over k in the same order, so it equals
// reference_gemm_f64's element to the bit.
double reference_element_f64(Problem problem, const Shape& shape, const double* a, const double* b, std::int64_t i,
                             std::int64_t j);

// Fills `out` with input `stream` (0 = A, 1 = B) of a run in precision `p`, as the device fills
// it (random_inputs.h), widened to double (exactly): the inputs the reference must multiply.
void fill_inputs(Precision p, std::uint64_t seed, int stream, std::int64_t count, double* out);
// The inputs of a double run: fill_inputs(Precision::F64, ...).
void fill_inputs_f64(std::uint64_t seed, int stream, std::int64_t count, double* out);

// The error measure is element-wise: the largest |c - ref| over the checked part, relative to
// the largest |ref|. A norm over all of C (the Frobenius norm) would dilute one wrong element by
// the size of C: on 4096 x 4096, one element off by a whole product term moves it by about
// 3e-6, below the float tolerance; the largest element error sees it at any size.
struct ErrorReport {
  double rel_error = 0;        // max |c - ref| / max |ref| over the checked part (inf if unwritten)
  std::int64_t unwritten = 0;  // NaN entries (the poison) in the checked part
  std::int64_t checked = 0;
  double reference_norm = 0;  // ||ref||_F over the checked part (the tolerance's cancellation guard)
};
// max_diff / max_ref, the measure above from its two maxima (infinite when the reference is all
// zero and the result is not): one rule for the host and the device comparisons.
double relative_max_error(double max_diff, double max_ref);
// Compares an M x N row-major result with the reference over `part`.
template <typename T>
ErrorReport compare_to_reference(const T* c, const double* ref, std::int64_t m, std::int64_t n, OutputPart part);

// The first element of the checked part, in row-major order, that holds NaN or differs from the
// reference by more than rel_tolerance x max |ref| (the check's own measure, element by element):
// row -1 when there is none.
struct WrongElement {
  std::int64_t row = -1, col = -1;
  double value = 0, expected = 0;
};
template <typename T>
WrongElement first_wrong_element(const T* c, const double* ref, std::int64_t m, std::int64_t n, OutputPart part,
                                 double rel_tolerance);

// The relative error over `samples` elements of the full M x N result `c` picked at random (the
// same for a given seed; all of them when C has no more), each computed by
// reference_element_f64: a check at sizes where a full CPU reference takes too long. The NaN
// poison is counted over all of C; reference_norm is estimated for all of C from the sample.
ErrorReport sampled_compare_to_reference(const float* c, Problem problem, const Shape& shape, const double* a,
                                         const double* b, std::int64_t samples, std::uint64_t seed);

}  // namespace tilescope
