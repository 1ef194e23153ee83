#include "ui/app_state.h"

#include <algorithm>

#include "registry.h"

namespace tilescope {

AppState default_app_state() {
  AppState s;
  // The configuration each variant starts in: the one the lesson ends on for regtile_prefetch,
  // TILE = 16 for shared-memory tiling (the textbook's choice).
  const struct {
    const char* id;
    const char* config;
  } kDefaults[] = {{"cublas", "gemm"},
                   {"naive", "16x16"},
                   {"smem_tiled", "16"},
                   {"regtile_prefetch", "128x128x32_8x8"},
                   {"gl_shader", "mrt8"}};
  for (const VariantDescriptor* v : variant_registry()) {
    LessonEntry e;
    e.variant_id = v->id;
    for (const auto& d : kDefaults)
      if (e.variant_id == d.id) e.config_index = std::max(0, find_config(*v, d.config));
    // The texture shaders are the History tab's lesson: ticked there, not in every first Run.
    e.enabled = v->backend != Backend::GlShader;
    if (e.variant_id == "regtile_prefetch") s.focused = static_cast<int>(s.lesson.size());
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
