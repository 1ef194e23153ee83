// One UI, two ways to host it. A Host owns an OpenGL 3.3+ core context, the Dear ImGui context
// and ImGui's backends; the UI code (app/ui) draws between begin_frame() and end_frame() and
// never knows which host it runs in.
//   window host:   GLFW 3.3 window (X11; under Xvfb in CI), swaps to the screen.
//   headless host: EGL without any display — the NVIDIA device platform (EGL_EXT_platform_device)
//                  where a GPU is there, else Mesa's surfaceless platform (CI, laptops without
//                  a GPU) — rendering into an RGBA8 framebuffer object of a fixed size.
//
// One host at a time per process: a host creates the ImGui context (the caller must not) and
// destroys it, together with the GL context, when it is destroyed. Creating a second host while
// one is alive fails with an error.
//
// The frame loop, the same for both hosts:
//   while (host->running()) {
//     host->begin_frame();         // events, then ImGui::NewFrame()
//     draw_ui();                   // any ImGui calls
//     if (want_screenshot) host->request_capture();
//     host->end_frame();           // ImGui::Render(), draw, read back if requested, swap
//     if (host->take_capture(&image, &error)) write_png(path, image, &error);
//   }
//
// Input. Window host: the GLFW backend fills ImGuiIO (mouse, keys, text). Headless host: nothing
// does; a script writes ImGuiIO itself (io.MousePos, io.MouseDown[], io.KeysDown[], io.KeyCtrl,
// io.AddInputCharacter) before begin_frame(). Both hosts use GLFW's key codes as indices into
// io.KeysDown and the same io.KeyMap, so `ImGui::IsKeyPressed(GLFW_KEY_F12)` means the same in both.
//
// Key presses, for shortcuts. Dear ImGui 1.86 keeps only whether a key is down at each frame, so
// a key pressed and released between two frames (a quick tap on a slow frame, synthetic input
// such as `xdotool key ctrl+q`) never shows as pressed. The hosts therefore also queue every
// press as it happens (window: from GLFW's key callback, which ImGui's backend chains to;
// headless: queue_key_press()), and begin_frame() hands the presses since the previous frame
// to key_presses(), each once.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/platform/gl_thread_context.h"
#include "app/platform/image.h"

namespace tilescope {

// Which EGL platform the headless host uses. kAuto: a GPU's device platform (NVIDIA first,
// then other hardware devices), else Mesa's surfaceless platform. The forced choices are for
// tests and for comparing renderers on one machine.
enum class EglPlatform { kAuto, kDevice, kSurfaceless };

// One key press: a GLFW key code (GLFW_KEY_F11) and the modifiers held with it (GLFW_MOD_* bits).
struct KeyPress {
  int key = 0;
  int mods = 0;
};

struct HostOptions {
  int width = 1600, height = 900;  // window size (screen coordinates) or framebuffer size (headless)
  std::string title = "tilescope";
  bool vsync = true;           // window host only
  std::string imgui_ini_path;  // "" = no imgui.ini
  float font_size_pixels = 0;  // 0 = 16 px x content scale
  // 0 = the monitor's (window host) or 1 (headless). Set it to render a headless frame as a
  // presenter's high-DPI screen would show it (larger font and widget sizes, same pixel size).
  float content_scale = 0;
  // Headless: io.DeltaTime of each frame. A fixed step makes scripted runs and their
  // screenshots repeatable (tooltip delays, double clicks count frames, not wall time);
  // 0 = measured wall time.
  float headless_frame_seconds = 1.0f / 60.0f;
  EglPlatform egl_platform = EglPlatform::kAuto;  // headless only
  // Window host only: when set, the host also makes a hidden 16 x 16 window of the same GL and
  // hands its context to this hook, for GL work on another thread (the texture-shader GEMM's GL
  // thread: the UI installs set_gl_thread_context here); it calls the hook with nullptr before
  // destroying that window. The host does not know who uses the context.
  std::function<void(GlThreadContext*)> on_worker_context;
};

class Host {
 public:
  Host() = default;
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;
  virtual ~Host() = default;

  // False once the user closed the window or someone called request_close().
  virtual bool running() const = 0;
  // Window: ends the loop after this frame (as if the user closed the window). Headless: the
  // same flag, so that a script's "quit" works in both.
  virtual void request_close() = 0;
  // Polls events and starts an ImGui frame (ImGui::NewFrame() included).
  virtual void begin_frame() = 0;
  // ImGui::Render(), draws the frame into the host's target (clear colour first), reads it
  // back if request_capture() was called, then presents it (window host: swap buffers).
  virtual void end_frame() = 0;

  // Screenshots. A window's pixels can only be read between drawing and the swap (afterwards
  // the back buffer is undefined), so a capture is asked for before end_frame(), which then
  // reads the finished frame (GL_BACK, or the headless FBO) and keeps it until taken. Frames
  // without a request cost no read-back. Same behaviour in both hosts.
  void request_capture() { capture_requested_ = true; }
  bool capture_requested() const { return capture_requested_; }
  // Moves out the image read by the last end_frame() that had a request (RGBA8, top row first,
  // framebuffer pixels). False and *error if none was requested since the last take, or the
  // read-back failed.
  bool take_capture(Image* out, std::string* error);

  // The key presses that arrived before this frame's begin_frame() (since the previous one),
  // in order; auto-repeats of a held key are not presses.
  const std::vector<KeyPress>& key_presses() const { return frame_key_presses_; }
  // Queues a press for the next begin_frame(): the window's key callback calls it; scripts and
  // tests may too (in either host). UI thread only.
  void queue_key_press(int key, int mods) { pending_key_presses_.push_back(KeyPress{key, mods}); }

  // Background of every frame (behind the ImGui windows), linear 0..1, opaque.
  void set_clear_color(float r, float g, float b);

  // Pixel size of the drawable.
  virtual int framebuffer_width() const = 0;
  virtual int framebuffer_height() const = 0;
  // The monitor's content scale (window host: queried live, it changes when the window moves
  // to another monitor — reload the font with load_ui_font then), or options.content_scale.
  virtual float content_scale() const = 0;
  // GL_RENDERER / GL_VERSION strings, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)", "NVIDIA H100 ...".
  // Print them: on the GPU machine a missing __GLX_VENDOR_LIBRARY_NAME=nvidia silently gives llvmpipe.
  virtual std::string renderer() const = 0;
  virtual std::string gl_version() const = 0;
  // How the context was made: "GLX (GLFW window)", "EGL device platform (EGL_NV_device_cuda)",
  // "EGL surfaceless platform (Mesa)".
  virtual std::string gl_platform() const = 0;
  virtual bool headless() const = 0;

 protected:
  // For end_frame(): when a capture was requested, `read(Image*, std::string*) -> bool` reads
  // the finished frame back and the result is kept for take_capture().
  template <typename Read>
  void capture_if_requested(Read read) {
    if (!capture_requested_) return;
    capture_requested_ = false;
    captured_ = Image();
    capture_error_.clear();
    capture_state_ = read(&captured_, &capture_error_) ? CaptureState::kReady : CaptureState::kFailed;
  }
  float clear_color_[3] = {0.10f, 0.10f, 0.12f};
  // For begin_frame(), after polling events: the queued presses become this frame's.
  void take_queued_key_presses() {
    frame_key_presses_.swap(pending_key_presses_);
    pending_key_presses_.clear();
  }

 private:
  std::vector<KeyPress> pending_key_presses_, frame_key_presses_;
  enum class CaptureState { kNone, kReady, kFailed };
  bool capture_requested_ = false;
  CaptureState capture_state_ = CaptureState::kNone;
  Image captured_;
  std::string capture_error_;
};

// nullptr and *error set when no host can be made (one sentence, no "tilescope:" prefix: the
// caller adds it). Without a display the window host says so
// and points at --headless; the headless host says what EGL lacked.
std::unique_ptr<Host> create_window_host(const HostOptions& options, std::string* error);
std::unique_ptr<Host> create_headless_host(const HostOptions& options, std::string* error);

// The system TrueType font the UI uses, or "": $TILESCOPE_UI_FONT if it names a readable file
// ("builtin": none, ImGui's built-in font, as on a machine without fonts), else Inter
// (fonts-inter), else DejaVu Sans (fonts-dejavu-core).
std::string find_ui_font();
// (Re)builds ImGui's font atlas with find_ui_font() at `pixels` size (Latin, Greek, arrows, math
// operators, super/subscripts such as the ᵀ of AᵀA) and recreates the renderer's font
// texture. Falls back to ImGui's built-in font (with *error saying why, and returning false)
// when no system font can be loaded; the UI still works then. Whatever the font, it draws every
// character of ui_font_symbols(): what it lacks comes from another system font, or is made from
// its own glyphs. Call between frames, with a host alive (its GL context current).
bool load_ui_font(float pixels, std::string* error);
// The characters beyond ASCII that the UI writes (a test checks the sources write no others).
std::vector<unsigned> ui_font_symbols();
// The font the last atlas build used, in words: "DejaVuSans.ttf (30 px)", "ImGui's built-in font
// (30 px); ᵀ – — … made from its own glyphs; no UI font found (...)".
std::string ui_font_summary();

}  // namespace tilescope
