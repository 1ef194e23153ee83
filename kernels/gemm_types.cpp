#include "gemm_types.h"

#include <algorithm>

namespace tilescope {

const char* to_string(Problem p) {
  return p == Problem::Gemm ? "gemm" : "ata";
}
const char* to_string(Precision p) {
  return p == Precision::F32 ? "f32" : "f64";
}

bool parse_problem(const std::string& text, Problem* out) {
  if (text == "gemm") {
    *out = Problem::Gemm;
    return true;
  }
  if (text == "ata") {
    *out = Problem::Ata;
    return true;
  }
  return false;
}

bool parse_precision(const std::string& text, Precision* out) {
  if (text == "f32" || text == "float") {
    *out = Precision::F32;
    return true;
  }
  if (text == "f64" || text == "double") {
    *out = Precision::F64;
    return true;
  }
  return false;
}

std::string shape_text(const Shape& s) {
  return std::to_string(s.M) + "x" + std::to_string(s.N) + "x" + std::to_string(s.K);
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::int64_t a_elements(Problem p, const Shape& s) {
  return p == Problem::Gemm ? s.M * s.K : s.K * s.N;
}
std::int64_t b_elements(Problem p, const Shape& s) {
  return p == Problem::Gemm ? s.K * s.N : 0;
}
std::int64_t c_elements(Problem p, const Shape& s) {
  const Shape n = normalised(p, s);
  return n.M * n.N;
}

double flop_count(Problem p, const Shape& s) {
  const Shape n = normalised(p, s);
  return 2.0 * static_cast<double>(n.M) * static_cast<double>(n.N) * static_cast<double>(n.K);
}

Shape normalised(Problem p, Shape s) {
  if (p == Problem::Ata) s.M = s.N;
  return s;
}

}  // namespace tilescope
