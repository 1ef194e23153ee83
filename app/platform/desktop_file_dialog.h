// The desktop's own file dialog (zenity on GNOME and most desktops, kdialog on KDE), run as a
// separate program so that tilescope links no toolkit: the dialog looks and behaves as every
// other program's on that desktop (places, bookmarks, network folders, type-ahead). It runs on
// a thread of its own while the window keeps drawing frames; the UI asks each frame whether an
// answer has come. Where no such tool exists (headless, a bare X server, a script's
// environment) the UI uses its own chooser instead (app/ui/shell/file_chooser.h).
#pragma once

#include <sys/types.h>

#include <mutex>
#include <string>
#include <vector>

#include "app/platform/background_result.h"

namespace tilescope {

// What to ask for: a file to read, or a name to write to.
struct FileDialogRequest {
  bool save = false;
  std::string title;         // "Load results CSV"
  std::string folder;        // absolute; where the dialog starts
  std::string file_name;     // save: the name suggested ("tilescope-plot-2026-11-26-143005.png")
  std::string filter_label;  // "CSV files"
  std::string extension;     // "csv", without the dot; "" = any file
};

enum class DesktopDialogTool { kNone, kZenity, kKdialog };

// Which tool to use: none without a display ($DISPLAY, $WAYLAND_DISPLAY); else kdialog on KDE
// ($XDG_CURRENT_DESKTOP) when it is installed, else zenity, else kdialog, whichever is on $PATH.
// $TILESCOPE_FILE_DIALOG overrides: "builtin" (never a desktop dialog), "zenity" or "kdialog".
DesktopDialogTool find_desktop_dialog_tool();
const char* tool_name(DesktopDialogTool tool);  // "zenity", "kdialog", "none"

// The tool's command line for `request` (argv, the program first).
std::vector<std::string> desktop_dialog_command(DesktopDialogTool tool, const FileDialogRequest& request);

struct FileDialogResult {
  enum class Outcome { kChosen, kCancelled, kFailed };
  Outcome outcome = Outcome::kFailed;
  std::string path;   // kChosen: absolute, as the tool printed it
  std::string error;  // kFailed: why, in one sentence
};

// The answer from the tool's exit status and what it printed: 0 and a path is a choice, 1 is
// Cancel (or the dialog closed), anything else a failure.
FileDialogResult desktop_dialog_result(DesktopDialogTool tool, int exit_code, const std::string& printed);

// One dialog at a time, on a thread of its own that waits for the tool to exit.
class DesktopFileDialog {
 public:
  DesktopFileDialog() = default;
  DesktopFileDialog(const DesktopFileDialog&) = delete;
  DesktopFileDialog& operator=(const DesktopFileDialog&) = delete;
  ~DesktopFileDialog();  // closes a dialog still open (the program is ending) and waits for it

  // Starts the tool. False with *error when it cannot be started (the caller then uses its own
  // chooser) or a dialog is open already.
  bool start(DesktopDialogTool tool, const FileDialogRequest& request, std::string* error);
  // From start() until take_result() has handed the answer over.
  bool busy() const { return waiter_.busy(); }
  // True once, when the tool has exited: *out gets the answer.
  bool take_result(FileDialogResult* out) { return waiter_.take_result(out); }
  // Closes the dialog (the answer is then kCancelled).
  void cancel();

 private:
  std::mutex mutex_;
  pid_t pid_ = 0;                              // the tool while it runs and is not yet reaped (mutex_)
  BackgroundResult<FileDialogResult> waiter_;  // last: its thread uses the members above until joined
};

}  // namespace tilescope
