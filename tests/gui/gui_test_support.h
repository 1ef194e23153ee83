// What several GUI suites need: a headless host (or a window host where there is a display) and
// an App on it without a GPU, whole frames of the App (a number of them, or until its work is
// done), a screenshot, the committed H100 sweep, temporary files and folders, small text files, a
// private copy of shaders/ to break, and environment variables set for a scope.
#pragma once

#include <gtest/gtest.h>
#include <imgui.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/export/png_writer.h"
#include "app/gl_gemm/shader_gemm.h"
#include "app/platform/host.h"
#include "app/ui/shell/app.h"

namespace tilescope::testing {

// A real sweep measured on an H100 (the baseline and every configuration of the CUDA kernels at
// N = 1024 ... 8192), committed with the benchmarks.
inline const std::string kH100Csv =
    std::string(TILESCOPE_SOURCE_DIR) + "/docs/benchmarks/h100-2026-11-21/bench-gemm.csv";

// Options of this size, the rest as the program's defaults: what a test then changes stands out.
inline HostOptions host_options(int w, int h) {
  HostOptions o;
  o.width = w;
  o.height = h;
  return o;
}

// A headless host; null, and a failure that says why, when none could be made.
inline std::unique_ptr<Host> make_host(const HostOptions& o) {
  std::string error;
  auto host = create_headless_host(o, &error);
  EXPECT_TRUE(host) << error;
  return host;
}

inline std::unique_ptr<Host> make_host(int w, int h) {
  return make_host(host_options(w, h));
}

// Whether there is an X display for a window host: CI runs the GUI tests under xvfb-run, and a
// test that needs a window skips, visibly, without one.
inline bool have_display() {
  const char* display = std::getenv("DISPLAY");
  return display != nullptr && *display != '\0';
}

// A window host on that display, without vsync (Xvfb has no vblank to wait for); null, and a
// failure that says why, when none could be made.
inline std::unique_ptr<Host> make_window_host(HostOptions o) {
  o.vsync = false;
  std::string error;
  auto host = create_window_host(o, &error);
  EXPECT_TRUE(host) << error;
  return host;
}

// A frame with a known picture: a window (so that ImGui has real content to draw) at `window_at`,
// `window_size` big, and a solid rectangle in `color` on the foreground list at x 40..100,
// y 30..70.
inline void draw_known_frame(Host& host, ImVec2 window_at, ImVec2 window_size, ImU32 color) {
  host.begin_frame();
  ImGui::SetNextWindowPos(window_at);
  ImGui::SetNextWindowSize(window_size);
  ImGui::Begin("probe");
  ImGui::Text("Hello, GEMM");
  ImGui::End();
  ImGui::GetForegroundDrawList()->AddRectFilled(ImVec2(40, 30), ImVec2(100, 70), color);
  host.end_frame();
}

// The App as a machine without a GPU starts it: the same on every test machine, GPU or not.
inline AppOptions without_gpu() {
  AppOptions options;
  options.use_gpu = false;
  options.worker_program = TILESCOPE_BINARY;  // the editor's worker: the program, not this test
  return options;
}

inline void frame(Host& host, App& app) {
  host.begin_frame();
  app.frame();
  host.end_frame();
  app.after_frame();
}

inline void frames(Host& host, App& app, int count) {
  for (int i = 0; i < count; ++i) frame(host, app);
}

// Frames until the App's run, sweep or Live has stopped (at most 2000).
inline void frames_while_busy(Host& host, App& app) {
  for (int i = 0; i < 2000 && app.busy(); ++i) frame(host, app);
}

// Frames until File > Load CSV has handed its rows over or failed (at most 6000).
inline void frames_while_loading(Host& host, App& app) {
  for (int i = 0; i < 6000 && app.loading_csv(); ++i) frame(host, app);
}

// A path in /tmp for a file of this test program (the process id keeps programs apart).
inline std::string temp_path(const std::string& name) {
  return "/tmp/tilescope-test-" + std::to_string(getpid()) + "-" + name;
}

// The next frame as the screenshot shows it (through a temporary PNG, removed after); an empty
// image, and a failure, when it was not written.
inline Image screenshot(Host& host, App& app, const std::string& name) {
  const std::string path = temp_path(name);
  app.request_screenshot(path);
  frame(host, app);
  app.finish_file_writes();  // written beside the frames, as in the window
  Image img;
  std::string error;
  EXPECT_TRUE(read_png(path, &img, &error)) << error << " (" << app.status() << ")";
  unlink(path.c_str());
  return img;
}

// A new empty folder in /tmp, removed with everything in it at the end of the scope.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix) {
    std::string name = "/tmp/" + prefix + "-XXXXXX";
    const char* made = mkdtemp(name.data());
    EXPECT_NE(made, nullptr) << name;
    path_ = made ? made : "";
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  EXPECT_TRUE(out.good()) << path;
}

// A private copy of the source tree's shaders/ that a test may break or edit; removed after.
class ShaderDir {
 public:
  ShaderDir() : dir_("tilescope-shaders") {
    std::vector<std::string> files = {shader_vertex_file()};
    for (ShaderMode m : all_shader_modes()) files.push_back(shader_mode_fragment_file(m));
    for (const std::string& f : files)
      write_file(path() + "/" + f, read_file(std::string(TILESCOPE_SOURCE_DIR) + "/shaders/" + f));
  }
  const std::string& path() const { return dir_.path(); }
  std::string file(ShaderMode mode) const { return path() + "/" + shader_mode_fragment_file(mode); }
  // The first `text` in the mode's fragment shader made `with` (a learner's edit, or a break);
  // false, with the file unchanged, where the shader does not contain `text`.
  bool edit(ShaderMode mode, const std::string& text, const std::string& with) const {
    std::string source = read_file(file(mode));
    const std::size_t at = source.find(text);
    if (at == std::string::npos) return false;
    write_file(file(mode), source.replace(at, text.size(), with));
    return true;
  }

 private:
  TempDir dir_;
};

// $NAME = value for the scope (with unset = true: removed), then as it was.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value, bool unset = false) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    old_ = old ? old : "";
    if (unset)
      unsetenv(name);
    else
      setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had_)
      setenv(name_.c_str(), old_.c_str(), 1);
    else
      unsetenv(name_.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  bool had_ = false;
  std::string old_;
};

// $TILESCOPE_SHADERS = dir for the scope, then as it was.
class ScopedShaderEnv : public ScopedEnv {
 public:
  explicit ScopedShaderEnv(const std::string& dir) : ScopedEnv("TILESCOPE_SHADERS", dir) {}
};

}  // namespace tilescope::testing
