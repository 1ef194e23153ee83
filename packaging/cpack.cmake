# The Debian package: `cpack -G DEB` in a build folder makes tilescope_<version>_<arch>.deb of
# what install.cmake installs, under /usr.
# The home page, as in the AppStream metadata (packaging/io.github.tilescope.Tilescope.metainfo.xml).
set(TILESCOPE_HOMEPAGE "https://github.com/tilescope/tilescope")
set(TILESCOPE_PACKAGE_MAINTAINER "tilescope maintainers <maintainers@tilescope.invalid>"
    CACHE STRING "The Debian package's Maintainer field: Name <e-mail>")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tilescope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "see how a GPU multiplies matrices")
# The long description: CPack puts the summary above it and indents every line (an empty line
# becomes the " ." paragraph break).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "tilescope teaches how a GPU multiplies matrices. Pick a GEMM kernel (cuBLAS,
a naive one, a shared-memory tiled one, a register-tiled kernel with
prefetch), change the matrix and tile sizes, and measure it on your GPU
against cuBLAS and the chip's peak, every result checked against a
double-precision reference. A mapping view shows which thread computes what;
a History tab multiplies matrices with OpenGL texture shaders, as GPUs did
before CUDA. Includes a command-line benchmark (tilescope bench).

The CUDA kernels need an NVIDIA GPU, its driver and cuBLAS (NVIDIA's
libcublas package, loaded at run time when present). Without them the
program runs the CPU reference, the mapping models and the texture shaders.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # tilescope_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${TILESCOPE_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${TILESCOPE_HOMEPAGE}")
# Depends: the shared libraries the program links (GLFW, glvnd's EGL and OpenGL, stb, the C and
# C++ runtimes), found by dpkg-shlibdeps (package dpkg-dev) from the binary itself.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Recommends, not Depends: the program starts without them.
#  - cuBLAS, from NVIDIA's CUDA repository, the package of the toolkit built against; loaded at
#    run time, only the CUDA variants need it;
#  - an EGL and a GLX implementation behind glvnd: Mesa's, or the NVIDIA driver's;
#  - a UI font (without one ImGui's small built-in bitmap font is used).
set(TILESCOPE_CUBLAS_PACKAGE "libcublas-${CUDAToolkit_VERSION_MAJOR}-${CUDAToolkit_VERSION_MINOR}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "${TILESCOPE_CUBLAS_PACKAGE}, libegl-mesa0 | libegl-nvidia0, libglx-mesa0 | libglx-nvidia0, libgl1-mesa-dri, fonts-dejavu-core | fonts-inter")
include(CPack)
