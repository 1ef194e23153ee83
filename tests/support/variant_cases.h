// What the per-variant suites share: the GPU skip, and the parameter of the suites that run
// once per variant x problem x precision (the case, how GoogleTest prints and names it, and the
// list of cases drawn from the registry).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/cuda/device_info.h"
#include "kernels/models/mapping_model.h"

// The GPU suites skip, visibly, where no CUDA device exists, saying why.
#define SKIP_WITHOUT_GPU()                                                                 \
  do {                                                                                     \
    if (!::tilescope::probe_device().ok())                                                 \
      GTEST_SKIP() << "no usable GPU: " << ::tilescope::probe_device().unavailable_reason; \
  } while (0)

namespace tilescope::testing {

struct VariantCase {
  std::string variant;
  Problem problem;
  Precision precision;
};

// GoogleTest prints a parameter in test listings and failure messages; without this, the
// bytes of the struct ("40-byte object <B0-4F ...>"), which ctest shows in every test name.
inline void PrintTo(const VariantCase& c, std::ostream* os) {
  *os << c.variant << " " << to_string(c.problem) << " " << to_string(c.precision);
}

inline std::string case_name(const ::testing::TestParamInfo<VariantCase>& info) {
  return info.param.variant + "_" + to_string(info.param.problem) + "_" + to_string(info.param.precision);
}

// Every registered variant for which `include` holds, with both problems and, for the kernels of
// f32 and f64 (the texture shaders' refusal of f64 included), every input type its descriptor lists.
template <typename Include>
std::vector<VariantCase> variant_cases(Include include) {
  std::vector<VariantCase> out;
  for (const VariantDescriptor* v : variant_registry())
    if (include(*v))
      for (Problem p : {Problem::Gemm, Problem::Ata})
        for (Precision q : all_precisions())
          if (supports(*v, q) || q == Precision::F32 || q == Precision::F64) out.push_back({v->id, p, q});
  return out;
}

// Failure-message pieces for the mapping suites: "C(3, 7)", "block (1, 0) thread (2, 5) slot 4".
inline std::string where(const char* what, std::int64_t r, std::int64_t c) {
  std::ostringstream s;
  s << what << "(" << r << ", " << c << ")";
  return s.str();
}

inline std::string owner_text(const Owner& o) {
  std::ostringstream s;
  s << "block (" << o.block_x << ", " << o.block_y << ") thread (" << o.thread_x << ", " << o.thread_y << ") slot "
    << o.slot << (o.mirrored ? " mirrored" : "");
  return s.str();
}

}  // namespace tilescope::testing
