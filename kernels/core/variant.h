// A GEMM variant as the rest of the program sees it: one descriptor, defined in the variant's own
// file in kernels/ and listed once in the registry (kernels/core/registry.cpp). The descriptor says
// everything the UI, the CLI, the measurer and the tests need: nothing outside the variant's file
// decides by its id or its configuration names (docs/ADDING_A_VARIANT.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernels/core/gemm_types.h"
#include "kernels/instrument/timeline.h"
#include "kernels/models/mapping_model.h"

// Opaque handles so that this header stays plain C++.
struct CUstream_st;
struct cublasContext;

namespace tilescope {

struct TraceBuffers;  // trace.h

// Cuda: kernels of ours. Cublas: the library. GlShader: runs in OpenGL fragment shaders; the
// core has no GL, so the Measurer hands those runs to the runner the app installs
// (external_runner.h).
enum class Backend { Cuda, Cublas, GlShader };
const char* to_string(Backend b);

// What a variant is in the lesson.
enum class Role {
  Baseline,  // the library: its configurations that are not opt-in are the bar for "% of cuBLAS"
             // and its default configuration in double is the FP64 reference of large checks
  Kernel,    // a kernel of ours: a step of the staircase (the lesson focuses the last one)
  History,   // a piece of history: the History tab's lesson, not ticked in every first Run
  Extra,     // runs only when named explicitly (bench --variants, a ticked box)
};
const char* to_string(Role r);

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
  cublasContext* cublas = nullptr;  // only the library baseline uses it
};

// The kernel a launch would use, for cudaFuncGetAttributes / occupancy queries.
struct KernelLaunchShape {
  const void* kernel = nullptr;  // host stub of the __global__ function, or a run-time compiled one's
                                 // CUfunction (run_time_compiled): kernels/jit/kernel_calls.h asks
                                 // and launches either kind
  int threads_per_block = 0;
  std::size_t dynamic_shared_bytes = 0;
  bool run_time_compiled = false;
};

// What the mapping model can show, so that the mapping view asks the descriptor instead of the id.
struct MappingCaps {
  // The K loop runs in phases that stage tiles of A and B in shared memory (false: one phase
  // that reads all of K straight from global memory, as naive does).
  bool staged_phases = true;
  // While phase p is computed, phase p + 1 is in flight in prefetch registers.
  bool prefetch = false;
  // AᵀA: only the upper triangle is computed; the lower one is stored as its mirror.
  bool mirrored_ata = false;
  // Owners are (warp, lane, register) triples (Owner::warp, lane, reg): tensor-core fragments.
  bool warp_level = false;
};

// A template parameter of a kernel text that a learner may type (kernels/core/typed_configs.h).
struct TileParam {
  const char* key = "";      // "bm": as typed on the command line and in the UI
  const char* meaning = "";  // "rows of C per block"
};

struct VariantDescriptor {
  const char* id = "";       // the file's name after NN_ (command line, CSV, settings)
  const char* label = "";    // shown in tables and legends
  const char* summary = "";  // one paragraph for a tooltip; the file header tells the full story
  Role role = Role::Kernel;
  Backend backend = Backend::Cuda;
  std::vector<TileConfig> configs;  // exactly the compiled set, teaching order
  int default_config = 0;           // the configuration the window and lessons start in

  // What it can compute. A request outside these is refused with the note.
  std::vector<Problem> problems = {Problem::Gemm, Problem::Ata};
  std::vector<Precision> precisions = {Precision::F32, Precision::F64};
  const char* precision_note = "";  // why some precisions are missing
  // The oldest CUDA architecture it runs on (compute capability x 10, e.g. 80); 0: any.
  int min_compute_capability = 0;
  // The newest it runs on, where its code is architecture-specific (sm_90a runs on 9.0 alone); 0: any.
  int max_compute_capability = 0;
  const char* architecture_note = "";  // why it needs that architecture, or what older GPUs get
  // Its tf32, f16 and bf16 run on tensor cores only: a GPU older than the input type's
  // min_tensor_core_cc (gemm_types.h: sm_80 for tf32 and bf16, sm_70 for f16) refuses them.
  bool precisions_need_tensor_cores = false;
  // The oldest architecture (compute capability x 10) an input type needs in this variant, where
  // that is newer than the above (its instruction exists only there: FP64 mma.sync m16n8k8 needs
  // sm_90); 0 = nothing more. nullptr = no such type.
  int (*min_compute_capability_for)(Precision) = nullptr;

  // Variant-specific reasons to refuse a configuration ("" = fine), beyond the problems and
  // precisions above. Device limits are checked for every variant by unsupported_reason().
  std::string (*refuses)(Problem, Precision, const TileConfig&) = nullptr;

  // Enqueue one product on args.stream. Throws GpuError on a failed CUDA/cuBLAS call,
  // including the launch check. Never prints. nullptr for GlShader (external_runner.h runs those).
  void (*launch)(const GemmArgs&, int config_index) = nullptr;

  // The same launch with the instrumented kernel (trace.h), which records into `trace`.
  // nullptr where there is no instrumented build. Throws like `launch`; run_trace is the caller.
  void (*launch_traced)(const GemmArgs&, int config_index, const TraceBuffers& trace) = nullptr;

  // The pipeline timeline (timeline.h): the launch of the build that stamps each slab's copy and
  // products, and that launch's layout. nullptr where the variant has no such build.
  void (*launch_timeline)(const GemmArgs&, int config_index, const TimelineBuffers& timeline) = nullptr;
  TimelineLayout (*timeline_layout)(const GemmArgs&, int config_index) = nullptr;

  // The kernel `launch` would run for these args (nullptr where it is not a CUDA kernel of ours).
  KernelLaunchShape (*kernel_for)(const GemmArgs&, int config_index) = nullptr;

  // The kernel text: the file that holds the variant's story and its kernels alone, device code
  // that NVRTC compiles, named from the repository's root ("kernels/variants/01_naive.cuh");
  // every variant with kernels of ours has one (nullptr: cuBLAS, the texture shaders). kernel_names gives the name
  // expression (kernel_names.h) of every kernel the timed launch may run for a configuration, input type and problem;
  // kernel_for's kernel is one of them.
  const char* kernel_text = nullptr;
  std::vector<std::string> (*kernel_names)(const TileConfig&, Precision, Problem) = nullptr;

  // Tiles a learner types (kernels/core/typed_configs.h): the kernel text's template parameters;
  // tile_values_of gives them for any configuration (typed: its values); typed_config makes the
  // configuration of a full set of values (every parameter, in this order), or refuses it with the
  // reason before anything compiles. Empty / nullptr: no typed tiles.
  std::vector<TileParam> tile_params;
  TileValues (*tile_values_of)(const TileConfig&) = nullptr;
  bool (*typed_config)(const TileValues&, TileConfig* out, std::string* why) = nullptr;

  // Shared memory per block that a configuration needs (bytes); nullptr = none.
  std::size_t (*shared_bytes)(const TileConfig&, Precision) = nullptr;

  // The mapping model of a configuration (kernels/models/mapping_model.h), defined in the variant's
  // own file next to the kernel it describes. Callers go through make_mapping_model, which
  // checks the arguments first. nullptr with `no_model_reason` saying why.
  std::unique_ptr<MappingModel> (*model)(int config_index, Problem, Precision, const Shape&) = nullptr;
  MappingCaps model_caps;
  const char* no_model_reason = "";  // shown in the Mapping tab when `model` is nullptr
};

// Whether a configuration is the bar for "% of cuBLAS": the baseline's, and not an opt-in
// (another arithmetic, such as TF32, is never the bar).
bool is_baseline(const VariantDescriptor& v, int config_index);
// The baseline's configuration that stores C in the input type, -1 where v has none. It is the bar
// of the configurations that store C so, and a run times it only beside one of them.
int narrow_c_baseline(const VariantDescriptor& v);
// Whether "all variants" includes it (not an Extra variant, not an opt-in configuration).
bool runs_by_default(const VariantDescriptor& v, int config_index);
// Whether it runs through CUDA (kernels of ours, the library). The others (the texture shaders)
// go through the runner installed for their backend (external_runner.h) and need no CUDA device.
bool needs_cuda(const VariantDescriptor& v);
bool supports(const VariantDescriptor& v, Problem p);
bool supports(const VariantDescriptor& v, Precision p);
// "" when config_index names a configuration of v, else why not ("naive has no configuration #7").
std::string config_index_error(const VariantDescriptor& v, int config_index);
// The index of the configuration called `name`: a variant's default is chosen by name, so that a
// reordered or longer table cannot silently change it. An unknown name is a mistake in the
// variant's file: it throws std::logic_error, and every program and test stops at start naming it.
int config_named(const std::vector<TileConfig>& configs, const std::string& name);

// What the variant itself rules out, whatever the device: the descriptor's problems and
// precisions, then its own rules (`refuses`). "" = fine.
std::string variant_refusal(const VariantDescriptor& v, int config_index, Problem problem, Precision precision);

// variant_refusal, then the device: its architecture (when known) and limits (threads, static +
// dynamic shared memory). The register limit needs the compiled kernel and is checked on the
// device (see measure.h). "" = fine.
std::string unsupported_reason(const VariantDescriptor& v, int config_index, Problem problem, Precision precision,
                               const DeviceLimits& limits);

}  // namespace tilescope
