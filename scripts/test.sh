#!/usr/bin/env bash
# The README's second command, and what CI runs: install what is missing, build, run every test.
# GPU tests skip themselves (shown as Skipped) where no CUDA device exists.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh "$@"
cd build
# The GUI tests open real windows: run everything under a virtual X server (Mesa renders).
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null; then
  xvfb-run -a -s "-screen 0 1920x1080x24" ctest --output-on-failure -j"$(nproc)"
else
  ctest --output-on-failure -j"$(nproc)"
fi
