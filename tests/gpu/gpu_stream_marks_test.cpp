// The marks that split K and stream-K wait on (kernels/cuda/stream_marks.h) are zeroed once per
// stream and left zeroed by every launch, so that a launch clears nothing before it runs. Here:
// the buffers themselves (zeroed, kept per stream, grown), and launches of split and stream-K tiles
// one after another on one stream, each leaving every mark at zero and computing what it should
// (the second launch's A is twice the first's, so its C is exactly twice the first's: a launch that
// read the first launch's partial sums would not be).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/core/typed_configs.h"
#include "kernels/cuda/cuda_libraries.h"
#include "kernels/cuda/stream_marks.h"
#include "kernels/measure/gpu_buffers.h"
#include "kernels/measure/reference.h"
#include "tests/support/typed_tile_samples.h"
#include "tests/support/variant_cases.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
using tilescope::testing::has_tile_param;

namespace {

// Every mark the stream's buffer holds, read back once the stream is done; -1 where one is not 0.
std::int64_t first_set_mark(cudaStream_t stream) {
  const StreamMarks held = zeroed_marks(1, stream);
  std::vector<unsigned> marks(held.count);
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(marks.data(), held.marks, marks.size() * sizeof(unsigned), cudaMemcpyDeviceToHost), cudaSuccess);
  for (std::size_t i = 0; i < marks.size(); ++i)
    if (marks[i] != 0) return static_cast<std::int64_t>(i);
  return -1;
}

// The bf16 bits of a value bf16 holds exactly (the run's inputs, and twice them): the top half of its
// float's.
std::uint16_t exact_bf16_bits(double x) {
  const float f = static_cast<float>(x);
  std::uint32_t u = 0;
  std::memcpy(&u, &f, sizeof u);
  return static_cast<std::uint16_t>(u >> 16);
}

// The first configuration of v that computes `problem` in bf16 (the default first), -1 if none.
int base_config(const VariantDescriptor& v, Problem problem) {
  if (variant_refusal(v, v.default_config, problem, Precision::BF16).empty()) return v.default_config;
  for (int i = 0; i < static_cast<int>(v.configs.size()); ++i)
    if (variant_refusal(v, i, problem, Precision::BF16).empty()) return i;
  return -1;
}

// Configuration `base` of v cut as `key` says (split_k = 2, or stream_k = 1); -1 (and why) where v
// refuses it.
int cut_tile(const VariantDescriptor& v, int base, const std::string& key, int value, std::string* why) {
  TileConfig cfg;
  if (!typed_tile_config(v, tilescope::testing::cut_in_pieces(v.tile_values_of(v.configs[base]), key, value), &cfg,
                         why))
    return -1;
  return add_typed_config(v, cfg);
}

}  // namespace

TEST(GpuStreamMarks, AStreamsMarksAreZeroedKeptAndGrown) {
  SKIP_WITHOUT_GPU();
  CudaStream a, b;
  const StreamMarks first = zeroed_marks(100, a.get());
  ASSERT_NE(first.marks, nullptr);
  EXPECT_GE(first.count, 100u);
  EXPECT_EQ(first_set_mark(a.get()), -1);
  EXPECT_EQ(zeroed_marks(first.count, a.get()).marks, first.marks) << "the stream keeps its buffer";
  EXPECT_NE(zeroed_marks(100, b.get()).marks, first.marks) << "another stream has its own";
  // Dirtied by hand, then grown: the grown buffer is zeroed on the stream.
  ASSERT_EQ(cudaMemsetAsync(first.marks, 0xff, sizeof(unsigned), a.get()), cudaSuccess);
  EXPECT_EQ(first_set_mark(a.get()), 0) << "the check sees a mark left set";
  const StreamMarks grown = zeroed_marks(first.count * 3, a.get());
  EXPECT_GE(grown.count, first.count * 3);
  EXPECT_EQ(first_set_mark(a.get()), -1);
}

TEST(GpuStreamMarks, SplitAndStreamKLaunchesLeaveEveryMarkZeroedAndComputeAgain) {
  SKIP_WITHOUT_GPU();
  if (!nvrtc_library().loaded) GTEST_SKIP() << "NVRTC is not loaded: " << nvrtc_library().error;
  int launched = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (!v->launch || !supports(*v, Precision::BF16)) continue;
    for (const auto& [key, value] : {std::pair<std::string, int>{"split_k", 2}, {"stream_k", 1}}) {
      if (!has_tile_param(*v, key.c_str())) continue;
      for (Problem problem : {Problem::Gemm, Problem::Ata}) {
        const int base = base_config(*v, problem);
        if (base < 0) continue;
        std::string why;
        const int index = cut_tile(*v, base, key, value, &why);
        ASSERT_GE(index, 0) << v->id << " " << key << ": " << why;
        ASSERT_EQ(variant_refusal(*v, index, problem, Precision::BF16), "");
        SCOPED_TRACE(std::string(v->id) + " " + config_at(*v, index).name + " " + to_string(problem));
        // Not multiples of any tile; rows of 16 bytes, so that no operand is copied first.
        GemmArgs g;
        g.problem = problem;
        g.precision = Precision::BF16;
        g.shape = problem == Problem::Ata ? Shape{1000, 1000, 1000} : Shape{1000, 1000, 744};
        const std::int64_t a_elems = g.shape.M * g.shape.K, b_elems = g.shape.K * g.shape.N,
                           c_elems = g.shape.M * g.shape.N;
        // A from the run's inputs (exact in bf16), and twice them: exactly representable too.
        std::vector<double> x(a_elems);
        fill_inputs(Precision::BF16, 7, 0, a_elems, x.data());
        std::vector<std::uint16_t> a(a_elems), a2(a_elems);
        for (std::int64_t i = 0; i < a_elems; ++i) {
          a[i] = exact_bf16_bits(x[i]);
          a2[i] = exact_bf16_bits(2 * x[i]);
        }
        DeviceBuffer da(a_elems * 2), db(b_elems * 2), dc(c_elems * 4);
        CudaStream s;
        fill_random(db.get(), Precision::BF16, b_elems, 7, 1, s.get());
        g.a = da.get();
        g.b = problem == Problem::Ata ? nullptr : db.get();
        g.c = dc.get();
        g.stream = s.get();
        std::vector<float> c1(c_elems), c2(c_elems);
        for (int round = 0; round < 2; ++round) {
          ASSERT_EQ(
              cudaMemcpyAsync(da.get(), (round == 0 ? a : a2).data(), a_elems * 2, cudaMemcpyHostToDevice, s.get()),
              cudaSuccess);
          poison(dc.get(), OutputType::F32, c_elems, s.get());  // every element must be written
          ASSERT_NO_THROW(v->launch(g, index));
          EXPECT_EQ(first_set_mark(s.get()), -1) << "launch " << round + 1 << " left a mark set";
          ASSERT_EQ(cudaMemcpy((round == 0 ? c1 : c2).data(), dc.get(), c_elems * 4, cudaMemcpyDeviceToHost),
                    cudaSuccess);
        }
        // C is linear in A (gemm) or in each of AᵀA's two factors: twice A, twice or four times C.
        const float scale = problem == Problem::Ata ? 4.0f : 2.0f;
        std::int64_t wrong = 0, first_wrong = -1;
        for (std::int64_t i = 0; i < c_elems; ++i)
          if (!(c2[i] == scale * c1[i]) || std::isnan(c1[i])) {
            if (first_wrong < 0) first_wrong = i;
            ++wrong;
          }
        EXPECT_EQ(wrong, 0) << "first at element " << first_wrong << ": " << c2[first_wrong < 0 ? 0 : first_wrong]
                            << " against " << scale << " x " << c1[first_wrong < 0 ? 0 : first_wrong];
        ++launched;
      }
    }
  }
  EXPECT_GT(launched, 0) << "no variant cuts its tiles in split or stream-K parts in bf16";
}
