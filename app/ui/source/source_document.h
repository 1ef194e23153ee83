// What the Source view shows of a variant: its kernel text (the very file the build compiled and
// NVRTC compiles, read through kernels/jit/kernel_source.h) split into lines and coloured, or, for a
// variant without one, why; and the staircase the texts climb, so that "what changed" compares a
// step with the one before it. No ImGui.
#pragma once

#include <string>
#include <vector>

#include "app/ui/source/cuda_syntax.h"
#include "kernels/core/variant.h"

namespace tilescope {

struct SourceDocument {
  const VariantDescriptor* variant = nullptr;
  std::string path;  // the kernel text's name from the root ("kernels/variants/..."), "" when none
  std::vector<std::string> lines;
  std::vector<std::vector<Token>> tokens;  // one list per line
  // Without lines: why, in a sentence (no kernel text, or the read's error).
  std::string why_none;
  bool read_failed = false;  // there is a kernel text but it could not be read
};

SourceDocument load_source(const VariantDescriptor& v);

// The staircase: the kernels of ours (Role::Kernel) that have a kernel text, in registry order.
std::vector<const VariantDescriptor*> kernel_staircase();
// The step before v on the staircase; nullptr for the first step or a variant not on it.
const VariantDescriptor* previous_step(const VariantDescriptor& v);

// Why a variant has no kernel text to show, in a sentence a student understands.
std::string no_kernel_text_reason(const VariantDescriptor& v);

}  // namespace tilescope
