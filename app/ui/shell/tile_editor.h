// The tile editor, under the focused variant in the controls column, for a variant whose kernel
// text takes typed tiles (kernels/core/typed_configs.h): one field per template parameter,
// prefilled from the focused row's configuration. A tile the variant refuses says why at once,
// before anything compiles; one it takes is compiled by NVRTC on a thread of its own (the window
// keeps drawing) when the edits settle or Compile is pressed, and what it costs shows: registers,
// spills, stack, shared memory and occupancy of each kernel, for the GPU's architecture or,
// without a GPU, for the one chosen, so a student without a GPU sees what a tile costs. "Use this
// tile" adds it to the variant's configurations and selects it, so Run times it like a shipped one.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "app/platform/background_result.h"
#include "app/ui/shell/tab.h"
#include "kernels/core/gemm_types.h"
#include "kernels/core/variant.h"
#include "kernels/jit/nvrtc_compiler.h"

namespace tilescope {

// One compile of the editor, and what it was for.
struct TileCompile {
  std::string variant_id;
  std::string tile;          // the typed tile's canonical name
  std::string architecture;  // "sm_90"
  Precision precision = Precision::F32;
  Problem problem = Problem::Gemm;
  int threads = 0;                 // per block
  TileConfig config;               // the tile as a configuration (its shared memory: jit_kernels.h)
  std::vector<std::string> names;  // the kernels' name expressions
  std::string error;               // why there was no compile at all (the kernel text unreadable)
  CompiledProgram program;
};

class TileEditor : public Panel {
 public:
  // Edits wait this long after the last keystroke before they compile by themselves.
  static constexpr double kSettleSeconds = 0.5;

  // Draws nothing unless the focused row's variant takes typed tiles.
  void draw(TabContext& ctx) override;

  // What the learner does, also for tests: each acts on the variant of the last frame drawn.
  // A field typed (the compile after kSettleSeconds follows in a later frame).
  void set_value(const std::string& key, int value);
  // Compile pressed: false, doing nothing, while the tile is refused or a compile is under way.
  bool compile(const TabContext& ctx);
  // Cancel pressed: the compile in flight is forgotten (NVRTC cannot be stopped; it ends on its
  // own thread and its result is dropped; its kernels not yet started are not compiled).
  void cancel();
  // "Use this tile" pressed: the tile added to the variant's configurations and selected in the
  // focused row. False while the tile is refused.
  bool use_tile(TabContext& ctx);

  // What it shows.
  const std::string& refusal() const { return refusal_; }  // "" when the variant takes the tile
  bool compiling() const { return job_ != nullptr; }
  const TileCompile* result() const { return has_result_ ? &result_ : nullptr; }

 private:
  const VariantDescriptor* sync(const AppState& state);  // the variant edited, fields refilled on a new selection
  void check_tile();                                     // refusal_ and tile_ from the fields
  std::string architecture(const TabContext& ctx) const;
  void take_finished();
  void draw_fields();
  void draw_architecture(const TabContext& ctx);
  void draw_buttons(TabContext& ctx);
  void draw_result();

  const VariantDescriptor* variant_ = nullptr;
  std::string synced_;       // the focused row's variant and configuration the fields were filled from
  std::vector<int> fields_;  // one per tile parameter, in the variant's order
  TileConfig tile_;          // the typed tile, when refusal_ is empty
  std::string refusal_;
  Precision precision_ = Precision::F32;  // what the kernels are compiled for: the state's, where v takes it
  Problem problem_ = Problem::Gemm;
  int arch_choice_ = 0;  // into selectable_architectures(), without a GPU

  bool settle_pending_ = false;  // edited since the last compile: compile once the edits settle
  std::chrono::steady_clock::time_point edited_at_, started_at_;
  std::string compiling_tile_;
  std::unique_ptr<BackgroundResult<TileCompile>> job_;
  std::shared_ptr<std::atomic<bool>> job_dropped_;  // set when job_ is cancelled
  // Cancelled compiles, still running on their threads: dropped once they end (joined at the
  // latest when the editor goes, at the program's end).
  std::vector<std::unique_ptr<BackgroundResult<TileCompile>>> abandoned_;
  TileCompile result_;
  bool has_result_ = false;
};

}  // namespace tilescope
