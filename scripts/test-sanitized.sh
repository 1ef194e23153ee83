#!/usr/bin/env bash
# The host code under AddressSanitizer + UndefinedBehaviorSanitizer: builds into build-asan/
# with -DTILESCOPE_SANITIZE=ON and runs the CPU test suite (ctest -L cpu), which is what runs on
# a machine without a GPU. Extra arguments go to CMake's configure step.
#
# What is instrumented: our C++ files (app/, kernels/**/*.cpp, tests/). Not instrumented: files
# compiled by nvcc (kernels/**/*.cu, host parts included), the CUDA runtime and cuBLAS. Reports name
# the file and line (RelWithDebInfo, at -O1 -g1: line tables without the variables' debug
# information, which take most of the compile time; AddressSanitizer asks for -O1 or higher for
# reasonable speed).
#
# nvcc's output is never instrumented, so where the main build (build/, the README's) exists, its
# compute core is brought up to date and its CUDA objects are linked here instead of compiled a
# second time (-DTILESCOPE_CUDA_OBJECTS_FROM): the CUDA compile is most of the build time on a small
# machine. TILESCOPE_ASAN_COMPILE_CUDA=1 compiles them here instead. Device code is irrelevant here
# (no kernel runs in the CPU suite), so what is compiled here is built for one architecture (sm_90
# and its PTX) instead of the three of a release build, and without optimization (cicc and ptxas
# at -O0, about a quarter of the time). Pass -DCMAKE_CUDA_ARCHITECTURES=... or
# -DCMAKE_CUDA_FLAGS=... to change that.
#
# The kernel texts' NVRTC tests (KernelText*: minutes of one core) run in the main build's suite
# only: here they would instrument little but their own loops.
#
# TILESCOPE_ASAN_DIR=DIR builds into DIR instead of build-asan/.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${TILESCOPE_ASAN_DIR:-build-asan}
scripts/install-deps.sh
cuda_objects=""
if [ -z "${TILESCOPE_ASAN_COMPILE_CUDA:-}" ] && [ -f build/CMakeCache.txt ]; then
  cmake --build build -j"$(nproc)" --target tilescope_core
  cuda_objects="$(pwd)/build"
fi
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
  -DTILESCOPE_SANITIZE=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  "-DCMAKE_CUDA_FLAGS=-Xcicc=-O0 -Xptxas=-O0" -DTILESCOPE_GUI=OFF "-DTILESCOPE_CUDA_OBJECTS_FROM=$cuda_objects" \
  "$@" >/dev/null
# Only what `ctest -L cpu` runs: the CPU suite and the program it starts. The window's and the
# GPU's test programs are neither built nor run here, and the program is built without the window
# (-DTILESCOPE_GUI=OFF): the CPU suite runs its commands (bench, compile, tune), which that build
# has too, never the window. About 80 files fewer to compile instrumented, which keeps CI short.
cmake --build "$dir" -j"$(nproc)" --target tilescope_tests

# halt_on_error: a UBSan report fails the test instead of scrolling past (UBSan recovers by
# default). Leak checking stays on: our code must not leak. Without an NVIDIA driver (CI) the
# CUDA runtime gives ASan no trouble: it fails cudaGetDeviceCount and the tests take their no-GPU
# paths. With a driver, two known clashes (github.com/google/sanitizers/issues/629): the driver
# maps memory at fixed addresses inside ASan's protected "shadow gap" (cudaMalloc then fails with
# out of memory), and libcuda keeps allocations LeakSanitizer reports as leaks. So there the gap
# is left unprotected and leaks from libcuda are suppressed (untested: no GPU machine ran this).
# intercept_tls_get_addr=0: the leak checker's tracking of dynamically allocated thread-local
# storage (NVRTC's, loaded at run time) can take a glibc TLS block for an older glibc's layout when
# its address happens to align so, and the checker then crashes at exit, after a test passed
# (github.com/google/sanitizers/issues/1322): which tests it hits moves with the binary's layout.
# Without that tracking the leak check still scans every other root, and still reports a leak.
asan_options=halt_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:intercept_tls_get_addr=0
lsan_options=
if [ -e /dev/nvidiactl ]; then
  asan_options+=:protect_shadow_gap=0
  printf 'leak:libcuda\n' >"$dir/lsan.supp"
  lsan_options=suppressions=$(cd "$dir" && pwd)/lsan.supp
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-$asan_options}
export LSAN_OPTIONS=${LSAN_OPTIONS:-$lsan_options}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
cd "$dir"
ctest -L cpu -E 'KernelText' --output-on-failure -j"$(nproc)"
