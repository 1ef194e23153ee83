// The Mapping tab's "Memory (one warp)" view: one memory instruction of the kernel as the 32
// lanes of one warp give it, and what the memory system makes of it (kernels/models/warp_access.h).
// Controls pick the block, the warp, the access site (the model's list: a global load or store of
// A, B or C, a store into or a read out of shared memory) and the step (a loop's iteration).
// A global access is drawn as the 128-byte lines it touches, a row each, their four 32-byte
// sectors filled where touched with the lanes on each; a shared-memory access as the 32 banks, a
// band per phase, every cell naming the lanes on that bank and marked where they need more than one
// word (a bank conflict). Counters and a sentence (viz/warp_access_summary.h) say what it costs.
// The addresses come from the model; draw_access takes them from whatever source is given, so
// addresses recorded on the GPU can be drawn the same way.
#pragma once

#include <string>
#include <vector>

#include "app/viz/warp_access_summary.h"
#include "kernels/models/mapping_model.h"

namespace tilescope {

class WarpAccessView {
 public:
  // The controls and the picture for `model`. *block_x, *block_y: the block shown, the one picked
  // by a click in C; true when the controls changed it (the caller then follows it elsewhere).
  bool draw(const MappingModel& model, int* block_x, int* block_y);
  // The picture, counters and sentence of one access from `source` ("the model", ...).
  void draw_access(const AccessSite& site, const WarpAccess& w, const char* source);

  // For scripts, tests and a click in C (the warp of the thread picked): the site by its name in
  // the model's list, the step and the warp (clamped to what the model has when drawn).
  void set_site(const std::string& name) { site_name_ = name; }
  void set_step(int step) { step_ = step < 0 ? 0 : step; }
  void set_warp(int warp) { warp_ = warp < 0 ? 0 : warp; }
  const std::string& site() const { return site_name_; }
  int step() const { return step_; }
  int warp() const { return warp_; }
  // What the last frame showed (tests compare it with what they expect).
  const WarpAccessSummary& shown() const { return shown_; }
  const WarpAccess& shown_access() const { return access_; }

 private:
  // The site's index in `sites` by name; the first site where the name is not there.
  int site_index(const std::vector<AccessSite>& sites) const;
  void draw_controls(const MappingModel& model, const std::vector<AccessSite>& sites, int* site, int* block_x,
                     int* block_y, bool* block_changed);
  // `below`: the height to leave under the picture.
  void draw_global(const WarpAccess& w, float width, float below);
  void draw_shared(const WarpAccess& w, float width);
  void draw_counters(const AccessSite& site, const WarpAccessSummary& s, bool across) const;

  std::string site_name_;  // kept by name: another configuration of the variant lists the same sites
  int step_ = 0, warp_ = 0;
  WarpAccess access_;
  WarpAccessSummary shown_;
};

}  // namespace tilescope
