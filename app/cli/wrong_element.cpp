#include "app/cli/wrong_element.h"

#include <cstdio>

#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"

namespace tilescope {

namespace {

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.7g", x);
  return text;
}

std::string owner_text(const Owner& o, bool warp_level) {
  if (o.block_x < 0) return "";
  std::string text = ": written by block (" + std::to_string(o.block_x) + ", " + std::to_string(o.block_y) + "), ";
  text += warp_level ? "warp " + std::to_string(o.thread_y) + ", lane " + std::to_string(o.thread_x) +
                           ", accumulator " + std::to_string(o.slot)
                     : "thread (" + std::to_string(o.thread_x) + ", " + std::to_string(o.thread_y) + ")";
  if (o.mirrored) text += ", as the mirror of C(j, i)";
  return text;
}

}  // namespace

std::string wrong_element_sentence(const RunResult& r, const VariantDescriptor& v, int config_index) {
  if (r.wrong_row < 0) return "";
  std::string text = "first wrong element C(" + std::to_string(r.wrong_row) + ", " + std::to_string(r.wrong_col) +
                     ") = " + number(r.wrong_value) + ", the reference " + number(r.wrong_expected);
  if (v.model) {
    const std::unique_ptr<MappingModel> model = v.model(config_index, r.problem, r.precision, r.shape);
    if (model) text += owner_text(model->owner(r.wrong_row, r.wrong_col), v.model_caps.warp_level);
  }
  return text;
}

std::string wrong_element_sentence(const RunResult& r) {
  const VariantDescriptor* v = find_variant(r.variant_id);
  if (!v || r.wrong_row < 0) return "";
  for (int i = 0; i < config_count(*v); ++i)
    if (config_at(*v, i).name == r.config_name) return wrong_element_sentence(r, *v, i);
  return "";
}

}  // namespace tilescope
