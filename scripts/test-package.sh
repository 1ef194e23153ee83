#!/usr/bin/env bash
# CI, after scripts/test.sh: the Debian package as a user meets it. As root:
#   1. cpack makes tilescope_<version>_<arch>.deb from the build folder (default build/, the one
#      test.sh built; another folder may be given as the first argument);
#   2. apt-get installs it, with its dependencies only (no recommended packages);
#   3. from an empty folder: `tilescope --version` names the installed data folder, `bench --list`
#      runs, a headless session times a texture-shader mode, passes its check and draws the
#      History tab (a non-blank screenshot), the desktop entry and AppStream metadata validate,
#      the icon is installed, `man -w tilescope` finds the page;
#   4. the same with the CUDA libraries' folders hidden (a private mount namespace): the
#      program still starts and draws, and `tilescope bench` exits 3 naming the missing cuBLAS;
#   5. apt-get removes it and /usr/bin/tilescope is gone.
# Exits non-zero with a message at the first failed check.
# Usage: scripts/test-package.sh [BUILD_DIR]
# TILESCOPE_KEEP_SCREENSHOT=PREFIX keeps the History screenshots as PREFIX-installed.png and
# PREFIX-hidden.png, to look at.
set -euo pipefail

fail() {
  echo "test-package: FAILED: $*" >&2
  exit 1
}
step() { echo "=== test-package: $*"; }

# A PNG that exists and is not one flat colour (a blank frame compresses to almost nothing,
# so count colours instead of trusting the file size).
check_png() {
  local png=$1
  [ -s "$png" ] || fail "no screenshot $png"
  python3 - "$png" <<'EOF' || fail "$png is blank or not a PNG"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, width, height = 8, b"", 0, 0
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and colour in (2, 6), "unexpected PNG format"
        channels = 3 if colour == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
raw = zlib.decompress(idat)
stride = width * channels + 1
# Sample every 16th row's bytes as stored (filtered): a flat picture filters to a few values.
colours = set()
for y in range(0, height, 16):
    row = raw[y * stride + 1:(y + 1) * stride]
    colours.update(row[x:x + 3] for x in range(0, len(row), channels * 7))
print(f"  {sys.argv[1]}: {width} x {height}, {len(colours)} sampled colours")
assert len(colours) > 50, "blank"
EOF
}

# Everything a user does with the installed program, in an empty folder.
# $1 = "installed" or "hidden" (the CUDA libraries hidden).
check_program() {
  local mode=$1
  local work
  work=$(mktemp -d)
  cd "$work"
  [ "$(command -v tilescope)" = /usr/bin/tilescope ] || fail "tilescope is not /usr/bin/tilescope on PATH"

  step "$mode: tilescope --version"
  local version
  version=$(env -u TILESCOPE_SHADERS tilescope --version) || fail "tilescope --version exited $?"
  echo "$version" | sed 's/^/  /'
  grep -qx "tilescope $expected_version" <<<"$version" || fail "--version does not say tilescope $expected_version"
  grep -qx "data: /usr/share/tilescope (installed, next to the program)" <<<"$version" ||
    fail "--version does not report the installed data folder /usr/share/tilescope"
  grep -qx "shaders: /usr/share/tilescope/shaders (installed, next to the program)" <<<"$version" ||
    fail "--version does not report the installed shaders"
  # The CUDA libraries are loaded at run time: found, or named as missing.
  if [ "$mode" = hidden ]; then
    grep -q '^cuBLAS: not loaded (.*libcublas' <<<"$version" || fail "--version does not say cuBLAS is missing"
  else
    grep -q '^cuBLAS: /.*libcublas' <<<"$version" || fail "--version does not say where cuBLAS was loaded from"
  fi

  step "$mode: tilescope bench --list"
  local list
  list=$(tilescope bench --list) || fail "tilescope bench --list exited $?"
  grep -q '^gl_shader ' <<<"$list" || fail "bench --list does not list the texture-shader variant"

  step "$mode: headless History tab after timing a texture-shader mode (Mesa)"
  cat >history-check.txt <<'EOF'
set problem gemm
set precision f32
set n 96
set reps 2
use-all off
use cublas:gemm off
use gl_shader:mrt8 on
reload-shaders
run
wait
export-csv shaders.csv
show-history
history-mode mrt8
history-pass all
frames 4
screenshot history.png
EOF
  env -u TILESCOPE_SHADERS tilescope --headless --no-settings --size 1600x1200 --script history-check.txt ||
    fail "the headless History session exited $?"
  # The texture-shader row ran and passed its check (columns named by the CSV's header).
  python3 - shaders.csv <<'EOF' || fail "the texture-shader run did not pass (shaders.csv)"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["variant_id"] == "gl_shader"]
assert rows, "no gl_shader row"
for r in rows:
    print(f"  {r['variant_id']}:{r['config_name']} N={r['N']}: error='{r['error']}' passed={r['passed']} rel_error={r['rel_error']}")
    assert r["error"] == "" and r["passed"] == "true"
EOF
  check_png "$work/history.png"
  if [ -n "${TILESCOPE_KEEP_SCREENSHOT:-}" ]; then cp history.png "$TILESCOPE_KEEP_SCREENSHOT-$mode.png"; fi

  if [ "$mode" = hidden ]; then
    step "$mode: tilescope bench without cuBLAS"
    local out rc=0
    out=$(tilescope bench --sizes 64 --reps 1 2>&1) || rc=$?
    { grep -m 1 'libcublas' <<<"$out" || head -n 3 <<<"$out"; } | sed 's/^/  /'
    [ $rc -eq 3 ] || fail "tilescope bench exited $rc without cuBLAS (expected 3)"
    grep -q 'libcublas' <<<"$out" || fail "tilescope bench does not name the missing libcublas"
  fi
  cd /
  rm -rf "$work"
}

# Re-entered inside the private mount namespace: hide the folders, then check.
if [ "${1:-}" = --hidden-cuda ]; then
  shift
  expected_version=$1
  shift
  for dir in "$@"; do
    mount -t tmpfs none "$dir" || fail "cannot hide $dir"
  done
  for dir in "$@"; do
    if ls "$dir"/libcublas* >/dev/null 2>&1; then fail "$dir still shows libcublas"; fi
  done
  echo "  hidden: $*"
  check_program hidden
  exit 0
fi

cd "$(dirname "$0")/.."
root=$PWD
build=${1:-build}
[ -d "$build" ] || fail "no build folder $build (scripts/build.sh makes build/)"
build=$(cd "$build" && pwd)
[ -x "$build/tilescope" ] || fail "no $build/tilescope: build first"
[ "$(id -u)" -eq 0 ] || fail "run as root: it installs and removes the package"
for tool in cpack apt-get dpkg-deb dpkg-shlibdeps desktop-file-validate appstreamcli man unshare python3; do
  command -v "$tool" >/dev/null || fail "needs $tool (scripts/install-deps.sh installs it)"
done
expected_version=$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt")
[ -n "$expected_version" ] || fail "no project version in $build/CMakeCache.txt"

# The package must not stay installed when a check fails.
installed=0
cleanup() {
  if [ $installed = 1 ]; then
    echo "test-package: removing the package after a failure" >&2
    DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq tilescope >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

step "the package (cpack, from $build)"
rm -f "$build"/tilescope_*.deb
(cd "$build" && cpack -G DEB >cpack.log 2>&1) || { cat "$build/cpack.log" >&2; fail "cpack failed"; }
debs=("$build"/tilescope_"$expected_version"_*.deb)
[ -f "${debs[0]}" ] || fail "cpack made no tilescope_${expected_version}_*.deb"
deb=${debs[0]}
echo "  $deb ($(du -h "$deb" | cut -f1))"
for field in Package Version Architecture Section Depends Recommends Homepage Maintainer; do
  echo "  $field: $(dpkg-deb -f "$deb" "$field")"
done
depends=$(dpkg-deb -f "$deb" Depends)
depends_names=$(tr ',' '\n' <<<"$depends" | awk '{print $1}')  # the package names, one a line
for lib in libglfw3 libegl1 libopengl0 libstb0 libc6 libstdc++6; do
  grep -qxF "$lib" <<<"$depends_names" || fail "Depends lacks $lib"
done
if grep -q cublas <<<"$depends"; then fail "cuBLAS must be recommended, not a dependency"; fi
grep -q 'libcublas' <<<"$(dpkg-deb -f "$deb" Recommends)" || fail "Recommends lacks NVIDIA's cuBLAS"
contents=$(dpkg-deb -c "$deb")
for f in ./usr/bin/tilescope ./usr/share/tilescope/shaders/ ./usr/share/tilescope/assets/lessons/ \
  ./usr/share/applications/io.github.tilescope.Tilescope.desktop \
  ./usr/share/metainfo/io.github.tilescope.Tilescope.metainfo.xml ./usr/share/man/man1/tilescope.1 \
  ./usr/share/doc/tilescope/README.md ./usr/share/doc/tilescope/docs/BUILDING.md \
  ./usr/share/doc/tilescope/docs/screenshots/window-gemm-f32.png; do
  grep -qF " $f" <<<"$contents" || fail "the package lacks $f"
done
if grep -qF "$root" <<<"$contents"; then fail "the package names paths of the build machine"; fi

step "apt-get install"
if dpkg-query -W -f='${Status}' tilescope 2>/dev/null | grep -q "install ok installed"; then
  fail "tilescope is installed already: remove it first (apt-get remove tilescope)"
fi
# Without recommended packages: the program must start with its dependencies alone (and CI
# fetches nothing it does not need).
installed=1
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" >"$build/apt-install.log" 2>&1 ||
  { cat "$build/apt-install.log" >&2; fail "apt-get install $deb failed"; }

step "installed files"
desktop-file-validate /usr/share/applications/io.github.tilescope.Tilescope.desktop ||
  fail "desktop-file-validate rejects the installed desktop entry"
appstreamcli validate --no-net /usr/share/metainfo/io.github.tilescope.Tilescope.metainfo.xml ||
  fail "appstreamcli rejects the installed metainfo"
for size in 16 24 32 48 64 128 256; do
  [ -s /usr/share/icons/hicolor/${size}x${size}/apps/io.github.tilescope.Tilescope.png ] || fail "no ${size}px icon"
done
[ -s /usr/share/icons/hicolor/scalable/apps/io.github.tilescope.Tilescope.svg ] || fail "no scalable icon"
page=$(man -w tilescope) || fail "man -w tilescope finds no page"
echo "  man page: $page"
warnings=$(man -l "$page" 2>&1 >/dev/null) || fail "man cannot render $page"
[ -z "$warnings" ] || fail "man warns while rendering $page: $warnings"
# Every option the program's help texts name is in the manual page (packaging/man/tilescope.1).
manual=$(MANWIDTH=200 man -l "$page" 2>/dev/null)
helps=$({ tilescope --help; tilescope --help-window; tilescope bench --help; tilescope plot --help; tilescope compile --help; tilescope memory --help; } 2>&1)
for option in $(grep -oE -- '(^|[ [(|,])--[a-z][a-z0-9-]*' <<<"$helps" | grep -oE -- '--[a-z0-9-]+' | sort -u); do
  grep -qF -- "$option" <<<"$manual" || fail "the manual page lacks $option (packaging/man/tilescope.1)"
done

# No absolute path of the build machine's source tree in the program: assert and CUDA_CHECK
# name files relative to it. Only device code compiled with -lineinfo (TILESCOPE_CUDA_LINEINFO)
# keeps the .cu files' paths, in its line tables, where nvcc offers no way to rewrite them.
leaks=$(strings /usr/bin/tilescope | grep -F "$root/" || true)
if [ "$(sed -n 's/^TILESCOPE_CUDA_LINEINFO:BOOL=//p' "$build/CMakeCache.txt")" = ON ] && [ -n "$leaks" ]; then
  leaks=$(grep -vE '\.cu$' <<<"$leaks" | while read -r p; do [ -d "$p" ] || echo "$p"; done || true)
fi
[ -z "$leaks" ] || fail "the program holds build paths: $(head -n 3 <<<"$leaks")"

check_program installed

step "with the CUDA libraries hidden"
# Every folder holding cuBLAS (the loader's cache) and the toolkit's usual library folders,
# as real paths: the toolkit's lib64 and targets/*/lib are often links to one folder.
mapfile -t cuda_dirs < <({
  ldconfig -p | awk '/libcublas/ {print $NF}' | xargs -r -n1 dirname
  ls -d /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/*/lib 2>/dev/null || true
} | xargs -r -n1 realpath -e 2>/dev/null | sort -u)
if [ ${#cuda_dirs[@]} -eq 0 ]; then
  echo "  no CUDA library folder on this machine: checking as it is"
fi
env -u CUDA_HOME -u CUDA_PATH -u LD_LIBRARY_PATH unshare -m bash "$root/scripts/test-package.sh" --hidden-cuda \
  "$expected_version" "${cuda_dirs[@]}" || fail "the checks without the CUDA libraries failed"

step "apt-get remove"
DEBIAN_FRONTEND=noninteractive apt-get remove -y -q tilescope >"$build/apt-remove.log" 2>&1 ||
  { cat "$build/apt-remove.log" >&2; fail "apt-get remove tilescope failed"; }
installed=0
[ ! -e /usr/bin/tilescope ] || fail "/usr/bin/tilescope is still there after removal"
[ ! -e /usr/share/tilescope ] || fail "/usr/share/tilescope is still there after removal"
echo "test-package: PASSED ($deb)"
