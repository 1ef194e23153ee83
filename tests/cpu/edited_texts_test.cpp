// A learner's edit of a kernel text (kernels/jit/edited_texts.h, app/cli/kernel_text_option.h):
// the tag, the refusal of files that are no kernel text, an edited configuration that says it was
// edited and compiles the edit (an error in the edit is reported at the edit's line), and the
// option's mistakes; then the program itself, `tilescope compile --kernel-text`, as the window's
// worker runs it.
#include "kernels/jit/edited_texts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "app/cli/kernel_text_option.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/cuda_libraries.h"
#include "kernels/jit/jit_kernels.h"
#include "kernels/jit/kernel_cache.h"
#include "kernels/jit/kernel_source.h"
#include "tests/support/run_program.h"
#include "tests/support/variant_picks.h"

namespace tilescope {
namespace {

// The shared-memory kernel with its two barriers a phase, which takes typed tiles.
const VariantDescriptor& edited_variant() {
  return testing::variant_where(
      [](const VariantDescriptor& v) {
        return testing::is_product_kernel(v) && takes_typed_tiles(v) && v.model_caps.staged_phases &&
               !v.model_caps.prefetch && !v.model_caps.warp_level;
      },
      "a shared-memory tiled kernel of one element per thread that takes typed tiles");
}

std::string shipped_text(const VariantDescriptor& v) {
  std::string text, error;
  EXPECT_TRUE(read_root_file(v.kernel_text, &text, &error)) << error;
  return text;
}

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The text with its n-th (1-based) `what` replaced by `with`.
std::string replaced(std::string text, const std::string& what, int n, const std::string& with) {
  std::size_t at = std::string::npos;
  for (int i = 0, from = 0; i < n; ++i, from = static_cast<int>(at + 1)) at = text.find(what, from);
  EXPECT_NE(at, std::string::npos);
  return text.replace(at, what.size(), with);
}

TEST(EditedTexts, TagIsStableAndTellsEditsApart) {
  EXPECT_EQ(edit_tag("abc"), edit_tag("abc"));
  EXPECT_NE(edit_tag("abc"), edit_tag("abd"));
  EXPECT_EQ(edit_tag("").size(), 8u);
  EXPECT_EQ(edit_tag("x").find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(EditedTexts, RefusesFilesThatAreNoKernelText) {
  EXPECT_EQ(kernel_text_problem("__global__ void k() {}", "f"), "");
  EXPECT_NE(kernel_text_problem("", "f").find("empty"), std::string::npos);
  EXPECT_NE(kernel_text_problem("int main() {}", "f").find("no __global__"), std::string::npos);
  EXPECT_NE(kernel_text_problem(std::string("__global__\0x", 12), "f").find("NUL"), std::string::npos);
  EXPECT_NE(kernel_text_problem("__global__" + std::string(kMaxKernelTextBytes, ' '), "f").find("at most"),
            std::string::npos);
}

TEST(EditedTexts, EditedConfigurationSaysSoAndIsTyped) {
  const VariantDescriptor& v = edited_variant();
  std::string why;
  const int index = add_edited_config(v, v.default_config, "0badc0de", &why);
  ASSERT_GE(index, 0) << why;
  EXPECT_TRUE(is_typed_config(v, index));
  const TileConfig& cfg = config_at(v, index);
  EXPECT_NE(cfg.name.find("(edited 0badc0de)"), std::string::npos) << cfg.name;
  EXPECT_EQ(cfg.typed, v.tile_values_of(v.configs[v.default_config]));
  // The same edit of the same tile is the same configuration; another edit is another one.
  EXPECT_EQ(add_edited_config(v, v.default_config, "0badc0de", &why), index);
  EXPECT_NE(add_edited_config(v, v.default_config, "12345678", &why), index);

  const VariantDescriptor& library = testing::baseline();
  EXPECT_EQ(add_edited_config(library, 0, "0badc0de", &why), -1);
  EXPECT_NE(why.find("not compiled at run time"), std::string::npos) << why;
}

TEST(EditedTexts, OptionRefusesItsMistakes) {
  KernelTextOption option;
  std::string error;
  const std::string id = edited_variant().id;
  EXPECT_FALSE(install_kernel_text_option(id, &option, &error));
  EXPECT_NE(error.find("ID=FILE"), std::string::npos) << error;
  EXPECT_FALSE(install_kernel_text_option("no_such_variant=/x", &option, &error));
  EXPECT_NE(error.find("unknown variant"), std::string::npos) << error;
  EXPECT_FALSE(install_kernel_text_option(std::string(testing::baseline().id) + "=/x", &option, &error));
  EXPECT_NE(error.find("no kernel text"), std::string::npos) << error;
  EXPECT_FALSE(install_kernel_text_option(id + "=" + ::testing::TempDir() + "missing.cuh", &option, &error));
  EXPECT_NE(error.find("cannot read"), std::string::npos) << error;
  EXPECT_FALSE(install_kernel_text_option(id + "=" + temp_file("notes.txt", "notes"), &option, &error));
  EXPECT_NE(error.find("not a kernel text"), std::string::npos) << error;
  EXPECT_EQ(option.variant, nullptr);
}

// The program as the window's worker starts it: the edit compiles (its name says edited), and an
// edit that breaks a line is reported at that line with exit status 1.
TEST(EditedTexts, CompileCommandCompilesTheEditAndPointsAtItsErrors) {
  if (!nvrtc_library().loaded) GTEST_SKIP() << "NVRTC is not installed here: " << nvrtc_library().error;
  const VariantDescriptor& v = edited_variant();
  const std::string shipped = shipped_text(v);
  const std::string cache = "XDG_CACHE_HOME='" + ::testing::TempDir() + "edit-cache' ";
  const std::string args = std::string("compile --variant ") + v.id + " --kernel-text " + v.id + "=";

  const std::string good = temp_file("edit-good.cuh", replaced(shipped, "__syncthreads();", 2, ""));
  testing::ProgramOutcome o = testing::run_program(TILESCOPE_BINARY, args + good);
  EXPECT_EQ(o.code, 0) << o.output;
  EXPECT_NE(o.output.find("(edited " + edit_tag(replaced(shipped, "__syncthreads();", 2, "")) + ")"), std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("registers per thread"), std::string::npos) << o.output;

  // The first __syncthreads() loses its semicolon: the compiler stops at the statement after it.
  const std::string broken_text = replaced(shipped, "__syncthreads();", 1, "__syncthreads()");
  const int line = 1 + static_cast<int>(std::count(broken_text.begin(),
                                                   broken_text.begin() + broken_text.find("__syncthreads()"), '\n'));
  o = testing::run_program(TILESCOPE_BINARY, args + temp_file("edit-broken.cuh", broken_text));
  EXPECT_EQ(o.code, 1) << o.output;
  const std::string at = std::string(v.kernel_text) + ":";
  const std::size_t where = o.output.find(at);
  ASSERT_NE(where, std::string::npos) << o.output;
  const int reported = std::atoi(o.output.c_str() + where + at.size());
  EXPECT_GE(reported, line) << o.output;
  EXPECT_LE(reported, line + 3) << o.output;

  o = testing::run_program(TILESCOPE_BINARY, args + temp_file("edit-notes.txt", "notes"));
  EXPECT_EQ(o.code, 2) << o.output;
}

}  // namespace
}  // namespace tilescope
