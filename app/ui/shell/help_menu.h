// The Help menu's own items and windows: the shipped lessons (read one, play it in the window),
// and every keyboard shortcut and mouse gesture. About stays with the App's dialogs.
#pragma once

#include <string>
#include <vector>

#include "app/ui/shell/lesson_list.h"

namespace tilescope {

class App;

class HelpMenu {
 public:
  // Inside the open Help menu: Lessons (one item per lesson, each opening the Lessons window on
  // it; Stop while one plays) and Keyboard shortcuts.
  void draw_items(App& app);
  // The windows those items open; once a frame, inside the App's window.
  void draw_windows(App& app);

  void open_lessons(int selected);
  void open_shortcuts() { show_shortcuts_ = true; }
  bool lessons_open() const { return show_lessons_; }
  bool shortcuts_open() const { return show_shortcuts_; }
  // The shipped lessons, read on first use.
  const std::vector<LessonFile>& lessons();

 private:
  void draw_lessons_window(App& app);
  void draw_shortcuts_window();

  bool loaded_ = false;
  std::string folder_;
  std::vector<LessonFile> lessons_;
  int selected_ = 0;
  bool show_lessons_ = false, show_shortcuts_ = false;
};

}  // namespace tilescope
