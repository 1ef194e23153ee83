// A GEMM variant as the rest of the program sees it: a descriptor in the registry
// (kernels/registry.cpp). Adding a variant = one file in kernels/ that defines a descriptor,
// plus one line in the registry; the CLI, exports and tests loop over the registry.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gemm_types.h"
#include "mapping_model.h"

// Opaque handles so that this header stays plain C++.
struct CUstream_st;
struct cublasContext;

namespace tilescope {

struct TraceBuffers;  // trace.h

// GlShader: runs in OpenGL fragment shaders (04_gl_shader.cpp); the core has no GL, so the
// Measurer hands those runs to the runner the app installs (external_runner.h).
enum class Backend { Cuda, Cublas, GlShader };
const char* to_string(Backend b);

// Everything a launch needs. Pointers are device pointers of the element type of `precision`.
// For Ata, `b` is unused (B is A).
struct GemmArgs {
  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  Shape shape;
  const void* a = nullptr;
  const void* b = nullptr;
  void* c = nullptr;
  CUstream_st* stream = nullptr;
  cublasContext* cublas = nullptr;  // only the cuBLAS variant uses it
};

// The kernel a launch would use, for cudaFuncGetAttributes / occupancy queries.
struct KernelLaunchShape {
  const void* kernel = nullptr;   // host stub of the __global__ function
  int threads_per_block = 0;
  std::size_t dynamic_shared_bytes = 0;
};

struct VariantDescriptor {
  const char* id;       // "naive", "smem_tiled", ... (command line, CSV, settings)
  const char* label;    // shown in tables and legends
  const char* summary;  // one paragraph for a tooltip; the file header tells the full story
  Backend backend;
  std::vector<TileConfig> configs;  // exactly the compiled set, teaching order

  // Variant-specific reasons to refuse a configuration ("" = fine). Device limits are checked
  // separately and for every variant by unsupported_reason() below.
  std::string (*refuses)(Problem, Precision, const TileConfig&);

  // Enqueue one product on args.stream. Throws GpuError on a failed CUDA/cuBLAS call,
  // including the launch check. Never prints. nullptr for GlShader (external_runner.h runs those).
  void (*launch)(const GemmArgs&, int config_index);

  // The same launch with the instrumented kernel (kTrace = true; see trace.h), which records
  // into `trace`. nullptr for cuBLAS. Throws like `launch`; run_trace is the caller.
  void (*launch_traced)(const GemmArgs&, int config_index, const TraceBuffers& trace);

  // The kernel `launch` would run for these args (nullptr for cuBLAS and GlShader: no CUDA kernel).
  KernelLaunchShape (*kernel_for)(const GemmArgs&, int config_index);

  // Shared memory per block that a configuration needs (bytes); nullptr = none.
  std::size_t (*shared_bytes)(const TileConfig&, Precision);

  // The mapping model of a configuration (kernels/mapping_model.h), defined in the variant's
  // own file next to the kernel it describes; nullptr for cuBLAS, which is opaque. Callers go
  // through make_mapping_model, which checks the arguments first.
  std::unique_ptr<MappingModel> (*model)(int config_index, Problem, Precision, const Shape&);
};

// Variant rules plus device limits (threads, static+dynamic shared memory). The register
// limit needs the compiled kernel and is checked on the device (see measure.h).
std::string unsupported_reason(const VariantDescriptor& v, int config_index, Problem problem,
                               Precision precision, const DeviceLimits& limits);

}  // namespace tilescope
