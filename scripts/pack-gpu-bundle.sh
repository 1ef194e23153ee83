#!/usr/bin/env bash
# Packs what the GPU check needs into out/gpu-bundle/ (out/ is ignored by git), so that programs
# built on a machine without a GPU can run on one that has only the NVIDIA driver:
#   build/tilescope, build/tests/tilescope_gpu_tests   the programs of BUILD_DIR (default build/);
#   lib/                the shared libraries ldd lists for them (cuBLAS, cuBLASLt, GLFW, stb, X11
#                       client libraries ...), except those the GPU machine must bring (below);
#   shaders/ assets/    read at run time;
#   kernels/            the kernel texts and the headers they include, compiled at run time (NVRTC)
#                       for typed tiles;
#   scripts/gpu-check.sh, which puts lib/ on the library path and points $TILESCOPE_SHADERS at
#                       shaders/ (the programs otherwise look in the source tree they were built in).
# Copy the folder to the GPU machine and run `scripts/gpu-check.sh OUTDIR` inside it.
# The CPU and window suites are left out: they name files of the build tree by absolute path,
# and CI runs them. The programs are not stripped: compute-sanitizer names host functions from
# their symbols.
# Usage: [BUILD_DIR=DIR] scripts/pack-gpu-bundle.sh
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
bundle=out/gpu-bundle
programs=("$build/tilescope" "$build/tests/tilescope_gpu_tests")
for p in "${programs[@]}"; do
  [ -x "$p" ] || { echo "no $p: build first (scripts/build.sh)" >&2; exit 1; }
done
if ldd "${programs[@]}" | grep -q 'not found'; then
  ldd "${programs[@]}" | grep 'not found' >&2
  echo "some libraries are missing here; install them before packing" >&2
  exit 1
fi

rm -rf "$bundle"
mkdir -p "$bundle/build/tests" "$bundle/lib" "$bundle/scripts"
cp "$build/tilescope" "$bundle/build/"
cp "$build/tests/tilescope_gpu_tests" "$bundle/build/tests/"
cp -r shaders assets "$bundle/"
# The kernel texts and their headers: typed tiles compile from them at run time, found in the
# folder above the programs (kernels/jit/kernel_source.h).
find kernels \( -name '*.cuh' -o -name '*.h' \) -exec cp --parents {} "$bundle/" \;
cp scripts/gpu-check.sh "$bundle/scripts/"

# Left out, because they must be the GPU machine's own:
#  - the C and C++ runtimes (glibc cannot be swapped under a program): build on a distribution
#    no newer than the GPU machine's;
#  - glvnd's GL and EGL loaders, which find the driver's vendor libraries through the GPU
#    machine's own configuration, and the driver's libraries (libcuda, libnvidia-*).
# Everything else is copied under its soname, the name the loader asks for.
ldd "${programs[@]}" | awk '/=> \// {print $3}' | sort -u |
  { grep -vE '/(libc|libm|libdl|librt|libpthread|libutil|libresolv|libstdc\+\+|libgcc_s|libEGL|libOpenGL|libGL|libGLX|libGLdispatch|libcuda|libnvidia-[^/]*)\.so' || true; } |
  while read -r lib; do cp -L "$lib" "$bundle/lib/"; done

ls "$bundle/lib"
du -sh "$bundle"
echo "copy $bundle/ to the GPU machine, then run there: scripts/gpu-check.sh OUTDIR"
