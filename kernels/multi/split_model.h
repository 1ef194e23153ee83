// A split's time predicted from what was measured on this machine: its kernel alone on one GPU
// (the time of the whole product), and the link between the GPUs (a collective of n bytes takes
// latency + n / bandwidth, from the link microbenchmark: link_bench.h). Each split predicts its
// own schedule (SplitDescriptor::predict, beside its launch, with the same cuts), through the
// pieces below. Plain C++.
//
// What it assumes, and where it stops being trustworthy: a piece of the product runs at the whole
// product's rate (a thin band or panel runs slower: fewer tiles per GPU, a partial last wave); the
// link's bandwidth does not change with the number of GPUs (true of NVLink through an NVSwitch,
// where every GPU has its own links; not of a ring of PCIe or of InfiniBand between machines,
// where a collective's bandwidth is the slowest hop's and its latency grows with the hops); a
// transfer and a product overlap without slowing each other (NCCL's kernels take a few SMs and
// some memory bandwidth from the product).
#pragma once

#include <string>
#include <vector>

namespace tilescope {

struct LinkFigures {
  double latency_us = 0;     // a collective's fixed cost
  double broadcast_gbs = 0;  // bytes a broadcast delivers to each GPU per second, 1e9
  double reduce_gbs = 0;     // bytes a reduction sums into the root per second, 1e9
  bool known() const { return broadcast_gbs > 0 && reduce_gbs > 0; }
};

struct MachineFigures {
  double one_gpu_ms = 0;  // the split's kernel alone on one GPU, the whole product
  LinkFigures link;
};

struct SplitPrediction {
  double ms = 0;                   // the whole split product
  double compute_ms = 0;           // the slowest GPU's products
  double exposed_transfer_ms = 0;  // what of the transfers does not hide behind products
  double speedup = 0;              // one_gpu_ms / ms
  double efficiency = 0;           // speedup / GPUs
};

// A collective of `bytes` over the link.
double collective_ms(double bytes, double gbs, double latency_us);

// One GPU's pipeline: transfer j then product j, the transfers back to back on one stream, the
// products back to back on another, product j waiting for transfer j. The time of the last product's end.
double pipelined_ms(const std::vector<double>& transfer_ms, const std::vector<double>& product_ms);

// speedup and efficiency of `p` for `gpus` GPUs and the one-GPU time.
SplitPrediction finish_prediction(SplitPrediction p, double one_gpu_ms, int gpus);

}  // namespace tilescope
