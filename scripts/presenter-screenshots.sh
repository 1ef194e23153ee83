#!/usr/bin/env bash
# Presenter-mode screenshots of every tab as a class would see them on a 1920 x 1080 and a
# 1280 x 720 projector, rendered headless (EGL: the GPU where there is one, else Mesa):
#   timing, roofline         the Timing tab's two plots after a short sweep (float, C = A·B)
#   mapping-naive, mapping-regtile_prefetch
#                            the Mapping tab's matrices and tile animation, block (1, 1), phase 2
#   mapping-mma_sync-banks   mma.sync's shared-memory banks (f16)
#   mapping-wgmma_tma        the warpgroup kernel's matrices (bf16)
#   history                  the History tab (the texture shaders' passes)
# each as OUTDIR/NAME-WIDTHxHEIGHT.png. With a GPU the sweep times the variants; without one it
# times the CPU reference, and the Mapping tab draws every variant from its model.
# The program comes from build/ (TILESCOPE_BIN names another folder, e.g. a copied bundle).
# Usage: scripts/presenter-screenshots.sh OUTDIR
# Exit codes: those of tilescope (docs/SCRIPTS.md); 2 for a bad OUTDIR.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/presenter-screenshots.sh OUTDIR}
bin=${TILESCOPE_BIN:-build}
[ -d "$bin/lib" ] && export LD_LIBRARY_PATH=$PWD/$bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
# A script's words are separated by spaces: a path with one cannot be written in it.
case "$out" in *[[:space:]]*)
  echo "presenter-screenshots: the output folder's path must not contain spaces: $out" >&2
  exit 2
  ;;
esac

# The lesson, written for each size so that its screenshots are named after it.
lesson() {
  local size=$1
  cat <<EOF
set presenter on
set problem gemm
set precision f32
set reps 3
set n 512
set sweep 128 1024
use-all off
use cublas:gemm on
use naive:16x16 on
use smem_tiled:16 on
use regtile_prefetch:64x64x8_8x8 on
focus regtile_prefetch
sweep
wait 600
show-timing
plot timing
frames 3
screenshot $out/timing-$size.png
plot roofline
frames 3
screenshot $out/roofline-$size.png
plot timing
show-mapping
focus naive
mapping-block 1 1
mapping-phase 2
frames 3
screenshot $out/mapping-naive-$size.png
focus regtile_prefetch
mapping-block 1 1
mapping-phase 2
frames 3
screenshot $out/mapping-regtile_prefetch-$size.png
set precision f16
focus mma_sync
mapping-block 0 0
mapping-phase 2
mapping-view banks
frames 3
screenshot $out/mapping-mma_sync-banks-$size.png
set precision bf16
focus wgmma_tma
mapping-view matrices
mapping-block 0 0
mapping-phase 2
frames 3
screenshot $out/mapping-wgmma_tma-$size.png
set precision f32
show-history
frames 3
screenshot $out/history-$size.png
frames 2
EOF
}

status=0
script=$(mktemp /tmp/tilescope-presenter-XXXXXX.txt) || exit 2
trap 'rm -f "$script"' EXIT
for size in 1920x1080 1280x720; do
  lesson "$size" > "$script"
  echo "=== presenter mode at $size"
  "$bin/tilescope" --headless --no-settings --size "$size" --script "$script" 2>&1 | tail -n 3
  code=${PIPESTATUS[0]}
  [ "$code" -eq 0 ] || status=$code
done
ls "$out"/*.png 2>/dev/null
exit $status
