// The test programs' registry: the product's variants, then the example variants of this folder,
// one line each, in the order of their file numbers (tests/example_variant/NN_<id>.*). Defining
// variant_registry() here keeps kernels/product_registry.cpp out of the link (see its comment).
#include "registry.h"

namespace tilescope {

extern const VariantDescriptor kNaiveColumnsVariant;  // 90_naive_columns.cu

const VariantList& variant_registry() {
  static const VariantList list = [] {
    VariantList l = product_variants();
    l.push_back(&kNaiveColumnsVariant);
    return l;
  }();
  return list;
}

}  // namespace tilescope
