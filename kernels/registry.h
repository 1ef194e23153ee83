// The one list of GEMM variants, in teaching order (which is also the UI order).
#pragma once

#include <string>
#include <vector>

#include "variant.h"

namespace tilescope {

const std::vector<const VariantDescriptor*>& variant_registry();
// nullptr when no variant has this id.
const VariantDescriptor* find_variant(const std::string& id);
// -1 when the variant has no configuration of this name.
int find_config(const VariantDescriptor& v, const std::string& config_name);

}  // namespace tilescope
