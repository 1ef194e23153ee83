#include "ui/app_state.h"

#include <algorithm>

#include "registry.h"

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

}  // namespace tilescope
