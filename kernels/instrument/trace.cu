#include <cuda_runtime.h>

#include <climits>
#include <cstring>
#include <exception>
#include <memory>

#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/device_info.h"
#include "kernels/instrument/recorded_streams.h"
#include "kernels/instrument/trace.h"
#include "kernels/measure/gpu_buffers.h"

namespace tilescope {

Owner decode_writer(int id, const Dim2& grid, const Dim2& block, int slots) {
  Owner o;
  if (id < 0) return o;
  const int threads = block.x * block.y;
  o.slot = id % slots;
  const int thread = (id / slots) % threads, blk = (id / slots) / threads;
  o.thread_x = thread % block.x;
  o.thread_y = thread / block.x;
  o.block_x = blk % grid.x;
  o.block_y = blk / grid.x;
  return o;
}

bool writer_ids_fit(const Dim2& grid, const Dim2& block, int slots) {
  const long double ids = static_cast<long double>(grid.x) * grid.y * block.x * block.y * slots;
  return ids <= static_cast<long double>(INT_MAX) + 1;
}

namespace {

template <typename T>
void copy_to_host(std::vector<T>& dst, const void* src, std::int64_t count, cudaStream_t s) {
  dst.resize(static_cast<std::size_t>(count));
  if (count > 0)
    CUDA_CHECK(
        cudaMemcpyAsync(dst.data(), src, static_cast<std::size_t>(count) * sizeof(T), cudaMemcpyDeviceToHost, s));
}

// Checks the request; returns why it cannot run ("" = fine) and fills the variant.
std::string refusal(const std::string& variant_id, int config_index, Problem problem, Precision precision,
                    const Shape& s, const VariantDescriptor** out) {
  const VariantDescriptor* v = find_variant(variant_id);
  if (!v) return "unknown variant '" + variant_id + "'";
  if (std::string bad = config_index_error(*v, config_index); !bad.empty()) return bad;
  if (!v->launch_traced)
    return std::string(v->id) + " has no instrumented build" +
           (*v->no_model_reason ? std::string(": ") + v->no_model_reason : "");
  if (std::string why = instrumented_run_refusal(*v, config_index, problem, precision, s); !why.empty()) return why;
  *out = v;
  return "";
}

}  // namespace

std::string instrumented_run_refusal(const VariantDescriptor& v, int config_index, Problem problem, Precision precision,
                                     const Shape& s) {
  if (s.M < 1 || s.N < 1 || s.K < 1) return "sizes must be at least 1";
  if (s.M > INT_MAX || s.N > INT_MAX || s.K > INT_MAX) return "sizes above 2147483647 are not supported";
  const DeviceInfo& dev = probe_device();
  if (!dev.ok()) return "no usable GPU: " + dev.unavailable_reason;
  const std::string refused = unsupported_reason(v, config_index, problem, precision, dev.limits);
  if (!refused.empty()) return "refused: " + refused;
  return "";
}

// The device side of a trace: inputs, C, the writer map and the read counters, kept on the GPU
// so the mapping view can colour them there (CUDA–GL interop) without a trip through the host.
struct DeviceTrace::Impl {
  CudaStream stream;
  DeviceBuffer a, b, c, writer, a_reads, b_reads, addresses, executions;
  WarpToRecord record;  // record.steps == 0: none
  Shape shape;
  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  OutputType c_type = OutputType::F32;  // as the configuration stores C
  Dim2 grid, block;
  int slots = kTraceSlots;
  bool valid = false;
};

DeviceTrace::DeviceTrace() = default;
DeviceTrace::~DeviceTrace() = default;

void DeviceTrace::record_warp(const WarpToRecord& w) {
  if (!impl_) impl_ = std::make_unique<Impl>();
  impl_->record = w;
}

bool DeviceTrace::copy_recording(RecordedWarp* out, std::string* error) const {
  if (!valid() || impl_->record.steps <= 0) {
    if (error) *error = "no warp was recorded";
    return false;
  }
  try {
    out->steps = impl_->record.steps;
    copy_to_host(out->address, impl_->addresses.get(),
                 static_cast<std::int64_t>(kRecordedStreamCount) * out->steps * kWarpLanes, impl_->stream.get());
    CUDA_CHECK(cudaStreamSynchronize(impl_->stream.get()));
    return true;
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    cudaGetLastError();
    return false;
  }
}

const int* DeviceTrace::writer() const {
  return impl_ ? static_cast<const int*>(impl_->writer.get()) : nullptr;
}
const unsigned* DeviceTrace::a_reads() const {
  return impl_ ? static_cast<const unsigned*>(impl_->a_reads.get()) : nullptr;
}
const unsigned* DeviceTrace::b_reads() const {
  if (!impl_) return nullptr;
  return b_elements(impl_->problem, impl_->shape) ? static_cast<const unsigned*>(impl_->b_reads.get()) : a_reads();
}
Shape DeviceTrace::shape() const {
  return impl_ ? impl_->shape : Shape{};
}
Problem DeviceTrace::problem() const {
  return impl_ ? impl_->problem : Problem::Gemm;
}
Dim2 DeviceTrace::grid() const {
  return impl_ ? impl_->grid : Dim2{};
}
Dim2 DeviceTrace::block() const {
  return impl_ ? impl_->block : Dim2{};
}
int DeviceTrace::slots() const {
  return impl_ ? impl_->slots : kTraceSlots;
}
bool DeviceTrace::valid() const {
  return impl_ && impl_->valid;
}
CUstream_st* DeviceTrace::stream() const {
  return impl_ ? impl_->stream.get() : nullptr;
}

bool DeviceTrace::run(const std::string& variant_id, int config_index, Problem problem, Precision precision,
                      const Shape& shape, int phase_limit, std::uint64_t seed, std::string* error) {
  const Shape s = normalised(problem, shape);
  try {
    if (impl_) impl_->valid = false;
    // Refuse first: without a GPU, creating the stream would fail with a less helpful message.
    const VariantDescriptor* v = nullptr;
    std::string why = refusal(variant_id, config_index, problem, precision, s, &v);
    std::unique_ptr<MappingModel> model;
    if (why.empty()) model = make_mapping_model(v->id, config_index, problem, precision, s, &why);
    if (!model) {
      if (error) *error = why;
      return false;
    }
    if (!impl_) impl_ = std::make_unique<Impl>();
    Impl& d = *impl_;
    d.grid = model->grid();
    d.block = model->block();
    d.slots = model->writer_slots();
    if (!writer_ids_fit(d.grid, d.block, d.slots)) {
      if (error)
        *error = "the matrix is too large to trace: writer ids of " + std::to_string(d.grid.x) + " x " +
                 std::to_string(d.grid.y) + " blocks of " + std::to_string(d.block.x * d.block.y) +
                 " threads do not fit in 31 bits";
      return false;
    }
    d.shape = s;
    d.problem = problem;
    d.precision = precision;
    d.c_type = output_type(precision, config_at(*v, config_index).c_in_input_type);
    const std::int64_t a_n = a_elements(problem, s), b_n = b_elements(problem, s), c_n = c_elements(problem, s);
    const std::size_t eb = element_bytes(precision);
    // Buffers of their own (cudaMalloc aligns each to 256 bytes), so the launch vectorises
    // exactly when the shape allows it, as the mapping model assumes. They grow, never shrink.
    d.a.resize(static_cast<std::size_t>(a_n) * eb);
    d.b.resize(static_cast<std::size_t>(b_n > 0 ? b_n : 1) * eb);
    d.c.resize(static_cast<std::size_t>(c_n) * output_bytes(d.c_type));
    d.writer.resize(static_cast<std::size_t>(c_n) * sizeof(int));
    d.a_reads.resize(static_cast<std::size_t>(a_n) * sizeof(unsigned));
    d.b_reads.resize(static_cast<std::size_t>(b_n > 0 ? b_n : 1) * sizeof(unsigned));
    cudaStream_t st = d.stream.get();
    fill_random(d.a.get(), precision, a_n, seed, 0, st);
    if (b_n) fill_random(d.b.get(), precision, b_n, seed, 1, st);
    poison(d.c.get(), d.c_type, c_n, st);
    // All bits set: -1, "never written".
    CUDA_CHECK(cudaMemsetAsync(d.writer.get(), 0xFF, static_cast<std::size_t>(c_n) * sizeof(int), st));
    CUDA_CHECK(cudaMemsetAsync(d.a_reads.get(), 0, static_cast<std::size_t>(a_n) * sizeof(unsigned), st));
    CUDA_CHECK(cudaMemsetAsync(d.b_reads.get(), 0, static_cast<std::size_t>(b_n > 0 ? b_n : 1) * sizeof(unsigned), st));
    GemmArgs args;
    args.problem = problem;
    args.precision = precision;
    args.shape = s;
    args.a = d.a.get();
    args.b = b_n ? d.b.get() : nullptr;
    args.c = d.c.get();
    args.stream = st;
    TraceBuffers t;
    t.writer = static_cast<int*>(d.writer.get());
    t.a_reads = static_cast<unsigned*>(d.a_reads.get());
    // AᵀA: the B operand is A, and its loads count as reads of A.
    t.b_reads = b_n ? static_cast<unsigned*>(d.b_reads.get()) : t.a_reads;
    t.phase_limit = phase_limit;
    t.slots = d.slots;
    if (d.record.steps > 0) {
      const std::size_t n = static_cast<std::size_t>(kRecordedStreamCount) * d.record.steps * kWarpLanes;
      d.addresses.resize(n * sizeof(long long));
      CUDA_CHECK(cudaMemsetAsync(d.addresses.get(), 0xFF, n * sizeof(long long), st));  // -1: not accessed
      t.addresses = static_cast<long long*>(d.addresses.get());
      const std::size_t counters = static_cast<std::size_t>(kRecordedStreamCount) * kWarpLanes * sizeof(int);
      d.executions.resize(counters);
      CUDA_CHECK(cudaMemsetAsync(d.executions.get(), 0, counters, st));
      t.executions = static_cast<int*>(d.executions.get());
      if (d.record.addresses_only) {
        // Only the addresses: no read counters or writer map (their atomics would cost the run
        // seconds at 4096), so C is computed as the timed kernel computes it.
        t.writer = nullptr;
        t.a_reads = t.b_reads = nullptr;
      }
      t.record_block = d.record.block_linear;
      t.record_warp = d.record.warp;
      t.record_steps = d.record.steps;
    }
    v->launch_traced(args, config_index, t);
    CUDA_CHECK(cudaStreamSynchronize(st));
    d.valid = true;
    return true;
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    // A failed kernel can leave a sticky error; clear what can be cleared for the next run.
    cudaGetLastError();
    return false;
  }
}

bool DeviceTrace::copy_to(TraceResult* r, std::string* error) const {
  if (!valid()) {
    if (error) *error = "no trace has run";
    return false;
  }
  try {
    const Impl& d = *impl_;
    const std::int64_t a_n = a_elements(d.problem, d.shape), b_n = b_elements(d.problem, d.shape);
    const std::int64_t c_n = c_elements(d.problem, d.shape);
    const std::size_t eb = output_bytes(d.c_type);
    cudaStream_t st = d.stream.get();
    r->shape = d.shape;
    r->grid = d.grid;
    r->block = d.block;
    r->slots = d.slots;
    copy_to_host(r->writer, d.writer.get(), c_n, st);
    copy_to_host(r->a_reads, d.a_reads.get(), a_n, st);
    copy_to_host(r->b_reads, d.b_reads.get(), b_n, st);
    std::vector<unsigned char> raw;
    copy_to_host(raw, d.c.get(), c_n * static_cast<std::int64_t>(eb), st);
    CUDA_CHECK(cudaStreamSynchronize(st));
    r->c.resize(static_cast<std::size_t>(c_n));
    for (std::int64_t i = 0; i < c_n; ++i) r->c[i] = stored_output_value(raw.data() + i * eb, d.c_type);
    return true;
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    cudaGetLastError();
    return false;
  }
}

TraceResult run_trace(const std::string& variant_id, int config_index, Problem problem, Precision precision,
                      const Shape& shape, int phase_limit, std::uint64_t seed, std::string* error) {
  TraceResult r;
  r.shape = normalised(problem, shape);
  DeviceTrace trace;
  if (!trace.run(variant_id, config_index, problem, precision, shape, phase_limit, seed, &r.error)) {
    if (r.error.empty()) r.error = "trace failed";
  } else {
    trace.copy_to(&r, &r.error);
  }
  if (!r.ok()) {
    r.writer.clear();
    r.a_reads.clear();
    r.b_reads.clear();
    r.c.clear();
  }
  if (error) *error = r.error;
  return r;
}

RecordedWarp record_warp(const std::string& variant_id, int config_index, Problem problem, Precision precision,
                         const Shape& shape, const WarpToRecord& warp, std::uint64_t seed) {
  RecordedWarp r;
  DeviceTrace trace;
  WarpToRecord only = warp;
  only.addresses_only = true;
  trace.record_warp(only);
  if (!trace.run(variant_id, config_index, problem, precision, shape, -1, seed, &r.error)) {
    if (r.error.empty()) r.error = "trace failed";
  } else {
    trace.copy_recording(&r, &r.error);
  }
  return r;
}

}  // namespace tilescope
