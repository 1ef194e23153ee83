// The test programs' example variants, one line each in the order of their file numbers
// (tests/example_variant/NN_<id>.*), added to the registry after the product's before any test
// runs. This object is linked into the CPU and GPU test programs directly (an object library, not
// a member of a static library that the linker could leave out), so its initializer always runs.
#include <algorithm>

#include "tests/example_variant/example_variants.h"

namespace tilescope {

extern const VariantDescriptor kNaiveColumnsVariant;  // 90_naive_columns.cu

const VariantList& example_variants() {
  static const VariantList list = {&kNaiveColumnsVariant};
  return list;
}

VariantList registry_without_examples() {
  VariantList out;
  for (const VariantDescriptor* v : variant_registry())
    if (std::find(example_variants().begin(), example_variants().end(), v) == example_variants().end())
      out.push_back(v);
  return out;
}

namespace {
const bool kExamplesAdded = [] {
  for (const VariantDescriptor* v : example_variants()) add_example_variant(*v);
  return true;
}();
}  // namespace

}  // namespace tilescope
