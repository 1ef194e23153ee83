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
//
// A lesson's promises are checked as it plays: a comment line `# expect: focus smem_tiled`,
// `# expect: phase >= 2`, `# expect: tab mapping` ... (docs/SCRIPTS.md) states what must hold
// once the lines above it have played; one that does not is a failure like a failed action.
#pragma once

#include <string>
#include <vector>

#include "app/ui/shell/app.h"

namespace tilescope {

// Why a script line (its words, the action first) is refused: an unknown action, a wrong number
// of words, a value that does not parse or is out of range, a variant or configuration that does
// not exist. "" when the line is fine.
std::string check_script_line(const std::vector<std::string>& words);
// The same for the words after `# expect:` (the promise's name first).
std::string check_expectation(const std::vector<std::string>& words);

class ScriptPlayer {
 public:
  // False and *error ("lesson.txt:3: unknown action 'rn'"; "lesson.txt: cannot read the script:
  // No such file or directory") when the file cannot be read or a line is refused by
  // check_script_line: a script is checked whole before anything runs.
  bool load_file(const std::string& path, std::string* error);
  bool load_text(const std::string& text, const std::string& name, std::string* error);

  // Called once per frame before the UI is drawn. Performs actions until one needs frames to
  // pass (wait, frames, an export that happens after the frame). False once the script ended
  // (after `quit`, or its last line and the files it asked for). Every failure since the last
  // call is appended to *failures as "FILE:LINE: why": an action that could not start, work that
  // ended badly after the frame (an export, a screenshot, a run), a promise not kept.
  bool step(App& app, std::vector<std::string>* failures);
  // The `# expect:` promises checked so far (kept or not).
  int promises_checked() const { return promises_checked_; }
  // The line of the script played last (1-based; 0 before the first): what a slow frame was doing.
  int current_line() const { return next_ > 0 ? lines_[next_ - 1].number : 0; }
  bool finished() const {
    return next_ >= lines_.size() && frames_left_ == 0 && !waiting_ && !waiting_timeline_ && pending_.empty();
  }

 private:
  struct Line {
    int number = 0;
    bool expectation = false;        // a `# expect:` line: words are the promise, its name first
    bool fails_without_gpu = false;  // an action a `# expect: fails-without-gpu` line precedes
    std::vector<std::string> words;
  };
  // Work a line started that ends after the frame (App::WorkTicket): its outcome is a failure
  // of that line.
  struct Pending {
    App::WorkTicket ticket = 0;
    int line = 0;
    bool file = false;  // an export or screenshot: the script waits for it before it ends
    bool failure_expected = false;
  };
  // Plays one action line; *ticket gets the ticket of work it started that ends after the frame.
  bool perform(App& app, const Line& line, std::string* why, App::WorkTicket* ticket);
  void collect_outcomes(App& app, std::vector<std::string>* failures);
  // Reports a failure of `line` unless it was expected here (fails-without-gpu without one).
  void report(App& app, int line, bool failure_expected, const std::string& why, std::vector<std::string>* failures);
  bool pending_files() const;
  std::string name_;
  std::vector<Line> lines_;
  std::size_t next_ = 0;
  int frames_left_ = 0;
  bool waiting_ = false;
  int wait_line_ = 0;              // the `wait` line, for a time-out's message
  bool waiting_timeline_ = false;  // record-timeline: until the recording ends
  int timeline_line_ = 0;          // its line, for the failure's message
  bool timeline_failure_expected_ = false;
  double wait_deadline_ = 0;
  bool quit_ = false;
  int promises_checked_ = 0;
  std::vector<Pending> pending_;
};

}  // namespace tilescope
