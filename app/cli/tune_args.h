// The options of `tilescope tune`, and the grid they describe: every tile parameter of the chosen
// variant (VariantDescriptor::tile_params, never a fixed list) is an option of its own, given as a
// range, a list or one value; the grid is the product of them, each point then checked by the
// variant's own rules and the device's limits before anything compiles. Pure (no printing, no
// GPU), so that the window's Tune tab and the tests use the same grid.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/core/gemm_types.h"
#include "kernels/core/variant.h"

namespace tilescope {

// One tile parameter and the values the sweep takes for it.
struct TuneParam {
  std::string key;          // "bm"
  std::vector<int> values;  // in the order written; one value: not swept
  bool ranged() const { return values.size() > 1; }
};

struct TuneOptions {
  std::string error;  // non-empty: rejected, nothing else is meaningful
  bool ok() const { return error.empty(); }
  bool help = false;

  const VariantDescriptor* variant = nullptr;
  std::vector<TuneParam> params;  // every parameter of the variant, in its order
  std::string x_key, y_key;       // the heatmap's axes: ranged parameters (y "" when only one is)

  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  std::int64_t size = 4096;  // M = N = K
  int repetitions = 10;
  int warmup = 2;
  int jobs = 0;  // compile threads; 0: one per core
  std::string csv_path, png_path;
  int png_width = 1600, png_height = 1000;
  // Draws the landscape of a CSV written by an earlier `tune --csv` instead of running.
  std::string from_csv;
};

// Bounds that keep a typo from asking for a sweep of days.
constexpr std::size_t kMaxTunePoints = 4096;
constexpr int kMaxTileValue = 4096;

// "LO:HI[:STEP]" (STEP a whole number, default 1: tile parameters are small), "a,b,c", one value,
// or any mixture ("4,8:16:4"); repeated values kept once. False with *error naming `key`.
bool parse_tune_values(const std::string& key, const std::string& text, std::vector<int>* out, std::string* error);

// `args` are the options after the word `tune`.
TuneOptions parse_tune_args(const std::vector<std::string>& args);
TuneOptions parse_tune_args(int argc, const char* const* argv);
std::string tune_usage();

// The parameters of `v` at the default configuration's values, for a caller that sets ranges
// itself (the Tune tab).
std::vector<TuneParam> default_tune_params(const VariantDescriptor& v);
// The axes when none are chosen: the first two ranged parameters. "" where there are fewer.
void default_tune_axes(const std::vector<TuneParam>& params, std::string* x_key, std::string* y_key);
// "" when x and y name different ranged parameters (y may be "" when only x is ranged), else why not.
std::string tune_axes_error(const std::vector<TuneParam>& params, const std::string& x_key, const std::string& y_key);

// Every point of the grid, the last parameter changing fastest.
std::vector<TileValues> tune_grid(const std::vector<TuneParam>& params);
std::size_t tune_grid_size(const std::vector<TuneParam>& params);

}  // namespace tilescope
