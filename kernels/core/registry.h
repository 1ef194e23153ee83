// The one list of GEMM variants, in teaching order (which is also the UI order).
#pragma once

#include <string>
#include <vector>

#include "kernels/core/variant.h"

namespace tilescope {

using VariantList = std::vector<const VariantDescriptor*>;

// The variants this program runs, in teaching order: the product's, one line each in
// registry.cpp (kernels/variants/NN_<id>.* in the order NN), then the example variants a test program adds
// before its tests start (tests/example_variant/). The product adds none.
const VariantList& variant_registry();
// For test programs: appends an example variant after the product's (it must be Role::Extra, so
// that nothing runs it unless named).
void add_example_variant(const VariantDescriptor& v);

// nullptr when no variant has this id.
const VariantDescriptor* find_variant(const std::string& id);
// -1 when the variant has no configuration of this name.
int find_config(const VariantDescriptor& v, const std::string& config_name);
// The library baseline (Role::Baseline), the first one in the registry; nullptr when there is none.
const VariantDescriptor* baseline_variant();
// The kernel the lesson focuses on in an input type: the last Role::Kernel variant with a mapping
// model that computes it, the top of that type's staircase so far (f32: the FMA kernels; the
// tensor-core kernels take f16, bf16, tf32 and f64); nullptr when there is none.
const VariantDescriptor* focus_variant(Precision precision = Precision::F32);

}  // namespace tilescope
