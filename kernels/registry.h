// The one list of GEMM variants, in teaching order (which is also the UI order).
#pragma once

#include <string>
#include <vector>

#include "variant.h"

namespace tilescope {

using VariantList = std::vector<const VariantDescriptor*>;

// The product's variants: one line each in registry.cpp, kernels/NN_<id>.* in the order NN.
const VariantList& product_variants();

// The variants this program runs: the product's. A test program may define its own (the product's
// plus examples, tests/example_variant/test_registry.cpp); product_registry.cpp is then not linked.
const VariantList& variant_registry();

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
