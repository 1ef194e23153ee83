#include "app/cli/kernel_text_option.h"

#include "kernels/core/registry.h"
#include "kernels/jit/edited_texts.h"

namespace tilescope {

bool install_kernel_text_option(const std::string& spec, KernelTextOption* out, std::string* error) {
  const std::size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
    *error = "--kernel-text needs ID=FILE (a variant id and the file of its edited text), got '" + spec + "'";
    return false;
  }
  const std::string id = spec.substr(0, eq), path = spec.substr(eq + 1);
  const VariantDescriptor* v = find_variant(id);
  if (!v) {
    *error = "--kernel-text: unknown variant '" + id + "'";
    return false;
  }
  if (!v->kernel_text) {
    *error = "--kernel-text: " + id + " has no kernel text of ours";
    return false;
  }
  std::string text;
  if (!read_kernel_text_file(path, &text, error)) {
    *error = "--kernel-text: " + *error;
    return false;
  }
  use_edited_text(*v, text);
  out->variant = v;
  out->tag = edit_tag(text);
  return true;
}

int edited_or_same(const KernelTextOption& option, const VariantDescriptor& v, int index, std::string* why) {
  if (option.variant != &v) return index;
  return add_edited_config(v, index, option.tag, why);
}

bool use_kernel_text(BenchOptions* opt, std::string* error, KernelTextOption* out) {
  if (opt->kernel_text.empty()) return true;
  KernelTextOption edit;
  if (!install_kernel_text_option(opt->kernel_text, &edit, error)) return false;
  if (out) *out = edit;
  bool selected = false;
  for (VariantSelection& sel : opt->selections) {
    if (sel.variant != edit.variant) continue;
    selected = true;
    sel.config_index = edited_or_same(edit, *sel.variant, sel.config_index, error);
    if (sel.config_index < 0) return false;
  }
  if (!selected) *error = std::string("--kernel-text: ") + edit.variant->id + " is not among the variants to run";
  return selected;
}

}  // namespace tilescope
