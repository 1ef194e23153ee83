#include "kernels/measure/reference.h"

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

#include "kernels/measure/random_inputs.h"

namespace tilescope {

namespace {

// Runs body(row_begin, row_end) over [0, rows) on the machine's cores.
template <typename Body>
void parallel_rows(std::int64_t rows, Body body) {
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const std::int64_t workers = std::min<std::int64_t>(hw, std::max<std::int64_t>(1, rows / 8));
  if (workers <= 1) {
    body(0, rows);
    return;
  }
  std::vector<std::thread> threads;
  const std::int64_t chunk = (rows + workers - 1) / workers;
  for (std::int64_t w = 0; w < workers; ++w) {
    const std::int64_t begin = w * chunk, end = std::min(rows, begin + chunk);
    if (begin < end) threads.emplace_back(body, begin, end);
  }
  for (auto& t : threads) t.join();
}

// The two operands as the product reads them, row-major. Gemm: the left one is A (M x K), the
// right one B (K x N). Ata: A is K x N; the left operand is its transpose, the right one A itself.
struct Operands {
  Problem problem;
  const double* a;
  const double* b;
  std::int64_t N, K;
  Operands(Problem p, const Shape& s, const double* a_in, const double* b_in)
      : problem(p), a(a_in), b(p == Problem::Gemm ? b_in : a_in), N(s.N), K(s.K) {}
  // Element (i, k) of the left operand.
  double left(std::int64_t i, std::int64_t k) const { return problem == Problem::Gemm ? a[i * K + k] : a[k * N + i]; }
  // Row k of the right operand (N elements).
  const double* right_row(std::int64_t k) const { return b + k * N; }
};

}  // namespace

double relative_max_error(double max_diff, double max_ref) {
  if (max_ref > 0) return max_diff / max_ref;
  return max_diff > 0 ? INFINITY : 0.0;  // an all-zero reference: any difference is wrong
}

void reference_gemm_f64(Problem problem, const Shape& shape_in, const double* a, const double* b, double* c) {
  const Shape s = normalised(problem, shape_in);
  const Operands op(problem, s, a, b);
  const std::int64_t M = s.M, N = s.N, K = s.K;
  parallel_rows(M, [=](std::int64_t r0, std::int64_t r1) {
    for (std::int64_t i = r0; i < r1; ++i) {
      double* crow = c + i * N;
      std::fill(crow, crow + N, 0.0);
      // i-k-j order: the inner loop streams a row of the right operand contiguously. Each
      // element still sums over k in ascending order, as reference_element_f64 does.
      for (std::int64_t k = 0; k < K; ++k) {
        const double aik = op.left(i, k);
        const double* brow = op.right_row(k);
        for (std::int64_t j = 0; j < N; ++j) crow[j] += aik * brow[j];
      }
    }
  });
}

double reference_element_f64(Problem problem, const Shape& shape_in, const double* a, const double* b, std::int64_t i,
                             std::int64_t j) {
  const Shape s = normalised(problem, shape_in);
  const Operands op(problem, s, a, b);
  double sum = 0;
  for (std::int64_t k = 0; k < s.K; ++k) sum += op.left(i, k) * op.right_row(k)[j];
  return sum;
}

void fill_inputs(Precision p, std::uint64_t seed, int stream, std::int64_t count, double* out) {
  const auto s = static_cast<std::uint64_t>(stream);
  // Double has the full 53 bits; every other type fewer than float's 24 (precision_facts).
  const int bits = precision_facts(p).significand_bits;
  for (std::int64_t i = 0; i < count; ++i)
    out[i] = bits > 24 ? input_value(seed, s, static_cast<std::uint64_t>(i))
                       : static_cast<double>(input_value_narrow(seed, s, static_cast<std::uint64_t>(i), bits));
}

void fill_inputs_f64(std::uint64_t seed, int stream, std::int64_t count, double* out) {
  fill_inputs(Precision::F64, seed, stream, count, out);
}

template <typename T>
ErrorReport compare_to_reference(const T* c, const double* ref, std::int64_t m, std::int64_t n, OutputPart part) {
  ErrorReport r;
  double max_diff = 0, max_ref = 0, ref2 = 0;
  for (std::int64_t i = 0; i < m; ++i) {
    const std::int64_t j0 = part == OutputPart::UpperTriangle ? i : 0;
    for (std::int64_t j = j0; j < n; ++j) {
      const double v = static_cast<double>(c[i * n + j]);
      const double x = ref[i * n + j];
      ++r.checked;
      if (std::isnan(v)) {
        ++r.unwritten;
        continue;
      }
      // fmax keeps an infinite difference (an overflowed element) as the maximum.
      max_diff = std::fmax(max_diff, std::fabs(v - x));
      max_ref = std::fmax(max_ref, std::fabs(x));
      ref2 += x * x;
    }
  }
  r.reference_norm = std::sqrt(ref2);
  r.rel_error = relative_max_error(max_diff, max_ref);
  if (r.unwritten > 0) r.rel_error = INFINITY;
  return r;
}

ErrorReport sampled_compare_to_reference(const float* c, Problem problem, const Shape& shape_in, const double* a,
                                         const double* b, std::int64_t samples, std::uint64_t seed) {
  const Shape s = normalised(problem, shape_in);
  ErrorReport r;
  double max_diff = 0, max_ref = 0, ref2 = 0;
  const std::int64_t total = s.M * s.N;
  const int count = static_cast<int>(std::min<std::int64_t>(total, samples));
  for (int n = 0; n < count; ++n) {
    const std::int64_t index =
        count == total ? n : static_cast<std::int64_t>(splitmix64(seed * 7919 + n) % static_cast<std::uint64_t>(total));
    const double ref = reference_element_f64(problem, s, a, b, index / s.N, index % s.N);
    const double v = c[index];
    if (std::isnan(v)) continue;  // counted over all of C below
    max_diff = std::fmax(max_diff, std::fabs(v - ref));
    max_ref = std::fmax(max_ref, std::fabs(ref));
    ref2 += ref * ref;
    ++r.checked;
  }
  for (std::int64_t e = 0; e < total; ++e) r.unwritten += std::isnan(c[e]) ? 1 : 0;
  r.reference_norm = std::sqrt(ref2 * static_cast<double>(total) / std::max<std::int64_t>(r.checked, 1));
  r.rel_error = relative_max_error(max_diff, max_ref);
  return r;
}

template <typename T>
WrongElement first_wrong_element(const T* c, const double* ref, std::int64_t m, std::int64_t n, OutputPart part,
                                 double rel_tolerance) {
  double max_ref = 0;
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = part == OutputPart::UpperTriangle ? i : 0; j < n; ++j)
      max_ref = std::fmax(max_ref, std::fabs(ref[i * n + j]));
  const double limit = rel_tolerance * max_ref;
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = part == OutputPart::UpperTriangle ? i : 0; j < n; ++j) {
      const double v = static_cast<double>(c[i * n + j]), x = ref[i * n + j];
      // Written as "not within" so that NaN counts as wrong.
      if (!(std::fabs(v - x) <= limit)) return {i, j, v, x};
    }
  }
  return {};
}

template WrongElement first_wrong_element<float>(const float*, const double*, std::int64_t, std::int64_t, OutputPart,
                                                 double);
template WrongElement first_wrong_element<double>(const double*, const double*, std::int64_t, std::int64_t, OutputPart,
                                                  double);
template ErrorReport compare_to_reference<float>(const float*, const double*, std::int64_t, std::int64_t, OutputPart);
template ErrorReport compare_to_reference<double>(const double*, const double*, std::int64_t, std::int64_t, OutputPart);

}  // namespace tilescope
