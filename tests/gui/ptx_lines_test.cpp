// The PTX-to-source map of the Source view's compiled code (app/ui/source/ptx_lines.h): on a
// hand-written PTX sample every instruction lands on its `.loc`'s line and nothing else counts, and
// on a real NVRTC compile of a tiny kernel text whose helpers live in an included header, the
// inlined helpers (one calling the other) count at the call in the text, a helper whose call site
// no `.loc` describes says its call site is not known, and the counts add up.
#include "app/ui/source/ptx_lines.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>
#include <string>

#include "kernels/cuda/cuda_libraries.h"
#include "kernels/jit/nvrtc_compiler.h"
#include "tests/gui/gui_test_support.h"

using namespace tilescope;
namespace ts = tilescope::testing;

namespace {

// Two kernels; the second calls a function (its parameter block has braces of its own) whose
// arguments run over several lines, and has an instruction of a header inlined at line 9.
const char* kSample = R"ptx(
.version 9.0
.target sm_90
.address_size 64

.visible .entry first(
	.param .u64 first_param_0
)
{
	.reg .b32 	%r<3>;
	.loc	1 3 0
	ld.param.u64 	%rd1, [first_param_0];
	.loc	1 4 3
	mov.u32 	%r1, %tid.x;
	@%p1 bra 	$L__BB0_2;
$L__BB0_2:
	// a comment
	ret;
}

.visible .entry second(
	.param .u64 second_param_0
)
{
	.reg .b32 	%r<3>;
	mov.u32 	%r1, %tid.x;
	.loc	1 8 3
	{ // callseq 0, 0
	.param .b64 param0;
	st.param.b64 	[param0], %rd1;
	call.uni
	helper,
	(
	param0
	);
	} // callseq 0
	.loc	2 42 5, function_name $L__info_string0, inlined_at 1 9 7
	add.s32 	%r2, %r1, 1;
	.loc	2 50 5, function_name $L__info_string1, inlined_at 2 44 3
	add.s32 	%r2, %r2, 1;
	.loc	1 10 1
	ret;
}
	.file	1 "/somewhere/kernels/variants/sample.cuh"
	.file	2 "/somewhere/kernels/ptx/vector_access.cuh"
	.section	.debug_str
	{
$L__info_string0:
.b8 95,0
	}
)ptx";

int sum(const std::vector<int>& v) {
  return std::accumulate(v.begin(), v.end(), 0);
}

TEST(PtxLines, AHandWrittenSampleCountsOnlyInstructionsAtTheirLines) {
  const PtxListing l = parse_ptx(kSample);
  ASSERT_EQ(l.kernels.size(), 2u);
  EXPECT_EQ(l.kernels[0].name, "first");
  EXPECT_EQ(l.kernels[1].name, "second");
  // ld, mov, bra, ret; then mov, st.param, call (once over its five lines), add, add, ret.
  EXPECT_EQ(l.kernels[0].instructions.size(), 4u);
  EXPECT_EQ(l.kernels[1].instructions.size(), 6u);
  EXPECT_EQ(ptx_file_index(l, "kernels/variants/sample.cuh"), 1);
  EXPECT_EQ(ptx_file_index(l, "variants/sample.cuh"), 1);
  EXPECT_EQ(ptx_file_index(l, "ample.cuh"), -1) << "a name ends at a folder";
  EXPECT_EQ(ptx_file_base(l, 2), "vector_access.cuh");

  const KernelLineMap a = map_kernel(l.kernels[0], 1, 10);
  EXPECT_EQ(a.count[2], 1);  // line 3
  EXPECT_EQ(a.count[3], 3);  // line 4: mov, bra, ret
  EXPECT_EQ(sum(a.count), 4);
  for (int ptx : a.ptx_lines[3]) EXPECT_EQ(a.by_ptx_line.at(ptx).text_line, 3);

  const KernelLineMap b = map_kernel(l.kernels[1], 1, 10);
  EXPECT_EQ(b.instructions, 6);
  EXPECT_EQ(b.no_line, 1) << "the mov before any .loc";
  EXPECT_EQ(b.count[7], 2) << "st.param and the call at line 8";
  ASSERT_EQ(b.count[8], 1) << "the header's add inlined at line 9";
  EXPECT_EQ(b.count[9], 1) << "ret, at line 10";
  EXPECT_EQ(b.call_unknown, 1) << "the add inlined at a call site in the header that no .loc describes";
  EXPECT_EQ(b.placed + b.call_unknown + b.no_line, b.instructions);
  EXPECT_EQ(sum(b.count), b.placed);
  const PtxLineSource& inlined = b.by_ptx_line.at(b.ptx_lines[8][0]);
  EXPECT_EQ(inlined.at.file, 2);
  EXPECT_EQ(inlined.at.line, 42);
  EXPECT_FALSE(inlined.call_unknown);
}

// A tiny kernel text whose helper is in an included header, itself calling a second helper.
TEST(PtxLines, ARealCompileMapsInlinedHeaderCodeToItsCallSite) {
  if (!nvrtc_library().loaded) GTEST_SKIP() << "NVRTC is not loaded here: " << nvrtc_library().error;
  ts::TempDir dir("tilescope-ptx-lines");
  std::filesystem::create_directories(dir.path() + "/lib");
  ts::write_file(dir.path() + "/lib/helper.cuh",
                 "#pragma once\n"                                       // 1
                 "__device__ __forceinline__ float inner(float x) {\n"  // 2
                 "  return x * x + 3.0f;\n"                             // 3
                 "}\n"                                                  // 4
                 "__device__ __forceinline__ float twice(float x) {\n"  // 5
                 "  return inner(x) * 2.0f;\n"                          // 6
                 "}\n");                                                // 7
  CompileJob job;
  job.source =
      "#include \"lib/helper.cuh\"\n"                           // 1
      "extern \"C\" __global__ void tiny(float* a, int n) {\n"  // 2
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"      // 3
      "  if (i < n) {\n"                                        // 4
      "    a[i] = twice(a[i]);\n"                               // 5
      "  }\n"                                                   // 6
      "}\n";                                                    // 7
  job.file_name = "kernels/tiny.cuh";
  job.architecture = "sm_90";
  job.include_root = dir.path();
  job.cuda_include_dir = find_cuda_include_dir();
  job.line_info = true;  // the .loc records this test reads
  const CompiledProgram p = compile_program(job);
  ASSERT_TRUE(p.compiled) << p.error << p.log;
  const PtxListing l = parse_ptx(p.ptx);
  ASSERT_EQ(l.kernels.size(), 1u) << p.ptx;
  EXPECT_EQ(l.kernels[0].name, "tiny");
  const int text = ptx_file_index(l, job.file_name);
  ASSERT_GE(text, 0) << p.ptx;
  const KernelLineMap m = map_kernel(l.kernels[0], text, 7);
  EXPECT_GT(m.instructions, 5);
  EXPECT_EQ(m.placed + m.call_unknown + m.no_line, m.instructions) << p.ptx;
  EXPECT_EQ(sum(m.count), m.placed);
  EXPECT_GT(m.count[2], 0) << "the index computation, line 3\n" << p.ptx;
  EXPECT_GT(m.count[4], 0) << "the load, the helper and the store, line 5\n" << p.ptx;
  // Each instruction of the header, the inner helper's too: at the call in the text (line 5).
  int from_header = 0;
  for (const auto& [ptx, s] : m.by_ptx_line) {
    if (s.at.file == text || s.at.file < 0) continue;
    ++from_header;
    EXPECT_EQ(ptx_file_base(l, s.at.file), "helper.cuh");
    EXPECT_FALSE(s.call_unknown) << "PTX line " << ptx + 1 << "\n" << p.ptx;
    EXPECT_EQ(s.text_line, 4) << "PTX line " << ptx + 1 << "\n" << p.ptx;
  }
  EXPECT_GT(from_header, 0) << "the helper's arithmetic keeps its header's lines\n" << p.ptx;
  // Every PTX line a text line lists maps back to that text line.
  for (std::size_t line = 0; line < m.ptx_lines.size(); ++line)
    for (int ptx : m.ptx_lines[line]) EXPECT_EQ(m.by_ptx_line.at(ptx).text_line, static_cast<int>(line));
}

}  // namespace
