#!/usr/bin/env bash
# Loading and plotting long histories: makes results CSVs of a real sweep's rows repeated to
# each row count asked (scripts/make-large-history.py), then times
# `tilescope plot --csv FILE -o out.png` with /usr/bin/time -v (wall time, peak resident memory).
# A file over the history's row limit must be refused with a message, not hang. Then the
# headless window with the file loaded draws 120 frames (--frame-stats): the median and 95th
# percentile frame times show whether the results table and plot stay cheap with that many rows.
#
# usage: scripts/bench-large-history.sh [OUT.csv] [ROWS ...]
#   OUT.csv  where the measurements go (default: stdout)
#   ROWS     row counts (default: 80 100000 1000000 2500000; 80 is the sweep itself, which shows
#            the program's fixed cost: the OpenGL context, fonts, the 1920 x 1080 image)
# Environment: TILESCOPE (the binary; default build/tilescope), WORK (a folder for the large
# files, default a temporary one, removed at the end), SOURCE_CSV (the sweep to repeat).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-/dev/stdout}"
shift || true
rows=("$@")
[ ${#rows[@]} -gt 0 ] || rows=(80 100000 1000000 2500000)
bin="${TILESCOPE:-build/tilescope}"
source_csv="${SOURCE_CSV:-docs/benchmarks/h100-2026-11-21/bench-gemm.csv}"
[ -x "$bin" ] || { echo "no tilescope binary at $bin (build first, or set TILESCOPE)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package: time)" >&2; exit 2; }
work="${WORK:-}"
if [ -z "$work" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi
cpu="$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //; s/,/;/g')"
cores="$(nproc)"

{
  echo "rows,file_bytes,wall_s,max_rss_kb,rss_per_file_byte,exit_code,frame_median_ms,frame_p95_ms,cpu,cores,message"
  for n in "${rows[@]}"; do
    csv="$work/history-$n.csv"
    scripts/make-large-history.py "$source_csv" "$n" "$csv"
    bytes="$(stat -c %s "$csv")"
    log="$work/time-$n.txt"
    set +e
    # 600 s: a hang shows as exit code 124 instead of a benchmark that never ends.
    /usr/bin/time -v timeout 600 "$bin" plot --csv "$csv" -o "$work/plot-$n.png" >"$log" 2>&1
    code=$?
    set -e
    wall="$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log" |
      awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')"
    rss="$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log")"
    ratio="$(awk -v r="$rss" -v b="$bytes" 'BEGIN { printf "%.2f", r * 1024 / b }')"
    message="$(grep -m1 '^tilescope plot:' "$log" | sed 's/,/;/g; s/"//g')"
    message="${message//$work/WORK}"
    frame_median="" frame_p95=""
    if [ "$code" = 0 ]; then
      stats="$work/frames-$n.txt"
      if "$bin" --headless --no-gpu --no-settings --load-csv "$csv" --frames 120 --frame-stats "$stats" \
        >/dev/null 2>&1; then
        frame_median="$(sed -n 's/^median_ms //p' "$stats")"
        frame_p95="$(sed -n 's/^p95_ms //p' "$stats")"
      fi
    fi
    echo "$n,$bytes,$wall,$rss,$ratio,$code,$frame_median,$frame_p95,$cpu,$cores,\"$message\""
    rm -f "$csv"
  done
} >"$out"
