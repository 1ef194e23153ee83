// What the GPUs tab draws of a run split across GPUs, as plain data: its timeline's rows (a
// product row and a transfer row per GPU), the run's length, and per GPU how busy each stream was
// and how much of the transfers ran under a product (the overlap a split is built for). Plain C++,
// also compiled into the CPU suite.
#pragma once

#include <vector>

#include "kernels/measure/run_span.h"

namespace tilescope {

struct TimelineRow {
  int gpu = 0;
  SpanStream stream = SpanStream::Compute;
};

struct SplitTimeline {
  std::vector<TimelineRow> rows;  // GPU 0 products, GPU 0 transfers, GPU 1 products, ...
  std::vector<int> row_of_span;   // the row each span is drawn on
  double end_ms = 0;              // the last span's end
};

SplitTimeline lay_out_split_timeline(const std::vector<RunSpan>& spans);

struct GpuBusy {
  int gpu = 0;
  double compute_ms = 0;   // products, their union
  double transfer_ms = 0;  // transfers, their union
  double hidden_ms = 0;    // transfer time during which a product of the same GPU ran
};

// One entry per GPU that has spans, in GPU order.
std::vector<GpuBusy> busy_of(const std::vector<RunSpan>& spans);

}  // namespace tilescope
