#!/usr/bin/env bash
# The README's first command: install what is missing, build, and start the window on the
# default lesson (N = 1024, float: naive, smem_tiled, regtile_prefetch and cuBLAS).
# Where no display exists, the same UI runs headless: the lesson is run once and rendered into
# tilescope-headless.png, and `tilescope bench` prints the numbers. Without a GPU the window
# says why and times the CPU reference instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
if [ -n "${DISPLAY:-}" ]; then
  exec build/tilescope "$@"
fi
echo "tilescope: no display (DISPLAY is not set): running the default lesson headless instead" >&2
set +e
build/tilescope --headless --no-settings --script assets/lessons/first-run.txt "$@"
build/tilescope bench
rc=$?
set -e
echo "tilescope: the window's picture is in $(pwd)/tilescope-headless.png" >&2
if [ $rc -eq 3 ]; then
  echo "tilescope: built and ran without a GPU (exit code 3: no usable GPU); the CUDA rows need an NVIDIA GPU." >&2
  exit 0
fi
exit $rc
