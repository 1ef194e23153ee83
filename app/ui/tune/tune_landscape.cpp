#include "app/ui/tune/tune_landscape.h"

#include <cstdio>

#include "kernels/core/registry.h"

namespace tilescope {
namespace {

LandscapeStatus status_of(TuneStatus s) {
  switch (s) {
    case TuneStatus::Ok:
      return LandscapeStatus::Ok;
    case TuneStatus::Refused:
      return LandscapeStatus::Refused;
    case TuneStatus::Failed:
      return LandscapeStatus::Failed;
    case TuneStatus::Error:
      return LandscapeStatus::Error;
    case TuneStatus::Pending:
      break;
  }
  return LandscapeStatus::Pending;
}

}  // namespace

LandscapeInput landscape_input(const TuneTable& t, const std::string& x_key, const std::string& y_key) {
  LandscapeInput in;
  in.x_key = x_key;
  in.y_key = y_key;
  for (const TunePoint& p : t.points)
    in.points.push_back({p.values, status_of(p.status), p.reason, p.gflops, p.pct_of_cublas});
  if (const VariantDescriptor* v = find_variant(t.variant); v && v->tile_values_of)
    for (const TileConfig& c : v->configs) in.shipped.emplace_back(c.name, v->tile_values_of(c));
  const VariantDescriptor* v = find_variant(t.variant);
  in.title =
      (v ? std::string(v->label) : t.variant) + ": GFLOP/s over " + x_key + (y_key.empty() ? "" : " and " + y_key);
  in.subtitle = std::string(to_string(t.problem)) + " " + to_string(t.precision) + " " + shape_text(t.shape) +
                (t.device.empty() ? "" : " on " + t.device);
  if (t.baseline.status == TuneStatus::Ok) {
    char text[96];
    std::snprintf(text, sizeof text, "; cuBLAS %.0f GFLOP/s", t.baseline.gflops);
    in.subtitle += text;
    in.baseline_gflops = t.baseline.gflops;
  }
  return in;
}

}  // namespace tilescope
