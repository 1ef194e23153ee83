#include "trace.h"

#include <cuda_runtime.h>

#include <climits>
#include <cstring>
#include <exception>

#include "cuda_check.h"
#include "device_info.h"
#include "gpu_buffers.h"
#include "registry.h"

namespace tilescope {

Owner decode_writer(int id, const Dim2& grid, const Dim2& block) {
  Owner o;
  if (id < 0) return o;
  const int threads = block.x * block.y;
  o.slot = id % kTraceSlots;
  const int thread = (id / kTraceSlots) % threads, blk = (id / kTraceSlots) / threads;
  o.thread_x = thread % block.x;
  o.thread_y = thread / block.x;
  o.block_x = blk % grid.x;
  o.block_y = blk / grid.x;
  return o;
}

bool writer_ids_fit(const Dim2& grid, const Dim2& block) {
  const long double ids = static_cast<long double>(grid.x) * grid.y * block.x * block.y * kTraceSlots;
  return ids <= static_cast<long double>(INT_MAX) + 1;
}

namespace {

class Stream {
 public:
  Stream() { CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() {
    if (s_) cudaStreamDestroy(s_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

template <typename T>
void copy_to_host(std::vector<T>& dst, const void* src, std::int64_t count, cudaStream_t s) {
  dst.resize(static_cast<std::size_t>(count));
  if (count > 0)
    CUDA_CHECK(cudaMemcpyAsync(dst.data(), src, static_cast<std::size_t>(count) * sizeof(T), cudaMemcpyDeviceToHost, s));
}

// Checks the request; returns why it cannot run ("" = fine) and fills the variant.
std::string refusal(const std::string& variant_id, int config_index, Problem problem, Precision precision,
                    const Shape& s, const VariantDescriptor** out) {
  const VariantDescriptor* v = find_variant(variant_id);
  if (!v) return "unknown variant '" + variant_id + "'";
  if (config_index < 0 || config_index >= static_cast<int>(v->configs.size()))
    return std::string(v->id) + " has no configuration #" + std::to_string(config_index);
  if (!v->launch_traced)
    return v->backend == Backend::Cublas ? "cuBLAS is closed: it has no instrumented build"
                                         : std::string(v->id) + " has no instrumented build";
  if (s.M < 1 || s.N < 1 || s.K < 1) return "sizes must be at least 1";
  if (s.M > INT_MAX || s.N > INT_MAX || s.K > INT_MAX) return "sizes above 2147483647 are not supported";
  const DeviceInfo& dev = probe_device();
  if (!dev.ok()) return "no usable GPU: " + dev.unavailable_reason;
  const std::string refused = unsupported_reason(*v, config_index, problem, precision, dev.limits);
  if (!refused.empty()) return "refused: " + refused;
  *out = v;
  return "";
}

TraceResult run_checked(const VariantDescriptor& v, int config_index, Problem problem, Precision precision,
                        const Shape& s, int phase_limit, std::uint64_t seed) {
  TraceResult r;
  r.shape = s;
  std::string why;
  const auto model = make_mapping_model(v.id, config_index, problem, precision, s, &why);
  if (!model) {
    r.error = why;
    return r;
  }
  r.grid = model->grid();
  r.block = model->block();
  if (!writer_ids_fit(r.grid, r.block)) {
    r.error = "the matrix is too large to trace: writer ids of " + std::to_string(r.grid.x) + " x " +
              std::to_string(r.grid.y) + " blocks of " + std::to_string(r.block.x * r.block.y) +
              " threads do not fit in 31 bits";
    return r;
  }
  const std::int64_t a_n = a_elements(problem, s), b_n = b_elements(problem, s), c_n = c_elements(problem, s);
  const std::size_t eb = element_bytes(precision);

  // Buffers of their own (cudaMalloc aligns each to 256 bytes), so the launch vectorises exactly
  // when the shape allows it, as the mapping model assumes.
  Stream stream;
  DeviceBuffer a(static_cast<std::size_t>(a_n) * eb), b(static_cast<std::size_t>(b_n > 0 ? b_n : 1) * eb);
  DeviceBuffer c(static_cast<std::size_t>(c_n) * eb);
  DeviceBuffer writer(static_cast<std::size_t>(c_n) * sizeof(int));
  DeviceBuffer a_reads(static_cast<std::size_t>(a_n) * sizeof(unsigned));
  DeviceBuffer b_reads(static_cast<std::size_t>(b_n > 0 ? b_n : 1) * sizeof(unsigned));
  fill_random(a.get(), precision, a_n, seed, 0, stream.get());
  if (b_n) fill_random(b.get(), precision, b_n, seed, 1, stream.get());
  poison(c.get(), precision, c_n, stream.get());
  // All bits set: -1, "never written".
  CUDA_CHECK(cudaMemsetAsync(writer.get(), 0xFF, writer.bytes(), stream.get()));
  CUDA_CHECK(cudaMemsetAsync(a_reads.get(), 0, a_reads.bytes(), stream.get()));
  CUDA_CHECK(cudaMemsetAsync(b_reads.get(), 0, b_reads.bytes(), stream.get()));

  GemmArgs args;
  args.problem = problem;
  args.precision = precision;
  args.shape = s;
  args.a = a.get();
  args.b = b_n ? b.get() : nullptr;
  args.c = c.get();
  args.stream = stream.get();
  TraceBuffers t;
  t.writer = static_cast<int*>(writer.get());
  t.a_reads = static_cast<unsigned*>(a_reads.get());
  // AᵀA: the B operand is A, and its loads count as reads of A.
  t.b_reads = b_n ? static_cast<unsigned*>(b_reads.get()) : t.a_reads;
  t.phase_limit = phase_limit;
  v.launch_traced(args, config_index, t);

  copy_to_host(r.writer, writer.get(), c_n, stream.get());
  copy_to_host(r.a_reads, a_reads.get(), a_n, stream.get());
  copy_to_host(r.b_reads, b_reads.get(), b_n, stream.get());
  std::vector<unsigned char> raw;
  copy_to_host(raw, c.get(), c_n * static_cast<std::int64_t>(eb), stream.get());
  CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  r.c.resize(static_cast<std::size_t>(c_n));
  for (std::int64_t i = 0; i < c_n; ++i) {
    if (precision == Precision::F32) {
      float f;
      std::memcpy(&f, raw.data() + i * 4, 4);
      r.c[i] = f;
    } else {
      std::memcpy(&r.c[i], raw.data() + i * 8, 8);
    }
  }
  return r;
}

}  // namespace

TraceResult run_trace(const std::string& variant_id, int config_index, Problem problem, Precision precision,
                      const Shape& shape, int phase_limit, std::uint64_t seed, std::string* error) {
  TraceResult r;
  const Shape s = normalised(problem, shape);
  r.shape = s;
  try {
    const VariantDescriptor* v = nullptr;
    r.error = refusal(variant_id, config_index, problem, precision, s, &v);
    if (r.error.empty()) r = run_checked(*v, config_index, problem, precision, s, phase_limit, seed);
  } catch (const std::exception& e) {
    r = TraceResult{};
    r.shape = s;
    r.error = e.what();
    // A failed kernel can leave a sticky error; clear what can be cleared for the next run.
    cudaGetLastError();
  } catch (...) {
    r = TraceResult{};
    r.shape = s;
    r.error = "unknown error";
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

}  // namespace tilescope
