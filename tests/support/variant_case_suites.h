// What the suites that run once per variant x problem x input type (variant_cases.h) share
// beyond the case itself: the case lists they draw from the registry, and their fixture, which
// looks the case's variant up once (and, for the suites that measure, holds a Measurer).
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "kernels/core/registry.h"
#include "kernels/measure/measure.h"
#include "tests/support/variant_cases.h"

namespace tilescope::testing {

// Every variant with a mapping model (the model's and the account's suites).
inline std::vector<VariantCase> modelled_cases() {
  return variant_cases([](const VariantDescriptor& v) { return v.model != nullptr; });
}

// Every CUDA variant: the texture shaders need the OpenGL part the CUDA suites do not link
// (their suite is tests/gui/gl_shader_variant_test.cpp).
inline std::vector<VariantCase> cuda_cases() {
  return variant_cases([](const VariantDescriptor& v) { return v.backend != Backend::GlShader; });
}

class VariantCaseTest : public ::testing::TestWithParam<VariantCase> {
 protected:
  const VariantCase c = GetParam();
  const VariantDescriptor& v = *find_variant(c.variant);
};

// A suite that measures its cases.
class MeasuredCaseTest : public VariantCaseTest {
 protected:
  Measurer measurer;
};

}  // namespace tilescope::testing
