// The mapping view: A on the left, B on top, C at the bottom right (the textbook layout); C
// coloured by the block that computes each element and, for the selected block, by thread;
// heatmaps of global reads of A and B; zoom, pan, hover. Beside it the tile animation: step
// through the K phases of the selected block and watch which tiles travel through shared memory
// and how the partial sums of C grow. The pictures come from the variant's mapping model
// (host path, uploaded with glTexSubImage2D); the view says so. Tensor-core variants (a model
// with fragments()) add the lane layout of one mma, the shared-memory banks of one k step and
// the ring of cp.async stages, and colour their selected block by warp, lane or register. A
// warpgroup's instruction (wgmma) shows its C by warp, the TMA boxes of a stage instead of banks,
// and the producer/consumer handshake of the ring in the animation.
// Pipelined variants (a descriptor with launch_timeline) add the pipeline timeline: recorded on a
// thread of its own (app/ui/mapping/timeline_recorder.h), drawn by app/ui/mapping/timeline_view.h.
// Every variant has the view of memory one warp at a time: one access of one warp of the selected
// block, as lines and sectors or as banks (app/ui/mapping/warp_access_view.h).
#pragma once

#include <future>
#include <memory>
#include <string>

#include "app/ui/mapping/fragment_view.h"
#include "app/ui/mapping/timeline_recorder.h"
#include "app/ui/mapping/timeline_view.h"
#include "app/ui/mapping/warp_access_view.h"
#include "app/ui/shell/app_state.h"
#include "app/ui/shell/tab.h"
#include "app/ui/source/kernel_editor.h"
#include "app/viz/gl_texture.h"
#include "app/viz/interop.h"
#include "app/viz/mapping_images.h"
#include "kernels/core/variant.h"
#include "kernels/instrument/trace.h"
#include "kernels/models/block_account.h"
#include "kernels/models/mapping_model.h"

namespace tilescope {

class MappingPanel : public Tab {
 public:
  const char* title() const override { return "Mapping: who computes what"; }
  void draw(TabContext& ctx) override;
  // Draws the panel for the focused variant of `state` (its configuration, problem and sizes).
  // `gpu`: pictures from an instrumented run, coloured on the GPU through CUDA–GL interop;
  // otherwise (or if that fails) from the mapping model, uploaded from the host.
  void draw(const AppState& state, bool gpu);
  // Space, left and right arrows while the panel is shown.
  void handle_keys();
  // For scripts (and the buttons): the block to follow and the phases done.
  void select_block(int x, int y) { selected_x_ = x, selected_y_ = y, phase_ = 0, images_dirty_ = true; }
  void set_phase(int phase) { phase_ = phase < 0 ? 0 : phase, playing_ = false; }
  void set_playing(bool on) { playing_ = on; }
  int phase() const { return phase_; }
  bool playing() const { return playing_; }
  // Makes the pictures current for `state` now, as the next draw would: a script changing the
  // problem or variant and then pressing play would otherwise see that draw stop the player.
  void sync_to(const AppState& state) { rebuild(state); }
  // Tensor-core variants: what the selected block's elements of C are coloured by (warp, lane or
  // register; Thread is taken as warp), which picture the view shows, the lane highlighted in
  // the fragments and whether the banks are drawn for the swizzled layout. Timeline: the
  // pipeline timeline of a variant that has one (others show their first view instead). Memory:
  // one warp's access, every variant (a model that lists no accesses says so).
  enum class View { Matrices, Fragments, Banks, Timeline, Memory };
  void set_colouring(ThreadColouring c) {
    colouring_ = c == ThreadColouring::Thread ? ThreadColouring::Warp : c;
    images_dirty_ = true;
  }
  void show_view(View v) { view_ = v, view_requested_ = true; }
  View view() const { return view_; }
  FragmentView& fragment_view() { return fragment_view_; }
  // The pipeline timeline of the focused variant at `state`'s configuration, type and sizes
  // (clamped: timeline_recorder.h), recorded off the UI thread; `gpu` as in draw. The Record
  // button and scripts (record-timeline) call it; the view records by itself when shown.
  void record_timeline(const AppState& state, bool gpu);
  // Whether a recording is in flight (takes its result when it is done: call once a frame).
  bool timeline_recording() { return timeline_.busy(); }
  // Why the last recording failed ("" when it succeeded; a sentence when none was made).
  std::string timeline_error() const;
  const TimelineRecorder& timeline_recorder() const { return timeline_; }
  TimelineView& timeline_view() { return timeline_view_; }
  WarpAccessView& warp_access_view() { return warp_access_view_; }
  // The Memory view's recordings (warp_access_view.h): the program its worker runs (this one), why
  // the GPU cannot record ("" when it can) and the Source tab's editor, whose edit of the variant
  // shown "Record the edited kernel" records (may be null). Set once by the App.
  void set_memory_recording(const std::string& program, const std::string& unavailable, const KernelEditor* editor);
  // What the buttons and scripts do (memory-record, memory-record-edited): a worker records the
  // warp the view shows at `state`'s configuration and sizes. False with *why when it cannot start.
  bool record_memory(const AppState& state, bool edited, std::string* why);
  // A recording file (`tilescope memory --recording`) shown as if recorded now: its record of
  // `state`'s configuration and sizes, its block and warp selected. False with *why.
  bool load_memory_recording(const AppState& state, const std::string& path, std::string* why);
  // Every frame, whatever the tab shows: a finished worker's recording is taken.
  void poll_memory_recording() { warp_access_view_.recorder().poll(); }
  bool memory_recording() const { return warp_access_view_.recorder().working(); }
  void cancel_memory_recording() { warp_access_view_.recorder().cancel(); }
  // The focused variant's model as the last draw (or sync_to) made it; null where it has none.
  const MappingModel* model() const { return model_.get(); }
  // The account of the selected block that the tile animation printed last (its words and
  // counters, block_account.h): tests compare it with what they read on screen.
  const BlockAccount& shown_account() const { return account_; }

 private:
  // What the shown variant's model can draw (prefetch slab, mirror, phases), from its descriptor.
  MappingCaps caps() const;
  // The selected block's tile of C.
  TileRect selected_block_rect(const TileConfig& cfg) const;
  // What the selected block's elements of C are coloured by for the shown variant.
  ThreadColouring thread_colouring() const;
  // The view's tabs for a tensor-core model or a variant with a timeline; the matrices alone for
  // the others.
  void draw_views(const AppState& state);
  // One view's panel and the tile animation beside it.
  void draw_view(const AppState& state, View v);
  bool has_timeline() const;
  // The Timeline view: what is recorded, the Record button, a failure in words, the bars.
  void draw_timeline(const AppState& state);
  void draw_colouring_choice();
  void rebuild(const AppState& state);
  // The matrices: header, canvas (zoom, pan), heatmaps, block overlay, hover, legend.
  struct MatrixView;  // where A, B and C are on screen (mapping_panel.cpp)
  void draw_matrices(const AppState& state);
  void draw_matrices_header(const VariantDescriptor& v, const TileConfig& cfg) const;
  void zoom_and_pan(bool hovered, ImVec2 region_min);
  MatrixView place_matrices(ImVec2 region_min, ImVec2 region_max) const;
  void draw_matrix_images(ImDrawList* dl, const MatrixView& v) const;
  void draw_block_overlay(ImDrawList* dl, const MatrixView& v, const TileConfig& cfg) const;
  void hover_matrices(const MatrixView& v);
  void hover_c(std::int64_t i, std::int64_t j);
  void warp_owner_text(const Owner& ow) const;
  void draw_reads_legend(ImDrawList* dl) const;
  std::string reads_legend_text() const;
  float reads_legend_width() const;
  // The tile animation: controls, the phase in words, counters, shared tiles, partial sums.
  void draw_animation(const AppState& state);
  void draw_phase_controls(int phases);
  // The selected block's account after the phases done, made again only when they change.
  const BlockAccount& current_account();
  void draw_phase_text(const BlockAccount& account) const;
  void draw_block_counters(const BlockAccount& account) const;
  void draw_shared_tiles(int phases, const BlockAccount& account);
  void draw_stage_ring(int phases, int bk, const BlockAccount& account) const;
  void draw_partial_sums(const TileConfig& cfg, std::int64_t rows, std::int64_t cols,
                         const BlockAccount& account) const;
  void value_grid(const char* title, const TileRect& tile, bool of_a);

  std::string key_;  // what the current model and images were made for
  std::unique_ptr<MappingModel> model_;
  std::string no_model_reason_;
  Shape shape_;
  Problem problem_ = Problem::Gemm;
  Precision precision_ = Precision::F32;
  std::string variant_id_;
  int config_index_ = 0;
  MappingImages images_;
  GlTexture c_tex_, a_tex_, b_tex_;
  bool images_dirty_ = true;
  // The GPU path.
  bool refresh_gpu(const AppState& state);
  DeviceTrace trace_;
  bool trace_current_ = false;
  bool trace_failed_ = false;
  bool awaiting_trace_ = false;
  std::future<std::string> trace_job_;  // the instrumented run in flight ("" = ok, else why not)
  bool reads_coloured_ = false;         // the A/B heatmaps hold the current trace's counts
  CudaGlTexture c_reg_, a_reg_, b_reg_;
  BlockAccount account_;     // the selected block's, for the phases done
  std::string account_key_;  // what account_ was made for (model, block, phases done)
  PhaseLoads block_loads_;   // the selected block's loads of each phase counted so far
  std::string loads_key_;    // what block_loads_ counts (model, block)
  std::string source_;       // what the pictures show, for the header line
  double refresh_ms_ = 0;    // the last interop refresh (map + colour + unmap)

  int selected_x_ = 0, selected_y_ = 0;  // the selected block
  int phase_ = 0;                        // phases completed in the animation (0 = before the first)
  bool playing_ = false;
  float speed_ = 2.0f;  // phases per second
  double play_clock_ = 0;
  float zoom_ = 1.0f;
  ImVec2 pan_{0, 0};
  // Tensor-core variants.
  ThreadColouring colouring_ = ThreadColouring::Warp;
  View view_ = View::Matrices;
  bool view_requested_ = false;  // select view_'s tab in the next frame
  FragmentView fragment_view_;
  // The pipeline timeline.
  bool gpu_ = false;          // the GPU is used (draw's argument)
  bool runner_busy_ = false;  // the runner is timing kernels: recording waits for it
  TimelineRecorder timeline_;
  TimelineView timeline_view_;
  // Memory one warp at a time.
  WarpAccessView warp_access_view_;
  std::string memory_unavailable_ = "No usable GPU: the window records nothing without one.";
  const KernelEditor* editor_ = nullptr;
  // What the Memory view shows and may record with, at the current configuration and sizes.
  MemoryViewContext memory_context();
};

}  // namespace tilescope
