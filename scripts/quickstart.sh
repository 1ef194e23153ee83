#!/usr/bin/env bash
# The README's first command: install what is missing, build, and run the main job.
# Until the window exists that is `tilescope bench` on a default lesson: N = 1024 and 2048,
# float, every variant against cuBLAS. Without a GPU it says why and times the CPU reference.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
set +e
build/tilescope bench "$@"
rc=$?
set -e
if [ $rc -eq 3 ]; then
  echo "tilescope: built and ran without a GPU (exit code 3: no usable GPU); the CUDA rows need an NVIDIA GPU." >&2
  exit 0
fi
exit $rc
