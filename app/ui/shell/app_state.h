// Everything the user has chosen in the window, as plain data: the panels edit it, the settings
// file persists it, scripts set it. No ImGui, CUDA or GL in here.
#pragma once

#include <string>
#include <vector>

#include "kernels/core/gemm_types.h"

namespace tilescope {

// One row of the lesson: a variant, whether it takes part in Run/Sweep, and its configuration.
struct VariantDescriptor;

struct LessonEntry {
  std::string variant_id;
  bool enabled = true;
  int config_index = 0;
};

enum class YAxisQuantity { Gflops, Milliseconds };
enum class Theme { Dark, Light, HighContrast };

// The largest M, N, K and sweep size the controls, scripts and settings take. A GPU refuses,
// with the reason, a product that does not fit its memory; without one the App caps sizes lower
// (App::size_cap).
constexpr int kMaxMatrixSize = 1 << 20;

struct AppState {
  std::vector<LessonEntry> lesson;  // one entry per registry variant, registry order
  int focused = 0;                  // the entry Live re-runs and whose details the panel shows

  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  // Sizes for Run. Gemm uses M, N, K (or N only when `square`); AᵀA uses N and K.
  bool square = true;
  int m = 1024, n = 1024, k = 1024;
  int repetitions = 10;
  bool verify = true;
  // Sweep: sizes from..to doubling (N = M = K; AᵀA: N = K).
  int sweep_from = 256, sweep_to = 4096;

  // Several GPUs (the controls show them where the machine has more than one): Run also runs each
  // ticked variant split across `gpus` GPUs by this split ("" = none) and configuration.
  std::string split;
  int split_config = 0;
  int gpus = 2;

  // Timing plot.
  YAxisQuantity y_quantity = YAxisQuantity::Gflops;
  bool y_log = false;
  bool only_current_problem = true;  // table and plot show the selected problem and precision

  // Presentation.
  bool presenter = false;  // big fonts, high-contrast theme
  Theme theme = Theme::Dark;
  float font_scale = 1.0f;  // on top of the monitor's content scale

  // Export dialog defaults. export_dir is also where the file choosers open (the folder of the
  // last file chosen) and where F12 puts screenshots.
  std::string export_dir = ".";
  int export_width = 1920, export_height = 1080;
  // Files loaded and exported lately, absolute, newest first (app/ui/shell/recent_files.h).
  std::vector<std::string> recent_files;
};

// The default lesson: N = 1024, float, naive vs smem_tiled vs regtile_prefetch vs cuBLAS, each
// in its recommended configuration.
AppState default_app_state();

// Shape for Run from the state (normalised for AᵀA).
Shape run_shape(const AppState& s);
// The sizes of a sweep: from, 2*from, ... <= to (at least one size).
std::vector<int> sweep_sizes(const AppState& s);

// Lowers every size of `s` (M, N, K, the sweep's ends) above `cap` to `cap`. Returns what it
// changed, in words ("N 2048 and the sweep's last size 4096"), or "" when every size was within it.
// Only the sizes Run and Sweep read count: N alone while `square` is on (M and K follow it).
std::string cap_sizes(AppState& s, int cap);

// Whether the split the state chose (if any) runs kernel v's configuration on its problem and
// precision: the split supports the problem and does not refuse the kernel.
bool split_takes(const AppState& s, const VariantDescriptor& v, int config_index);

// The entries Run times, in order: the lesson's, and where a ticked entry stores C in the 16-bit
// input type (TileConfig::c_in_input_type) and a ticked baseline does not, that baseline's
// configuration that stores C so, right after it: the bar of such rows' % of cuBLAS, as bench adds it.
std::vector<LessonEntry> entries_to_run(const std::vector<LessonEntry>& lesson, Precision precision);

}  // namespace tilescope
