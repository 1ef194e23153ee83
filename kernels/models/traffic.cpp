#include "kernels/models/traffic.h"

#include "kernels/models/mapping_model.h"

namespace tilescope {

GlobalTraffic minimum_traffic(Problem problem, Precision precision, const Shape& shape) {
  const Shape s = normalised(problem, shape);
  const double e = static_cast<double>(element_bytes(precision));
  GlobalTraffic t;
  t.flops = flop_count(problem, s);
  t.a_bytes = static_cast<double>(a_elements(problem, s)) * e;
  t.b_bytes = static_cast<double>(b_elements(problem, s)) * e;
  t.c_bytes = static_cast<double>(c_elements(problem, s)) * e;
  return t;
}

GlobalTraffic global_traffic(const std::string& variant_id, int config_index, Problem problem, Precision precision,
                             const Shape& shape) {
  const Shape s = normalised(problem, shape);
  GlobalTraffic t = minimum_traffic(problem, precision, s);
  std::string why;
  const std::unique_ptr<MappingModel> model = make_mapping_model(variant_id, config_index, problem, precision, s, &why);
  if (!model) {
    t.note = why.empty() ? "no mapping model" : why;
    return t;
  }
  const double e = static_cast<double>(element_bytes(precision));
  // Stored shapes (mapping_model.h): Gemm A is M x K and B is K x N; AᵀA's A is K x N and
  // a_reads() counts both operand roles (b_reads() is 0).
  const bool gemm = problem == Problem::Gemm;
  const std::int64_t a_rows = gemm ? s.M : s.K, a_cols = gemm ? s.K : s.N;
  t.a_bytes = static_cast<double>(model->a_reads_total(a_rows, a_cols)) * e;
  t.b_bytes = gemm ? static_cast<double>(model->b_reads_total(s.K, s.N)) * e : 0.0;
  // Every element of C has an owner that stores it once (AᵀA's mirrored half too).
  t.c_bytes = static_cast<double>(c_elements(problem, s)) * e;
  t.from_model = true;
  return t;
}

}  // namespace tilescope
