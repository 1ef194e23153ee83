// The SASS listing (app/ui/source/sass_lines.h): nvdisasm's `-gi` output read into the listing the
// PTX's map uses: a kernel per function section, an instruction per address line, each at the
// last `//## File` place before it, with the call sites a helper was inlined through; then told
// against the kernel text's lines like the PTX (map_kernel).
#include "app/ui/source/sass_lines.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace tilescope {
namespace {

const char* const kDisassembly = R"(	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90"
	.elftype	@"ET_EXEC"

//--------------------- .text._Z1kPf              --------------------------
	.section	.text._Z1kPf,"ax",@progbits
	.sectioninfo	@"SHI_REGISTERS=8"
	.align	128
        .global         _Z1kPf
        .type           _Z1kPf,@function
_Z1kPf:
.text._Z1kPf:
	//## File "/src/kernels/variants/02_x.cuh", line 30
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "/src/kernels/variants/02_x.cuh", line 34
        /*0010*/                   S2R R0, SR_TID.X ;
        /*0020*/                   ISETP.GE.AND P0, PT, R0, 0x10, PT ;
	//## File "/src/kernels/ptx/vector_access.cuh", line 12 inlined at "/src/kernels/variants/02_x.cuh", line 40
        /*0030*/              @!P0 STG.E [R2.64], R0 ;
.L_x_0:
        /*0040*/                   EXIT ;
        /*0050*/                   BRA 0x50;
	.section	.nv.shared._Z1kPf,"aw",@nobits
)";

TEST(SassLines, ReadsFunctionsInstructionsPlacesAndCallSites) {
  const PtxListing l = parse_sass(kDisassembly);
  ASSERT_EQ(l.kernels.size(), 1u);
  const PtxKernel& k = l.kernels[0];
  EXPECT_EQ(k.name, "_Z1kPf");
  ASSERT_EQ(k.instructions.size(), 6u);
  const int text = ptx_file_index(l, "kernels/variants/02_x.cuh");
  ASSERT_GE(text, 0);
  EXPECT_EQ(k.instructions[0].at.file, text);
  EXPECT_EQ(k.instructions[0].at.line, 30);
  EXPECT_EQ(k.instructions[2].at.line, 34);
  EXPECT_NE(k.instructions[3].at.file, text);
  ASSERT_EQ(k.instructions[3].calls.size(), 1u);
  EXPECT_EQ(k.instructions[3].calls[0].file, text);
  EXPECT_EQ(k.instructions[3].calls[0].line, 40);
  EXPECT_EQ(l.lines[static_cast<std::size_t>(k.instructions[5].ptx_line)].find("BRA") != std::string::npos, true);

  // Against a 50-line text: 1 at line 30, 2 at 34, the inlined store at its call site (40), and the
  // last two at 40 too (the last place seen), as the PTX's map counts them.
  const KernelLineMap m = map_kernel(k, text, 50);
  EXPECT_EQ(m.instructions, 6);
  EXPECT_EQ(m.count[29], 1);
  EXPECT_EQ(m.count[33], 2);
  EXPECT_EQ(m.count[39], 3);
  EXPECT_EQ(m.placed, 6);
}

// A helper inlined through another: nvdisasm writes the chain one level a line, innermost first.
TEST(SassLines, AChainOfInliningOneLevelALineIsOnePlace) {
  const PtxListing l = parse_sass(R"(	.section	.text._Z1kv,"ax",@progbits
.text._Z1kv:
	//## File "/r/kernels/variants/03_y.cuh", line 81 inlined at "/r/kernels/variants/03_y.cuh", line 175
	//## File "/r/kernels/variants/03_y.cuh", line 175 inlined at "/r/kernels/variants/03_y.cuh", line 193
        /*0000*/                   FFMA R1, R2, R3, R1 ;
	//## File "/r/kernels/variants/03_y.cuh", line 60
        /*0010*/                   EXIT ;
)");
  ASSERT_EQ(l.kernels.size(), 1u);
  const PtxKernel& k = l.kernels[0];
  ASSERT_EQ(k.instructions.size(), 2u);
  EXPECT_EQ(k.instructions[0].at.line, 81);
  ASSERT_EQ(k.instructions[0].calls.size(), 2u);
  EXPECT_EQ(k.instructions[0].calls[0].line, 175);
  EXPECT_EQ(k.instructions[0].calls[1].line, 193);
  EXPECT_EQ(k.instructions[1].at.line, 60);
  EXPECT_TRUE(k.instructions[1].calls.empty());
}

// The disassembly of a real kernel, as nvdisasm -gi printed it on an H100 (installed under
// /usr/share/tilescope): every
// instruction lands on a line of the text.
TEST(SassLines, ARealDisassemblyMapsEveryInstruction) {
  const std::string path = std::string(TILESCOPE_SOURCE_DIR) + "/tests/data/smem_tiled_16.sass.txt";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::ostringstream text;
  text << in.rdbuf();
  const PtxListing l = parse_sass(text.str());
  ASSERT_EQ(l.kernels.size(), 1u);
  const int file = ptx_file_index(l, "kernels/variants/02_smem_tiled.cuh");
  ASSERT_GE(file, 0);
  const KernelLineMap m = map_kernel(l.kernels[0], file, 70);
  EXPECT_GT(m.instructions, 50);
  EXPECT_EQ(m.placed + m.no_line + m.call_unknown, m.instructions);
  EXPECT_GT(m.placed, m.instructions * 9 / 10);
  int lines_with_code = 0;
  for (int c : m.count) lines_with_code += c > 0 ? 1 : 0;
  EXPECT_GT(lines_with_code, 10);
}

TEST(SassLines, NothingButNoiseGivesNoKernel) {
  EXPECT_TRUE(parse_sass("").kernels.empty());
  EXPECT_TRUE(parse_sass("nvdisasm fatal   : Input file 'x' is not a cubin\n").kernels.empty());
}

}  // namespace
}  // namespace tilescope
