// How the window names a typed tile where room is short (kernels/core/typed_configs.h has the
// tiles themselves and how a name is read back: config_named_or_typed).
#pragma once

#include <string>

#include "kernels/core/variant.h"

namespace tilescope {

// How the window lists configuration `index` of v where room is short (the configuration combo):
// its name, but for a typed tile only the parameters that differ from the default
// configuration's ("bm=96,bn=80"), which types the same tile again (typed_tile_config); the
// canonical name is the tooltip's.
std::string config_short_name(const VariantDescriptor& v, int index);

}  // namespace tilescope
