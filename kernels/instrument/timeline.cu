#include <cuda_runtime.h>

#include <algorithm>
#include <exception>

#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/instrument/timeline.h"
#include "kernels/instrument/trace.h"
#include "kernels/measure/gpu_buffers.h"

namespace tilescope {

namespace {

// Checks the request; returns why it cannot run ("" = fine) and fills the variant.
std::string timeline_refusal(const std::string& variant_id, int config_index, Problem problem, Precision precision,
                             const Shape& s, int records_per_block, const VariantDescriptor** out) {
  const VariantDescriptor* v = find_variant(variant_id);
  if (!v) return "unknown variant '" + variant_id + "'";
  if (std::string bad = config_index_error(*v, config_index); !bad.empty()) return bad;
  if (!v->launch_timeline || !v->timeline_layout)
    return std::string(v->id) + " has no timeline build: it does not pass stages between a producer and consumers";
  if (records_per_block < 1) return "a timeline needs room for at least one slab per block";
  if (std::string why = instrumented_run_refusal(*v, config_index, problem, precision, s); !why.empty()) return why;
  *out = v;
  return "";
}

// Differences of 64-bit counters, taken in integers: the global timer counts nanoseconds since
// 1970, where a double's steps are 256 ns.
double since(std::uint64_t t, std::uint64_t origin) {
  return static_cast<double>(static_cast<std::int64_t>(t - origin));
}

// A block's cycles on the common axis: the line through its two (cycles, ns) readings, shifted so
// that the launch's earliest reading is 0.
struct CycleToNs {
  std::uint64_t cycles0 = 0;
  double ns0 = 0, ns_per_cycle = 0;
  double operator()(std::uint64_t cycles) const {
    if (cycles == 0) return -1;
    return ns0 + since(cycles, cycles0) * ns_per_cycle;
  }
};

TimelineBlock to_block(int index, const TimelineClock& clock, const TimelineStamps* stamps, int records,
                       const TimelineLayout& layout, std::uint64_t origin) {
  TimelineBlock b;
  b.block = index;
  b.sm = static_cast<int>(clock.sm);
  b.slabs_total = static_cast<int>(clock.records);
  CycleToNs to_ns;
  to_ns.cycles0 = clock.cycles_begin;
  to_ns.ns0 = since(clock.ns_begin, origin);
  const double cycles = since(clock.cycles_end, clock.cycles_begin);
  to_ns.ns_per_cycle = cycles > 0 ? since(clock.ns_end, clock.ns_begin) / cycles : 0;
  b.begin = since(clock.ns_begin, origin);
  b.end = since(clock.ns_end, origin);
  const int kept = std::min(records, b.slabs_total);
  for (int n = 0; n < kept; ++n) {
    const TimelineStamps& st = stamps[n];
    TimelineSlab s;
    s.index = n;
    s.stage = layout.stages > 0 ? n % layout.stages : 0;
    place_slab(s, layout, index);
    s.issued = to_ns(st.issued);
    s.arrived = to_ns(st.arrived);
    for (int c = 0; c < kTimelineMaxConsumers; ++c) {
      s.started[c] = to_ns(st.started[c]);
      s.done[c] = to_ns(st.done[c]);
    }
    b.slabs.push_back(s);
    b.raw.push_back(st);
  }
  return b;
}

}  // namespace

void place_slab(TimelineSlab& s, const TimelineLayout& layout, int block) {
  const int spt = std::max(1, layout.slabs_per_tile);
  const std::size_t b = static_cast<std::size_t>(block);
  if (b >= layout.runs.size() || layout.runs[b].empty()) {
    s.tile = s.index / spt;
    s.in_tile = s.index % spt;
    s.run_start = s.in_tile == 0;
    return;
  }
  const std::vector<TimelineRun>& runs = layout.runs[b];
  std::size_t r = 0;
  while (r + 1 < runs.size() && runs[r + 1].first <= s.index) ++r;
  s.tile = static_cast<int>(r);
  s.in_tile = runs[r].slab0 + s.index - runs[r].first;
  s.run_start = s.index == runs[r].first;
}

TimelineResult run_timeline(const std::string& variant_id, int config_index, Problem problem, Precision precision,
                            const Shape& shape, int records_per_block, std::uint64_t seed) {
  TimelineResult r;
  r.variant_id = variant_id;
  r.problem = problem;
  r.precision = precision;
  r.shape = normalised(problem, shape);
  const Shape& s = r.shape;
  try {
    const VariantDescriptor* v = nullptr;
    r.error = timeline_refusal(variant_id, config_index, problem, precision, s, records_per_block, &v);
    if (!r.error.empty()) return r;
    r.config_name = config_at(*v, config_index).name;

    const CudaStream owned_stream;
    const cudaStream_t stream = owned_stream.get();

    const std::int64_t a_n = a_elements(problem, s), b_n = b_elements(problem, s), c_n = c_elements(problem, s);
    const std::size_t eb = element_bytes(precision);
    DeviceBuffer a, b, c, stamps, clocks;
    a.resize(static_cast<std::size_t>(a_n) * eb);
    b.resize(static_cast<std::size_t>(b_n > 0 ? b_n : 1) * eb);
    const OutputType c_type = output_type(precision, config_at(*v, config_index).c_in_input_type);
    c.resize(static_cast<std::size_t>(c_n) * output_bytes(c_type));
    fill_random(a.get(), precision, a_n, seed, 0, stream);
    if (b_n) fill_random(b.get(), precision, b_n, seed, 1, stream);
    poison(c.get(), c_type, c_n, stream);

    GemmArgs args;
    args.problem = problem;
    args.precision = precision;
    args.shape = s;
    args.a = a.get();
    args.b = b_n ? b.get() : nullptr;
    args.c = c.get();
    args.stream = stream;
    r.layout = v->timeline_layout(args, config_index);
    const TimelineLayout& layout = r.layout;
    if (layout.blocks < 1 || layout.consumers < 1 || layout.consumers > kTimelineMaxConsumers)
      throw GpuError("the variant describes an impossible timeline launch");

    const std::size_t records = static_cast<std::size_t>(layout.blocks) * static_cast<std::size_t>(records_per_block);
    stamps.resize(records * sizeof(TimelineStamps));
    clocks.resize(static_cast<std::size_t>(layout.blocks) * sizeof(TimelineClock));
    // Zero: "not stamped".
    CUDA_CHECK(cudaMemsetAsync(stamps.get(), 0, records * sizeof(TimelineStamps), stream));
    CUDA_CHECK(
        cudaMemsetAsync(clocks.get(), 0, static_cast<std::size_t>(layout.blocks) * sizeof(TimelineClock), stream));
    TimelineBuffers t;
    t.stamps = static_cast<TimelineStamps*>(stamps.get());
    t.clocks = static_cast<TimelineClock*>(clocks.get());
    t.records_per_block = records_per_block;
    v->launch_timeline(args, config_index, t);

    std::vector<TimelineStamps> host_stamps(records);
    std::vector<TimelineClock> host_clocks(static_cast<std::size_t>(layout.blocks));
    CUDA_CHECK(cudaMemcpyAsync(host_stamps.data(), stamps.get(), records * sizeof(TimelineStamps),
                               cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaMemcpyAsync(host_clocks.data(), clocks.get(), host_clocks.size() * sizeof(TimelineClock),
                               cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));

    std::uint64_t origin = 0, last = 0;
    bool first = true;
    for (const TimelineClock& clock : host_clocks) {
      if (clock.ns_begin == 0 || clock.ns_end < clock.ns_begin)
        throw GpuError("a block of the timeline build left no clock readings");
      origin = first ? clock.ns_begin : std::min(origin, clock.ns_begin);
      last = first ? clock.ns_end : std::max(last, clock.ns_end);
      first = false;
    }
    r.kernel_ns = since(last, origin);
    for (int i = 0; i < layout.blocks; ++i)
      r.blocks.push_back(to_block(i, host_clocks[static_cast<std::size_t>(i)],
                                  host_stamps.data() + static_cast<std::size_t>(i) * records_per_block,
                                  records_per_block, layout, origin));
  } catch (const std::exception& e) {
    r.error = e.what();
    r.blocks.clear();
    cudaGetLastError();  // clear what can be cleared for the next run
  }
  return r;
}

std::string timeline_order_violation(const TimelineBlock& block, const TimelineLayout& layout) {
  const auto where = [&](int n) {
    return "block " + std::to_string(block.block) + ", slab " + std::to_string(n) + ": ";
  };
  const int n_slabs = static_cast<int>(block.raw.size());
  const int consumers = std::min(layout.consumers, kTimelineMaxConsumers);
  for (int n = 0; n < n_slabs; ++n) {
    const TimelineStamps& st = block.raw[static_cast<std::size_t>(n)];
    if (st.issued == 0 || st.arrived == 0) return where(n) + "a copy was not stamped";
    if (st.arrived < st.issued) return where(n) + "its bytes arrived before the copy was issued";
    for (int c = 0; c < consumers; ++c) {
      if (st.started[c] == 0 || st.done[c] == 0) return where(n) + "consumer " + std::to_string(c) + " left no stamp";
      if (st.started[c] < st.issued)
        return where(n) + "consumer " + std::to_string(c) + " began before the copy was issued";
      if (st.done[c] < st.started[c]) return where(n) + "consumer " + std::to_string(c) + " finished before it began";
      if (n > 0) {
        const TimelineStamps& before = block.raw[static_cast<std::size_t>(n - 1)];
        if (st.started[c] < before.started[c] || st.done[c] < before.done[c])
          return where(n) + "consumer " + std::to_string(c) + " took it before the slab ahead of it";
      }
      if (n + layout.stages < n_slabs && block.raw[static_cast<std::size_t>(n + layout.stages)].issued < st.done[c])
        return where(n) + "its stage was refilled before consumer " + std::to_string(c) + " was done with it";
    }
  }
  return "";
}

}  // namespace tilescope
