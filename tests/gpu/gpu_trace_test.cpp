// The instrumented kernels (TraceProbe) against the mapping models, on the GPU: for every CUDA
// variant x configuration x problem, on ragged sizes (float; double on one size each, since
// the vector-chunk layouts depend on the vector width), who wrote each element of C must be
// exactly the model's owner, the global reads of each element of A and B exactly the model's
// closed form, the Mapping tab's block accounts summed over all blocks the reads recorded, and
// C after the first p phases the CPU double sum over the first p slabs (within a rigorous
// rounding bound). Skips itself (visibly) where no CUDA device exists, and a case whose builds
// the device's architecture runs none of (gpu_skip.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/device_info.h"
#include "kernels/instrument/trace.h"
#include "kernels/measure/reference.h"
#include "kernels/models/block_account.h"
#include "kernels/models/mapping_model.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/variant_case_suites.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

using tilescope::testing::owner_text;
using tilescope::testing::where;

std::vector<Shape> trace_shapes(Problem p, Precision q) {
  std::vector<Shape> out;
  if (q == Precision::F32)
    for (std::int64_t n : {7, 33, 129}) out.push_back({n, n, n});
  out.push_back(p == Problem::Gemm ? Shape{129, 77, 301} : Shape{0, 129, 301});  // AᵀA: A is 301 x 129
  // Ragged against every tile, but with rows of whole 16-byte vectors: the vectorised paths
  // (16-byte asynchronous copies with zero fill at the edges) rather than the scalar ones.
  out.push_back(p == Problem::Gemm ? Shape{200, 136, 296} : Shape{0, 136, 296});
  // AᵀA over several block tiles of the largest kernels (off the diagonal: the mirrored stores),
  // with rows of whole 16-byte vectors of C.
  if (p == Problem::Ata && q != Precision::F32) out.push_back(Shape{0, 388, 70});
  return out;
}

// Every element of C written once, by the model's owner (the id does not say "mirrored").
std::string check_writers(const MappingModel& m, const TraceResult& r) {
  const std::int64_t M = r.shape.M, N = r.shape.N;
  if (static_cast<std::int64_t>(r.writer.size()) != M * N) return "writer map has the wrong size";
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t j = 0; j < N; ++j) {
      const int id = r.writer[i * N + j];
      if (id == -1) return where("C", i, j) + " was never written";
      if (id == -2) return where("C", i, j) + " was written more than once";
      const Owner got = decode_writer(id, m.grid(), m.block(), m.writer_slots()), want = m.owner(i, j);
      if (got.block_x != want.block_x || got.block_y != want.block_y || got.thread_x != want.thread_x ||
          got.thread_y != want.thread_y || got.slot != want.slot)
        return where("C", i, j) + ": written by " + owner_text(got) + ", the model says " + owner_text(want);
    }
  return "";
}

// The reads of an operand the kernel recorded against `expected` (row-major, rows x cols).
std::string check_counts(const char* name, const std::vector<std::uint32_t>& got,
                         const std::vector<std::int64_t>& expected, std::int64_t cols) {
  if (got.size() != expected.size()) return std::string(name) + ": read counts have the wrong size";
  for (std::size_t e = 0; e < got.size(); ++e)
    if (static_cast<std::int64_t>(got[e]) != expected[e])
      return where(name, static_cast<std::int64_t>(e) / cols, static_cast<std::int64_t>(e) % cols) + " was read " +
             std::to_string(got[e]) + " times, the model says " + std::to_string(expected[e]);
  return "";
}

struct Expected {
  std::vector<std::int64_t> a, b;
  std::int64_t a_cols = 0, b_cols = 0;
};

// Global reads after the first `phases_run` phases (< 0: all): the closed forms for a whole
// run; otherwise the model's tiles of the phases that ran (naive: its one phase is all or nothing).
// cluster_m: blocks launched as one cluster share their B tile, read once for all of them
// (TileConfig::cluster_m).
Expected expected_reads(const MappingModel& m, bool naive, Problem problem, const Shape& s, int phases_run,
                        int cluster_m) {
  const bool ata = problem == Problem::Ata;
  Expected e;
  const std::int64_t a_rows = ata ? s.K : s.M;
  e.a_cols = ata ? s.N : s.K;
  e.b_cols = ata ? 0 : s.N;
  e.a.assign(static_cast<std::size_t>(a_rows * e.a_cols), 0);
  e.b.assign(static_cast<std::size_t>(ata ? 0 : s.K * s.N), 0);
  const bool whole = phases_run < 0 || phases_run >= m.phases();
  if (whole) {
    for (std::int64_t r = 0; r < a_rows; ++r)
      for (std::int64_t c = 0; c < e.a_cols; ++c) e.a[r * e.a_cols + c] = m.a_reads(r, c);
    for (std::int64_t r = 0; r < (ata ? 0 : s.K); ++r)
      for (std::int64_t c = 0; c < s.N; ++c) e.b[r * s.N + c] = m.b_reads(r, c);
    return e;
  }
  if (naive) return e;  // phase 0 of 1 ran: nothing
  auto add = [](std::vector<std::int64_t>& v, std::int64_t cols, const TileRect& t) {
    for (std::int64_t r = t.row0; r < t.row1; ++r)
      for (std::int64_t c = t.col0; c < t.col1; ++c) ++v[r * cols + c];
  };
  for (int by = 0; by < m.grid().y; ++by)
    for (int bx = 0; bx < m.grid().x; ++bx)
      for (int p = 0; p < phases_run; ++p) {
        add(e.a, e.a_cols, m.a_tile(bx, by, p));
        // AᵀA: the B-operand tile is a tile of A too.
        if (ata)
          add(e.a, e.a_cols, m.b_tile(bx, by, p));
        else if (bx % cluster_m == 0)
          add(e.b, e.b_cols, m.b_tile(bx, by, p));
      }
  return e;
}

// The trace counts reads per element of A and B, not per block: the accounts of all blocks
// (block_account.h, the Mapping tab's counters) after the phases that ran must add up to every
// read the run recorded.
std::string check_block_accounts(const MappingModel& m, Precision precision, const TraceResult& r, int phases_run) {
  std::int64_t traced = 0, accounted = 0;
  for (std::uint32_t n : r.a_reads) traced += n;
  for (std::uint32_t n : r.b_reads) traced += n;  // empty for AᵀA, whose one buffer holds both roles
  const int done = phases_run < 0 ? m.phases() : std::min(phases_run, m.phases());
  for (int by = 0; by < m.grid().y; ++by)
    for (int bx = 0; bx < m.grid().x; ++bx) accounted += block_account(m, precision, bx, by, done).global_loads();
  if (accounted != traced)
    return "the blocks' accounts load " + std::to_string(accounted) + " elements after " + std::to_string(done) +
           " phase(s), the run recorded " + std::to_string(traced);
  return "";
}

// C over k < k_end in double, with the inputs the run used, and a rigorous bound on the float
// (or double) rounding error of a length-k_end dot product: k_end * u * sum |a b| (doubled),
// with u the accumulation's unit roundoff. Tensor cores add products in groups, aligned to the
// largest with a few guard bits rather than rounded one by one: their u is taken 4 times larger.
// C stored in a 16-bit type rounds once more, by u_out of what the sum came to.
std::string check_values(const TraceResult& r, Problem problem, Precision precision, std::uint64_t seed,
                         std::int64_t k_end, double u_out) {
  const Shape& s = r.shape;
  const bool ata = problem == Problem::Ata;
  std::vector<double> a(static_cast<std::size_t>(a_elements(problem, s))),
      b(static_cast<std::size_t>(b_elements(problem, s)));
  fill_inputs(precision, seed, 0, static_cast<std::int64_t>(a.size()), a.data());
  fill_inputs(precision, seed, 1, static_cast<std::int64_t>(b.size()), b.data());
  const bool tensor_cores = precision_facts(precision).min_tensor_core_cc > 0;
  const double u = accumulation_unit_roundoff(precision) * (tensor_cores ? 4.0 : 1.0);
  if (static_cast<std::int64_t>(r.c.size()) != s.M * s.N) return "C has the wrong size";
  for (std::int64_t i = 0; i < s.M; ++i)
    for (std::int64_t j = 0; j < s.N; ++j) {
      double sum = 0, mag = 0;
      for (std::int64_t k = 0; k < k_end; ++k) {
        const double x = ata ? a[k * s.N + i] : a[i * s.K + k];
        const double y = ata ? a[k * s.N + j] : b[k * s.N + j];
        sum += x * y;
        mag += std::fabs(x * y);
      }
      const double got = r.c[i * s.N + j];
      const double summed = 2.0 * static_cast<double>(k_end + 1) * u * mag;
      const double tol = summed + u_out * (std::fabs(sum) + summed);
      if (!(std::fabs(got - sum) <= tol))
        return where("C", i, j) + " = " + std::to_string(got) + " after k < " + std::to_string(k_end) + ", expected " +
               std::to_string(sum) + " +- " + std::to_string(tol);
    }
  return "";
}

using tilescope::testing::case_name;

std::vector<tilescope::testing::VariantCase> traced_cases() {
  return tilescope::testing::variant_cases([](const VariantDescriptor& v) { return v.launch_traced != nullptr; });
}

class EveryTrace : public tilescope::testing::VariantCaseTest {};

TEST_P(EveryTrace, EqualsTheMappingModel) {
  SKIP_WITHOUT_GPU();
  const bool naive = !v.model_caps.staged_phases;  // the K loop is one phase
  if (!supports(v, c.precision)) {
    // An input type the variant does not compute is refused with the reason, not run.
    std::string error;
    EXPECT_FALSE(run_trace(c.variant, 0, c.problem, c.precision, {8, 8, 8}, -1, 1, &error).ok());
    EXPECT_NE(error, "");
    return;
  }
  tilescope::testing::DeviceBuilds builds(probe_device().limits);
  int checked = 0;
  for (const Shape& raw : trace_shapes(c.problem, c.precision))
    for (int ci = 0; ci < config_count(v); ++ci) {
      const int config = ci;
      if (!builds.runs(v, config, c.problem, c.precision)) continue;
      const TileConfig& cfg = config_at(v, ci);
      const Shape s = normalised(c.problem, raw);
      std::string why;
      const auto model = make_mapping_model(c.variant, config, c.problem, c.precision, s, &why);
      ASSERT_NE(model, nullptr) << why;
      const int phases = model->phases();
      // The whole run, nothing, the first phase, and one in the middle.
      std::vector<int> limits = {-1, 0, 1};
      if (phases / 2 > 1 && phases / 2 < phases) limits.push_back(phases / 2);
      for (int limit : limits) {
        SCOPED_TRACE(c.variant + ":" + cfg.name + " " + to_string(c.problem) + " " + to_string(c.precision) +
                     " M=" + std::to_string(s.M) + " N=" + std::to_string(s.N) + " K=" + std::to_string(s.K) +
                     " phase limit " + std::to_string(limit));
        const std::uint64_t seed = 77 + static_cast<std::uint64_t>(s.M * 7 + s.N * 13 + s.K);
        std::string error;
        const TraceResult r = run_trace(c.variant, config, c.problem, c.precision, s, limit, seed, &error);
        ASSERT_TRUE(r.ok()) << r.error;
        EXPECT_EQ(error, r.error);
        EXPECT_EQ(r.grid.x, model->grid().x);
        EXPECT_EQ(r.grid.y, model->grid().y);
        EXPECT_EQ(check_writers(*model, r), "");
        const Expected e = expected_reads(*model, naive, c.problem, s, limit, cfg.cluster_m);
        EXPECT_EQ(check_counts("A", r.a_reads, e.a, e.a_cols), "");
        EXPECT_EQ(check_counts("B", r.b_reads, e.b, e.b_cols), "");
        EXPECT_EQ(check_block_accounts(*model, c.precision, r, limit), "");
        const std::int64_t k_end = limit < 0 ? s.K
                                   : naive   ? (limit == 0 ? 0 : s.K)
                                             : std::min<std::int64_t>(s.K, static_cast<std::int64_t>(limit) * cfg.bk);
        const double u_out =
            cfg.c_roundings * output_unit_roundoff(c.precision, output_type(c.precision, cfg.c_in_input_type));
        EXPECT_EQ(check_values(r, c.problem, c.precision, seed, k_end, u_out), "");
        ++checked;
      }
    }
  EXPECT_CHECKED_UNLESS_THE_ARCHITECTURE_RUNS_NONE(builds, checked, "traced configuration of this case");
}

INSTANTIATE_TEST_SUITE_P(Gpu, EveryTrace, ::testing::ValuesIn(traced_cases()), case_name);

TEST(GpuTrace, RefusesWhatItCannotTrace) {
  SKIP_WITHOUT_GPU();
  std::string error;
  const VariantDescriptor& base = tilescope::testing::baseline();
  EXPECT_FALSE(run_trace(base.id, 0, Problem::Gemm, Precision::F32, {8, 8, 8}, -1, 1, &error).ok());
  EXPECT_NE(error.find(base.label), std::string::npos) << error;
  const VariantDescriptor& one_phase = tilescope::testing::one_phase_kernel();
  const std::string first = one_phase.id;
  EXPECT_FALSE(run_trace(first, 0, Problem::Gemm, Precision::F32, {0, 8, 8}, -1, 1, &error).ok());
  // A configuration index past every configuration, the typed tiles other tests added included.
  const int none = config_count(one_phase) + 3;
  EXPECT_FALSE(run_trace(first, none, Problem::Gemm, Precision::F32, {8, 8, 8}, -1, 1, &error).ok());
  EXPECT_FALSE(error.empty());
}

}  // namespace
