// Why the window froze while the texture shaders drew on llvmpipe, measured without tilescope:
// a "UI" thread draws and finishes a frame every 16.7 ms while a "worker" thread, in a context of
// its own, draws two long passes (one full-screen quad of a shader that fetches 2 x K texels per
// fragment, as multipass does). The program prints the UI's longest frame.
//
//   g++ -O2 -DGL_GLEXT_PROTOTYPES -o two_contexts two_contexts.cpp -lglfw -lGL -lEGL -lpthread
//   xvfb-run -a -s "-screen 0 1920x1080x24" ./two_contexts UI WORKER [BANDS] [N]
//     UI      glx: a visible GLFW window (GLX)   surfaceless: Mesa's EGL surfaceless display
//     WORKER  hidden: a hidden GLFW window's context, on the UI's X display (GLX)
//             surfaceless: Mesa's EGL surfaceless display
//             device: the EGL device platform's last device (Mesa's software device here)
//     BANDS   draw each pass in this many scissored bands, with glFinish after each (default 1)
//     N       the pass's size, N x N fragments of N fetches of A and B each (default 1024)
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <GLFW/glfw3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

const char* kVertex =
    "#version 330 core\n"
    "void main() { vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2); gl_Position = vec4(p * 2.0 - 1.0, 0, 1); }";
const char* kFragment =
    "#version 330 core\n"
    "uniform sampler2D u_a; uniform int u_k; out vec4 o;\n"
    "void main() { ivec2 ij = ivec2(gl_FragCoord.xy); float s = 0.0;\n"
    "  for (int k = 0; k < u_k; ++k) s += texelFetch(u_a, ivec2(k, ij.y), 0).r * texelFetch(u_a, ivec2(ij.x, k), "
    "0).r;\n"
    "  o = vec4(s); }";

GLuint program() {
  auto shader = [](GLenum type, const char* source) {
    const GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &source, nullptr);
    glCompileShader(s);
    return s;
  };
  const GLuint p = glCreateProgram();
  glAttachShader(p, shader(GL_VERTEX_SHADER, kVertex));
  glAttachShader(p, shader(GL_FRAGMENT_SHADER, kFragment));
  glLinkProgram(p);
  return p;
}

// A current OpenGL 3.3 core context on Mesa's surfaceless display or on the last EGL device.
bool make_egl_context(const std::string& kind) {
  auto get_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  EGLDisplay display = EGL_NO_DISPLAY;
  if (kind == "surfaceless") {
    display = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  } else {
    auto query = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
    EGLDeviceEXT devices[8];
    EGLint count = 0;
    if (!query(8, devices, &count) || count < 1) return false;
    display = get_display(EGL_PLATFORM_DEVICE_EXT, devices[count - 1], nullptr);
  }
  if (!eglInitialize(display, nullptr, nullptr) || !eglBindAPI(EGL_OPENGL_API)) return false;
  const EGLint attributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  eglChooseConfig(display, attributes, &config, 1, &configs);
  const EGLint context_attributes[] = {
      EGL_CONTEXT_MAJOR_VERSION,           3,       EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  const EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  return eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context);
}

std::atomic<bool> g_done{false};

// Two passes of n x n fragments into a float target, each in `bands` bands with a wait after each.
void worker(GLFWwindow* hidden, const std::string& kind, int bands, int n) {
  if (kind == "hidden")
    glfwMakeContextCurrent(hidden);
  else if (!make_egl_context(kind))
    std::printf("worker: no EGL context\n");
  const GLuint p = program();
  glUseProgram(p);
  glUniform1i(glGetUniformLocation(p, "u_k"), n);
  GLuint vao = 0, input = 0, target = 0, fbo = 0;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  const std::vector<float> halves(static_cast<std::size_t>(n) * n, 0.5f);
  glGenTextures(1, &input);
  glBindTexture(GL_TEXTURE_2D, input);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, n, n, 0, GL_RED, GL_FLOAT, halves.data());
  glActiveTexture(GL_TEXTURE1);
  glGenTextures(1, &target);
  glBindTexture(GL_TEXTURE_2D, target);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, n, n, 0, GL_RED, GL_FLOAT, nullptr);
  glActiveTexture(GL_TEXTURE0);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
  glViewport(0, 0, n, n);
  glFinish();
  std::printf("worker: %s\n", reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the UI's frames before
  glEnable(GL_SCISSOR_TEST);
  for (int pass = 0; pass < 2; ++pass) {
    const double start = now_ms();
    const int rows = (n + bands - 1) / bands;
    for (int y = 0; y < n; y += rows) {
      glScissor(0, y, n, rows);
      glDrawArrays(GL_TRIANGLES, 0, 3);
      glFinish();
    }
    std::printf("worker: pass %d took %.0f ms\n", pass, now_ms() - start);
  }
  g_done = true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: two_contexts glx|surfaceless hidden|surfaceless|device [BANDS] [N]\n");
    return 2;
  }
  const std::string ui = argv[1], worker_kind = argv[2];
  const int bands = argc > 3 ? std::max(1, std::atoi(argv[3])) : 1;
  const int n = argc > 4 ? std::max(16, std::atoi(argv[4])) : 1024;
  glfwInit();
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(1920, 1080, "ui", nullptr, nullptr);
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  GLFWwindow* hidden = glfwCreateWindow(16, 16, "worker", nullptr, nullptr);
  if (ui == "glx") {
    glfwMakeContextCurrent(window);
    glfwSwapInterval(0);
  } else if (make_egl_context("surfaceless")) {
    GLuint colour = 0, fbo = 0;  // the headless UI draws into a 1920 x 1080 framebuffer
    glGenRenderbuffers(1, &colour);
    glBindRenderbuffer(GL_RENDERBUFFER, colour);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1920, 1080);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour);
  }
  std::printf("ui: %s\n", reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  std::thread thread(worker, hidden, worker_kind, bands, n);
  std::vector<double> frames;
  while (!g_done) {
    const double start = now_ms();
    glfwPollEvents();
    glClearColor(0.2f, 0.3f, 0.4f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    if (ui == "glx") glfwSwapBuffers(window);
    glFinish();
    frames.push_back(now_ms() - start);
    const double left = 16.7 - (now_ms() - start);
    if (left > 0) std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(left));
  }
  thread.join();
  std::sort(frames.begin(), frames.end());
  std::printf("ui %s, worker %s, %d band(s): %zu frames, median %.1f ms, longest %.1f ms\n", ui.c_str(),
              worker_kind.c_str(), bands, frames.size(), frames[frames.size() / 2], frames.back());
  return 0;
}
