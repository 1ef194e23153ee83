#include "reference.h"

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

#include "random_inputs.h"

namespace tilescope {

namespace {

// Runs body(row_begin, row_end) over [0, rows) on the machine's cores.
template <typename Body>
void parallel_rows(std::int64_t rows, Body body) {
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const std::int64_t workers = std::min<std::int64_t>(hw, std::max<std::int64_t>(1, rows / 8));
  if (workers <= 1) { body(0, rows); return; }
  std::vector<std::thread> threads;
  const std::int64_t chunk = (rows + workers - 1) / workers;
  for (std::int64_t w = 0; w < workers; ++w) {
    const std::int64_t begin = w * chunk, end = std::min(rows, begin + chunk);
    if (begin < end) threads.emplace_back(body, begin, end);
  }
  for (auto& t : threads) t.join();
}

}  // namespace

void reference_gemm_f64(Problem problem, const Shape& shape_in, const double* a, const double* b, double* c) {
  const Shape s = normalised(problem, shape_in);
  const std::int64_t M = s.M, N = s.N, K = s.K;
  parallel_rows(M, [=](std::int64_t r0, std::int64_t r1) {
    for (std::int64_t i = r0; i < r1; ++i) {
      double* crow = c + i * N;
      std::fill(crow, crow + N, 0.0);
      // i-k-j order: the inner loop streams a row of B (or of A for Ata) contiguously.
      for (std::int64_t k = 0; k < K; ++k) {
        const double aik = problem == Problem::Gemm ? a[i * K + k] : a[k * N + i];
        const double* brow = problem == Problem::Gemm ? b + k * N : a + k * N;
        for (std::int64_t j = 0; j < N; ++j) crow[j] += aik * brow[j];
      }
    }
  });
}

void fill_inputs_f64(std::uint64_t seed, int stream, std::int64_t count, double* out) {
  for (std::int64_t i = 0; i < count; ++i)
    out[i] = input_value(seed, static_cast<std::uint64_t>(stream), static_cast<std::uint64_t>(i));
}

template <typename T>
ErrorReport compare_to_reference(const T* c, const double* ref, std::int64_t m, std::int64_t n, OutputPart part) {
  ErrorReport r;
  double diff2 = 0, ref2 = 0;
  for (std::int64_t i = 0; i < m; ++i) {
    const std::int64_t j0 = part == OutputPart::UpperTriangle ? i : 0;
    for (std::int64_t j = j0; j < n; ++j) {
      const double v = static_cast<double>(c[i * n + j]);
      const double x = ref[i * n + j];
      ++r.checked;
      if (std::isnan(v)) { ++r.unwritten; continue; }
      diff2 += (v - x) * (v - x);
      ref2 += x * x;
    }
  }
  r.reference_norm = std::sqrt(ref2);
  r.rel_error = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  if (r.unwritten > 0) r.rel_error = INFINITY;
  return r;
}

template ErrorReport compare_to_reference<float>(const float*, const double*, std::int64_t, std::int64_t, OutputPart);
template ErrorReport compare_to_reference<double>(const double*, const double*, std::int64_t, std::int64_t, OutputPart);

}  // namespace tilescope
