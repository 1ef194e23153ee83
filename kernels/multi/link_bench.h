// The link between a machine's GPUs, measured with the collectives the splits use: ncclBroadcast
// (bytes, from GPU 0) and ncclReduce (floats summed into GPU 0), from a few kilobytes to hundreds of
// megabytes, each timed like a split run (a start event on GPU 0 that every GPU's transfer stream
// waits for, to the last GPU's end), the median of several. The model's link (split_model.h) is
// read off them: the latency is the smallest transfer's time, the bandwidth the largest's bytes
// over its time less that latency.
#pragma once

#include <string>
#include <vector>

#include "kernels/multi/split_model.h"

namespace tilescope {

class GpuGroup;

struct LinkSample {
  std::string collective;  // "broadcast" | "reduce"
  int gpus = 0;
  double bytes = 0;
  double median_ms = 0;
  double gbs() const { return median_ms > 0 ? bytes / (median_ms * 1e6) : 0; }
};

struct LinkBench {
  LinkFigures figures;
  std::vector<LinkSample> samples;
};

// The timed runs of each size whose median is kept, in bench and in the window alike.
constexpr int kLinkRepetitions = 10;

// The transfer sizes measured, in bytes (the largest bounds the buffers it takes on every GPU).
const std::vector<double>& link_bench_sizes();
// The latency and bandwidths of the samples (figures.known() is false without samples of both).
LinkFigures link_figures_of(const std::vector<LinkSample>& samples);

// Measures the group's link (its communicators are made if needed). Throws GpuError.
LinkBench measure_links(GpuGroup& group, int repetitions);

}  // namespace tilescope
