// tilescope: with no command (or window options only) the window or its headless twin
// (app/ui/shell/gui_main.h); `tilescope bench` the headless benchmark (cli/bench_command.h); `tilescope
// plot` a CSV's timing plot as a PNG (app/ui/shell/plot_command.h).
#include <cstring>
#include <exception>
#include <iostream>

#include "app/cli/bench_command.h"
#include "app/cli/compile_command.h"
#include "app/cli/memory_command.h"
#include "app/cli/tune_command.h"
#include "app/export/kernel_cache_files.h"
#include "kernels/cuda/cuda_libraries.h"
#include "kernels/cuda/nccl_api.h"
#include "kernels/jit/kernel_source.h"
#include "kernels/jit/nvrtc_compiler.h"
#ifdef TILESCOPE_HAS_GUI
#include "app/gl_gemm/gl_shader_runner.h"
#include "app/gl_gemm/shader_gemm.h"
#include "app/ui/shell/gui_main.h"
#include "app/ui/shell/plot_command.h"
#include "app/ui/tune/landscape_png.h"
#endif
#include "version.h"

namespace {

const char* kUsage = R"(usage: tilescope [window options]      the window (tilescope --help-window)
       tilescope <command> [options]

tilescope shows how a GPU multiplies matrices: GEMM kernels from naive to register-tiled,
timed against cuBLAS and the chip's peak.

Commands:
  bench        time and verify the GEMM variants; print a table, write CSV/JSON
               (tilescope bench --help for its options)
  plot         render a CSV of results as a PNG plot, headless (tilescope plot --help)
  compile      compile a kernel text's tile with NVRTC and print what it costs
               (registers, shared memory, occupancy), with or without a GPU
               (tilescope compile --help)
  tune         sweep a kernel's tile parameters: compile, time and verify every
               point, draw the GFLOP/s landscape (tilescope tune --help)
  memory       count a kernel's global sectors and shared-memory bank conflicts
               from its model, without a GPU; record one warp on the GPU and
               compare it, or an edit of the kernel, with the model
               (tilescope memory --help)

Options:
  -h, --help   print this help
  --version    print the version
  --headless   the window's UI rendered offscreen through EGL (tilescope --help-window)
)";

int run(int argc, char** argv) {
  // Tiles typed by the learner are compiled at run time and kept under the XDG cache folder.
  tilescope::install_user_kernel_cache();
#ifdef TILESCOPE_HAS_GUI
  // The texture-shader variant draws with OpenGL, which the compute core does not link.
  tilescope::install_gl_shader_runner();
  // No command, or options only: the window (or its headless twin).
  if (argc < 2 || (argv[1][0] == '-' && std::strcmp(argv[1], "-h") != 0 && std::strcmp(argv[1], "--help") != 0 &&
                   std::strcmp(argv[1], "--version") != 0))
    return tilescope::run_gui(argc, argv);
  if (std::strcmp(argv[1], "plot") == 0) return tilescope::run_plot_command(argc - 1, argv + 1);
  if (std::strcmp(argv[1], "tune") == 0)
    return tilescope::run_tune_command(argc - 1, argv + 1, std::cout, std::cerr, tilescope::write_landscape_png);
#else
  if (argc < 2) {
    std::cout << kUsage;
    return 0;
  }
#endif
  const char* command = argv[1];
  if (std::strcmp(command, "memory") == 0)
    return tilescope::run_memory_command(argc - 1, argv + 1, std::cout, std::cerr);
  if (std::strcmp(command, "compile") == 0)
    return tilescope::run_compile_command(argc - 1, argv + 1, std::cout, std::cerr);
  if (std::strcmp(command, "tune") == 0) return tilescope::run_tune_command(argc - 1, argv + 1, std::cout, std::cerr);
  if (std::strcmp(command, "bench") == 0) return tilescope::run_bench(argc - 1, argv + 1, std::cout, std::cerr);
  if (std::strcmp(command, "-h") == 0 || std::strcmp(command, "--help") == 0 || std::strcmp(command, "help") == 0) {
    std::cout << kUsage;
    return 0;
  }
  if (std::strcmp(command, "--version") == 0) {
    std::cout << "tilescope " << tilescope::kTilescopeVersion << "\n";
#ifdef TILESCOPE_HAS_GUI
    // Where the files read at run time come from (a few "key: value" lines).
    const tilescope::DataDirs dirs = tilescope::ShaderLibrary::data_dirs();
    std::cout << "data: " << tilescope::describe_data_root(dirs) << "\n";
    std::cout << "shaders: " << tilescope::describe_shader_dir(dirs) << "\n";
#endif
    // The CUDA libraries loaded at run time: where from, or why not.
    for (const tilescope::RuntimeLibrary& lib : tilescope::runtime_libraries())
      std::cout << lib.name << ": " << (lib.loaded ? lib.path : "not loaded (" + lib.error + ")") << "\n";
    // The run-time compiler of typed tiles and what it compiles.
    const tilescope::RuntimeLibrary& nvrtc = tilescope::nvrtc_library();
    std::cout << nvrtc.name << ": "
              << (nvrtc.loaded ? nvrtc.path + " (" + tilescope::nvrtc_version_text() + ")"
                               : "not loaded (" + nvrtc.error + "): typed tiles cannot be compiled")
              << "\n";
    // The collective library of the splits across GPUs.
    const tilescope::RuntimeLibrary& nccl = tilescope::nccl_library();
    std::cout << nccl.name << ": "
              << (nccl.loaded ? nccl.path + " (" + tilescope::nccl_version_text() + ")"
                              : "not loaded (" + nccl.error + "): products cannot be split across GPUs with it")
              << "\n";
    const tilescope::KernelTextRoot& texts = tilescope::kernel_text_root();
    std::cout << "kernel texts: " << (texts.root.empty() ? "not found" : texts.root + "/kernels") << "\n";
    return 0;
  }
  std::cerr << "tilescope: unknown command '" << command << "'\n" << kUsage;
  return tilescope::kExitBadArguments;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const int code = run(argc, argv);
#ifdef TILESCOPE_HAS_GUI
    tilescope::stop_gl_shader_runner();  // while every library is still whole (gl_shader_runner.h)
#endif
    return code;
  } catch (const std::exception& e) {
    std::cerr << "tilescope: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "tilescope: internal error\n";
  }
  return 1;
}
