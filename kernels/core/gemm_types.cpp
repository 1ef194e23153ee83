#include "kernels/core/gemm_types.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

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
     "FP32, C in float (or, where a configuration says so, in FP16). Tensor cores from sm_70.",
     2, false, 11, 70, false},
    {Precision::BF16, "bf16", "BF16",
     "bfloat16: 2 bytes, float's range but an 8-bit significand; products accumulated in FP32, C in float "
     "(or, where a configuration says so, in BF16). Tensor cores from sm_80.",
     2, false, 8, 80, false},
};

const EnumName<OutputType> kOutputTypeNames[] = {
    {OutputType::F32, "f32"}, {OutputType::F64, "f64"}, {OutputType::F16, "f16"}, {OutputType::BF16, "bf16"}};

// IEEE half's bits as a double (exact: every half is a double).
double half_bits_value(std::uint16_t h) {
  const int sign = h >> 15, exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
  double v;
  if (exponent == 0)
    v = std::ldexp(mantissa, -24);  // subnormal (and zero)
  else if (exponent == 31)
    v = mantissa ? std::nan("") : HUGE_VAL;
  else
    v = std::ldexp(mantissa + 1024, exponent - 25);
  return sign ? -v : v;
}

}  // namespace

const char* to_string(OutputType t) {
  return enum_name(t, kOutputTypeNames, "f32");
}

bool parse_output_type(const std::string& text, OutputType* out) {
  return enum_from_name(text, kOutputTypeNames, out);
}

bool has_narrow_output(Precision p) {
  return p == Precision::F16 || p == Precision::BF16;
}

OutputType output_type(Precision p, bool c_in_input_type) {
  if (c_in_input_type && has_narrow_output(p)) return p == Precision::F16 ? OutputType::F16 : OutputType::BF16;
  return precision_facts(p).double_output ? OutputType::F64 : OutputType::F32;
}

std::size_t output_bytes(OutputType t) {
  return t == OutputType::F64 ? 8 : t == OutputType::F32 ? 4 : 2;
}

double output_unit_roundoff(Precision p, OutputType t) {
  if (t == output_type(p, false)) return 0;
  return t == OutputType::F16 ? std::ldexp(1.0, -11) : t == OutputType::BF16 ? std::ldexp(1.0, -8) : 0;
}

double stored_output_value(const void* element, OutputType t) {
  switch (t) {
    case OutputType::F64: {
      double d;
      std::memcpy(&d, element, 8);
      return d;
    }
    case OutputType::F32: {
      float f;
      std::memcpy(&f, element, 4);
      return f;
    }
    case OutputType::F16: {
      std::uint16_t h;
      std::memcpy(&h, element, 2);
      return half_bits_value(h);
    }
    case OutputType::BF16: {
      // bfloat16 is a float's upper half.
      std::uint16_t h;
      std::memcpy(&h, element, 2);
      const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
  }
  return 0;
}

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
