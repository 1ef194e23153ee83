// The shortcuts' keys. Dear ImGui 1.86 sees only which keys are down at each frame, so a tap
// shorter than a frame is lost; the host queues every press as it happens (platform/host.h)
// and the UI reads that list here instead. Each press acts once: a check that matches one
// consumes it. UI thread only (like ImGui's own key state).
#pragma once

#include <vector>

#include "app/platform/host.h"

namespace tilescope {

// Modifier matching for key_tapped: any modifiers at all, or exactly these of Ctrl, Alt and
// Super (Shift, Caps Lock and Num Lock are ignored: Ctrl+= is Ctrl+Shift+= on some layouts).
constexpr int kAnyMods = -1;

// The presses of the frame about to be drawn (App::frame() calls it first).
void begin_key_frame(const std::vector<KeyPress>& presses);

// True, consuming it, if `glfw_key` was pressed since the last frame with these modifiers.
bool key_tapped(int glfw_key, int mods = kAnyMods);

// key_tapped, or ImGui's repeat while the key is held down (arrows that step): the first press
// comes from the queue, the repeats (after io.KeyRepeatDelay, every io.KeyRepeatRate) from ImGui.
bool key_tapped_or_repeated(int glfw_key);

}  // namespace tilescope
