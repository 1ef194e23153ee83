// Kernels compiled at run time and loaded into the running program: a launch file asks for the
// kernel of a typed tile by its name expression, and gets a handle it launches like its compiled
// kernels (kernel_calls.h: launch_kernel). Each (text, name, architecture) is compiled once per process (and
// kept on disk by kernel_cache.h), on the thread that asks, which is the runner's worker for a
// launch: never the UI thread.
#pragma once

#include <string>

#include "kernels/core/variant.h"
#include "kernels/jit/nvrtc_compiler.h"

namespace tilescope {

struct JitKernel {
  const void* kernel = nullptr;  // the CUfunction: KernelLaunchShape::run_time_compiled
  KernelResources resources;
  double compile_seconds = 0;  // what getting it took: NVRTC's compile, or reading the cache
  bool from_cache = false;
};

// Shared memory per block of a compiled kernel of configuration `cfg`: the descriptor's figure where
// it gives one (VariantDescriptor::shared_bytes counts a kernel's static and dynamic shared memory
// together), else the static shared memory the compiled code declares.
std::size_t shared_per_block(const VariantDescriptor& v, const TileConfig& cfg, Precision precision,
                             const KernelResources& compiled);

// The architecture a variant's text is compiled for on this device: "sm_90a" for code of one
// architecture only (max_compute_capability), else "sm_<the device's>". Throws GpuError without a
// device.
std::string device_architecture(const VariantDescriptor& v);

// The compile job of a variant's kernel text for `names` on `architecture` (the text read from the
// kernel-text root). `extra_header` ("" for none), a file named from the root, is included after
// the text: the instrumented build's probe, which the text itself never includes (the line numbers
// of the text stay its own). False with *error when the text cannot be read.
bool kernel_text_job(const VariantDescriptor& v, const std::vector<std::string>& names, const std::string& architecture,
                     CompileJob* job, std::string* error, const std::string& extra_header = "");

// The driver's version as the compile cache keys it ("13000"; "none" without a driver).
std::string driver_version_text();

// Each of `names` compiled as its own program for `architecture` (in parallel, through the compile
// cache, each exactly as a launch on such a device compiles it, so a later launch loads them), and
// the results in one: compiled when all compiled, their names, resources and messages in order, the
// wall time, from the cache when all were; the machine code (cubin) is the first kernel's. For a
// tile's cost shown before any run. `dropped` (may be none) tells those not yet started that the
// result is no longer wanted.
CompiledProgram compile_kernels(const VariantDescriptor& v, const std::vector<std::string>& names,
                                const std::string& architecture, const std::string& driver,
                                const CompileDropped& dropped = nullptr);

// What a launch's compile of the kernel `name` gives: v's kernel text (with `extra_header`, as
// above) compiled for this device through the compile cache, not loaded. Compiling the kernels of
// many tiles ahead on several threads (a sweep) makes each launch's own compile a fast load.
CompiledProgram compile_for_launch(const VariantDescriptor& v, const std::string& name,
                                   const std::string& extra_header = "");

// The kernel `name` of v's kernel text (with `extra_header`, as above), compiled for this device
// and loaded. Throws GpuError with the compiler's message when it does not compile or load.
JitKernel jit_kernel(const VariantDescriptor& v, const std::string& name, const std::string& extra_header = "");

}  // namespace tilescope
