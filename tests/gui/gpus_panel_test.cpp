// The GPUs tab, headless on Mesa: out of the tab bar without GPUs or split runs; with the two-H200
// measurements loaded (bench's JSON, docs/benchmarks/h200x2-2026-11-28-splits/), it names the run,
// draws a product and a transfer row per GPU with the pieces' words, says how much of each GPU's
// transfers hid under its products, draws where A and C lie, and exports the view as a PNG of the
// view's size. The same file with the link its model used (model.csv's figures added to its split
// rows) draws the model's speed-up and efficiency on 1 to 64 GPUs beside the measured points, with
// each point's figures under the mouse; without them the tab says how to get them.
#include <gtest/gtest.h>
#include <imgui.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "app/export/results_csv.h"
#include "app/ui/shell/app.h"
#include "app/viz/speedup_plot.h"
#include "kernels/core/text_format.h"
#include "kernels/multi/split_forecast.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/presenter_views.h"
#include "tests/gui/resizable_host.h"
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
  // The line of text drawn exactly so and on screen; nullptr if none.
  const ts::DrawnText* visible(const std::string& line) const {
    for (const ts::DrawnText& t : text_)
      if (t.text == line && t.visible) return &t;
    return nullptr;
  }
  std::unique_ptr<Host> host_;
  std::unique_ptr<App> app_;
  std::vector<ts::DrawnText> text_;
};

const std::string kTwoGpus =
    std::string(TILESCOPE_SOURCE_DIR) + "/docs/benchmarks/h200x2-2026-11-28-splits/gemm16384.json";

// The two-H200 file as bench writes it now: its predicted split rows carry the link their
// prediction used (the same folder's model.csv: 19.7 us, 353.0 and 356.2 GB/s), in a file of this
// test's own.
std::string two_gpus_with_link() {
  std::ifstream in(kTwoGpus);
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(in);
  for (auto& r : doc.at("results"))
    if (!r.at("split").get<std::string>().empty() && r.at("predicted_ms").get<double>() > 0) {
      r["link_latency_us"] = 19.7;
      r["link_broadcast_gbs"] = 353.0;
      r["link_reduce_gbs"] = 356.2;
    }
  const std::string path = ts::temp_path("two-gpus-with-link.json");
  std::ofstream(path) << doc.dump(2);
  return path;
}

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

// Without the link in the rows, the model's section says where it comes from.
TEST_F(GpusPanelTest, RowsWithoutTheLinkSayHowToGetIt) {
  ASSERT_TRUE(app_->load_csv(kTwoGpus)) << app_->status();
  app_->show_gpus();
  app_->gpus().scroll_to(GpusPanel::Section::Model);
  frames(3);
  const std::string text = shown();
  ASSERT_TRUE(visible("The model: more GPUs")) << text;
  EXPECT_NE(text.find("These runs carry no measured link between the GPUs"), std::string::npos) << text;
  EXPECT_EQ(text.find("speed-up over one GPU"), std::string::npos) << text;
}

TEST_F(GpusPanelTest, TheModelIsDrawnFromTheLinkTheRowsCarry) {
  const std::string file = two_gpus_with_link();
  ASSERT_TRUE(app_->load_csv(file)) << app_->status();
  app_->show_gpus();
  frames(3);
  std::string text = shown();
  // The run shown is the file's newest split run; the model, its product's splits over the rows' link.
  ASSERT_NE(text.find("split_nccl:summa_2d on 2 GPUs, each with regtile_prefetch"), std::string::npos) << text;
  app_->gpus().scroll_to(GpusPanel::Section::Model);
  frames(3);
  text = shown();
  std::vector<RunResult> rows, product;
  std::string error;
  ASSERT_TRUE(read_results_csv_file(file, &rows, &error)) << error;
  const RunResult& newest = rows.back();
  for (const RunResult& r : rows)
    if (same_product(r, newest)) product.push_back(r);
  const std::vector<PredictedSplit> model = predict_splits_from_rows(product);
  ASSERT_EQ(model.size(), 2u) << "the file's two splits with a model";
  const std::vector<std::string> names = split_names(model);
  for (const char* line : {"The model: more GPUs", "speed-up over one GPU", "GPUs", "1x", "64x", "1", "64",
                           "ideal: N GPUs, N times as fast"})
    EXPECT_TRUE(visible(line)) << line << " not on screen: " << text;
  for (const std::string& name : names) EXPECT_TRUE(visible(name)) << name << " not on screen: " << text;
  for (const PredictedSplit& s : model) {
    const PredictedPoint& last = s.points.back();
    EXPECT_EQ(last.gpus, 64);
    const std::string legend =
        format("64 GPUs: %.1fx (%.0f%%)", last.prediction.speedup, 100.0 * last.prediction.efficiency);
    EXPECT_TRUE(visible(legend)) << legend << ": " << text;
  }

  // The mouse on the measured point of the run shown: its figures, and the other split's on as many GPUs.
  const ts::DrawnText *two = visible("2"), *one_x = visible("1x"), *two_x = visible("2x");
  ASSERT_TRUE(two && one_x && two_x) << text;
  ASSERT_EQ(newest.gpus, 2);
  double measured = 0;
  for (const PredictedSplit& s : model)
    if (s.example->split_config == newest.split_config)
      for (const PredictedPoint& p : s.points)
        if (p.gpus == 2) measured = p.measured_speedup;
  ASSERT_GT(measured, 1);
  const float y1 = (one_x->min.y + one_x->max.y) / 2, y2 = (two_x->min.y + two_x->max.y) / 2;
  ImGui::GetIO().MousePos =
      ImVec2((two->min.x + two->max.x) / 2, y1 + static_cast<float>(std::log2(measured)) * (y2 - y1));
  frames(2);
  text = shown();
  for (const std::string& name : names) EXPECT_NE(text.find(name + " on 2 GPUs: predicted"), std::string::npos) << text;
  EXPECT_NE(text.find(format(", measured %.2fx", measured)), std::string::npos) << text;
  ImGui::GetIO().MousePos = ImVec2(-1, -1);

  // The efficiency: 100% the ideal, every split's 64-GPU point as a share of it.
  app_->gpus().model().show(ModelAxis::Efficiency);
  frames(2);
  text = shown();
  for (const char* line : {"efficiency: speed-up / GPUs", "100%", "0%", "ideal: every GPU in use"})
    EXPECT_TRUE(visible(line)) << line << " not on screen: " << text;
  std::remove(file.c_str());
}

// On a projector (presenter mode, 1920 x 1080 and 1280 x 720), scrolled to: the model's axes, legend
// and words whole and on screen, in both of its pictures.
TEST(GpusModel, FitsBothProjectors) {
  ts::ResizableHost host(ts::make_host(1920, 1080), 1.0f / 60);
  App app(host, ts::without_gpu());
  const std::string file = two_gpus_with_link();
  ASSERT_TRUE(app.load_csv(file)) << app.status();
  app.set_presenter(true);
  app.show_gpus();
  ts::Findings findings;
  for (const ts::ProjectorSize size : ts::kProjectors)
    for (const ModelAxis axis : {ModelAxis::Speedup, ModelAxis::Efficiency}) {
      host.set_display_size(size.width, size.height);
      app.gpus().model().show(axis);
      app.gpus().scroll_to(GpusPanel::Section::Model);
      ts::unchecked_frames(host, app, 4);
      const std::string where = ts::size_name(size) + (axis == ModelAxis::Speedup ? ", speed-up" : ", efficiency");
      ts::checked_frame(host, app, &findings, where);
      std::string all;
      for (const char* line : {"The model: more GPUs", "GPUs", "1", "64", "dot: measured; line: model"}) {
        bool on_screen = false;
        for (const ts::DrawnText& t : ts::drawn_text()) {
          on_screen |= t.text == line && t.visible;
          all += t.text + " | ";
        }
        EXPECT_TRUE(on_screen) << where << ": " << line << " not on screen: " << all;
      }
    }
  EXPECT_TRUE(findings.empty()) << "text cut or hidden:" << findings.report();
  std::remove(file.c_str());
}
