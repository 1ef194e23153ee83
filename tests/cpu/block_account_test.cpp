// The Mapping tab's account of a block (block_account.h) against the mapping models, on the CPU.
// Every variant x configuration x problem x input type with a model, on ragged sizes: the
// account's global loads are its threads' thread_loads() summed over the phases done and their
// pieces; after the last phase the accounts of all blocks add up to the closed-form totals of the
// whole kernel; the phases' k ranges cover K once; a gemm's blocks accumulate every element of C
// once; bytes, FLOPs and arithmetic intensity follow from the counts; and the counter lines
// print the numbers. The one-phase kernel (naive) reads nothing from shared memory, says nothing
// of it, and loads 2 x rows x cols x K elements in a whole 16 x 16 block. The checks return the
// first disagreement as text, so the last test can show that each of them catches a broken model.
#include "kernels/models/block_account.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <string>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/models/mapping_model.h"
#include "tests/support/variant_case_suites.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

std::vector<Shape> ragged_shapes(Problem p) {
  if (p == Problem::Gemm) return {{129, 77, 301}, {33, 40, 17}};
  return {{0, 129, 301}, {0, 40, 17}};  // AᵀA: A is K x N
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string at(const char* what, int bx, int by, int phases) {
  return std::string(what) + " of block (" + std::to_string(bx) + ", " + std::to_string(by) + ") after " +
         std::to_string(phases) + " phase(s)";
}

// The global loads of a block after `phases_done` phases, from thread_loads() directly.
std::int64_t loads_of(const MappingModel& m, int bx, int by, int phases_done) {
  std::vector<ElementRef> a, b;
  std::int64_t n = 0;
  for (int p = 0; p < phases_done; ++p)
    for (int q = 0; q < m.pieces(); ++q)
      for (int ty = 0; ty < m.block().y; ++ty)
        for (int tx = 0; tx < m.block().x; ++tx) {
          m.thread_loads(bx, by, tx, ty, p, q, &a, &b);
          n += static_cast<std::int64_t>(a.size() + b.size());
        }
  return n;
}

bool mentions(const BlockAccount& acc, const std::string& number) {
  for (const CounterLine& line : acc.counters)
    if (line.text.find(number) != std::string::npos) return true;
  return false;
}

// One block's account after `done` phases against the model and against its own arithmetic.
std::string check_account(const MappingModel& m, Precision precision, int bx, int by, int done) {
  const BlockAccount acc = block_account(m, precision, bx, by, done);
  if (acc.global_loads() != loads_of(m, bx, by, done))
    return at("global loads", bx, by, done) + ": " + std::to_string(acc.global_loads()) +
           ", the threads' loads sum to " + std::to_string(loads_of(m, bx, by, done));
  if (acc.bytes != acc.global_loads() * static_cast<std::int64_t>(element_bytes(precision)))
    return at("bytes", bx, by, done) + " are not the loads times the element's bytes";
  const double intensity = acc.bytes > 0 ? static_cast<double>(acc.flops) / static_cast<double>(acc.bytes) : 0.0;
  if (acc.flops != 2 * acc.outputs * acc.k_done || acc.intensity != intensity)
    return at("FLOPs or intensity", bx, by, done) + " do not follow from the counts";
  // After a phase: its k range, then at least one sentence of the model's on what it did.
  if (acc.words.empty() || (done > 0 && acc.active && acc.words.size() < 2))
    return at("words", bx, by, done) + ": the model says nothing of the phase";
  if (!mentions(acc, std::to_string(acc.global_loads())) || !mentions(acc, std::to_string(acc.flops)))
    return at("counter lines", bx, by, done) + " do not print the loads and FLOPs";
  if (acc.through_shared && !mentions(acc, std::to_string(acc.shared_loads)))
    return at("counter lines", bx, by, done) + " do not print the shared-memory loads";
  return "";
}

// The phases of every active block cover [0, K) once, in order, each run for at least its k.
std::string check_phases(const MappingModel& m, const Shape& s) {
  for (int by = 0; by < m.grid().y; ++by)
    for (int bx = 0; bx < m.grid().x; ++bx) {
      if (!m.block_active(bx, by)) continue;
      std::int64_t k = 0;
      for (int p = 0; p < m.phases(); ++p) {
        const PhaseWork w = m.phase_work(bx, by, p);
        if (w.k0 != k || w.k1 <= w.k0 || w.steps < w.k1 - w.k0)
          return at("k range", bx, by, p + 1) + ": [" + std::to_string(w.k0) + ", " + std::to_string(w.k1) + ") in " +
                 std::to_string(w.steps) + " steps after k = " + std::to_string(k);
        k = w.k1;
      }
      if (k != s.K) return at("k ranges", bx, by, m.phases()) + " end at " + std::to_string(k);
    }
  return "";
}

// After the last phase: the accounts of all blocks add up to the whole kernel's loads; a gemm's
// blocks accumulate every element of C exactly once between them.
std::string check_totals(const MappingModel& m, Problem problem, Precision precision, const Shape& s) {
  std::int64_t loads = 0, outputs = 0;
  for (int by = 0; by < m.grid().y; ++by)
    for (int bx = 0; bx < m.grid().x; ++bx) {
      const BlockAccount acc = block_account(m, precision, bx, by, m.phases());
      loads += acc.global_loads();
      outputs += acc.outputs;
    }
  const bool ata = problem == Problem::Ata;
  const std::int64_t total = ata ? m.a_reads_total(s.K, s.N) : m.a_reads_total(s.M, s.K) + m.b_reads_total(s.K, s.N);
  if (loads != total)
    return "the blocks' accounts load " + std::to_string(loads) + " elements, the kernel's closed form " +
           std::to_string(total);
  if (!ata && outputs != s.M * s.N)
    return "the blocks accumulate " + std::to_string(outputs) +
           " elements of C, not M x N = " + std::to_string(s.M * s.N);
  return "";
}

// Which blocks get their accounts checked phase by phase: the first, the last, one between.
std::vector<std::pair<int, int>> sample_blocks(const MappingModel& m) {
  const Dim2 g = m.grid();
  return {{0, 0}, {g.x - 1, g.y - 1}, {g.x / 2, g.y / 2}};
}

std::string check_model(const MappingModel& m, Problem problem, Precision precision, const Shape& s) {
  for (const auto& [bx, by] : sample_blocks(m))
    for (int done : {0, 1, m.phases() / 2, m.phases()}) {
      const std::string e = check_account(m, precision, bx, by, done);
      if (!e.empty()) return e;
    }
  std::string e = check_phases(m, s);
  if (e.empty()) e = check_totals(m, problem, precision, s);
  return e;
}

// Staged kernels read their tiles from shared memory; the one-phase kernel reads nothing there
// and its words do not speak of it.
std::string check_staging(const MappingModel& m, const VariantDescriptor& v, Precision precision) {
  for (const auto& [bx, by] : sample_blocks(m)) {
    if (!m.block_active(bx, by)) continue;
    const BlockAccount acc = block_account(m, precision, bx, by, m.phases());
    if (acc.through_shared != v.model_caps.staged_phases || (acc.shared_loads > 0) != v.model_caps.staged_phases)
      return at("shared memory", bx, by, m.phases()) + ": " + std::to_string(acc.shared_loads) + " loads, " +
             (v.model_caps.staged_phases ? "but the kernel stages its tiles there" : "but the kernel has none");
    if (!v.model_caps.staged_phases)
      for (const std::string& sentence : acc.words)
        if (lower(sentence).find("shared memory") != std::string::npos)
          return at("words", bx, by, m.phases()) + " speak of shared memory: " + sentence;
  }
  return "";
}

class EveryAccount : public tilescope::testing::VariantCaseTest {};

TEST_P(EveryAccount, AddsUpToTheModelOnRaggedSizes) {
  std::string refused;
  if (!supports(v, c.precision)) {
    // No model, and so no account, for an input type the variant does not compute.
    EXPECT_EQ(make_mapping_model(c.variant, 0, c.problem, c.precision, Shape{8, 8, 8}, &refused), nullptr);
    return;
  }
  int checked = 0;
  for (const Shape& raw : ragged_shapes(c.problem))
    for (std::size_t ci = 0; ci < v.configs.size(); ++ci) {
      const int config = static_cast<int>(ci);
      if (!variant_refusal(v, config, c.problem, c.precision).empty()) continue;
      const Shape s = normalised(c.problem, raw);
      SCOPED_TRACE(c.variant + ":" + v.configs[ci].name + " " + to_string(c.problem) + " " + to_string(c.precision) +
                   " M=" + std::to_string(s.M) + " N=" + std::to_string(s.N) + " K=" + std::to_string(s.K));
      std::string why;
      const auto m = make_mapping_model(c.variant, config, c.problem, c.precision, s, &why);
      ASSERT_NE(m, nullptr) << why;
      EXPECT_EQ(check_model(*m, c.problem, c.precision, s), "");
      EXPECT_EQ(check_staging(*m, v, c.precision), "");
      ++checked;
    }
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(Cpu, EveryAccount, ::testing::ValuesIn(tilescope::testing::modelled_cases()),
                         tilescope::testing::case_name);

// The one-phase kernel in a 16 x 16 block lying wholly inside C: at k = K every thread has
// loaded its row of A (or column of A, AᵀA) and its column, 2 x rows x cols x K elements, all
// from global memory.
TEST(BlockAccount, OnePhaseKernelLoadsTwoOperandsPerThreadAndK) {
  const VariantDescriptor& v = tilescope::testing::one_phase_kernel();
  const int config = tilescope::testing::config_where(
      v, [](const TileConfig& c) { return c.threads_x == 16 && c.threads_y == 16; }, "a 16 x 16 block");
  const TileConfig& cfg = v.configs[static_cast<std::size_t>(config)];
  for (Problem problem : {Problem::Gemm, Problem::Ata}) {
    const Shape s = normalised(problem, problem == Problem::Gemm ? Shape{129, 77, 301} : Shape{0, 129, 301});
    std::string why;
    const auto m = make_mapping_model(v.id, config, problem, Precision::F32, s, &why);
    ASSERT_NE(m, nullptr) << why;
    const BlockAccount acc = block_account(*m, Precision::F32, 1, 1, m->phases());
    EXPECT_EQ(acc.k_done, s.K);
    EXPECT_EQ(acc.global_loads(), 2LL * cfg.bm * cfg.bn * s.K) << to_string(problem);
    EXPECT_EQ(acc.a_loads, acc.b_loads);
    EXPECT_EQ(acc.shared_loads, 0);
    EXPECT_FALSE(acc.through_shared);
    EXPECT_EQ(acc.bytes, acc.global_loads() * 4);
    EXPECT_EQ(acc.flops, 2LL * cfg.bm * cfg.bn * s.K);
    // Two operands of four bytes per multiply-add: a quarter of a FLOP per byte.
    EXPECT_DOUBLE_EQ(acc.intensity, 0.25);
    for (const std::string& sentence : acc.words)
      EXPECT_EQ(lower(sentence).find("shared"), std::string::npos) << sentence;
    for (const CounterLine& line : acc.counters)
      EXPECT_EQ(lower(line.text).find("shared"), std::string::npos) << line.text;
  }
}

// Before the first phase nothing is loaded and nothing computed, whatever the kernel.
TEST(BlockAccount, BeforeTheLoopEverythingIsZero) {
  for (const VariantDescriptor* v : variant_registry()) {
    if (!v->model) continue;
    const Precision precision = supports(*v, Precision::F32) ? Precision::F32 : v->precisions.front();
    std::string why;
    const auto m = make_mapping_model(v->id, v->default_config, Problem::Gemm, precision, Shape{200, 200, 200}, &why);
    ASSERT_NE(m, nullptr) << v->id << ": " << why;
    const BlockAccount acc = block_account(*m, precision, 0, 0, 0);
    EXPECT_EQ(acc.global_loads(), 0) << v->id;
    EXPECT_EQ(acc.shared_loads, 0) << v->id;
    EXPECT_EQ(acc.flops, 0) << v->id;
    EXPECT_EQ(acc.intensity, 0.0) << v->id;
    EXPECT_EQ(acc.k_done, 0) << v->id;
  }
}

// Stepping through a block's phases with its loads counted once (as the panel does), forwards
// and back, gives the accounts made from nothing.
TEST(BlockAccount, CountedPhasesGiveTheSameLoads) {
  const VariantDescriptor& v = tilescope::testing::prefetch_kernel();
  std::string why;
  const auto m = make_mapping_model(v.id, v.default_config, Problem::Gemm, Precision::F32, Shape{129, 77, 301}, &why);
  ASSERT_NE(m, nullptr) << why;
  PhaseLoads counted;
  std::vector<int> steps;
  for (int p = 0; p <= m->phases(); ++p) steps.push_back(p);
  steps.push_back(1);
  steps.push_back(m->phases() / 2);
  for (int p : steps) {
    const BlockAccount stepped = block_account(*m, Precision::F32, 0, 0, p, &counted);
    const BlockAccount fresh = block_account(*m, Precision::F32, 0, 0, p);
    EXPECT_EQ(stepped.a_loads, fresh.a_loads) << "after " << p << " phases";
    EXPECT_EQ(stepped.b_loads, fresh.b_loads) << "after " << p << " phases";
  }
}

// ---- the checks catch a broken model ---------------------------------------------------------

class Broken final : public MappingModel {
 public:
  enum class Bug { DroppedLoad, SharedInOnePhase, ExtraOutput, KGap, NoWords };
  Broken(std::unique_ptr<MappingModel> m, Bug bug) : m_(std::move(m)), bug_(bug) {}
  Dim2 grid() const override { return m_->grid(); }
  Dim2 block() const override { return m_->block(); }
  int phases() const override { return m_->phases(); }
  int pieces() const override { return m_->pieces(); }
  bool block_active(int bx, int by) const override { return m_->block_active(bx, by); }
  Owner owner(std::int64_t i, std::int64_t j) const override { return m_->owner(i, j); }
  TileRect a_tile(int bx, int by, int p) const override { return m_->a_tile(bx, by, p); }
  TileRect b_tile(int bx, int by, int p) const override { return m_->b_tile(bx, by, p); }
  void thread_loads(int bx, int by, int tx, int ty, int p, int q, std::vector<ElementRef>* a,
                    std::vector<ElementRef>* b) const override {
    m_->thread_loads(bx, by, tx, ty, p, q, a, b);
    if (bug_ == Bug::DroppedLoad && bx == 0 && by == 0 && tx == 0 && ty == 0 && !a->empty()) a->pop_back();
  }
  PhaseWork phase_work(int bx, int by, int p) const override {
    PhaseWork w = m_->phase_work(bx, by, p);
    if (bug_ == Bug::SharedInOnePhase) w.shared = {1, "x", "1"};
    if (bug_ == Bug::ExtraOutput && bx == 0 && by == 0) w.outputs += 1;
    if (bug_ == Bug::KGap && p == 0) w.k1 -= 1;
    if (bug_ == Bug::NoWords) w.words.clear();
    return w;
  }
  std::int64_t a_reads(std::int64_t r, std::int64_t c) const override { return m_->a_reads(r, c); }
  std::int64_t b_reads(std::int64_t r, std::int64_t c) const override { return m_->b_reads(r, c); }
  std::int64_t a_reads_total(std::int64_t r, std::int64_t c) const override { return m_->a_reads_total(r, c); }
  std::int64_t b_reads_total(std::int64_t r, std::int64_t c) const override { return m_->b_reads_total(r, c); }
  std::string reads_summary() const override { return m_->reads_summary(); }

 private:
  std::unique_ptr<MappingModel> m_;
  Bug bug_;
};

TEST(BlockAccount, TheChecksCatchABrokenModel) {
  const VariantDescriptor& v = tilescope::testing::one_phase_kernel();
  const Shape s{129, 77, 301};
  auto model = [&] {
    std::string why;
    auto m = make_mapping_model(v.id, v.default_config, Problem::Gemm, Precision::F32, s, &why);
    EXPECT_NE(m, nullptr) << why;
    return m;
  };
  ASSERT_EQ(check_model(*model(), Problem::Gemm, Precision::F32, s), "");
  ASSERT_EQ(check_staging(*model(), v, Precision::F32), "");
  for (Broken::Bug bug : {Broken::Bug::DroppedLoad, Broken::Bug::ExtraOutput, Broken::Bug::KGap}) {
    const Broken broken(model(), bug);
    EXPECT_NE(check_model(broken, Problem::Gemm, Precision::F32, s), "") << static_cast<int>(bug);
  }
  EXPECT_NE(check_staging(Broken(model(), Broken::Bug::SharedInOnePhase), v, Precision::F32), "");
  EXPECT_NE(check_account(Broken(model(), Broken::Bug::NoWords), Precision::F32, 0, 0, 1), "");
}

}  // namespace
