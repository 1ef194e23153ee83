#include "app/cli/split_predictions.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "app/cli/text_table.h"
#include "kernels/core/registry.h"
#include "kernels/multi/split_registry.h"

namespace tilescope {
namespace {

// What makes two rows the same product of the same kernel.
auto product_key(const RunResult& r) {
  return std::make_tuple(r.variant_id, r.config_name, r.problem, r.precision, r.c_type, r.shape.M, r.shape.N, r.shape.K,
                         r.round);
}

}  // namespace

std::vector<PredictedSplit> predict_splits(std::vector<RunResult>& rows, const LinkFigures& link) {
  std::map<decltype(product_key(rows.front())), double> one_gpu;
  for (const RunResult& r : rows)
    if (r.ok() && r.split.empty() && r.median_ms > 0) one_gpu[product_key(r)] = r.median_ms;
  // Each split of each product once, its measured rows by GPU count.
  std::map<std::tuple<std::string, std::string, decltype(product_key(rows.front()))>, std::vector<RunResult*>> splits;
  for (RunResult& r : rows)
    if (r.ok() && !r.split.empty()) splits[{r.split, r.split_config, product_key(r)}].push_back(&r);

  std::vector<PredictedSplit> out;
  for (auto& [key, measured] : splits) {
    const RunResult& example = *measured.front();
    const SplitDescriptor* split = find_split(example.split);
    const VariantDescriptor* kernel = find_variant(example.variant_id);
    const auto one = one_gpu.find(product_key(example));
    if (!split || !split->predict || !kernel || one == one_gpu.end()) continue;
    const int config = find_split_config(*split, example.split_config),
              kernel_config = find_config(*kernel, example.config_name);
    if (config < 0 || kernel_config < 0) continue;
    PredictedSplit p;
    p.example = &example;
    p.one_gpu_ms = one->second;
    std::vector<int> counts(std::begin(kPredictedGpuCounts), std::end(kPredictedGpuCounts));
    for (const RunResult* r : measured) counts.push_back(r->gpus);
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    for (int gpus : counts) {
      SplitQuery q;
      q.problem = example.problem;
      q.precision = example.precision;
      q.shape = example.shape;
      q.gpus = gpus;
      q.kernel = kernel;
      q.kernel_config = kernel_config;
      PredictedPoint point;
      point.gpus = gpus;
      point.prediction = split->predict(q, config, MachineFigures{p.one_gpu_ms, link});
      for (RunResult* r : measured)
        if (r->gpus == gpus) {
          point.measured_ms = r->median_ms;
          r->predicted_ms = point.prediction.ms;
        }
      p.points.push_back(point);
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::string format_predictions(const std::vector<PredictedSplit>& splits, const LinkBench& link) {
  std::string out;
  const LinkFigures& f = link.figures;
  out += "the link (" + std::to_string(link.samples.empty() ? 0 : link.samples.front().gpus) +
         " GPUs, NCCL): latency " + table_printf("%.1f", f.latency_us) + " us, broadcast " +
         table_printf("%.1f", f.broadcast_gbs) + " GB/s, reduce " + table_printf("%.1f", f.reduce_gbs) +
         " GB/s (a collective of n bytes: latency + n / bandwidth)\n";
  TextTable samples({false, true, true, true});
  samples.add({"collective", "bytes", "median ms", "GB/s"});
  for (const LinkSample& s : link.samples)
    samples.add({s.collective, table_printf("%.0f", s.bytes), table_ms(s.median_ms), table_printf("%.1f", s.gbs())});
  out += samples.str();
  for (const PredictedSplit& p : splits) {
    const RunResult& r = *p.example;
    out += "\nmodel of " + r.split + ":" + r.split_config + " with " + r.variant_id + ":" + r.config_name + " " +
           to_string(r.problem) + " " + to_string(r.precision) + " " + shape_text(r.shape) +
           " (one GPU: " + table_ms(p.one_gpu_ms) + " ms, measured)\n";
    TextTable t({true, true, true, true, true, true, true});
    t.add({"GPUs", "predicted ms", "speed-up", "efficiency", "transfer ms not hidden", "measured ms", "off by"});
    for (const PredictedPoint& pt : p.points) {
      const SplitPrediction& m = pt.prediction;
      t.add({std::to_string(pt.gpus), table_ms(m.ms), table_printf("%.2fx", m.speedup),
             table_printf("%.0f%%", 100.0 * m.efficiency), table_ms(m.exposed_transfer_ms),
             pt.measured_ms > 0 ? table_ms(pt.measured_ms) : "-",
             pt.measured_ms > 0 ? table_printf("%+.1f%%", 100.0 * (m.ms / pt.measured_ms - 1.0)) : "-"});
    }
    out += t.str();
  }
  return out;
}

}  // namespace tilescope
