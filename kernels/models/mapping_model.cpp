#include "kernels/models/mapping_model.h"

#include <algorithm>

#include "kernels/core/registry.h"

namespace tilescope {

int wavefronts(const SharedRequest& r) {
  std::vector<std::int64_t> words[32];
  int most = r.reads.empty() ? 0 : 1;
  for (const LaneRead& read : r.reads)
    for (std::int64_t w = read.address / 4; w < (read.address + read.bytes + 3) / 4; ++w) {
      std::vector<std::int64_t>& bank = words[w % 32];
      bool seen = false;
      for (std::int64_t x : bank) seen = seen || x == w;
      if (!seen) bank.push_back(w);
      most = std::max(most, static_cast<int>(bank.size()));
    }
  return most;
}

std::vector<SiteStep> MappingModel::recorded_order(int stream, int block_x, int block_y) const {
  const std::vector<AccessSite> sites = access_sites();
  std::vector<int> steps(sites.size(), 0);
  int most = 0;
  for (std::size_t s = 0; s < sites.size(); ++s)
    if (sites[s].recorded == stream) {
      steps[s] = site_steps(static_cast<int>(s), block_x, block_y);
      most = std::max(most, steps[s]);
    }
  std::vector<SiteStep> order;
  for (int step = 0; step < most; ++step)
    for (std::size_t s = 0; s < sites.size(); ++s)
      if (step < steps[s]) order.push_back({static_cast<int>(s), step});
  return order;
}

std::int64_t MappingModel::a_reads_total(std::int64_t rows, std::int64_t cols) const {
  std::int64_t total = 0;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) total += a_reads(i, j);
  return total;
}

std::int64_t MappingModel::b_reads_total(std::int64_t rows, std::int64_t cols) const {
  std::int64_t total = 0;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) total += b_reads(i, j);
  return total;
}

std::unique_ptr<MappingModel> make_mapping_model(const std::string& variant_id, int config_index, Problem problem,
                                                 Precision precision, const Shape& shape, std::string* why) {
  std::string reason;
  std::unique_ptr<MappingModel> model;
  const VariantDescriptor* v = find_variant(variant_id);
  const Shape s = normalised(problem, shape);
  if (!v) {
    reason = "unknown variant '" + variant_id + "'";
  } else if (const std::string bad = config_index_error(*v, config_index); !bad.empty()) {
    reason = bad;
  } else if (!v->model) {
    reason = *v->no_model_reason ? v->no_model_reason : std::string(v->id) + " has no mapping model";
  } else if (s.M < 1 || s.N < 1 || s.K < 1) {
    reason = "sizes must be at least 1";
  } else if (const std::string refused = variant_refusal(*v, config_index, problem, precision); !refused.empty()) {
    reason = refused;
  } else {
    model = v->model(config_index, problem, precision, s);
  }
  if (why) *why = model ? "" : reason;
  return model;
}

std::unique_ptr<MappingModel> make_mapping_model(const std::string& variant_id, int config_index, Problem problem,
                                                 const Shape& shape, std::string* why) {
  return make_mapping_model(variant_id, config_index, problem, Precision::F32, shape, why);
}

}  // namespace tilescope
