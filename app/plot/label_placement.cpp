#include "app/plot/label_placement.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace tilescope {

namespace {

ImVec2 add(ImVec2 a, ImVec2 b) {
  return ImVec2(a.x + b.x, a.y + b.y);
}

ImVec2 sub(ImVec2 a, ImVec2 b) {
  return ImVec2(a.x - b.x, a.y - b.y);
}

ImVec2 times(ImVec2 a, float k) {
  return ImVec2(a.x * k, a.y * k);
}

float dot(ImVec2 a, ImVec2 b) {
  return a.x * b.x + a.y * b.y;
}

// The box's own axes: along its width, along its height.
std::pair<ImVec2, ImVec2> axes(const LabelBox& b) {
  const float c = std::cos(b.angle), s = std::sin(b.angle);
  return {ImVec2(c, s), ImVec2(-s, c)};
}

// Half the length of the box's shadow on the unit direction `n`.
float half_shadow(const LabelBox& b, ImVec2 n) {
  const auto [u, v] = axes(b);
  return b.half.x * std::fabs(dot(u, n)) + b.half.y * std::fabs(dot(v, n));
}

ImVec2 nearest_on_segment(ImVec2 a, ImVec2 b, ImVec2 p) {
  const ImVec2 ab = sub(b, a);
  const float len2 = dot(ab, ab);
  if (!(len2 > 0)) return a;
  return add(a, times(ab, std::clamp(dot(sub(p, a), ab) / len2, 0.0f, 1.0f)));
}

LabelPlacement placement_at(const LabelRequest& r, const LabelBox& box, bool nudged) {
  LabelPlacement p;
  p.placed = true;
  p.box = box;
  p.nudged = nudged;
  const ImVec2 on_target = nearest_on_segment(r.names_from, r.names_to, box.center);
  const ImVec2 on_box = nearest_point_in_box(box, on_target);
  const ImVec2 d = sub(on_box, on_target);
  p.leader = std::sqrt(dot(d, d)) > r.leader_after;
  p.leader_from = on_target;
  p.leader_to = on_box;
  return p;
}

// The spots around `first` a nudged label tries, nearest first: a grid of half a text line
// vertically and a quarter of the label's width horizontally, over the whole of `bounds`.
std::vector<LabelBox> nudges(const LabelBox& first, const Rect& bounds) {
  const float step_y = std::max(2.0f, first.half.y), step_x = std::max(4.0f, first.half.x * 0.5f);
  const int ny = static_cast<int>(std::ceil((bounds.max.y - bounds.min.y) / step_y));
  const int nx = static_cast<int>(std::ceil((bounds.max.x - bounds.min.x) / step_x));
  std::vector<std::pair<float, LabelBox>> spots;
  for (int j = -ny; j <= ny; ++j)
    for (int i = -nx; i <= nx; ++i) {
      if (i == 0 && j == 0) continue;
      LabelBox b = first;
      b.center = add(first.center, ImVec2(i * step_x, j * step_y));
      if (!box_inside(b, bounds)) continue;
      const float dx = i * step_x, dy = j * step_y;
      spots.push_back({dx * dx + dy * dy, b});
    }
  std::stable_sort(spots.begin(), spots.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<LabelBox> out;
  out.reserve(spots.size());
  for (auto& s : spots) out.push_back(s.second);
  return out;
}

}  // namespace

LabelBox box_of(const Rect& r) {
  LabelBox b;
  b.center = ImVec2((r.min.x + r.max.x) * 0.5f, (r.min.y + r.max.y) * 0.5f);
  b.half = ImVec2((r.max.x - r.min.x) * 0.5f, (r.max.y - r.min.y) * 0.5f);
  return b;
}

std::array<ImVec2, 4> box_corners(const LabelBox& b) {
  const auto [u, v] = axes(b);
  const ImVec2 hu = times(u, b.half.x), hv = times(v, b.half.y);
  return {sub(sub(b.center, hu), hv), sub(add(b.center, hu), hv), add(add(b.center, hu), hv),
          add(sub(b.center, hu), hv)};
}

bool boxes_overlap(const LabelBox& a, const LabelBox& b, float gap) {
  // Separating axes: two rectangles are apart exactly when their shadows on one of the four
  // edge directions are.
  const auto [au, av] = axes(a);
  const auto [bu, bv] = axes(b);
  const ImVec2 d = sub(b.center, a.center);
  for (ImVec2 n : {au, av, bu, bv})
    if (std::fabs(dot(d, n)) >= half_shadow(a, n) + half_shadow(b, n) + gap) return false;
  return true;
}

bool box_inside(const LabelBox& b, const Rect& r) {
  for (const ImVec2& c : box_corners(b))
    if (!(c.x >= r.min.x && c.x <= r.max.x && c.y >= r.min.y && c.y <= r.max.y)) return false;
  return true;
}

ImVec2 nearest_point_in_box(const LabelBox& b, ImVec2 p) {
  const auto [u, v] = axes(b);
  const ImVec2 d = sub(p, b.center);
  const float along = std::clamp(dot(d, u), -b.half.x, b.half.x);
  const float across = std::clamp(dot(d, v), -b.half.y, b.half.y);
  return add(b.center, add(times(u, along), times(v, across)));
}

std::vector<LabelPlacement> place_labels(const std::vector<LabelRequest>& labels, const Rect& bounds,
                                         const std::vector<Rect>& obstacles, float gap) {
  std::vector<LabelBox> taken;
  taken.reserve(obstacles.size() + labels.size());
  for (const Rect& r : obstacles) taken.push_back(box_of(r));
  auto free = [&](const LabelBox& b) {
    if (!box_inside(b, bounds)) return false;
    for (const LabelBox& t : taken)
      if (boxes_overlap(b, t, gap)) return false;
    return true;
  };
  std::vector<LabelPlacement> out;
  out.reserve(labels.size());
  for (const LabelRequest& r : labels) {
    LabelPlacement p;
    for (const LabelBox& b : r.wanted)
      if (free(b)) {
        p = placement_at(r, b, false);
        break;
      }
    if (!p.placed && !r.wanted.empty())
      for (const LabelBox& b : nudges(r.wanted.front(), bounds))
        if (free(b)) {
          p = placement_at(r, b, true);
          break;
        }
    if (p.placed) taken.push_back(p.box);
    out.push_back(p);
  }
  return out;
}

}  // namespace tilescope
