#include "app/ui/shell/key_presses.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

namespace tilescope {
namespace {

struct FramePress {
  KeyPress press;
  bool used = false;
};
std::vector<FramePress> g_presses;  // this frame's, UI thread only

constexpr int kMatchedMods = GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER;

}  // namespace

void begin_key_frame(const std::vector<KeyPress>& presses) {
  g_presses.clear();
  for (const KeyPress& p : presses) g_presses.push_back(FramePress{p, false});
}

bool key_tapped(int glfw_key, int mods) {
  for (FramePress& p : g_presses) {
    if (p.used || p.press.key != glfw_key) continue;
    if (mods != kAnyMods && (p.press.mods & kMatchedMods) != (mods & kMatchedMods)) continue;
    p.used = true;
    return true;
  }
  return false;
}

bool key_tapped_or_repeated(int glfw_key) {
  if (key_tapped(glfw_key)) return true;
  const ImGuiIO& io = ImGui::GetIO();
  if (glfw_key < 0 || glfw_key >= IM_ARRAYSIZE(io.KeysDown)) return false;
  // Down for a while already: ImGui's typematic repeat (its first "press" came from the queue).
  return io.KeysDownDuration[glfw_key] > 0.0f &&
         ImGui::GetKeyPressedAmount(glfw_key, io.KeyRepeatDelay, io.KeyRepeatRate) > 0;
}

}  // namespace tilescope
