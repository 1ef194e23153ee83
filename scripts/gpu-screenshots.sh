#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: the window's own checks there, writing into OUTDIR.
#   1. the lesson script (assets/lessons/sweep-all.txt): every variant swept, float, gemm and AᵀA;
#      plot PNGs and window screenshots for docs/screenshots/;
#   2. the History tab after timing every texture-shader mode (assets/lessons/history.txt);
#   3. frame times at 1920 x 1080 while a sweep runs (assets/lessons/frame-bench.txt).
# Headless through EGL on the GPU by default; --window uses a real window: on a desktop, the
# display as it is; under Xvfb, start it first and set __GLX_VENDOR_LIBRARY_NAME=nvidia, or GLX
# silently falls back to Mesa's llvmpipe (the window's banner names the renderer).
# The programs come from build/ (TILESCOPE_BIN names another folder, e.g. a copied bundle).
# Usage: scripts/gpu-screenshots.sh OUTDIR [--window]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu-screenshots.sh OUTDIR [--window]}
mode=--headless; tag=headless
[ "${2:-}" = "--window" ] && { mode=--no-vsync; tag=window; }
bin=${TILESCOPE_BIN:-build}
[ -d "$bin/lib" ] && export LD_LIBRARY_PATH=$PWD/$bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$out" shots
status=0
echo "=== lesson script ($tag)"
"$bin/tilescope" $mode --no-settings --size 1920x1080 --script assets/lessons/sweep-all.txt 2>&1 | tail -n 5
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
for f in shots/*.png shots/*.csv; do [ -e "$f" ] && cp "$f" "$out/${tag}-$(basename "$f")"; done
echo "=== the History tab: every texture-shader mode at 1024 and 4096, a tall frame (headless)"
"$bin/tilescope" --headless --no-settings --size 1920x2160 --script assets/lessons/history.txt 2>&1 | tail -n 2
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
for f in shots/history-*; do [ -e "$f" ] && cp "$f" "$out/"; done
echo "=== frame times at 1920 x 1080 while a sweep runs ($tag)"
"$bin/tilescope" $mode --no-settings --size 1920x1080 --script assets/lessons/frame-bench.txt \
  --frame-stats "$out/frames-$tag.txt" 2>&1 | tail -n 2
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
cat "$out/frames-$tag.txt"
echo "gpu-screenshots: $([ $status = 0 ] && echo PASSED || echo FAILED)"
exit $status
