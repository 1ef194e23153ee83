#include "app/ui/source/source_document.h"

#include "app/ui/source/line_diff.h"
#include "kernels/core/registry.h"
#include "kernels/jit/kernel_source.h"

namespace tilescope {

SourceDocument load_source(const VariantDescriptor& v) {
  SourceDocument d;
  d.variant = &v;
  if (!v.kernel_text) {
    d.why_none = no_kernel_text_reason(v);
    return d;
  }
  d.path = v.kernel_text;
  std::string text, error;
  if (!read_kernel_text(v, &text, &error)) {
    d.why_none = error;
    d.read_failed = true;
    return d;
  }
  d.lines = split_lines(text);
  d.tokens = tokenize_lines(d.lines);
  if (d.lines.empty()) d.why_none = d.path + " is empty.";
  return d;
}

std::vector<const VariantDescriptor*> kernel_staircase() {
  std::vector<const VariantDescriptor*> steps;
  for (const VariantDescriptor* v : variant_registry())
    if (v->role == Role::Kernel && v->kernel_text) steps.push_back(v);
  return steps;
}

const VariantDescriptor* previous_step(const VariantDescriptor& v) {
  const VariantDescriptor* before = nullptr;
  for (const VariantDescriptor* step : kernel_staircase()) {
    if (step == &v) return before;
    before = step;
  }
  return nullptr;
}

std::string no_kernel_text_reason(const VariantDescriptor& v) {
  const std::string name = v.label;
  switch (v.backend) {
    case Backend::Cublas:
      return name +
             " is NVIDIA's library: its kernels ship compiled inside cuBLAS, without their source, so there is no "
             "text to show. It is the bar the kernels of ours are measured against.";
    case Backend::GlShader:
      return name +
             " is not CUDA: it multiplies by drawing, in GLSL fragment shaders (the files of shaders/, read when the "
             "program runs). The History tab shows its passes.";
    default:
      return name + " has no kernel text of its own.";
  }
}

}  // namespace tilescope
