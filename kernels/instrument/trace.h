// Instrumented runs: the very kernels that are timed, compiled a second time with a TraceProbe
// instead of the timed build's NoProbe (probe.cuh), record on the GPU who wrote each element of
// C and how often each element of A and B was loaded from global memory; a phase limit stops
// the K loop early so that C holds the real partial sums after p phases. The mapping view draws
// these buffers, and a GPU test requires them to equal the mapping model (mapping_model.h)
// exactly. Plain C++ header.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/core/gemm_types.h"
#include "kernels/core/no_copy.h"
#include "kernels/instrument/recorded_warp.h"
#include "kernels/instrument/trace_buffers.h"
#include "kernels/models/mapping_model.h"

struct CUstream_st;

namespace tilescope {

struct VariantDescriptor;  // variant.h

// The owner an id names (mirrored is not encoded: false). For id < 0, block_x = -1.
Owner decode_writer(int id, const Dim2& grid, const Dim2& block, int slots = kTraceSlots);
// The largest writer id a launch can produce must fit in an int.
bool writer_ids_fit(const Dim2& grid, const Dim2& block, int slots = kTraceSlots);

struct TraceResult {
  std::string error;  // empty when the run happened
  bool ok() const { return error.empty(); }
  Shape shape;                         // normalised (AᵀA: M = N)
  Dim2 grid, block;                    // of the launch, to decode writer ids
  int slots = kTraceSlots;             // accumulator slots per thread in the writer ids
  std::vector<int> writer;             // M x N, see TraceBuffers::writer
  std::vector<std::uint32_t> a_reads;  // stored A (gemm M x K, AᵀA K x N): both roles for AᵀA
  std::vector<std::uint32_t> b_reads;  // K x N; empty for AᵀA
  std::vector<double> c;               // M x N after the run; NaN where nothing was stored
};

// One warp to record the addresses of (TraceBuffers::addresses): warp `warp` of block
// `block_linear` (blockIdx.y * gridDim.x + blockIdx.x, or a persistent kernel's tile index), the
// first `steps` executions of each recorded stream.
struct WarpToRecord {
  int block_linear = 0;
  int warp = 0;
  int steps = 0;
  bool addresses_only = false;  // no read counters or writer map in that run (record_warp)
};
// A trace kept on the device (inputs, C, writer map, read counters), for drawing it on the GPU
// through CUDA–GL interop without a trip through the host. Reuses its buffers between runs.
class DeviceTrace : NoCopy {
 public:
  DeviceTrace();
  ~DeviceTrace();

  // The next run also records one warp's addresses (steps 0: none).
  void record_warp(const WarpToRecord& w);
  bool copy_recording(RecordedWarp* out, std::string* error) const;
  // Like run_trace, but the results stay on the device. False and *error on failure.
  bool run(const std::string& variant_id, int config_index, Problem problem, Precision precision, const Shape& shape,
           int phase_limit, std::uint64_t seed, std::string* error);
  bool valid() const;
  // Device pointers, valid until the next run. AᵀA: b_reads() == a_reads().
  const int* writer() const;
  const unsigned* a_reads() const;
  const unsigned* b_reads() const;
  Shape shape() const;
  Problem problem() const;
  Dim2 grid() const;
  Dim2 block() const;
  int slots() const;            // accumulator slots per thread in the writer ids
  CUstream_st* stream() const;  // the stream the trace ran on (cudaStream_t)
  // Host copies, as run_trace returns them.
  bool copy_to(TraceResult* out, std::string* error) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Why an instrumented build (traced or timeline) of a configuration cannot run these sizes here:
// sizes out of range, no usable GPU, or what the device refuses ("" = it can). The caller has
// checked that the variant has such a build.
std::string instrumented_run_refusal(const VariantDescriptor& v, int config_index, Problem problem, Precision precision,
                                     const Shape& shape);

// Runs the instrumented kernel of one configuration once, on inputs filled like the Measurer's
// (fill_random with `seed`: A is stream 0, B stream 1), with fresh device buffers of its own.
// Throws nothing: on failure returns a result with error set (also copied to *error if given).
TraceResult run_trace(const std::string& variant_id, int config_index, Problem problem, Precision precision,
                      const Shape& shape, int phase_limit, std::uint64_t seed, std::string* error);

// Runs the instrumented kernel once with the whole K loop and returns one warp's addresses.
RecordedWarp record_warp(const std::string& variant_id, int config_index, Problem problem, Precision precision,
                         const Shape& shape, const WarpToRecord& warp, std::uint64_t seed);

}  // namespace tilescope
