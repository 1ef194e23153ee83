// The CPU reference in double precision, and the error measure every check uses.
// Small sizes only: it is a straightforward O(M*N*K) loop (threaded over rows).
#pragma once

#include <cstdint>
#include <vector>

#include "gemm_types.h"

namespace tilescope {

// Gemm: c = a (M x K) * b (K x N).  Ata: c = a^T a with a (K x N), b ignored. Row-major.
void reference_gemm_f64(Problem problem, const Shape& shape, const double* a, const double* b, double* c);

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

}  // namespace tilescope
