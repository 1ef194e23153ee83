// Esc closes the dialog on top, as in every desktop program, without doing what the dialog
// would have done. Done here once for every modal dialog of the window (ImGui 1.86 leaves
// keys to the program), from the host's queue of presses (app/ui/shell/key_presses.h).
#pragma once

namespace tilescope {

// Whether a modal dialog is open (then the window's single-key shortcuts wait).
bool modal_dialog_open();

// Closes the topmost modal dialog and anything opened above it (a combo's list). False when
// none was open. Call during a frame, before the dialogs are drawn.
bool close_topmost_modal();

}  // namespace tilescope
