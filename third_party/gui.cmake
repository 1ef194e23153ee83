# CMake glue for the window's system packages (Debian 12): Dear ImGui 1.86 (libimgui-dev, whose
# libimgui.a already holds the GLFW and OpenGL3 backends), GLFW 3.3 (libglfw3-dev), OpenGL and
# EGL through glvnd (libopengl-dev, libegl-dev), stb_image_write (libstb-dev). No copied source.
find_package(PkgConfig REQUIRED)
# The .pc omits the backends' folder; linking through the pkg-config target brings -lstb too.
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui>=1.86)
target_include_directories(PkgConfig::IMGUI INTERFACE /usr/include/imgui /usr/include/imgui/backends)
pkg_check_modules(STB REQUIRED IMPORTED_TARGET stb)
find_package(glfw3 3.3 REQUIRED)
set(OpenGL_GL_PREFERENCE GLVND)
find_package(OpenGL REQUIRED COMPONENTS OpenGL EGL)
