#include "kernels/multi/split_forecast.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "kernels/core/registry.h"
#include "kernels/multi/split_registry.h"

namespace tilescope {
namespace {

// A schedule is worked out piece by piece for every GPU: a count read from a file beyond this is
// taken for nonsense rather than worked out.
constexpr int kMostGpusPredicted = 4096;

using ProductKey = decltype(product_key(std::declval<const RunResult&>()));

// The rows grouped: each product's one-GPU time (its newest row alone), and each split of each
// product with its measured rows (indices, in the rows' order).
struct Groups {
  std::map<ProductKey, double> one_gpu_ms;
  std::map<std::tuple<std::string, std::string, ProductKey>, std::vector<std::size_t>> splits;
};

Groups group_rows(const std::vector<RunResult>& rows) {
  Groups g;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const RunResult& r = rows[i];
    if (!r.ok()) continue;
    if (r.split.empty()) {
      if (r.median_ms > 0) g.one_gpu_ms[product_key(r)] = r.median_ms;
    } else {
      g.splits[{r.split, r.split_config, product_key(r)}].push_back(i);
    }
  }
  return g;
}

// The points of one split of one product over `link`: kPredictedGpuCounts and the counts measured,
// each measured count beside its newest row. False where the program has no model of the split or
// does not know the kernel.
bool predict_group(const std::vector<RunResult>& rows, const std::vector<std::size_t>& measured, double one_gpu_ms,
                   const LinkFigures& link, PredictedSplit* out) {
  const RunResult& example = rows[measured.front()];
  RowSplit known;
  if (!row_split(example, &known) || !known.split->predict || example.shape.M <= 0 || example.shape.N <= 0 ||
      example.shape.K <= 0)
    return false;
  PredictedSplit p;
  p.example = &example;
  p.one_gpu_ms = one_gpu_ms;
  p.link = link;
  std::vector<int> counts(std::begin(kPredictedGpuCounts), std::end(kPredictedGpuCounts));
  for (std::size_t i : measured) counts.push_back(rows[i].gpus);
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  for (int gpus : counts) {
    if (gpus < 1 || gpus > kMostGpusPredicted) continue;  // a file's nonsense: no schedule to predict
    SplitQuery q = known.query;
    q.gpus = gpus;
    PredictedPoint point;
    point.gpus = gpus;
    point.prediction = known.split->predict(q, known.config, MachineFigures{one_gpu_ms, link});
    for (std::size_t i : measured) {
      const RunResult& r = rows[i];
      if (r.gpus != gpus || r.median_ms <= 0) continue;
      point.measured_ms = r.median_ms;
      point.measured_speedup = r.speedup_over_one_gpu > 0 ? r.speedup_over_one_gpu : one_gpu_ms / r.median_ms;
    }
    p.points.push_back(point);
  }
  *out = std::move(p);
  return true;
}

}  // namespace

bool row_split(const RunResult& r, RowSplit* out) {
  const SplitDescriptor* split = find_split(r.split);
  const VariantDescriptor* kernel = find_variant(r.variant_id);
  if (!split || !kernel) return false;
  const int config = find_split_config(*split, r.split_config), kernel_config = find_config(*kernel, r.config_name);
  if (config < 0 || kernel_config < 0) return false;
  out->split = split;
  out->config = config;
  out->query = SplitQuery{r.problem, r.precision, r.shape, r.gpus, kernel, kernel_config};
  return true;
}

LinkFigures link_of(const RunResult& r) {
  const LinkFigures link{r.link_latency_us, r.link_broadcast_gbs, r.link_reduce_gbs};
  const bool sane = std::isfinite(link.latency_us) && link.latency_us >= 0 && std::isfinite(link.broadcast_gbs) &&
                    std::isfinite(link.reduce_gbs);
  return sane ? link : LinkFigures{};
}

void set_link(RunResult& r, const LinkFigures& link) {
  r.link_latency_us = link.latency_us;
  r.link_broadcast_gbs = link.broadcast_gbs;
  r.link_reduce_gbs = link.reduce_gbs;
}

std::vector<PredictedSplit> predict_splits(std::vector<RunResult>& rows, const LinkFigures& link) {
  const Groups groups = group_rows(rows);
  std::vector<PredictedSplit> out;
  for (const auto& [key, measured] : groups.splits) {
    const auto one = groups.one_gpu_ms.find(std::get<2>(key));
    PredictedSplit p;
    if (one == groups.one_gpu_ms.end() || !predict_group(rows, measured, one->second, link, &p)) continue;
    for (std::size_t i : measured)
      for (const PredictedPoint& point : p.points)
        if (point.gpus == rows[i].gpus) {
          rows[i].predicted_ms = point.prediction.ms;
          set_link(rows[i], link);
        }
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<PredictedSplit> predict_splits_from_rows(const std::vector<RunResult>& rows) {
  const Groups groups = group_rows(rows);
  std::vector<PredictedSplit> out;
  for (const auto& [key, measured] : groups.splits) {
    const auto one = groups.one_gpu_ms.find(std::get<2>(key));
    if (one == groups.one_gpu_ms.end()) continue;
    LinkFigures link;
    int link_gpus = 0;
    for (std::size_t i : measured) {
      const LinkFigures carried = link_of(rows[i]);
      if (carried.known() && rows[i].gpus >= link_gpus) {
        link = carried;
        link_gpus = rows[i].gpus;
      }
    }
    PredictedSplit p;
    if (link.known() && predict_group(rows, measured, one->second, link, &p)) out.push_back(std::move(p));
  }
  return out;
}

}  // namespace tilescope
