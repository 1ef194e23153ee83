// Where the words of a plot go so that none covers another, nor a point: each label comes with
// the places it would like to be, best first (on its roof, just above the line), and the
// rectangles it must keep clear of (the points, the legend). Labels are placed greedily in the
// order given, so the first ones get their favourite place; one whose places are all taken is
// nudged to the nearest free spot around its first choice, and one with no free spot at all is
// left out (the caller names it some other way: a tooltip). Pure geometry, so it can be tested
// without drawing anything.
#pragma once

#include <imgui.h>

#include <array>
#include <vector>

namespace tilescope {

struct Rect {
  ImVec2 min, max;
};

// A rectangle turned by `angle` radians about its centre (0: level; text along a slanted roof).
struct LabelBox {
  ImVec2 center;
  ImVec2 half;  // half its width and height, before turning
  float angle = 0;
};

LabelBox box_of(const Rect& r);
// The corners in order around the box.
std::array<ImVec2, 4> box_corners(const LabelBox& b);
// Whether the two boxes, each grown by `gap` / 2 on every side, share any area.
bool boxes_overlap(const LabelBox& a, const LabelBox& b, float gap = 0);
// Whether every corner of `b` lies in `r`.
bool box_inside(const LabelBox& b, const Rect& r);
// The point of `b` (its edge or inside) nearest to `p`.
ImVec2 nearest_point_in_box(const LabelBox& b, ImVec2 p);

struct LabelRequest {
  std::vector<LabelBox> wanted;  // its places, best first, all of the label's size
  // What it names: a roof's line, or a point (from == to). A label that ends up farther than
  // `leader_after` from it gets a leader line back to it.
  ImVec2 names_from, names_to;
  float leader_after = 0;
};

struct LabelPlacement {
  bool placed = false;
  LabelBox box;
  bool nudged = false;  // in none of its wanted places: the nearest free spot around the first
  bool leader = false;  // far from what it names: draw a line from leader_from to leader_to
  ImVec2 leader_from, leader_to;
};

// Places `labels` inside `bounds` (each wholly inside), no two closer than `gap`, none closer
// than `gap` to an obstacle. Returns one placement per label, in order.
std::vector<LabelPlacement> place_labels(const std::vector<LabelRequest>& labels, const Rect& bounds,
                                         const std::vector<Rect>& obstacles, float gap);

}  // namespace tilescope
