// The program's registry is the product's list. Kept alone in its file: a test program that
// defines variant_registry() itself (with example variants added) leaves this object out of the
// link, since the static library's member is only pulled in for a symbol still undefined.
#include "registry.h"

namespace tilescope {

const VariantList& variant_registry() {
  return product_variants();
}

}  // namespace tilescope
