// The GPUs tab, headless on Mesa: out of the tab bar without GPUs or split runs; with the two-H200
// measurements loaded (bench's JSON, docs/benchmarks/h200x2-2026-11-28-splits/), it names the run,
// draws a product and a transfer row per GPU with the pieces' words, says how much of each GPU's
// transfers hid under its products, draws where A and C lie, and exports the view as a PNG of the
// view's size.
#include <gtest/gtest.h>
#include <imgui.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "app/ui/shell/app.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/text_clip_check.h"

using namespace tilescope;
namespace ts = tilescope::testing;

namespace {

class GpusPanelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    host_ = ts::make_host(1600, 1000);
    ASSERT_TRUE(host_);
    app_ = std::make_unique<App>(*host_, ts::without_gpu());
    app_->show_gpus();
    frames(2);
  }
  void frames(int n) {
    for (int i = 0; i < n; ++i) {
      ts::prepare_fonts();
      host_->begin_frame();
      app_->frame();
      host_->end_frame();
      text_ = ts::drawn_text();
      app_->after_frame();
    }
  }
  std::string shown() const {
    std::string all;
    for (const ts::DrawnText& t : text_) all += t.text + " | ";
    return all;
  }
  std::unique_ptr<Host> host_;
  std::unique_ptr<App> app_;
  std::vector<ts::DrawnText> text_;
};

const std::string kTwoGpus =
    std::string(TILESCOPE_SOURCE_DIR) + "/docs/benchmarks/h200x2-2026-11-28-splits/gemm16384.json";

}  // namespace

// On a machine with fewer than two GPUs and nothing split in the history, the tab is not in the
// bar (a projector's width cannot spare it); a loaded split run brings it.
TEST_F(GpusPanelTest, WithoutASplitRunTheTabStaysOutOfTheBar) {
  EXPECT_NE(app_->shown_tab(), &app_->gpus());
  EXPECT_EQ(shown().find("| GPUs |"), std::string::npos) << shown();
}

TEST_F(GpusPanelTest, ALoadedTwoGpuRunIsDrawnAndExported) {
  ASSERT_TRUE(app_->load_csv(kTwoGpus)) << app_->status();
  app_->show_gpus();
  frames(3);
  EXPECT_EQ(app_->shown_tab(), &app_->gpus());
  const std::string text = shown();
  // The newest split run of the file: SUMMA with regtile_prefetch on two H200s.
  EXPECT_NE(text.find("split_nccl:summa_2d on 2 GPUs"), std::string::npos) << text;
  EXPECT_NE(text.find("NVIDIA H200; NVIDIA H200"), std::string::npos) << text;
  for (const char* row : {"GPU 0 products", "GPU 0 transfers", "GPU 1 products", "GPU 1 transfers"})
    EXPECT_NE(text.find(row), std::string::npos) << row << " missing: " << text;
  EXPECT_NE(text.find("of the transfers under a product"), std::string::npos) << text;
  EXPECT_NE(text.find("A when the run starts"), std::string::npos) << text;
  EXPECT_NE(text.find("C when it ends"), std::string::npos) << text;

  const std::string folder = ts::temp_path("gpus-export");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  app_->state().export_dir = folder;
  const ImVec2 a(100, 100), b(700, 500);
  app_->export_region_png("tilescope-gpus", a, b);
  frames(2);
  app_->finish_file_writes();
  std::vector<std::filesystem::path> written;
  for (const auto& e : std::filesystem::directory_iterator(folder)) written.push_back(e.path());
  ASSERT_EQ(written.size(), 1u) << app_->status();
  EXPECT_EQ(written[0].filename().string().rfind("tilescope-gpus-", 0), 0u) << written[0];
  // A PNG of the region's size: its header's width and height (big-endian at 16 and 20).
  std::ifstream png(written[0], std::ios::binary);
  unsigned char head[24] = {};
  png.read(reinterpret_cast<char*>(head), 24);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(head) + 1, 3), "PNG");
  const auto be32 = [&](int at) {
    return (head[at] << 24) | (head[at + 1] << 16) | (head[at + 2] << 8) | head[at + 3];
  };
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  EXPECT_EQ(be32(16), static_cast<int>(600 * scale.x));
  EXPECT_EQ(be32(20), static_cast<int>(400 * scale.y));
  std::filesystem::remove_all(folder);
}
