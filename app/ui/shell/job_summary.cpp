#include "app/ui/shell/job_summary.h"

#include <algorithm>

namespace tilescope {

namespace {

// "A", "A and B", "4 variants" (A and B the variants' names): two names still read as a sentence,
// more do not.
std::string who_words(const std::vector<RunRequest>& requests) {
  std::vector<std::string> ids;
  for (const RunRequest& r : requests)
    if (std::find(ids.begin(), ids.end(), r.variant_id) == ids.end()) ids.push_back(r.variant_id);
  if (ids.size() == 1) return variant_words(ids[0]);
  if (ids.size() == 2) return variant_words(ids[0]) + " and " + variant_words(ids[1]);
  return std::to_string(ids.size()) + " variants";
}

std::string where_words(const std::vector<RunRequest>& requests) {
  std::vector<Shape> shapes;
  for (const RunRequest& r : requests) {
    const Shape s = normalised(r.problem, r.shape);
    const bool seen = std::any_of(shapes.begin(), shapes.end(),
                                  [&](const Shape& o) { return o.M == s.M && o.N == s.N && o.K == s.K; });
    if (!seen) shapes.push_back(s);
  }
  if (shapes.size() == 1) return "at " + shape_words(shapes[0]);
  return "at " + std::to_string(shapes.size()) + " sizes from " + shape_words(shapes.front()) + " to " +
         shape_words(shapes.back());
}

}  // namespace

std::string shape_words(const Shape& s) {
  if (s.M == s.N && s.N == s.K) return std::to_string(s.N);
  return std::to_string(s.M) + " x " + std::to_string(s.N) + " x " + std::to_string(s.K);
}

std::string job_subject(const std::vector<RunRequest>& requests) {
  if (requests.empty()) return "nothing";
  return who_words(requests) + " " + where_words(requests);
}

}  // namespace tilescope
