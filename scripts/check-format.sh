#!/usr/bin/env bash
# Checks that every C++/CUDA source of the repository is formatted by its .clang-format
# (Debian's clang-format). With --fix, formats them in place instead.
set -euo pipefail
cd "$(dirname "$0")/.."
# Tracked files and new ones not ignored yet (a change before its commit), those that exist.
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.cpp' '*.h' '*.cu' '*.cuh' |
  sort -u | while read -r f; do [ -f "$f" ] && echo "$f"; done)
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
if ! clang-format --dry-run -Werror "${files[@]}"; then
  echo "clang-format: the files above differ from .clang-format (scripts/check-format.sh --fix formats them)" >&2
  exit 1
fi
echo "clang-format: ${#files[@]} files formatted"
