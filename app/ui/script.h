// Scripted sessions: a text file of actions, one per line, played between frames. The CI test
// drives the real window with one, the GPU machine takes the README's screenshots with one, and
// a teacher can prepare a lesson with one (tilescope --script lesson.txt). docs/SCRIPTS.md lists
// the actions; for example:
//
//   # comment
//   set problem gemm|ata        set precision f32|f64       set n 1024 (m, k; square on|off)
//   set reps 10                 set verify on|off           set sweep 256 4096
//   use VARIANT[:CONFIG] on|off focus VARIANT               use-all on|off
//   run | sweep | live | cancel  wait [SECONDS]  frames N   screenshot PATH   quit
//   show-timeline               record-timeline (waits for the recording; fails where none is made)
//
// Every line is checked, words and values, before anything runs: a bad line is reported as
// FILE:LINE: why, and the program exits with 2 (a bad argument) without opening a frame.
#pragma once

#include <string>
#include <vector>

#include "ui/app.h"

namespace tilescope {

// Why a script line (its words, the action first) is refused: an unknown action, a wrong number
// of words, a value that does not parse or is out of range, a variant or configuration that does
// not exist. "" when the line is fine.
std::string check_script_line(const std::vector<std::string>& words);

class ScriptPlayer {
 public:
  // False and *error ("lesson.txt:3: unknown action 'rn'"; "lesson.txt: cannot read the script:
  // No such file or directory") when the file cannot be read or a line is refused by
  // check_script_line: a script is checked whole before anything runs.
  bool load_file(const std::string& path, std::string* error);
  bool load_text(const std::string& text, const std::string& name, std::string* error);

  // Called once per frame before the UI is drawn. Performs actions until one needs frames to
  // pass (wait, frames, an export that happens after the frame). False once the script ended
  // (after `quit` or its last line); *failed is set when an action failed.
  bool step(App& app, bool* failed, std::string* message);
  bool finished() const { return next_ >= lines_.size() && frames_left_ == 0 && !waiting_ && !waiting_timeline_; }

 private:
  struct Line {
    int number = 0;
    std::vector<std::string> words;
  };
  bool perform(App& app, const Line& line, std::string* message);
  std::string name_;
  std::vector<Line> lines_;
  std::size_t next_ = 0;
  int frames_left_ = 0;
  bool waiting_ = false;
  bool waiting_timeline_ = false;  // record-timeline: until the recording ends
  int timeline_line_ = 0;          // its line, for the failure's message
  double wait_deadline_ = 0;
  bool quit_ = false;
};

}  // namespace tilescope
