#!/usr/bin/env bash
# On the development machine: copies the built programs the GPU check needs into .gpu/bin
# (ignored by git), next to what ../shared/tools/gpu/pack-for-gpu.sh puts in .gpu/.
# Then send `.gpu` along and run `source .gpu/on-device.sh; scripts/gpu-check.sh $OUT` there.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/tilescope ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
grep -qxF '/.gpu/' .git/info/exclude 2>/dev/null || echo '/.gpu/' >> .git/info/exclude
mkdir -p .gpu/bin
cp build/tilescope build/tests/tilescope_gpu_tests .gpu/bin/   # the CPU suite runs in CI; 64 MiB travel at most
strip .gpu/bin/* 2>/dev/null || true
du -sh .gpu/bin
