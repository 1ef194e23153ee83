// The recordings of the Memory view (warp_access_view.h): one warp's addresses recorded from the
// kernel on the GPU by a worker (memory_record_job.h) or read from a file that `tilescope memory
// --recording` wrote, kept while the view shows what they were made of. Two may be kept: the
// shipped kernel's, drawn in place of the model's addresses, and a learner's edit's, drawn beside
// the shipped kernel's (its recording, else its model) so that a moved address shows as the
// conflicts it makes. Another configuration, size, block or warp drops them (the view says so);
// another access site or step keeps them. The buttons that start a recording, its progress and
// Cancel are drawn here too.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/export/recorded_warp_file.h"
#include "app/ui/mapping/memory_record_job.h"
#include "kernels/core/variant.h"
#include "kernels/models/mapping_model.h"

namespace tilescope {

// What the Memory view shows: a configuration at its sizes, a block and a warp.
struct ShownWarp {
  std::string variant, config;  // the configuration by name: typed ones have no fixed index
  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  Shape shape;
  int block = 0;  // linear: blockIdx.y * gridDim.x + blockIdx.x
  int warp = 0;
  bool same_configuration(const ShownWarp& o) const;  // all but the block and the warp
  bool operator==(const ShownWarp& o) const { return same_configuration(o) && block == o.block && warp == o.warp; }
};
// "warp 1 of block 5, 128x128x32_8x8, gemm f32 at 256 x 256 x 256"
std::string shown_words(const ShownWarp& s);

// A recording as the view draws it: cut into the model's access sites and steps (split_recording),
// with what its comparison with the model found.
struct RecordedAccesses {
  ShownWarp of;
  std::string device;                          // where it was recorded (the file's word for it)
  std::string edit;                            // the edit's tag; "" for the shipped kernel
  std::vector<std::vector<WarpAccess>> split;  // [site][step]
  // "" when every address is the model's; else where they part, in words (compare_recorded_warp's,
  // or for an edit the access it moved: recorded_difference.h).
  std::string difference;
  const WarpAccess* at(int site, int step) const;
};

// What recording needs from beyond the Mapping tab, each frame: whether the GPU may record, and
// the Source tab editor's edit of the variant shown.
struct RecordingInputs {
  std::string unavailable;  // "" when a worker may record on the GPU; else why not, in a sentence
  std::string edit_text;    // the editor's edit of the variant shown; "" when it holds none
};

class MemoryRecorder {
 public:
  void set_program(const std::string& program) { job_.set_program(program); }

  // Why the button (the shipped kernel, or `edited`) cannot record `shown` of v now, in a sentence
  // for its tooltip; "" when it can.
  std::string refusal(const VariantDescriptor& v, const RecordingInputs& in, bool edited) const;
  // Starts the worker for `shown` (its edit when `edited`); false with *why (refusal's).
  bool record(const ShownWarp& shown, const VariantDescriptor& v, const RecordingInputs& in, bool edited,
              std::string* why);
  // A recording file read now: its first record of `shown`'s configuration and sizes is kept, as
  // the edit's when it was an edit; *block and *warp say which the view must show. False with
  // *why when it cannot be read or holds no record of them (it lists what it holds).
  bool load(const std::string& path, const ShownWarp& shown, int* block, int* warp, std::string* why);

  // Every frame, whatever the tab shows: takes a finished worker's recording.
  void poll();
  // Every frame the view draws: recordings not of `shown` are dropped (note() says so), those of
  // it cut into the model's accesses once.
  void follow(const ShownWarp& shown, const MappingModel& model);
  const RecordedAccesses* shipped() const { return shipped_.get(); }
  const RecordedAccesses* edited() const { return edited_.get(); }
  // The last failure or drop, in a sentence; "" when there is none to tell.
  const std::string& note() const { return note_; }

  bool busy() { return job_.busy(); }
  bool working() const { return job_.working(); }
  void cancel() { job_.cancel(); }

  // The two buttons (disabled with the reason as tooltip), or the progress bar and Cancel while a
  // worker records; then the note, if any.
  void draw_buttons(const ShownWarp& shown, const VariantDescriptor& v, const RecordingInputs& in);
  // What the buttons' tooltips said in the last frame (tests).
  const std::string& shown_refusal(bool edited) const { return edited ? edited_refusal_ : shipped_refusal_; }

 private:
  // A record of `shown`'s configuration kept, replacing the one of its kind.
  void keep(WarpRecord record);

  MemoryRecordJob job_;
  std::unique_ptr<WarpRecord> pending_shipped_, pending_edited_;  // not yet cut (follow() does)
  std::unique_ptr<RecordedAccesses> shipped_, edited_;
  std::string note_;
  std::string shipped_refusal_, edited_refusal_;
};

}  // namespace tilescope
