// The Memory view's worker for real: the program beside this suite (../tilescope, as in the build
// tree and the GPU bundle) run as the window runs it, `tilescope memory --variants V:CONFIG
// --problem P --precision T --m M --n N --k K --record BLOCK,WARP --recording FILE [--kernel-text
// V=FILE]`, and the file it writes read back (app/export/recorded_warp_file.h). The shipped kernel's
// warp equals its model; the prefetching kernel's text with its padding taken out, recorded for
// the padded configuration, differs from the shipped model where the edit moved an address (exit
// 5, the file written) and equals the unpadded configuration's model exactly. Skips itself
// (visibly) without a CUDA device.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/export/atomic_file.h"
#include "app/export/recorded_warp_file.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/device_info.h"
#include "kernels/instrument/recorded_warp.h"
#include "kernels/jit/kernel_source.h"
#include "kernels/models/mapping_model.h"
#include "tests/support/memory_picks.h"
#include "tests/support/run_program.h"
#include "tests/support/variant_cases.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace fs = std::filesystem;

namespace {

// The program beside this suite's folder: build/tilescope for build/tests/tilescope_gpu_tests.
std::string the_program() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : (self.parent_path().parent_path() / "tilescope").string();
}

// A folder of its own, removed after the test.
struct Folder {
  fs::path path = fs::temp_directory_path() / ("tilescope-gpu-worker-" + std::to_string(::getpid()));
  Folder() { fs::create_directories(path); }
  ~Folder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

struct Recorded {
  tilescope::testing::ProgramOutcome run;
  std::vector<WarpRecord> records;
  std::string error;  // why the file did not read back
};

// The worker's command line, as the window's Memory view builds it (memory_record_job.cpp).
Recorded record(const VariantDescriptor& v, int config, const Shape& s, int block, int warp, const std::string& file,
                const std::string& edit_file = "") {
  std::string args = std::string("memory --variants ") + v.id + ":" + config_at(v, config).name +
                     " --problem gemm --precision f32 --m " + std::to_string(s.M) + " --n " + std::to_string(s.N) +
                     " --k " + std::to_string(s.K) + " --record " + std::to_string(block) + "," + std::to_string(warp) +
                     " --recording " + file;
  if (!edit_file.empty()) args += std::string(" --kernel-text ") + v.id + "=" + edit_file;
  Recorded r;
  r.run = tilescope::testing::run_program(the_program(), args);
  if (fs::exists(file)) read_recorded_warps_file(file, &r.records, &r.error);
  return r;
}

std::unique_ptr<MappingModel> model_of(const VariantDescriptor& v, int config, const Shape& s) {
  std::string why;
  auto m = make_mapping_model(v.id, config, Problem::Gemm, Precision::F32, s, &why);
  EXPECT_TRUE(m) << why;
  return m;
}

}  // namespace

TEST(GpuMemoryWorker, RecordsTheShippedKernelAsItsModelSays) {
  SKIP_WITHOUT_GPU();
  ASSERT_TRUE(fs::exists(the_program())) << "no program beside the suite: " << the_program();
  const VariantDescriptor& v = tilescope::testing::tiled_kernel();
  const Shape s{150, 133, 141};  // ragged against every tile
  Folder folder;
  const std::string file = (folder.path / "warp.txt").string();
  const Recorded r = record(v, v.default_config, s, 1, 1, file);
  EXPECT_EQ(r.run.code, 0) << r.run.output;
  EXPECT_NE(r.run.output.find("every address as the model says"), std::string::npos) << r.run.output;
  ASSERT_EQ(r.records.size(), 1u) << r.error;
  const WarpRecord& w = r.records.front();
  EXPECT_EQ(w.device, probe_device().name);
  EXPECT_EQ(w.variant, v.id);
  EXPECT_EQ(w.config, config_at(v, v.default_config).name);
  EXPECT_EQ(w.edit, "");
  EXPECT_EQ(w.block, 1);
  EXPECT_EQ(w.warp, 1);
  auto m = model_of(v, v.default_config, s);
  ASSERT_TRUE(m);
  const int bx = 1 % m->grid().x, by = 1 / m->grid().x;
  EXPECT_EQ(compare_recorded_warp(*m, w.recorded, bx, by, 1), "");
  EXPECT_EQ(w.recorded.steps, steps_to_record(*m, bx, by));
}

TEST(GpuMemoryWorker, RecordsAnEditThatTookThePaddingOut) {
  SKIP_WITHOUT_GPU();
  ASSERT_TRUE(fs::exists(the_program())) << "no program beside the suite: " << the_program();
  const VariantDescriptor& v = tilescope::testing::typed_prefetch_kernel();
  const int padded = tilescope::testing::slab32_config(v, true);
  const int unpadded = tilescope::testing::slab32_config(v, false);
  if (!unsupported_reason(v, padded, Problem::Gemm, Precision::F32, probe_device().limits).empty())
    GTEST_SKIP() << "this device cannot run " << config_at(v, padded).name;
  // The shipped text with the rows' padding taken out, as a learner edits it in the Source tab.
  std::string text, why;
  ASSERT_TRUE(read_kernel_text(v, &text, &why)) << why;
  const std::string padding = "static constexpr int PAD = kPadded ? vec_width<T>() : 0;";
  const std::size_t at = text.find(padding);
  ASSERT_NE(at, std::string::npos) << "the kernel text no longer spells its padding as the test edits it";
  text.replace(at, padding.size(), "static constexpr int PAD = 0;");
  Folder folder;
  const std::string edit = (folder.path / "edit.cuh").string(), file = (folder.path / "warp.txt").string();
  ASSERT_TRUE(write_file_atomically(edit, text, &why)) << why;
  const Shape s{256, 256, 96};
  const Recorded r = record(v, padded, s, 0, 1, file, edit);
  // A difference is what the edit did: exit 5, said as the access it moved, the file written.
  EXPECT_EQ(r.run.code, 5) << r.run.output;
  EXPECT_NE(r.run.output.find("the edited kernel's addresses differ from the shipped kernel's model at site '"),
            std::string::npos)
      << r.run.output;
  ASSERT_EQ(r.records.size(), 1u) << r.error;
  const WarpRecord& w = r.records.front();
  EXPECT_EQ(w.config, config_at(v, padded).name);
  EXPECT_EQ(w.edit.size(), 8u);
  auto shipped = model_of(v, padded, s), without = model_of(v, unpadded, s);
  ASSERT_TRUE(shipped && without);
  EXPECT_NE(compare_recorded_warp(*shipped, w.recorded, 0, 0, 1), "");
  // The edit addresses shared memory exactly as the configuration without padding does.
  EXPECT_EQ(compare_recorded_warp(*without, w.recorded, 0, 0, 1), "");
}
