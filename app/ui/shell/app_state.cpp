#include "app/ui/shell/app_state.h"

#include <algorithm>
#include <string>

#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "kernels/multi/split_registry.h"

namespace tilescope {

AppState default_app_state() {
  AppState s;
  // Each variant starts in its descriptor's default configuration; the lesson focuses on the
  // top of the staircase so far.
  const VariantDescriptor* focus = focus_variant(s.precision);
  for (const VariantDescriptor* v : variant_registry()) {
    LessonEntry e;
    e.variant_id = v->id;
    e.config_index = v->default_config;
    // History pieces are the History tab's lesson, extras run when ticked: neither in every first Run.
    e.enabled = v->role == Role::Baseline || v->role == Role::Kernel;
    if (v == focus) s.focused = static_cast<int>(s.lesson.size());
    s.lesson.push_back(e);
  }
  return s;
}

Shape run_shape(const AppState& s) {
  Shape shape;
  shape.N = s.n;
  shape.M = s.square ? s.n : s.m;
  shape.K = s.square ? s.n : s.k;
  return normalised(s.problem, shape);
}

std::vector<int> sweep_sizes(const AppState& s) {
  std::vector<int> out;
  const int from = std::max(1, s.sweep_from);
  const int to = std::max(from, s.sweep_to);
  for (long long n = from; n <= to; n *= 2) out.push_back(static_cast<int>(n));
  return out;
}

std::string cap_sizes(AppState& s, int cap) {
  const bool m_read = s.problem == Problem::Gemm && !s.square;
  const bool k_read = s.problem == Problem::Ata || !s.square;
  struct Size {
    const char* name;
    int* value;
    bool read;  // by Run or Sweep: only these are named
  };
  const Size sizes[] = {{"M", &s.m, m_read},
                        {"N", &s.n, true},
                        {"K", &s.k, k_read},
                        {"the sweep's first size", &s.sweep_from, true},
                        {"the sweep's last size", &s.sweep_to, true}};
  std::string changed;
  for (const Size& size : sizes) {
    if (*size.value <= cap) continue;
    if (size.read)
      changed += (changed.empty() ? "" : ", ") + std::string(size.name) + " " + std::to_string(*size.value);
    *size.value = cap;
  }
  return changed;
}

namespace {

// Whether an entry's configuration stores C in a type narrower than the accumulator's, for p.
bool stores_narrow_c(const LessonEntry& e, Precision p) {
  const VariantDescriptor* v = find_variant(e.variant_id);
  return v && config_index_error(*v, e.config_index).empty() &&
         output_type(p, config_at(*v, e.config_index).c_in_input_type) != output_type(p, false);
}

}  // namespace

bool split_takes(const AppState& s, const VariantDescriptor& v, int config_index) {
  const SplitDescriptor* split = s.split.empty() ? nullptr : find_split(s.split);
  if (!split || !supports(*split, s.problem) || !split_config_error(*split, s.split_config).empty()) return false;
  if (config_index >= static_cast<int>(v.configs.size()) || !needs_cuda(v)) return false;  // typed tiles, OpenGL
  SplitQuery q;
  q.problem = s.problem;
  q.precision = s.precision;
  q.shape = run_shape(s);
  q.gpus = s.gpus;
  q.kernel = &v;
  q.kernel_config = config_index;
  return !split->refuses || split->refuses(q, s.split_config).empty();
}

std::vector<LessonEntry> entries_to_run(const std::vector<LessonEntry>& lesson, Precision precision) {
  const bool narrow_ticked = std::any_of(
      lesson.begin(), lesson.end(), [&](const LessonEntry& e) { return e.enabled && stores_narrow_c(e, precision); });
  std::vector<LessonEntry> out;
  for (const LessonEntry& e : lesson) {
    out.push_back(e);
    const VariantDescriptor* v = find_variant(e.variant_id);
    if (!narrow_ticked || !e.enabled || !v || v->role != Role::Baseline || stores_narrow_c(e, precision)) continue;
    if (const int bar = narrow_c_baseline(*v); bar >= 0) out.push_back({e.variant_id, true, bar});
  }
  return out;
}

}  // namespace tilescope
