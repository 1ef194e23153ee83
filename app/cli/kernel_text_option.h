// `--kernel-text ID=FILE`, an option of `tilescope bench` and `tilescope compile`: variant ID's
// kernel text is read from FILE instead of the shipped one, for this process (kernels/jit/
// edited_texts.h). The window runs a learner's edit this way, in a worker process it can stop;
// a learner can do the same from a shell. The configurations of ID that the command runs become
// typed tiles of the edited text, named "(edited <tag>)".
#pragma once

#include <string>

#include "app/cli/bench_args.h"
#include "kernels/core/variant.h"

namespace tilescope {

struct KernelTextOption {
  const VariantDescriptor* variant = nullptr;  // nullptr: no --kernel-text
  std::string tag;                             // edit_tag of the text
};

// Parses "ID=FILE", reads FILE, checks that it may be a kernel text (kernel_text_problem) and
// installs it for ID. False with *error saying why (no '=', an unknown variant or one without a
// kernel text of ours, an unreadable file, a file that is not a kernel text).
bool install_kernel_text_option(const std::string& spec, KernelTextOption* out, std::string* error);

// The index a command runs for configuration `index` of v: the edited configuration when v is the
// edited variant, else `index`. -1 with *why when v cannot run its edit (edited_texts.h).
int edited_or_same(const KernelTextOption& option, const VariantDescriptor& v, int index, std::string* why);

// opt->kernel_text (bench's and memory's --kernel-text), when given: installs the edit and turns
// the edited variant's selected configurations into its edited ones. False with *error (the
// option's, or the edited variant is not among the selected ones); *edit (may be null) says which.
bool use_kernel_text(BenchOptions* opt, std::string* error, KernelTextOption* edit = nullptr);

}  // namespace tilescope
