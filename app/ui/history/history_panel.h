// The History tab: matrix multiplication by drawing, 2001-2006, run on this machine. What the
// texture-shader variant (kernels/variants/07_gl_shader.cpp) draws — its passes as the quads they are,
// what each texel of the textures holds — beside the historical figures and this machine's
// measured ones, and why fragment shaders are slow on a compute GPU: the texture fetch rate
// times the multiply-adds each fetched texel feeds. A Reload button recompiles the shaders
// (shaders/*.frag) after a learner's edit.
#pragma once

#include <string>
#include <vector>

#include "app/gl_gemm/shader_gemm.h"
#include "app/ui/history/history_model.h"
#include "app/ui/shell/app_state.h"
#include "app/ui/shell/tab.h"
#include "kernels/cuda/device_info.h"
#include "kernels/measure/measure.h"

namespace tilescope {

class HistoryPanel : public Tab {
 public:
  const char* title() const override { return "History: GEMM by drawing"; }
  void draw(TabContext& ctx) override;
  // `rows`: everything measured so far (the TimingHistory's snapshot); `device`: the CUDA device
  // (may be unavailable). Draws into the current ImGui window.
  void draw(const AppState& state, const std::vector<RunResult>& rows, const DeviceInfo& device);
  // For scripts and tests: the mode (configuration index of gl_shader) whose passes are drawn,
  // and how many of its passes are shown as done.
  void select_mode(int config_index) { mode_ = config_index, pass_ = -1; }
  void set_pass(int pass) { pass_ = pass, playing_ = false; }
  // The Reload button's action: asks the GL thread to reload before its next run and compiles
  // the shaders here, in the window's context, so that errors show at once. Needs a current
  // GL context. Returns the log ("" when everything compiled).
  std::string reload_shaders();
  const std::string& reload_log() const { return reload_log_; }

 private:
  // The plans of every mode at one size, kept until the size changes.
  struct ModePlan {
    ShaderMode mode = ShaderMode::kMultipass;
    std::string name;              // the configuration's name
    int M = 0, N = 0, K = 0;       // the size drawn (the run size unless smaller_example)
    bool smaller_example = false;  // the run size has too many quads to draw: a smaller one is drawn
    int run_M = 0, run_N = 0;      // the run size's M, N
    ShaderPlanSummary layout;      // sizes, quads and k-chunks at (M, N, K): what is drawn
    ShaderPlanSummary run_layout;  // the same at the run size (passes, fetches per FMA)
  };
  void update_plans(int M, int N, int K);
  // The configuration of shader_variant() shown: mode_, or its default one; -1 without the variant.
  int selected_config() const;
  ShaderMode mode() const;
  void draw_mode_picker(const AppState& state);
  // history_passes.cpp
  void draw_passes(const ModePlan& plan, float width, float max_height);
  static void draw_pass_facts(const ModePlan& plan);
  static void draw_pass_canvas(const ModePlan& plan, float width, float max_height, long long shown);
  static void draw_chunk_legend(const ModePlan& plan, float width, long long shown);
  void draw_pass_controls(const ModePlan& plan);
  void draw_pass_strip(const ModePlan& plan, float width);
  void draw_texture_layout(ShaderMode mode, float width);  // history_texels.cpp
  // history_figures.cpp
  void draw_history_table(const std::vector<RunResult>& rows);
  void draw_bound_table(const std::vector<RunResult>& rows, const DeviceInfo& device);
  void draw_reload();  // and the rest: history_panel.cpp

  int mode_ = -1;  // a configuration of shader_variant(); -1: its default one
  int pass_ = -1;  // -1: all passes drawn
  bool playing_ = false;
  double play_clock_ = 0;
  float speed_ = 0;  // passes per second while playing; 0 = pick from the pass count
  int speed_for_mode_ = -1;
  long long speed_for_passes_ = -1;
  char layout_matrix_ = 'C';  // which matrix the texture-layout picture shows
  std::string reload_log_;
  std::string reload_dir_;
  bool reloaded_ = false;
  int plans_M_ = -1, plans_N_ = -1, plans_K_ = -1;
  std::vector<ModePlan> plans_;  // one per configuration of shader_variant(), in its order
};

}  // namespace tilescope
