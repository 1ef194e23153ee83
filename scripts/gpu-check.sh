#!/usr/bin/env bash
# On the GPU machine: the whole GPU verification of tilescope, writing everything into OUTDIR.
#   1. the GPU test suite (every variant x configuration x precision x problem on ragged sizes);
#   2. compute-sanitizer memcheck and racecheck on small ragged sizes for every variant and input type;
#   3. the device's measured roofs (bench --roofs) into roofs.{csv,json}, also checked
#      by compute-sanitizer memcheck;
#   4. a bench sweep N = 1024 ... 8192 of every variant (gemm and AᵀA, f32 and f64) into CSV;
#      the texture shaders (float only) at N = 1024 and 4096 (multipass takes seconds at 8192);
#      with the window built, the sweep drawn as Roofline PNGs under the measured roofs.
# Usage: scripts/gpu-check.sh OUTDIR [--quick] [--skip-tests] [--skip-sanitizer] [--skip-bench]
# Runs in a checkout built on this machine, or in a bundle made by pack-gpu-bundle.sh elsewhere.
# Programs come from $TILESCOPE_BIN (default build/): tilescope there, the GPU suite in its tests/.
# What the system must provide: the NVIDIA driver (libcuda, nvidia-smi); compute-sanitizer from
# the CUDA toolkit, on PATH or in /usr/local/cuda/bin (not needed with --skip-sanitizer); for the
# texture-shader bench, glvnd's libEGL and libOpenGL and the driver's EGL library (it renders on
# the GPU through EGL's device platform, with no display). The bundle's lib/ brings the rest.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu-check.sh OUTDIR [--quick] [--skip-tests] [--skip-sanitizer] [--skip-bench]}
shift
quick=0; do_tests=1; do_sanitizer=1; do_bench=1
for a in "$@"; do
  case "$a" in
    --quick) quick=1 ;;
    --skip-tests) do_tests=0 ;;
    --skip-sanitizer) do_sanitizer=0 ;;
    --skip-bench) do_bench=0 ;;
    *) echo "unknown option $a" >&2; exit 2 ;;
  esac
done
bin=${TILESCOPE_BIN:-build}
[ -x "$bin/tilescope" ] || { echo "no $bin/tilescope: build first (scripts/build.sh) or set TILESCOPE_BIN" >&2; exit 2; }
gpu_tests=$bin/tests/tilescope_gpu_tests
[ -x "$gpu_tests" ] || gpu_tests=$bin/tilescope_gpu_tests
mkdir -p "$out"
# In a bundle: the shared libraries packed beside the programs (cuBLAS, GLFW ...).
[ -d lib ] && export LD_LIBRARY_PATH=$PWD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The programs look for shaders in the source tree they were built in, which a bundle lacks.
export TILESCOPE_SHADERS=${TILESCOPE_SHADERS:-$PWD/shaders}
sanitizer=$(command -v compute-sanitizer || true)
[ -z "$sanitizer" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ] && sanitizer=/usr/local/cuda/bin/compute-sanitizer
status=0
# The CUDA variants (the registry's order): the sanitizer and the full sweep. The texture shaders
# run in OpenGL, which compute-sanitizer does not check, and get their own bench below.
cuda_variants=$("$bin/tilescope" bench --list | sed -n 's/^\([a-z0-9_]*\) - .*(\(cuda\|cublas\))$/\1/p' | paste -sd,)
step() { echo; echo "=== $* ($(date +%T))"; }

step "device"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv
  "$bin/tilescope" --version; } 2>&1 | tee "$out/device.txt"

if [ $do_tests = 1 ]; then
  step "GPU test suite"
  "$gpu_tests" --gtest_brief=1 > "$out/gpu-tests.log" 2>&1
  rc=$?; tail -n 25 "$out/gpu-tests.log"
  [ $rc -eq 0 ] || { echo "GPU TESTS FAILED ($rc)"; status=1; }
fi

if [ $do_sanitizer = 1 ]; then
  step "compute-sanitizer memcheck + racecheck, every CUDA variant, small ragged sizes"
  if [ -z "$sanitizer" ]; then
    # A check that skipped its sanitizer without failing would read as passed.
    echo "compute-sanitizer not found (it comes with the CUDA toolkit; --skip-sanitizer goes without)" |
      tee "$out/sanitizer.log"
    status=1
  else
    for tool in memcheck racecheck; do
      for problem in gemm ata; do
        "$sanitizer" --tool $tool --error-exitcode 9 --print-limit 20 \
          "$bin/tilescope" bench --variants "$cuda_variants" --problem $problem --precision f32,f64,tf32,f16,bf16 --sizes 37,130,136 \
          --reps 1 --warmup 0 > "$out/sanitizer-$tool-$problem.log" 2>&1
        rc=$?
        echo "$tool $problem: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer-$tool-$problem.log" | tail -n 1)"
        [ $rc -eq 0 ] || status=1
      done
    done
    cat "$out"/sanitizer-*.log > "$out/sanitizer.log" && rm -f "$out"/sanitizer-*-*.log
  fi
fi

step "the device's roofs: bench --roofs"
"$bin/tilescope" bench --roofs --csv "$out/roofs.csv" --json "$out/roofs.json" | tee "$out/roofs.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "bench --roofs FAILED"; status=1; }
if [ $do_sanitizer = 1 ] && [ -n "$sanitizer" ]; then
  # The microbenchmarks' kernels under memcheck (their own cache left alone: XDG_CACHE_HOME).
  XDG_CACHE_HOME=$(mktemp -d) "$sanitizer" --tool memcheck --error-exitcode 9 --print-limit 20 \
    "$bin/tilescope" bench --roofs > "$out/sanitizer-roofs.log" 2>&1
  rc=$?
  echo "memcheck roofs: exit $rc; $(grep -E 'ERROR SUMMARY' "$out/sanitizer-roofs.log" | tail -n 1)"
  [ $rc -eq 0 ] || status=1
fi

if [ $do_bench = 1 ]; then
  sizes=1024,2048,4096,8192; reps=10
  [ $quick = 1 ] && { sizes=1024,4096; reps=5; }
  for problem in gemm ata; do
    step "bench sweep $problem N=$sizes"
    "$bin/tilescope" bench --variants "$cuda_variants" --problem $problem --precision f32,f64 --sizes $sizes --reps $reps \
      --csv "$out/bench-$problem.csv" --json "$out/bench-$problem.json" 2> "$out/bench-$problem.progress" | tee -a "$out/bench.txt"
    rc=${PIPESTATUS[0]}
    [ $rc -eq 0 ] || { echo "bench $problem exit $rc"; tail -n 5 "$out/bench-$problem.progress"; status=1; }
    rm -f "$out/bench-$problem.progress"
  done
  step "bench: the texture shaders, N = 1024 and 4096, gemm, through EGL on this GPU"
  "$bin/tilescope" bench --variants cublas:gemm,gl_shader --no-baseline --sizes 1024,4096 --reps $reps \
    --csv "$out/bench-gl_shader.csv" 2> "$out/bench-gl_shader.progress" | tee -a "$out/bench.txt"
  rc=${PIPESTATUS[0]}
  [ $rc -eq 0 ] || { echo "bench gl_shader exit $rc"; tail -n 5 "$out/bench-gl_shader.progress"; status=1; }
  rm -f "$out/bench-gl_shader.progress"
  if "$bin/tilescope" plot --help >/dev/null 2>&1 && [ -s "$out/roofs.json" ]; then
    step "the sweep as Roofline PNGs under the measured roofs"
    for problem in gemm ata; do
      for precision in f32 f64; do
        "$bin/tilescope" plot --roofline --roofs "$out/roofs.json" --csv "$out/bench-$problem.csv" \
          --problem $problem --precision $precision -o "$out/roofline-$problem-$precision.png" --size 1600x900 ||
          { echo "plot --roofline $problem $precision FAILED"; status=1; }
      done
    done
  fi
fi
echo; echo "gpu-check: $([ $status = 0 ] && echo PASSED || echo FAILED)"
exit $status
