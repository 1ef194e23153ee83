#!/usr/bin/env bash
# Installs, from Debian 12's packages, whatever tilescope's build and tests need and this machine
# lacks (as root; quick when everything is there already). The CUDA toolkit itself (nvcc 13,
# cuBLAS) is expected at /usr/local/cuda, as on every development and CI machine of ours.
set -euo pipefail

packages=(cmake g++ make pkg-config clang-format libgtest-dev nlohmann-json3-dev
          libimgui-dev libglfw3-dev libstb-dev libgl-dev libopengl-dev libegl-dev
          libgl1-mesa-dri libegl-mesa0 libglx-mesa0 xvfb xauth fonts-dejavu-core
          # the Debian package and its test (scripts/test-package.sh): dpkg-shlibdeps finds the
          # package's dependencies; the validators check the desktop entry and AppStream file
          dpkg-dev desktop-file-utils appstream man-db python3)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "tilescope: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "tilescope: run this as root (or install the packages above yourself)" >&2
    exit 1
  fi
  apt-get update -qq -o DPkg::Lock::Timeout=120
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    -o DPkg::Lock::Timeout=120 "${missing[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "tilescope: the CUDA toolkit (nvcc 12 or newer, with cuBLAS) is not installed at /usr/local/cuda." >&2
  echo "           Install NVIDIA's CUDA toolkit for Debian 12 and run this again." >&2
  exit 1
fi
