// Shortcut keys that always register: Dear ImGui 1.86 keeps only which keys are down at each
// frame, so a key pressed and released between two frames (synthetic input, a quick tap on a
// slow frame) was lost. The hosts queue presses as they happen; these tests press and release
// inside one frame and check that the action happens exactly once.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "app/platform/host.h"
#include "app/ui/shell/app.h"
#include "tests/gui/gui_test_support.h"

using namespace tilescope;
using namespace tilescope::testing;

namespace {

// The key callback GLFW calls for the window now: ImGui's backend's, which passes every event on
// to the host's (installed before it).
GLFWkeyfun installed_key_callback(GLFWwindow* window) {
  const GLFWkeyfun cb = glfwSetKeyCallback(window, nullptr);
  glfwSetKeyCallback(window, cb);
  return cb;
}

}  // namespace

TEST(KeyQueue, ATapInsideOneFrameActsOnceInTheWindow) {
  if (!have_display()) GTEST_SKIP() << "DISPLAY is not set: run under xvfb-run -a";
  HostOptions options = host_options(900, 600);
  options.title = "tilescope key test";
  auto host = make_window_host(options);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  frame(*host, app);
  frame(*host, app);
  GLFWwindow* window = glfwGetCurrentContext();
  ASSERT_NE(window, nullptr);
  const GLFWkeyfun key = installed_key_callback(window);
  ASSERT_NE(key, nullptr);

  // F11 (presenter mode): down and up between two frames.
  const bool presenter = app.state().presenter;
  key(window, GLFW_KEY_F11, 0, GLFW_PRESS, 0);
  key(window, GLFW_KEY_F11, 0, GLFW_RELEASE, 0);
  frame(*host, app);
  EXPECT_EQ(app.state().presenter, !presenter) << "the tap was lost";
  frame(*host, app);
  frame(*host, app);
  EXPECT_EQ(app.state().presenter, !presenter) << "one tap, one toggle";

  // Ctrl+= (bigger text) as `xdotool key ctrl+equal` sends it: all four events in one frame.
  const float scale = app.state().font_scale;
  key(window, GLFW_KEY_LEFT_CONTROL, 0, GLFW_PRESS, 0);
  key(window, GLFW_KEY_EQUAL, 0, GLFW_PRESS, GLFW_MOD_CONTROL);
  key(window, GLFW_KEY_EQUAL, 0, GLFW_RELEASE, GLFW_MOD_CONTROL);
  key(window, GLFW_KEY_LEFT_CONTROL, 0, GLFW_RELEASE, GLFW_MOD_CONTROL);
  frame(*host, app);
  frame(*host, app);
  EXPECT_NEAR(app.state().font_scale, scale + 0.1f, 1e-5f) << "exactly one step";

  // '=' without Ctrl is not the shortcut.
  key(window, GLFW_KEY_EQUAL, 0, GLFW_PRESS, 0);
  key(window, GLFW_KEY_EQUAL, 0, GLFW_RELEASE, 0);
  frame(*host, app);
  EXPECT_NEAR(app.state().font_scale, scale + 0.1f, 1e-5f);

  // A key held over several frames, with the system's auto-repeat: still one toggle.
  key(window, GLFW_KEY_F11, 0, GLFW_PRESS, 0);
  frame(*host, app);
  for (int i = 0; i < 3; ++i) {
    key(window, GLFW_KEY_F11, 0, GLFW_REPEAT, 0);
    frame(*host, app);
  }
  key(window, GLFW_KEY_F11, 0, GLFW_RELEASE, 0);
  frame(*host, app);
  EXPECT_EQ(app.state().presenter, presenter) << "held: toggled back once, not per repeat";
}

TEST(KeyQueue, TheHeadlessHostTakesQueuedPressesToo) {
  auto host = make_host(800, 500);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  frame(*host, app);
  const bool presenter = app.state().presenter;
  host->queue_key_press(GLFW_KEY_F11, 0);
  frame(*host, app);
  EXPECT_EQ(app.state().presenter, !presenter);
  EXPECT_TRUE(host->key_presses().size() == 1u) << "the frame's presses, as handed to the UI";
  frame(*host, app);
  EXPECT_EQ(app.state().presenter, !presenter) << "a press acts in one frame only";
  EXPECT_TRUE(host->key_presses().empty());

  // Two taps in one frame are two presses.
  const float scale = app.state().font_scale;
  host->queue_key_press(GLFW_KEY_MINUS, GLFW_MOD_CONTROL);
  host->queue_key_press(GLFW_KEY_MINUS, GLFW_MOD_CONTROL);
  frame(*host, app);
  EXPECT_NEAR(app.state().font_scale, scale - 0.2f, 1e-5f);
}
