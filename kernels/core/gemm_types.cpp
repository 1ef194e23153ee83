#include "kernels/core/gemm_types.h"

#include <algorithm>
#include <cmath>

namespace tilescope {

namespace {

const EnumName<Problem> kProblemNames[] = {{Problem::Gemm, "gemm"}, {Problem::Ata, "ata"}};

// One row per input type, in the enum's order (checked by precision_facts).
const PrecisionFacts kPrecisionFacts[] = {
    {Precision::F32, "f32", "float",
     "32-bit floating point (24-bit significand), FP32 FMA: what graphics and most machine learning use; the "
     "GPU's fastest plain arithmetic.",
     4, false, 24, 0, true},
    {Precision::F64, "f64", "double",
     "64-bit floating point (53-bit significand), accumulated in FP64: twice the bytes per number; on many "
     "consumer GPUs 32 to 64 times slower.",
     8, true, 53, 0, true},
    {Precision::TF32, "tf32", "TF32 (float storage, 10-bit mantissa)",
     "TensorFloat-32: inputs stored as float but holding only 11 significant bits (what the tensor cores read), "
     "products accumulated in FP32. Not FP32: about a thousand times coarser inputs. Tensor cores from sm_80.",
     4, false, 11, 80, false},
    {Precision::F16, "f16", "FP16",
     "IEEE half precision: 2 bytes, 11-bit significand, a small range (up to 65504); products accumulated in "
     "FP32, C in float. Tensor cores from sm_70.",
     2, false, 11, 70, false},
    {Precision::BF16, "bf16", "BF16",
     "bfloat16: 2 bytes, float's range but an 8-bit significand; products accumulated in FP32, C in float. "
     "Tensor cores from sm_80.",
     2, false, 8, 80, false},
};

}  // namespace

const char* to_string(Problem p) {
  return enum_name(p, kProblemNames, "ata");
}

const PrecisionFacts& precision_facts(Precision p) {
  const auto i = static_cast<std::size_t>(p);
  if (i < sizeof kPrecisionFacts / sizeof kPrecisionFacts[0] && kPrecisionFacts[i].precision == p)
    return kPrecisionFacts[i];
  return kPrecisionFacts[0];  // unreachable for a valid enum value (the table follows the enum)
}

const std::vector<Precision>& all_precisions() {
  static const std::vector<Precision> all = [] {
    std::vector<Precision> out;
    for (const PrecisionFacts& f : kPrecisionFacts) out.push_back(f.precision);
    return out;
  }();
  return all;
}

std::string precision_names(const char* separator) {
  std::string out;
  for (Precision p : all_precisions()) out += (out.empty() ? "" : separator) + std::string(to_string(p));
  return out;
}

double input_unit_roundoff(Precision p) {
  return std::ldexp(1.0, -precision_facts(p).significand_bits);
}

double accumulation_unit_roundoff(Precision p) {
  return precision_facts(p).double_output ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
}

const char* to_string(Precision p) {
  return precision_facts(p).name;
}

bool parse_problem(const std::string& text, Problem* out) {
  return enum_from_name(text, kProblemNames, out);
}

bool parse_precision(const std::string& text, Precision* out) {
  for (const PrecisionFacts& f : kPrecisionFacts)
    if (text == f.name) {
      *out = f.precision;
      return true;
    }
  // The C names of the two plain types, accepted since the first release.
  if (text == "float" || text == "double") {
    *out = text == "float" ? Precision::F32 : Precision::F64;
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
