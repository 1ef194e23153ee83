// Every keyboard shortcut of the window, and the mouse gestures of its pictures, as one table:
// Help > Keyboard shortcuts shows it, and a test checks that each key the UI reads
// (key_tapped in app/ui) has its entry here.
#pragma once

#include <vector>

namespace tilescope {

struct Shortcut {
  int key;               // the GLFW key code; 0 for a mouse gesture
  const char* key_name;  // its GLFW name ("GLFW_KEY_F11"), for the test that matches it to the code
  const char* keys;      // as the user presses it: "Ctrl+E", "Space", "mouse wheel"
  const char* what;      // what it does
  const char* where;     // where it acts: "anywhere", "the Mapping tab", ...
};

// In the order Help shows them: the window's shortcuts, then each tab's.
const std::vector<Shortcut>& shortcut_list();

}  // namespace tilescope
