#include "app/ui/shell/shortcut_list.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace tilescope {

// A key with its GLFW name beside it, so that the table and the code that reads the key can be
// compared by name.
#define TILESCOPE_KEY(key) key, #key

const std::vector<Shortcut>& shortcut_list() {
  static const char* kAnywhere = "anywhere";
  static const char* kNotTyping = "anywhere, while no text field is being typed in";
  static const std::vector<Shortcut> list = {
      {TILESCOPE_KEY(GLFW_KEY_R), "R", "Run: time every ticked variant at the size chosen", kNotTyping},
      {TILESCOPE_KEY(GLFW_KEY_S), "S", "Sweep: time every ticked variant at each size of the range", kNotTyping},
      {TILESCOPE_KEY(GLFW_KEY_L), "L", "Live: re-run the focused variant until stopped", kNotTyping},
      {TILESCOPE_KEY(GLFW_KEY_ESCAPE), "Esc",
       "Close the dialog on top; with none open, cancel the work under way, stop Live, cancel a CSV load", kAnywhere},
      {TILESCOPE_KEY(GLFW_KEY_F11), "F11", "Presenter mode on or off (big text, high contrast)", kAnywhere},
      {TILESCOPE_KEY(GLFW_KEY_F12), "F12",
       "Screenshot of the window: a PNG named by the date and time, in the folder File's choosers open in", kAnywhere},
      {TILESCOPE_KEY(GLFW_KEY_O), "Ctrl+O", "Load a results CSV", kAnywhere},
      {TILESCOPE_KEY(GLFW_KEY_E), "Ctrl+E", "Export the plot as a PNG", kAnywhere},
      {TILESCOPE_KEY(GLFW_KEY_EQUAL), "Ctrl+=", "Bigger text", kAnywhere},
      {TILESCOPE_KEY(GLFW_KEY_KP_ADD), "Ctrl+keypad +", "Bigger text", kAnywhere},
      {TILESCOPE_KEY(GLFW_KEY_MINUS), "Ctrl+-", "Smaller text", kAnywhere},
      {TILESCOPE_KEY(GLFW_KEY_KP_SUBTRACT), "Ctrl+keypad -", "Smaller text", kAnywhere},
      {TILESCOPE_KEY(GLFW_KEY_Q), "Ctrl+Q", "Quit", kAnywhere},
      {TILESCOPE_KEY(GLFW_KEY_SPACE), "Space",
       "Play or pause: the phases of the selected block (Mapping), the passes (History)",
       "the Mapping and History tabs"},
      {TILESCOPE_KEY(GLFW_KEY_RIGHT), "Right arrow", "One phase (Mapping) or pass (History) on; held, it repeats",
       "the Mapping and History tabs"},
      {TILESCOPE_KEY(GLFW_KEY_LEFT), "Left arrow", "One phase (Mapping) or pass (History) back; held, it repeats",
       "the Mapping and History tabs"},
      {TILESCOPE_KEY(GLFW_KEY_ENTER), "Enter", "Open the folder or take the file chosen; export (Export PNG)",
       "a file chooser, the Export PNG dialog"},
      {TILESCOPE_KEY(GLFW_KEY_KP_ENTER), "keypad Enter", "As Enter", "a file chooser, the Export PNG dialog"},
      {TILESCOPE_KEY(GLFW_KEY_UP), "Up arrow", "The file above", "a file chooser"},
      {TILESCOPE_KEY(GLFW_KEY_DOWN), "Down arrow", "The file below", "a file chooser"},
      {TILESCOPE_KEY(GLFW_KEY_PAGE_UP), "Page Up", "A page of files up", "a file chooser"},
      {TILESCOPE_KEY(GLFW_KEY_PAGE_DOWN), "Page Down", "A page of files down", "a file chooser"},
      {TILESCOPE_KEY(GLFW_KEY_BACKSPACE), "Backspace", "The parent folder (while no name is being typed)",
       "a file chooser"},
      {0, "", "click in C", "Select the block that computes that element", "the Mapping tab"},
      {0, "", "mouse wheel", "Zoom: the matrices, the timeline, the plot's x axis",
       "the Mapping tab, the timeline, the Timing plot"},
      {0, "", "right-drag", "Pan the matrices", "the Mapping tab"},
      {0, "", "drag", "Pan the timeline, or the plot", "the timeline, the Timing plot"},
      {0, "", "double-click", "Fit again: the matrices, the timeline, the plot's axes",
       "the Mapping tab, the timeline, the Timing plot"},
      {0, "", "click in the legend", "Show or hide that series", "the Timing plot and the Roofline view"},
      {0, "", "click a pass", "Draw the passes up to that one", "the History tab"},
  };
  return list;
}

#undef TILESCOPE_KEY

}  // namespace tilescope
