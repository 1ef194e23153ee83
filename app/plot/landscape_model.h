// The tuning landscape as a grid of cells, before any drawing: two tile parameters span the axes,
// and each cell stands for every point of the sweep with those two values, showing the best
// GFLOP/s among them (and which point that was). A cell where nothing ran says why: refused (the
// first reason), failed its check, or in error. The best cell of all, and the cells where a
// shipped configuration lies, are marked. Pure data, so it is tested without a window.
#pragma once

#include <string>
#include <vector>

#include "kernels/core/gemm_types.h"

namespace tilescope {

// Ordered by how much a cell's status tells: one Ok point makes the cell Ok; a cell whose points
// are refused but one still waits shows as waiting.
enum class LandscapeStatus { Refused, Pending, Error, Failed, Ok };

// One point of the sweep, as the model needs it.
struct LandscapePoint {
  TileValues values;  // every parameter of the sweep
  LandscapeStatus status = LandscapeStatus::Pending;
  std::string reason;  // refused, failed or in error: why
  double gflops = 0;
  double pct_of_cublas = -1;  // -1: no baseline
};

struct LandscapeInput {
  std::string x_key, y_key;  // y "" for a single row
  std::vector<LandscapePoint> points;
  // The shipped configurations: their name and values (VariantDescriptor::tile_values_of).
  std::vector<std::pair<std::string, TileValues>> shipped;
  // For the title and the colour bar.
  std::string title, subtitle;
  double baseline_gflops = 0;  // cuBLAS's, 0 when unknown
};

struct LandscapeCell {
  int x = 0, y = 0;  // indices into x_values, y_values
  LandscapeStatus status = LandscapeStatus::Pending;
  std::string reason;         // of the first point with the cell's status (not Ok)
  double gflops = 0;          // the best Ok point's
  double pct_of_cublas = -1;  // the best Ok point's
  int point = -1;             // the best Ok point (index into the input's points), else the reason's
  int points = 0, ok_points = 0;
  int failed_points = 0;  // points that ran and gave a wrong result: shown even on an Ok cell
  std::string shipped;    // the names of shipped configurations on this cell ("" none), joined by ", "
};

struct LandscapeModel {
  std::string x_key, y_key;
  std::vector<int> x_values, y_values;    // ascending; y_values holds one 0 for a single row
  std::vector<LandscapeCell> cells;       // row by row: cells[y * x_values.size() + x]
  int best = -1;                          // the cell with the highest GFLOP/s, -1 when none is Ok
  double min_gflops = 0, max_gflops = 0;  // over Ok cells
  std::vector<LandscapePoint> points;     // the input's, for a cell's details
  std::string title, subtitle;
  double baseline_gflops = 0;

  const LandscapeCell& at(int x, int y) const { return cells[static_cast<std::size_t>(y) * x_values.size() + x]; }
  bool empty() const { return cells.empty(); }
};

LandscapeModel build_landscape(const LandscapeInput& input);

// Where `v` sits in the colour scale: 0 at min_gflops, 1 at max_gflops (0.5 when they are equal).
float landscape_level(const LandscapeModel& m, double gflops);

// A cell's words for a tooltip: its parameters (the best point's), GFLOP/s and % of cuBLAS, or why
// nothing ran there, and the shipped configurations on it.
std::string landscape_cell_text(const LandscapeModel& m, const LandscapeCell& c);

}  // namespace tilescope
