// The Source view's editor: the learner edits the focused variant's kernel text and presses Check
// (compile it for the device, or the architecture chosen without one: registers, spills, shared
// memory, occupancy, or the compiler's errors at their lines) or Run (compile it, check it against
// the FP64 reference and time it at the size and type chosen, into the same plot under the name
// "... (edited <tag>)"). Both happen in a worker process (kernel_edit_job.h) with a time limit and
// Cancel, so an edit that faults or never ends is reported and the window goes on. Revert brings
// back the shipped text; Save and Load keep an edit in a file. Lesson scripts drive the same
// actions (docs/SCRIPTS.md: edit-replace, edit-load, edit-run, ...).
#pragma once

#include <string>
#include <vector>

#include "app/ui/source/kernel_edit_job.h"
#include "app/ui/source/source_colours.h"
#include "kernels/core/variant.h"

namespace tilescope {

class TimingHistory;

// What a run of an edit is for: the tile, the product, the type and the sizes.
struct EditRunSettings {
  std::string config_name;
  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  Shape shape;
  int repetitions = 10;
  std::string architecture = "sm_90";  // Check's target
  bool gpu = false;                    // Run needs one
};

class KernelEditor {
 public:
  // `program`: the worker's (this program). The edits live as long as the editor: a variant's edit
  // is kept while the learner looks at another.
  explicit KernelEditor(std::string program) : job_(std::move(program)) {}

  // The variant edited (its shipped text read on first use); false with *why when it has no text.
  bool open(const VariantDescriptor& v, std::string* why);
  const VariantDescriptor* variant() const { return variant_; }
  const std::string& text() const { return text_; }
  bool edited() const { return text_ != shipped_; }
  // The edit the editor holds of v (the one open, or one kept while another is open): true with
  // *text when it differs from the shipped text. The Memory view records it ("Record the edited
  // kernel").
  bool edit_of(const VariantDescriptor& v, std::string* text) const;
  void set_text(const std::string& text);
  void revert() { set_text(shipped_); }
  // Replaces the `occurrence`-th (1-based) appearance of `old_text` with `new_text`: a lesson's edit.
  // False with *why when there is no such appearance.
  bool replace(const std::string& old_text, int occurrence, const std::string& new_text, std::string* why);
  // Files: a loaded file must look like a kernel text (edited_texts.h: kernel_text_problem); a save
  // is written to a temporary file and renamed. False with *why.
  bool load_file(const std::string& path, std::string* why);
  bool save_file(const std::string& path, std::string* why) const;

  // Starts the worker (false with *why while one works, or when it cannot start).
  bool check(const EditRunSettings& s, std::string* why);
  bool run(const EditRunSettings& s, std::string* why);
  bool busy() { return job_.busy(); }
  // A worker started and its outcome not taken yet (no polling: what App::busy() asks).
  bool working() const { return job_.working(); }
  void set_program(const std::string& program) { job_.set_program(program); }
  void cancel() { job_.cancel(); }
  double time_limit_s() const { return time_limit_s_; }
  void set_time_limit_s(double s) { time_limit_s_ = s; }
  // Takes a finished worker's outcome (the rows of a run go into `history`); true once per outcome.
  bool poll(TimingHistory& history);
  // The last outcome (empty summary before the first).
  const EditOutcome& last() const { return last_; }

  // Draws the toolbar, the outcome and the text in the current window. `settings` is what Check
  // and Run use. The outcome is taken by poll(), which the App calls every frame.
  void draw(const EditRunSettings& settings);
  // Brings text line `line` (0-based) into view in the next frame.
  void scroll_to_line(int line) { scroll_to_ = line; }

 private:
  bool start(EditAction action, const EditRunSettings& s, std::string* why);
  void draw_toolbar(const EditRunSettings& settings);
  void draw_outcome();
  void draw_text();

  KernelEditJob job_;
  const VariantDescriptor* variant_ = nullptr;
  std::string shipped_, text_;
  // Other variants' edits, each with its variant's shipped text.
  struct Kept {
    const VariantDescriptor* variant;
    std::string shipped, text;
  };
  std::vector<Kept> kept_;
  double time_limit_s_ = 30;
  EditOutcome last_;
  std::string start_error_;
  int scroll_to_ = -1;
  SourceColours colours_;
};

}  // namespace tilescope
