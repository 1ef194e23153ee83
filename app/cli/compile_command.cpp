#include "app/cli/compile_command.h"

#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/arg_parser.h"
#include "app/cli/kernel_text_option.h"
#include "app/export/atomic_file.h"
#include "app/export/kernel_cache_files.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/cuda_libraries.h"
#include "kernels/jit/jit_kernels.h"
#include "kernels/jit/kernel_cache.h"
#include "kernels/jit/occupancy.h"

namespace tilescope {

namespace {

const char* kCompileUsage = R"(usage: tilescope compile --variant ID[:CONFIG | :key=value,...] [--arch ARCH]
                         [--precision f32|f64|...] [--problem gemm|ata] [--ptx FILE] [--cubin FILE]
                         [--no-cache] [--kernel-text ID=FILE]

Compiles one configuration of a variant's kernel text with NVRTC, as the program does at run time
for a typed tile, and prints what it costs: registers, spills, stack and shared memory of each
kernel, blocks per multiprocessor (occupancy), the compile time, and whether it came from the
cache ($XDG_CACHE_HOME/tilescope/kernels). No GPU is needed.

  --variant ID[:...]  the variant, and a configuration of its compiled set (regtile_prefetch:128x128x8_8x8)
                      or a typed tile (regtile_prefetch:bm=96,bn=80,bk=24,tm=6,tn=5; parameters left
                      out keep the default configuration's values). Default configuration: the variant's.
  --arch ARCH         sm_90 (default), sm_80, sm_86, sm_89; a variant built for one architecture
                      only (sm_90a) ignores it
  --precision P       the input type (default f32, or the variant's first where it takes no f32)
  --problem P         gemm (default) or ata
  --ptx FILE          write the PTX there
  --cubin FILE        write the machine code of the first kernel there (for nvdisasm or
                      cuobjdump: `nvdisasm -g FILE` shows the SASS with its source lines)
  --no-cache          compile afresh and keep nothing
  --kernel-text ID=FILE
                      compile the text in FILE (an edit of ID's kernel text) instead of the
                      shipped one: the configuration is compiled as a typed tile of the edit

Exit codes: 0 compiled; 1 the compiler rejected the text; 2 bad arguments, a refused tile, or a
--kernel-text file that cannot be read or is no kernel text;
3 NVRTC could not be loaded; 4 --ptx or --cubin could not be written.

Example:
  tilescope compile --variant regtile_prefetch:bm=96,bn=80,bk=24,tm=6,tn=5 --arch sm_80
)";

std::string kib(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
  return text;
}

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, s < 1 ? "%.0f ms" : "%.2f s", s < 1 ? s * 1000 : s);
  return text;
}

// f32 where the variant computes it, else the first input type it takes (the tensor-core kernels).
std::string default_precision(const VariantDescriptor& v) {
  return to_string(supports(v, Precision::F32) || v.precisions.empty() ? Precision::F32 : v.precisions.front());
}

// The variant and configuration of "--variant ID[:CONFIG|:key=value,...]"; false with *error.
bool pick_config(const std::string& text, const VariantDescriptor** v, int* index, std::string* error) {
  const std::size_t colon = text.find(':');
  *v = find_variant(text.substr(0, colon));
  if (!*v) {
    *error = "--variant: unknown variant '" + text.substr(0, colon) + "'";
    return false;
  }
  if (!(*v)->kernel_text) {
    *error = std::string((*v)->id) + " has no kernel text of ours to compile";
    return false;
  }
  if (colon == std::string::npos) {
    *index = (*v)->default_config;
    return true;
  }
  const std::string rest = text.substr(colon + 1);
  *index = config_named_or_typed(**v, rest, error);
  if (*index < 0 && error->empty()) *error = std::string((*v)->id) + " has no configuration '" + rest + "'";
  return *index >= 0;
}

void print_kernel(const KernelResources& r, const std::string& name, const ArchitectureLimits& arch, int threads,
                  std::size_t shared, std::ostream& out) {
  out << "  " << name << "\n    " << r.registers << " registers per thread, " << r.spill_store_bytes
      << " B spill stores, " << r.spill_load_bytes << " B spill loads, " << r.stack_bytes << " B stack; " << kib(shared)
      << " shared memory per block; " << threads << " threads per block\n    occupancy: "
      << occupancy_sentence(occupancy(arch, threads, r.registers, shared), threads) << "\n";
}

}  // namespace

int run_compile_command(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  ArgParser p;
  p.option("--variant", "ID").option("--arch", "ARCH").option("--precision", "P").option("--problem", "P");
  p.option("--ptx", "FILE").option("--cubin", "FILE").option("--kernel-text", "ID=FILE").flag("--no-cache");
  if (!p.parse(argc, argv)) {
    err << "tilescope compile: " << p.error() << "\n";
    return kCompileBadArguments;
  }
  if (p.help()) {
    out << kCompileUsage;
    return kCompileOk;
  }
  std::string error;
  const VariantDescriptor* v = nullptr;
  int index = 0;
  Precision precision = Precision::F32;
  Problem problem = Problem::Gemm;
  std::string arch_name = p.value("--arch", "sm_90");
  ArchitectureLimits arch;
  KernelTextOption edit;
  if (!p.has("--variant"))
    error = "--variant is required";
  else if (!pick_config(p.value("--variant"), &v, &index, &error)) {
  } else if (p.has("--kernel-text") && !install_kernel_text_option(p.value("--kernel-text"), &edit, &error)) {
  } else if (edit.variant && edit.variant != v) {
    error = std::string("--kernel-text: ") + edit.variant->id + " is not the variant to compile";
  } else if ((index = edited_or_same(edit, *v, index, &error)) < 0) {
  } else if (!parse_precision(p.value("--precision", default_precision(*v)), &precision))
    error = "--precision: unknown input type '" + p.value("--precision") + "'";
  else if (!parse_problem(p.value("--problem", "gemm"), &problem))
    error = "--problem: unknown problem '" + p.value("--problem") + "'";
  else if (v->max_compute_capability > 0)
    arch_name = "sm_" + std::to_string(v->max_compute_capability) + "a";
  if (error.empty() && !architecture_limits(arch_name, &arch))
    error = "--arch: unknown architecture '" + arch_name + "'; choose sm_90, sm_80, sm_86 or sm_89";
  if (error.empty()) {
    DeviceLimits limits;
    limits.shared_per_block_optin = arch.shared_per_block_max;
    limits.compute_capability = arch.compute_capability;
    error = unsupported_reason(*v, index, problem, precision, limits);
  }
  if (!error.empty()) {
    err << "tilescope compile: " << error << "\n";
    return kCompileBadArguments;
  }
  const TileConfig& cfg = config_at(*v, index);
  const std::vector<std::string> names = v->kernel_names(cfg, precision, problem);
  // --no-cache: nothing read or kept. Otherwise the user's cache, keyed like the launches' compiles.
  if (p.has("--no-cache"))
    install_kernel_cache(nullptr);
  else
    install_user_kernel_cache();
  const CompiledProgram compiled = compile_kernels(*v, names, arch_name, driver_version_text());
  out << v->id << " " << cfg.name << ": " << to_string(precision) << " " << to_string(problem) << " for " << arch_name
      << " (NVRTC " << nvrtc_version_text() << ")\n";
  if (!compiled.compiled) {
    for (const SourceDiagnostic& d : compiled.diagnostics)
      err << d.file << ":" << d.line << ": " << d.severity << ": " << d.message << "\n";
    err << "tilescope compile: " << compiled.error << "\n";
    return nvrtc_library().loaded ? kCompileFailed : kCompileNoNvrtc;
  }
  for (std::size_t i = 0; i < compiled.resources.size(); ++i)
    print_kernel(compiled.resources[i], names[i], arch, cfg.threads(),
                 shared_per_block(*v, cfg, precision, compiled.resources[i]), out);
  out << (compiled.from_cache ? "  loaded from the cache in " : "  compiled in ")
      << seconds_text(compiled.elapsed_seconds)
      << (compiled.cache_note.empty() || p.has("--no-cache") ? "" : "; " + compiled.cache_note) << "\n";
  if ((p.has("--ptx") && !write_file_atomically(p.value("--ptx"), compiled.ptx, &error)) ||
      (p.has("--cubin") && !write_file_atomically(p.value("--cubin"), compiled.cubin, &error))) {
    err << "tilescope compile: " << error << "\n";
    return kCompileOutputFailed;
  }
  return kCompileOk;
}

}  // namespace tilescope
