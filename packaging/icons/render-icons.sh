#!/usr/bin/env bash
# Renders the icon's PNG sizes for the hicolor theme from io.github.tilescope.Tilescope.svg.
# A one-off tool for whoever edits the SVG, not a build step: the PNGs are committed.
# Needs rsvg-convert (Debian package librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")"
name=io.github.tilescope.Tilescope
command -v rsvg-convert >/dev/null || { echo "render-icons.sh: needs rsvg-convert (apt-get install librsvg2-bin)" >&2; exit 1; }
for size in 16 24 32 48 64 128 256; do
  mkdir -p "hicolor/${size}x${size}/apps"
  rsvg-convert -w "$size" -h "$size" "$name.svg" -o "hicolor/${size}x${size}/apps/$name.png"
done
echo "render-icons.sh: rendered $(ls hicolor/*/apps/$name.png | wc -l) PNG sizes into hicolor/"
