// tilescope's own file chooser: a modal dialog listing a folder (folders first, then the files
// of the wanted type, with sizes and dates), the places beside it (home, the folder the program
// was started in, the recent files of that type), a file-name field, and the keyboard:
// Up/Down/Page Up/Page Down select, Enter opens a folder or takes the file, Backspace goes up,
// Esc closes (app/ui/shell/modal_escape.h). The App uses it where the desktop has no dialog of its own
// (platform/desktop_file_dialog.h), in presenter mode, and headless. Paths are absolute.
#pragma once

#include <string>
#include <vector>

#include "app/platform/desktop_file_dialog.h"
#include "app/ui/shell/folder_listing.h"

namespace tilescope {

class FileChooser {
 public:
  // Opens on the next draw(), in request.folder (else the folder the program started in).
  // `recent`: absolute paths offered beside the listing; `started_in`: the program's folder.
  void open(const FileDialogRequest& request, const std::vector<std::string>& recent, const std::string& started_in);
  bool is_open() const { return open_; }
  void close() { open_ = false; }  // closes it choosing nothing (its dialog went away)
  const FileDialogRequest& request() const { return request_; }

  // While the chooser is open, at the start of the frame (before the panels, which read keys
  // too): takes this frame's Enter, arrows, Page Up/Down and Backspace for it.
  void take_keys();
  // The modal, while open: call every frame at the popup level it was opened from (inside the
  // dialog that opened it, if any). True on the frame a file was chosen: chosen_path().
  bool draw();
  const std::string& chosen_path() const { return chosen_; }

  // What the keyboard and the mouse do (draw() calls these; so can tests).
  void go_to(const std::string& folder);  // lists it, or shows why it cannot be read
  void go_up();
  void select(int index);  // save: a file's name goes to the name field
  void move_selection(int delta);
  void set_file_name(const std::string& name);  // what is typed in the name field
  // Enter: a selected folder opens; else the selected file or the typed name is taken (a
  // typed folder opens). True when a file was chosen. In save mode an existing file is first
  // asked about (replace_question()), a missing extension added, the folder checked writable.
  bool activate();
  bool confirm_replace();  // "Replace": true, the file is chosen
  void decline_replace();  // "Cancel": back to choosing

  const FolderListing& listing() const { return listing_; }
  const std::string& folder() const { return listing_.folder; }
  int selected() const { return selected_; }
  const std::string& file_name() const { return name_; }
  const std::string& message() const { return message_; }                // why the last Enter chose nothing
  const std::string& replace_question() const { return replace_path_; }  // the file to replace

 private:
  bool choose(const std::string& path);
  void draw_places();
  void draw_listing(float height);
  void draw_footer();
  void apply_keys();

  FileDialogRequest request_;
  std::vector<std::string> recent_;
  std::string started_in_;
  FolderListing listing_;
  int selected_ = -1;
  bool open_ = false, popup_shown_ = false, show_hidden_ = false, scroll_to_selected_ = false;
  bool focus_name_ = false, name_changed_ = false, location_active_ = false;
  std::string name_, location_, message_, chosen_, replace_path_;
  char name_buffer_[1024] = {}, location_buffer_[1024] = {};
  // Keys taken at the start of the frame for this frame's draw().
  struct Keys {
    int move = 0;
    bool enter = false, up = false;
  } keys_;
};

}  // namespace tilescope
