// The Mapping tab's "Memory (one warp)" view: one memory instruction of the kernel as the 32
// lanes of one warp give it, and what the memory system makes of it (kernels/models/warp_access.h).
// Controls pick the block, the warp, the access site (the model's list: a global load or store of
// A, B or C, a store into or a read out of shared memory) and the step (a loop's iteration).
// A global access is drawn as the 128-byte lines it touches, a row each, their four 32-byte
// sectors filled where touched with the lanes on each; a shared-memory access as the 32 banks, a
// band per phase, every cell naming the lanes on that bank and marked where they need more than one
// word (a bank conflict). Counters and a sentence (viz/warp_access_summary.h) say what it costs;
// the picture takes the height they leave, so that both stay on screen (presenter mode on a
// 1280 x 720 projector included).
// The addresses come from the model, or from the kernel itself: "Record on the GPU" records this
// warp in a worker process and draws what it recorded with the same code, saying whether every
// address is the model's; "Record the edited kernel" records the Source tab editor's edit and
// draws its access beside the shipped kernel's (memory_recorder.h).
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "app/ui/mapping/memory_recorder.h"
#include "app/viz/warp_access_summary.h"
#include "kernels/models/mapping_model.h"

namespace tilescope {

// What the view draws beyond its model: the variant, the configuration and sizes shown (the view
// fills in the block and the warp) and what recording needs. Without a variant, nothing is
// recorded and the buttons are not drawn.
struct MemoryViewContext {
  const VariantDescriptor* variant = nullptr;
  ShownWarp shown;
  RecordingInputs inputs;
};

class WarpAccessView {
 public:
  // The controls and the picture for `model`. *block_x, *block_y: the block shown, the one picked
  // by a click in C; true when the controls changed it (the caller then follows it elsewhere).
  bool draw(const MappingModel& model, int* block_x, int* block_y, const MemoryViewContext& context = {});
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
  MemoryRecorder& recorder() { return recorder_; }
  const MemoryRecorder& recorder() const { return recorder_; }

  // What the last frame showed (tests compare it with what they expect): the access drawn (the
  // shipped kernel's, beside an edit), its summary, and where it came from; beside an edit, the
  // edit's summary too.
  enum class Source { Model, Recorded, EditBeside };
  const WarpAccessSummary& shown() const { return shown_; }
  const WarpAccessSummary& shown_edit() const { return shown_edit_; }
  const WarpAccess& shown_access() const { return access_; }
  Source source() const { return source_; }
  // Where the last frame drew the counters and the sentence of the access (of both accesses,
  // beside an edit), in screen pixels, and the part of the view's window on screen.
  struct Layout {
    ImVec2 counters_min, counters_max, sentence_min, sentence_max, visible_min, visible_max;
  };
  const Layout& layout() const { return layout_; }

 private:
  // The site's index in `sites` by name; the first site where the name is not there.
  int site_index(const std::vector<AccessSite>& sites) const;
  void draw_controls(const MappingModel& model, const std::vector<AccessSite>& sites, int* site, int* block_x,
                     int* block_y, bool* block_changed);
  // "addresses: from ..." with its tooltip, the record buttons beside it, the recorder's note.
  void draw_source_line(const std::string& source, const char* tip, const ShownWarp* shown,
                        const MemoryViewContext& context);
  // One access: its picture in `width`, its counters and sentence under or beside it, the picture
  // shrunk to leave them on screen.
  // `async_global`: a cp.async's global side at the same step (summarize), else null.
  void draw_one(const AccessSite& site, const WarpAccess& w, float width, const WarpAccess* async_global = nullptr);
  // The shipped kernel's access and the edit's side by side, each with its counters and sentence,
  // and where the edit moved an address (warp_access_beside.cpp).
  void draw_beside(const AccessSite& site, const WarpAccess& shipped, const std::string& shipped_label,
                   const WarpAccess& edit, const std::string& edit_label, const std::string& difference,
                   const WarpAccess* shipped_global = nullptr, const WarpAccess* edit_global = nullptr);
  // `below`: the height to leave under the picture. `caption`: the line that says what the
  // picture shows.
  void draw_global(const WarpAccess& w, float width, float below, bool caption = true);
  // The banks' picture: the height of a band, and whether the caption line above and the colours'
  // legend under it are drawn.
  struct BankLayout {
    float band_h = 0;
    bool caption = true, legend = true;
  };
  void draw_shared(const WarpAccess& w, float width, const BankLayout& layout);
  // The bands of a shared access of `phases` phases in the height that leaves `below` free under
  // them: as tall as they may be, down to a least height; where even that does not fit, the legend
  // goes, then the caption (`captions` false: neither is drawn).
  BankLayout fit_banks(int phases, float below, bool captions) const;
  void draw_counters(const AccessSite& site, const WarpAccessSummary& s, bool across) const;
  // Sectors per request and bytes moved against used, or wavefronts against the ideal and the
  // conflicts, `width` wide (beside an edit, where the full counters do not fit).
  void draw_brief_counters(const AccessSite& site, const WarpAccessSummary& s, float width) const;
  // The rows they take: one where they fit across `width`, else two.
  static int brief_counter_rows(const AccessSite& site, const WarpAccessSummary& s, float width);
  // What the sentence takes down, wrapped at `width`, with the spacing above it.
  static float sentence_height(const WarpAccessSummary& s, float width);
  // The colour of what costs extra (a costly access's sentence, a moved address).
  static ImVec4 costly_colour();
  // The summary's sentence, wrapped, in red where the access costs extra; its rectangle.
  void draw_sentence(const AccessSite& site, const WarpAccessSummary& s, ImVec2* min, ImVec2* max) const;

  std::string site_name_;  // kept by name: another configuration of the variant lists the same sites
  int step_ = 0, warp_ = 0;
  WarpAccess access_;
  WarpAccessSummary shown_, shown_edit_;
  Source source_ = Source::Model;
  Layout layout_;
  MemoryRecorder recorder_;
};

}  // namespace tilescope
