// The compiled-kernel cache (kernels/jit/kernel_cache.h) as files: one file per key under the XDG
// cache folder ($XDG_CACHE_HOME/tilescope/kernels, else ~/.cache/tilescope/kernels), each written
// to a temporary file and renamed, so a crash or a full disk never leaves half a kernel behind.
#pragma once

#include <memory>
#include <string>

#include "kernels/jit/kernel_cache.h"

namespace tilescope {

// The storage in `folder` (created when first written).
std::shared_ptr<KernelCacheStorage> kernel_cache_files(const std::string& folder);

// The user's folder: "<XDG cache>/tilescope/kernels"; "" when neither $XDG_CACHE_HOME nor $HOME is set.
std::string kernel_cache_folder();

// Installs the user's folder as every compile's cache (nothing when there is none: compiles then
// say they were not cached).
void install_user_kernel_cache();

}  // namespace tilescope
