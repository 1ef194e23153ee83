// The example variants a test program adds to the registry (test_registry.cpp).
#pragma once

#include "kernels/core/registry.h"

namespace tilescope {

// The examples, in the order of their file numbers.
const VariantList& example_variants();
// The registry without the examples: the product's own variants, as the program runs them.
VariantList registry_without_examples();

}  // namespace tilescope
