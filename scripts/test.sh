#!/usr/bin/env bash
# The README's second command, and what CI runs: install what is missing, build, run every test.
# GPU tests skip themselves (shown as Skipped) where no CUDA device exists.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh "$@"
cd build
ctest --output-on-failure -j"$(nproc)"
