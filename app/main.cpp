// tilescope: for now the headless benchmark (`tilescope bench`); the window arrives in a later
// version, and will then be what `tilescope` with no arguments opens.
#include <cstring>
#include <exception>
#include <iostream>

#include "cli/bench_command.h"

namespace {

#ifndef TILESCOPE_VERSION
#define TILESCOPE_VERSION "unknown"
#endif

const char* kUsage = R"(usage: tilescope <command> [options]

tilescope shows how a GPU multiplies matrices: GEMM kernels from naive to register-tiled,
timed against cuBLAS and the chip's peak.

Commands:
  bench        time and verify the GEMM variants; print a table, write CSV/JSON
               (tilescope bench --help for its options)

Options:
  -h, --help   print this help
  --version    print the version

The window (tilescope with no arguments) arrives in a later version; for now, the command
is `tilescope bench`.
)";

int run(int argc, char** argv) {
  if (argc < 2) {
    std::cout << kUsage;
    return 0;
  }
  const char* command = argv[1];
  if (std::strcmp(command, "bench") == 0) return tilescope::run_bench(argc - 1, argv + 1, std::cout, std::cerr);
  if (std::strcmp(command, "-h") == 0 || std::strcmp(command, "--help") == 0 || std::strcmp(command, "help") == 0) {
    std::cout << kUsage;
    return 0;
  }
  if (std::strcmp(command, "--version") == 0) {
    std::cout << "tilescope " << TILESCOPE_VERSION << "\n";
    return 0;
  }
  std::cerr << "tilescope: unknown command '" << command << "'\n" << kUsage;
  return tilescope::kExitBadArguments;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "tilescope: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "tilescope: internal error\n";
  }
  return 1;
}
