#include "app/cli/split_predictions.h"

#include "app/cli/text_table.h"

namespace tilescope {

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
