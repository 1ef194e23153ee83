// Scripted sessions: a text file of actions, one per line, played between frames. The CI test
// drives the real window with one, the GPU machine takes the README's screenshots with one, and
// a teacher can prepare a lesson with one (tilescope --script lesson.txt).
//
//   # comment
//   set problem gemm|ata        set precision f32|f64       set n 1024 (m, k; square on|off)
//   set reps 10                 set verify on|off           set sweep 256 4096
//   set y gflops|ms             set ylog on|off             set presenter on|off
//   set theme dark|light|high_contrast                      set only-current on|off
//   use VARIANT[:CONFIG] on|off focus VARIANT               use-all on|off
//   run | sweep | live | cancel  wait [SECONDS]  (until the runner is idle; default 600)
//   frames N                     load-csv PATH   export-csv PATH
//   export-plot PATH [W H]       screenshot PATH              quit
//   show-mapping                 mapping-block X Y            mapping-phase N   mapping-play on|off
#pragma once

#include <string>
#include <vector>

#include "ui/app.h"

namespace tilescope {

class ScriptPlayer {
 public:
  // False and *error ("lesson.txt:3: unknown action 'rn'") when the file cannot be read or a
  // line does not parse: a script is checked whole before anything runs.
  bool load_file(const std::string& path, std::string* error);
  bool load_text(const std::string& text, const std::string& name, std::string* error);

  // Called once per frame before the UI is drawn. Performs actions until one needs frames to
  // pass (wait, frames, an export that happens after the frame). False once the script ended
  // (after `quit` or its last line); *failed is set when an action failed.
  bool step(App& app, bool* failed, std::string* message);
  bool finished() const { return next_ >= lines_.size() && frames_left_ == 0 && !waiting_; }

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
  double wait_deadline_ = 0;
  bool quit_ = false;
};

}  // namespace tilescope
