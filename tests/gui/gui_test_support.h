// What several GUI suites need: a headless host, one whole frame of the App, small text files,
// a private copy of shaders/ to break, and $TILESCOPE_SHADERS set for a scope.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gl_gemm/shader_gemm.h"
#include "platform/host.h"
#include "ui/app.h"

namespace tilescope::testing {

inline std::unique_ptr<Host> make_host(int w, int h) {
  HostOptions o;
  o.width = w;
  o.height = h;
  std::string error;
  auto host = create_headless_host(o, &error);
  EXPECT_TRUE(host) << error;
  return host;
}

inline void frame(Host& host, App& app) {
  host.begin_frame();
  app.frame();
  host.end_frame();
  app.after_frame();
}

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
  ShaderDir() {
    char name[] = "/tmp/tilescope-shaders-XXXXXX";
    const char* made = mkdtemp(name);
    EXPECT_NE(made, nullptr);
    path_ = made ? made : "";
    files_.push_back(shader_vertex_file());
    for (ShaderMode m : all_shader_modes()) files_.push_back(shader_mode_fragment_file(m));
    for (const std::string& f : files_)
      write_file(path_ + "/" + f, read_file(std::string(TILESCOPE_SOURCE_DIR) + "/shaders/" + f));
  }
  ~ShaderDir() {
    for (const std::string& f : files_) unlink((path_ + "/" + f).c_str());
    rmdir(path_.c_str());
  }
  ShaderDir(const ShaderDir&) = delete;
  ShaderDir& operator=(const ShaderDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(ShaderMode mode) const { return path_ + "/" + shader_mode_fragment_file(mode); }

 private:
  std::string path_;
  std::vector<std::string> files_;
};

// $TILESCOPE_SHADERS = dir for the scope, then as it was.
class ScopedShaderEnv {
 public:
  explicit ScopedShaderEnv(const std::string& dir) {
    const char* saved = std::getenv("TILESCOPE_SHADERS");
    had_ = saved != nullptr;
    saved_ = saved ? saved : "";
    setenv("TILESCOPE_SHADERS", dir.c_str(), 1);
  }
  ~ScopedShaderEnv() {
    if (had_)
      setenv("TILESCOPE_SHADERS", saved_.c_str(), 1);
    else
      unsetenv("TILESCOPE_SHADERS");
  }
  ScopedShaderEnv(const ScopedShaderEnv&) = delete;
  ScopedShaderEnv& operator=(const ScopedShaderEnv&) = delete;

 private:
  bool had_ = false;
  std::string saved_;
};

}  // namespace tilescope::testing
