#!/usr/bin/env bash
# On the development machine: copies the built programs the GPU check needs into .gpu/bin
# (ignored by git), next to what ../shared/tools/gpu/pack-for-gpu.sh puts in .gpu/, and the
# Debian libraries the GPU machine's image lacks (GLFW, stb, X11 client libraries) into .gpu/lib.
# Then send `.gpu` along and run `source .gpu/on-device.sh; scripts/gpu-check.sh $OUT` there.
# BUILD_DIR=DIR takes the programs from DIR (default build/); a build for sm_90 only
# (-DCMAKE_CUDA_ARCHITECTURES=90-real) is ~4x smaller, which leaves room for the Xvfb bundle.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
[ -x "$build/tilescope" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
grep -qxF '/.gpu/' .git/info/exclude 2>/dev/null || echo '/.gpu/' >> .git/info/exclude
rm -rf .gpu/bin .gpu/lib
mkdir -p .gpu/bin .gpu/lib
# The CPU suite runs in CI; 64 MiB travel at most.
cp "$build/tilescope" "$build/tests/tilescope_gpu_tests" .gpu/bin/
strip .gpu/bin/* 2>/dev/null || true
# Shared libraries from Debian packages, except the C/C++ runtime (newer there), the GL/EGL
# loaders (pack-for-gpu.sh brings those) and CUDA's (the GPU image has its own).
ldd .gpu/bin/tilescope | awk '/=> \// {print $3}' |
  grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|libEGL|libOpenGL|libGL|libGLX|libGLdispatch|libcublas|libcublasLt|libcudart)\.so' |
  while read -r lib; do cp -L "$lib" .gpu/lib/; done
# The UI font (the GPU image has no fonts-dejavu-core); scripts set TILESCOPE_UI_FONT to it.
font=$(fc-match -f '%{file}' 'DejaVu Sans' 2>/dev/null || true)
[ -f "$font" ] || font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
cp "$font" .gpu/lib/ui-font.ttf
du -sh .gpu/bin .gpu/lib
