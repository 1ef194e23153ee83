// The numbers of the pipeline timeline (kernels/instrument/timeline.h), computed apart from drawing so that
// they can be unit-tested on a result made by hand: the summary line under the bars (kernel time,
// average copy latency, how busy the consumers were, how much of the copying the multiplications
// hid) and the time axis's labels. Plain C++, no ImGui (app/ui/mapping/timeline_view.cpp draws the bars).
#pragma once

#include <string>
#include <vector>

#include "kernels/instrument/timeline.h"

namespace tilescope {

struct TimelineSummary {
  double kernel_ns = 0;  // the earliest block's start to the latest block's end
  int blocks = 0;        // in the launch
  int slabs = 0;         // slabs whose copy has both stamps (issued and arrived)
  // The average of arrived - issued over those slabs: how long a slab's bytes were on their way.
  double copy_latency_ns = 0;
  // Time the consumers spent multiplying over the time they had: the time each consumer had MMAs
  // in flight (block_busy_ns) over consumers x the sum of the blocks' spans (block_span_ns).
  // 1 = never waiting.
  double busy_fraction = 0;
  // Of all the time copies were in flight, the part during which a consumer of the same block was
  // multiplying: the overlap that hides the copies (the first stages' copies can never hide).
  double hidden_copy_fraction = 0;
  // False when some block moved more slabs than it had room to stamp: the figures cover the
  // stamped ones.
  bool all_slabs_stamped = true;
};

// A block's time on the axis for the busy fraction: its first to its last clock reading; or, when
// it moved more slabs than it stamped, to its last stamp (what came after is not known).
double block_span_ns(const TimelineBlock& block);
// The end of what is known of a block: its end, or its last stamp when it stamped only some slabs.
double block_known_end_ns(const TimelineBlock& block);
// The time consumer c of a block had MMAs in flight: the union of its stamped bars (started ..
// done). Not their sum: a consumer issues the next slab's MMAs before the last ones have finished
// (one group stays in flight), so its bars overlap, and their sum would count that time twice.
double consumer_busy_ns(const TimelineBlock& block, int consumer);
// consumer_busy_ns summed over the block's first `consumers` consumers.
double block_busy_ns(const TimelineBlock& block, int consumers);

TimelineSummary summarize_timeline(const TimelineResult& result);

// A duration or a time with its unit: "850 ns", "12.5 µs", "1.25 ms", "2.5 s" (3 significant digits).
std::string format_ns(double ns);

// The labels of the time axis: `values` (ns, from one axis, `step` apart) in the unit of the
// largest of them, with as many decimals as the step needs ("0", "0.5 µs", "1.0 µs", "1.5 µs";
// zoomed in at a millisecond: "1.0025 ms", "1.0030 ms"), so that neighbouring labels differ.
std::vector<std::string> time_tick_labels(const std::vector<double>& values, double step);

}  // namespace tilescope
