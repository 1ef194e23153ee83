#!/usr/bin/env bash
# Frame times of the shipped lessons in the window, on a machine without a GPU: plays each
# assets/lessons/*.txt in a real GLFW window under Xvfb (1920 x 1080), drawn by Mesa's llvmpipe,
# and writes one CSV row per lesson.
#
# The columns:
#   frames, median_ms, p95_ms, longest_frame_ms  the program's own --frame-stats: the work of each
#       frame, from its start until the renderer finished drawing it, without the pacing to 60
#       (or, while the CPU is timed, 10) frames a second. The program rewrites the file every
#       second, so a lesson stopped at the time limit has the figures of its frames until then
#       (a program without that, such as an older build, leaves them empty).
#   longest_gap_ms  the longest time between two frames on screen (two buffer swaps of the
#       window), the pacing included: what a viewer sees freeze. A small library preloaded into the
#       program (LD_PRELOAD, compiled here from the C below) wraps glfwSwapBuffers and writes it five
#       times a second, the gap in progress included, so it is there for a stopped lesson too.
# A lesson still playing after LIMIT seconds is stopped (ended = "stopped at LIMIT s"). The load
# average at the start of each lesson is in its row: other work on the machine lengthens frames
# (llvmpipe draws on the same cores).
#
# usage: scripts/bench-lesson-frames.sh [OUT.csv] [LESSON.txt ...]
#   OUT.csv  where the rows go (default: stdout)
#   LESSON   lessons to play (default: every assets/lessons/*.txt, in name order)
# Environment:
#   TILESCOPE  the program (default build/tilescope); it finds its shaders and assets beside it
#              (`tilescope --version` says where)
#   LIMIT      seconds a lesson may play before it is stopped (default 600)
#   LABEL      a word for the binary column, e.g. "before" or "after" (default: the program's
#              `--version` line)
#   LOGS       a folder to keep each lesson's output in (LESSON.log: the program's stderr, the
#              status lines of failed script actions); by default it goes with the other files
# Needs Xvfb (Debian: xvfb), a C compiler, and Mesa (libgl1-mesa-dri, libegl-mesa0). The lessons'
# screenshots and exports go to a temporary folder, removed at the end, with the X server.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-/dev/stdout}"
shift || true
lessons=("$@")
[ ${#lessons[@]} -gt 0 ] || lessons=(assets/lessons/*.txt)
bin="${TILESCOPE:-build/tilescope}"
limit="${LIMIT:-600}"
[ -x "$bin" ] || { echo "no tilescope binary at $bin (build first, or set TILESCOPE)" >&2; exit 2; }
command -v Xvfb >/dev/null || { echo "needs Xvfb (Debian package: xvfb)" >&2; exit 2; }
command -v cc >/dev/null || { echo "needs a C compiler (cc) for the frame-gap library" >&2; exit 2; }
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
label="${LABEL:-$("$bin" --version 2>/dev/null | head -1)}"
work="$(mktemp -d)"
xvfb_pid=""
trap '[ -z "$xvfb_pid" ] || kill "$xvfb_pid" 2>/dev/null; rm -rf "$work"' EXIT

# One X server for every lesson, on a display number it picks itself (-displayfd).
Xvfb -displayfd 3 -screen 0 1920x1080x24 -nolisten tcp 3>"$work/display" 2>"$work/xvfb.log" &
xvfb_pid=$!
for _ in $(seq 50); do [ -s "$work/display" ] && break; sleep 0.1; done
[ -s "$work/display" ] || { echo "Xvfb did not start: $(cat "$work/xvfb.log")" >&2; exit 2; }
export DISPLAY=":$(cat "$work/display")"

# The frame-gap library: the time between two glfwSwapBuffers calls of the program.
cat >"$work/frame_gaps.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static size_t count;
static double last_swap;
static double longest;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* The longest gap (the one in progress included) into $FRAME_GAPS_FILE, once the program has
   drawn a frame. */
static void write_figures(void) {
  const char* path = getenv("FRAME_GAPS_FILE");
  if (!path) return;
  pthread_mutex_lock(&lock);
  const int drawn = last_swap != 0 || count != 0;
  double worst = longest;
  if (last_swap > 0 && now_ms() - last_swap > worst) worst = now_ms() - last_swap;
  const size_t n = count;
  pthread_mutex_unlock(&lock);
  if (!drawn) return;
  char temporary[4096];
  snprintf(temporary, sizeof temporary, "%s.part", path);
  FILE* f = fopen(temporary, "w");
  if (!f) return;
  fprintf(f, "gaps %zu\nlongest_gap_ms %.1f\n", n, worst);
  fclose(f);
  rename(temporary, path);
}

static void* writer(void* unused) {
  (void)unused;
  for (;;) {
    usleep(200000);
    write_figures();
  }
  return NULL;
}

__attribute__((constructor)) static void start(void) {
  pthread_t thread;
  if (pthread_create(&thread, NULL, writer, NULL) == 0) pthread_detach(thread);
}

__attribute__((destructor)) static void finish(void) {
  pthread_mutex_lock(&lock);
  if (last_swap > 0) last_swap = -1; /* the program is ending: no gap in progress */
  pthread_mutex_unlock(&lock);
  write_figures();
}

void glfwSwapBuffers(void* window) {
  static void (*real)(void*);
  if (!real) real = (void (*)(void*))dlsym(RTLD_NEXT, "glfwSwapBuffers");
  real(window);
  const double now = now_ms();
  pthread_mutex_lock(&lock);
  /* The first swap ends the start-up (fonts, textures): gaps count from there. */
  if (last_swap > 0) {
    const double gap = now - last_swap;
    ++count;
    if (gap > longest) longest = gap;
  }
  last_swap = now;
  pthread_mutex_unlock(&lock);
}
EOF
cc -shared -fPIC -O2 -o "$work/frame_gaps.so" "$work/frame_gaps.c" -ldl -lpthread

cpu="$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //; s/,/;/g')"
cores="$(nproc)"
field() { sed -n "s/^$1 //p" "$2" 2>/dev/null; }

{
  echo "lesson,ended,frames,median_ms,p95_ms,longest_frame_ms,longest_gap_ms,wall_s,renderer,cpu,cores,load_1min,date,binary"
  for lesson in "${lessons[@]}"; do
    name="$(basename "$lesson" .txt)"
    lesson_path="$(cd "$(dirname "$lesson")" && pwd)/$(basename "$lesson")"
    run_dir="$work/$name"
    mkdir -p "$run_dir/shots"
    load="$(cut -d' ' -f1 /proc/loadavg)"
    date="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    start="$(date +%s.%N)"
    set +e
    # The lesson's relative paths (shots/...) land in its own folder. Only the program gets the
    # library (env, after timeout): another process would write the figures file too.
    (cd "$run_dir" && timeout -k 5 "$limit" env FRAME_GAPS_FILE="$run_dir/gaps.txt" \
      LD_PRELOAD="$work/frame_gaps.so" "$bin" --script "$lesson_path" --no-settings --size 1920x1080 \
      --frame-stats "$run_dir/work.txt" >"$run_dir/log.txt" 2>&1)
    code=$?
    set -e
    wall="$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')"
    if [ "$code" = 124 ] || [ "$code" = 137 ]; then
      ended="stopped at $limit s"
    elif [ "$code" = 0 ]; then
      ended="finished"
    else
      ended="finished with exit code $code"
    fi
    renderer="$(sed -n 's/^tilescope: OpenGL .* on //p' "$run_dir/log.txt" | head -1 | sed 's/,/;/g')"
    if [ -n "${LOGS:-}" ]; then
      mkdir -p "$LOGS"
      cp "$run_dir/log.txt" "$LOGS/$name.log"
    fi
    stats="$run_dir/work.txt" gaps="$run_dir/gaps.txt"
    echo "$name,$ended,$(field frames "$stats"),$(field median_ms "$stats"),$(field p95_ms "$stats"),$(field max_ms "$stats"),$(field longest_gap_ms "$gaps"),$wall,$renderer,$cpu,$cores,$load,$date,$label"
  done
} >"$out"
