#include "app/platform/egl_context.h"

// Keep X11's macros (None, Bool, Status...) out: eglplatform.h includes Xlib.h otherwise.
#define EGL_NO_X11 1
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "app/platform/code_names.h"

namespace tilescope {
namespace {

std::string egl_error_name(EGLint code) {
  static const CodeName kNames[] = {
      TILESCOPE_CODE_NAME(EGL_SUCCESS),           TILESCOPE_CODE_NAME(EGL_NOT_INITIALIZED),
      TILESCOPE_CODE_NAME(EGL_BAD_ACCESS),        TILESCOPE_CODE_NAME(EGL_BAD_ALLOC),
      TILESCOPE_CODE_NAME(EGL_BAD_ATTRIBUTE),     TILESCOPE_CODE_NAME(EGL_BAD_CONFIG),
      TILESCOPE_CODE_NAME(EGL_BAD_CONTEXT),       TILESCOPE_CODE_NAME(EGL_BAD_CURRENT_SURFACE),
      TILESCOPE_CODE_NAME(EGL_BAD_DISPLAY),       TILESCOPE_CODE_NAME(EGL_BAD_MATCH),
      TILESCOPE_CODE_NAME(EGL_BAD_NATIVE_PIXMAP), TILESCOPE_CODE_NAME(EGL_BAD_NATIVE_WINDOW),
      TILESCOPE_CODE_NAME(EGL_BAD_PARAMETER),     TILESCOPE_CODE_NAME(EGL_BAD_SURFACE),
      TILESCOPE_CODE_NAME(EGL_CONTEXT_LOST)};
  return code_name(code, kNames);
}

std::string failed(const char* call) {
  return std::string(call) + " failed (" + egl_error_name(eglGetError()) + ")";
}

// Extension strings are space-separated names; a plain strstr would let a name match the
// prefix of a longer one.
bool has_extension(const char* list, const char* name) {
  if (!list) return false;
  const std::size_t length = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)) != nullptr; p += length) {
    const bool starts = p == list || p[-1] == ' ';
    const bool ends = p[length] == ' ' || p[length] == '\0';
    if (starts && ends) return true;
  }
  return false;
}

template <typename Function>
Function egl_function(const char* name) {
  return reinterpret_cast<Function>(eglGetProcAddress(name));
}

struct Device {
  EGLDeviceEXT handle;
  std::string extensions;
  int rank;  // lower is tried first
};

// Appends "what: why" to the list of attempts that failed.
void note_attempt(std::string* tried, const std::string& what, const std::string& why) {
  *tried += (tried->empty() ? "" : "; ") + what + ": " + why;
}

// Lower rank is tried first: NVIDIA's CUDA device, then DRM devices, then anything else, then
// Mesa's software device.
int device_rank(const char* extensions) {
  if (has_extension(extensions, "EGL_NV_device_cuda")) return 0;
  if (has_extension(extensions, "EGL_EXT_device_drm")) return 1;
  if (has_extension(extensions, "EGL_MESA_device_software")) return 3;
  return 2;
}

const char* device_kind(int rank) {
  return rank == 0   ? "EGL_NV_device_cuda"
         : rank == 1 ? "EGL_EXT_device_drm"
         : rank == 3 ? "EGL_MESA_device_software"
                     : "device";
}

// The EGL devices worth trying, best first. In kAuto, Mesa's software device is left out.
std::vector<Device> enumerate_devices(EglPlatform platform, PFNEGLQUERYDEVICESEXTPROC query_devices,
                                      PFNEGLQUERYDEVICESTRINGEXTPROC query_device_string) {
  EGLint count = 0;
  std::vector<Device> devices;
  if (query_devices(0, nullptr, &count) && count > 0) {
    std::vector<EGLDeviceEXT> handles(static_cast<std::size_t>(count));
    query_devices(count, handles.data(), &count);
    for (EGLint i = 0; i < count; ++i) {
      const char* extensions = query_device_string(handles[static_cast<std::size_t>(i)], EGL_EXTENSIONS);
      Device device{handles[static_cast<std::size_t>(i)], extensions ? extensions : "", device_rank(extensions)};
      if (device.rank == 3 && platform == EglPlatform::kAuto) continue;
      devices.push_back(device);
    }
  }
  std::stable_sort(devices.begin(), devices.end(), [](const Device& a, const Device& b) { return a.rank < b.rank; });
  return devices;
}

}  // namespace

EglContext::~EglContext() {
  destroy();
}

void EglContext::destroy() {
  if (display_) {
    EGLDisplay display = static_cast<EGLDisplay>(display_);
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_) eglDestroyContext(display, static_cast<EGLContext>(context_));
    eglTerminate(display);
    eglReleaseThread();
  }
  display_ = context_ = nullptr;
}

bool EglContext::make_current() {
  return display_ && eglMakeCurrent(static_cast<EGLDisplay>(display_), EGL_NO_SURFACE, EGL_NO_SURFACE,
                                    static_cast<EGLContext>(context_)) == EGL_TRUE;
}

// Initializes `display` and makes a current 3.3 core context on it; on failure terminates the
// display again and says why.
bool EglContext::try_display(void* display_handle, std::string* why) {
  EGLDisplay display = static_cast<EGLDisplay>(display_handle);
  if (display == EGL_NO_DISPLAY) {
    *why = failed("eglGetPlatformDisplayEXT");
    return false;
  }
  EGLint major = 0, minor = 0;
  if (!eglInitialize(display, &major, &minor)) {
    *why = failed("eglInitialize");
    return false;
  }
  auto give_up = [&](const std::string& reason) {
    *why = reason;
    eglTerminate(display);
    return false;
  };
  if (!has_extension(eglQueryString(display, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context")) {
    return give_up("the display lacks EGL_KHR_surfaceless_context");
  }
  if (!eglBindAPI(EGL_OPENGL_API)) return give_up(failed("eglBindAPI(EGL_OPENGL_API)"));

  // Any RGBA8 config that can render desktop GL: we never make a surface with it, but
  // eglCreateContext wants a config and pbuffer-capable ones exist on both Mesa and NVIDIA.
  const EGLint config_attributes[] = {EGL_SURFACE_TYPE,
                                      EGL_PBUFFER_BIT,
                                      EGL_RENDERABLE_TYPE,
                                      EGL_OPENGL_BIT,
                                      EGL_RED_SIZE,
                                      8,
                                      EGL_GREEN_SIZE,
                                      8,
                                      EGL_BLUE_SIZE,
                                      8,
                                      EGL_ALPHA_SIZE,
                                      8,
                                      EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attributes, &config, 1, &count) || count < 1) {
    if (!has_extension(eglQueryString(display, EGL_EXTENSIONS), "EGL_KHR_no_config_context")) {
      return give_up("no EGL config renders desktop OpenGL into RGBA8");
    }
    config = EGL_NO_CONFIG_KHR;
  }
  const EGLint context_attributes[] = {
      EGL_CONTEXT_MAJOR_VERSION,           3,       EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  if (context == EGL_NO_CONTEXT) return give_up(failed("eglCreateContext(OpenGL 3.3 core)"));
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    const std::string reason = failed("eglMakeCurrent(no surface)");
    eglDestroyContext(display, context);
    return give_up(reason);
  }
  display_ = display;
  context_ = context;
  return true;
}

// 1. Devices. In kAuto, Mesa's software device is left to the surfaceless platform, the path CI
//    tests; kDevice takes it too (it renders with llvmpipe), so that CI can exercise this code.
bool EglContext::try_device_platform(EglPlatform platform, const char* client, std::string* tried) {
  auto get_platform_display = egl_function<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
  auto query_devices = egl_function<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
  auto query_device_string = egl_function<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
  if (!has_extension(client, "EGL_EXT_platform_device") || !query_devices || !query_device_string) {
    note_attempt(tried, "device platform", "EGL lacks EGL_EXT_platform_device / EGL_EXT_device_enumeration");
    return false;
  }
  const std::vector<Device> devices = enumerate_devices(platform, query_devices, query_device_string);
  if (devices.empty()) note_attempt(tried, "device platform", "no GPU device found");
  for (std::size_t i = 0; i < devices.size(); ++i) {
    std::string why;
    EGLDisplay display = get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i].handle, nullptr);
    if (try_display(display, &why)) {
      const char* vendor = eglQueryString(display, EGL_VENDOR);
      description_ =
          std::string("EGL device platform (") + (vendor ? vendor : "?") + "; " + device_kind(devices[i].rank) + ")";
      return true;
    }
    note_attempt(tried, "device " + std::to_string(i), why);
  }
  return false;
}

// 2. Mesa's surfaceless platform.
bool EglContext::try_surfaceless_platform(const char* client, std::string* tried) {
  if (!has_extension(client, "EGL_MESA_platform_surfaceless")) {
    note_attempt(tried, "surfaceless platform", "EGL lacks EGL_MESA_platform_surfaceless (install libegl-mesa0)");
    return false;
  }
  auto get_platform_display = egl_function<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
  std::string why;
  EGLDisplay display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (try_display(display, &why)) {
    const char* vendor = eglQueryString(display, EGL_VENDOR);
    description_ = std::string("EGL surfaceless platform (") + (vendor ? vendor : "?") + ")";
    return true;
  }
  note_attempt(tried, "surfaceless platform", why);
  return false;
}

bool EglContext::create(EglPlatform platform, std::string* error) {
  destroy();
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!client) {
    *error = "EGL has no client extensions (is libEGL from glvnd and a vendor library, e.g. libegl-mesa0, installed?)";
    return false;
  }
  auto get_platform_display = egl_function<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
  if (!has_extension(client, "EGL_EXT_platform_base") || !get_platform_display) {
    *error = "EGL lacks EGL_EXT_platform_base: cannot open a display without a window system";
    return false;
  }
  std::string tried;
  if (platform != EglPlatform::kSurfaceless && try_device_platform(platform, client, &tried)) return true;
  if (platform != EglPlatform::kDevice && try_surfaceless_platform(client, &tried)) return true;
  *error = "cannot make a headless OpenGL 3.3 core context through EGL: " + tried;
  return false;
}

}  // namespace tilescope
