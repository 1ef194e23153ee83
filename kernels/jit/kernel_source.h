// Where the kernel texts are read at run time, and reading them. A variant's kernel text
// (VariantDescriptor::kernel_text, "kernels/variants/03_regtile_prefetch.cuh") is named from a
// root that holds kernels/: the repository itself in a build folder inside a clone, or
// share/tilescope/ once installed, where the build installs every kernel text with the headers
// it includes. The Source view shows that file, and NVRTC compiles it with the root as its
// include folder: the same bytes the build compiled.
//
// The root, first found:
//   1. $TILESCOPE_KERNEL_TEXTS when set and non-empty (a learner's own copy of the tree);
//   2. <folder of the program>/../share/tilescope (installed: bin/ beside share/);
//   3. the program's folder and each folder above it (a build folder inside a clone).
// A root is a folder that holds kernels/ptx/device_types.cuh, which every kernel text includes.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "kernels/core/variant.h"

namespace tilescope {

struct KernelTextRoot {
  std::string root;                    // "" when none was found
  std::vector<std::string> looked_in;  // the candidates, in the order tried
};

// The pure lookup: `program` is the program's absolute real path ("" when unknown), `env` the value
// of $TILESCOPE_KERNEL_TEXTS, `exists` whether a file exists.
KernelTextRoot locate_kernel_text_root(const std::string& program, const std::string& env,
                                       const std::function<bool(const std::string&)>& exists);

// The running program's root, looked up once.
const KernelTextRoot& kernel_text_root();

// The file a kernel text names relative to a root (a path of that root's kernels/).
std::string kernel_text_path(const std::string& root, const std::string& relative);

// A kernel text's bytes: the edit installed for v where there is one (edited_texts.h), else the
// file. False with *error saying why (no kernel text, no root found, an
// unreadable file).
bool read_kernel_text(const VariantDescriptor& v, std::string* text, std::string* error);
// The same for any file named from the root ("kernels/ptx/mma_ptx.cuh").
bool read_root_file(const std::string& relative, std::string* text, std::string* error);

}  // namespace tilescope
