#!/usr/bin/env bash
# The same kernel text compiled by nvcc (as the build compiles it) and by NVRTC (as the program
# compiles a typed tile), to PTX for sm_90: the shared-memory kernel at tile 16, f32. Prints where
# the two differ in the addresses of shared memory.
# usage: docs/benchmarks/nvrtc-vs-nvcc-2026-11-26/compare.sh [BUILD_DIR]  (from the repository root)
set -euo pipefail
build="${1:-build}"
out="$(dirname "$0")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
kernel='tilescope::smem_tiled_kernel<float, 16, false, tilescope::NoProbe>'
printf '#include "kernels/variants/02_smem_tiled.cuh"\nvoid* take() { return (void*)&%s; }\n' "$kernel" >"$work/take.cu"
nvcc -I. -O3 -DNDEBUG -arch=compute_90 --expt-relaxed-constexpr -std=c++20 -ptx "$work/take.cu" -o "$out/smem_tiled-16-nvcc.ptx"
"$build/tilescope" compile --variant smem_tiled:16 --no-cache --ptx "$out/smem_tiled-16-nvrtc.ptx" >/dev/null
for f in nvcc nvrtc; do
  p="$out/smem_tiled-16-$f.ptx"
  printf '%-6s %s shared accesses through 32-bit registers: %s, through 64-bit ones: %s\n' "$f" \
    "$(grep -h 'reg .b64' "$p" | tr -s ' \t' ' ')" "$(grep -c 'shared.f32.*\[%r[0-9]' "$p" || true)" \
    "$(grep -c 'shared.f32.*\[%rd[0-9]' "$p" || true)"
done
