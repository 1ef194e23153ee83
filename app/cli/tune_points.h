// The points of a tuning sweep (`tilescope tune`, the window's Tune tab) and their outcome: each
// grid point is checked first (the variant's rules through typed_tile_config, the device's limits
// through unsupported_reason) and refused with the reason, or becomes a typed configuration that
// runs like a shipped one. The table goes to CSV and back (one row per point, then cuBLAS's), so
// a sweep timed on a GPU can be drawn on a laptop.
#pragma once

#include <string>
#include <vector>

#include "kernels/core/gemm_types.h"
#include "kernels/core/variant.h"
#include "kernels/measure/measure.h"

namespace tilescope {

enum class TuneStatus { Pending, Ok, Refused, Failed, Error };
// "pending", "ok", "refused", "failed" (ran, wrong result), "error" (did not run: compile, launch)
const char* to_string(TuneStatus s);
bool parse_tune_status(const std::string& text, TuneStatus* out);

struct TunePoint {
  TileValues values;      // every parameter, in the variant's order
  int config_index = -1;  // the typed configuration, once accepted
  TuneStatus status = TuneStatus::Pending;
  std::string reason;  // why refused, failed or in error
  double gflops = 0, median_ms = 0;
  double pct_of_cublas = -1;  // -1: no baseline
  int registers = 0;
  double occupancy = -1;        // active warps / max warps per SM; -1 unknown
  double compile_seconds = -1;  // -1: not compiled here
};

struct TuneTable {
  std::string device;             // the GPU's name ("" without one)
  std::string variant;            // its id
  std::vector<std::string> keys;  // the tile parameters, in the variant's order
  Problem problem = Problem::Gemm;
  Precision precision = Precision::F32;
  Shape shape;
  std::vector<TunePoint> points;
  // cuBLAS of the same input type on the same input, when it ran (status Ok).
  std::string baseline_variant, baseline_config;
  TunePoint baseline;
};

// The grid's points, checked: refused ones carry the reason; accepted ones a typed configuration
// (added to the variant for the rest of the session). The device's limits are skipped when
// `limits` is null (no device: only the variant's own rules apply).
std::vector<TunePoint> check_tune_points(const VariantDescriptor& v, const std::vector<TileValues>& grid,
                                         Problem problem, Precision precision, const DeviceLimits* limits);

// A finished run as the point's outcome: Ok, Failed (verified and wrong) or Error.
void record_tune_result(const RunResult& r, TunePoint* p);
// % of cuBLAS for every Ok point that stores C as the baseline does, from the baseline's GFLOP/s
// (when it ran); -1 for the others.
void fill_tune_pct(TuneTable* t);

// The type C of an accepted point is stored in (TileConfig::c_in_input_type); the accumulator's
// for a point not accepted.
OutputType point_output_type(const TuneTable& t, const TunePoint& p);
// The type of the first accepted point: the baseline is the library writing C so.
OutputType tune_output_type(const TuneTable& t);

// The first baseline configuration (the library's) that computes this problem and input type on
// these limits, storing C as c_type; false when none does.
bool tune_baseline(Problem problem, Precision precision, OutputType c_type, const DeviceLimits& limits,
                   const VariantDescriptor** v, int* config_index);

// Columns: device, variant, problem, precision, m, n, k, every parameter, status, reason, gflops,
// pct_of_cublas, registers, occupancy, compile_s, median_ms. The baseline's row has its variant
// and empty parameters.
std::string tune_to_csv(const TuneTable& t);
// Reads text written by tune_to_csv; false with *error naming the line.
bool tune_from_csv(const std::string& text, TuneTable* out, std::string* error);

}  // namespace tilescope
