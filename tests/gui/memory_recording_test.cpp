// The Memory view's recordings (app/ui/mapping/memory_recorder.h), drawn headless without a GPU:
// a recording file written from the model (as `tilescope memory --recording` writes one) is drawn
// in place of the model's addresses, labelled with where it was recorded and whether every
// address is the model's; another step keeps it, another warp drops it and the view says so; an
// edit's recording (the padded slab's warp as the unpadded kernel addresses it) is drawn beside
// the shipped kernel's with the conflicts it makes and the access it moved; without a GPU the
// record buttons are disabled and say why, and the script words fail with the same reason; the
// worker is the memory command, started for real.
#include <gtest/gtest.h>
#include <imgui.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "app/export/recorded_warp_file.h"
#include "app/ui/mapping/mapping_panel.h"
#include "app/ui/mapping/memory_record_job.h"
#include "app/ui/script/script.h"
#include "app/ui/shell/app.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/device_info.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/text_clip_check.h"
#include "tests/support/memory_picks.h"
#include "tests/support/recording_from_model.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
using namespace tilescope::testing;

namespace {

constexpr int kSide = 256;
const Shape kShape{kSide, kSide, kSide};

std::unique_ptr<MappingModel> model_of(const VariantDescriptor& v, int config) {
  std::string why;
  auto m = make_mapping_model(v.id, config, Problem::Gemm, Precision::F32, kShape, &why);
  EXPECT_TRUE(m) << why;
  return m;
}

// Plays `text` in `app` to its end; the failures it reported.
std::vector<std::string> play(Host& host, App& app, const std::string& text) {
  ScriptPlayer script;
  std::string error;
  EXPECT_TRUE(script.load_text(text, "recording.txt", &error)) << error;
  std::vector<std::string> failures;
  for (int i = 0; i < 400 && script.step(app, &failures); ++i) frame(host, app);
  EXPECT_TRUE(script.finished());
  return failures;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// The lines that show configuration `config` of v in float gemm at kSide, the Memory view on.
std::string showing(const VariantDescriptor& v, int config) {
  return "use " + std::string(v.id) + ":" + config_at(v, config).name + " on\nfocus " + v.id +
         "\nset precision f32\nset problem gemm\nset n " + std::to_string(kSide) +
         "\nshow-mapping\nmapping-view memory\nframes 2\n";
}

// The text of one more frame of the App, read back from what ImGui drew (text_clip_check.h), its
// lines joined by spaces: a sentence wrapped over two lines reads whole.
std::string drawn_text(Host& host, App& app) {
  prepare_fonts();
  host.begin_frame();
  app.frame();
  host.end_frame();
  std::string text;
  for (const DrawnText& line : tilescope::testing::drawn_text()) text += line.text + " ";
  app.after_frame();
  return text;
}

}  // namespace

TEST(MemoryRecording, DrawsARecordingFileAndDropsItForAnotherWarp) {
  auto host = make_host(1600, 1000);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  const VariantDescriptor& v = tiled_kernel();
  const int config = v.default_config;
  auto m = model_of(v, config);
  ASSERT_TRUE(m);
  const int site = site_of(*m, 'B', MemorySpace::Shared, AccessKind::Load);
  const std::string site_name = m->access_sites()[static_cast<std::size_t>(site)].name;
  TempDir dir("tilescope-recording");
  const std::string file = dir.path() + "/warp.txt";
  WarpRecord record = record_from_model(*m, v, config, Problem::Gemm, Precision::F32, kShape, 1, 0, 1);
  std::string error;
  ASSERT_TRUE(write_recorded_warps_file(file, {record}, &error)) << error;

  // Loaded: the block and warp of the recording are selected, its addresses drawn, the model's.
  EXPECT_EQ(joined(play(*host, app,
                        showing(v, config) + "memory-load-recording " + file + "\nmemory-site " + site_name +
                            "\nmemory-step 2\nframes 2\n# expect: memory-source recorded\n")),
            "");
  const WarpAccessView& view = app.mapping().warp_access_view();
  EXPECT_EQ(view.source(), WarpAccessView::Source::Recorded);
  EXPECT_EQ(view.warp(), 1);
  WarpAccess expected;
  m->warp_access(site, 1, 0, 1, 2, &expected);
  EXPECT_EQ(view.shown_access().address, expected.address);
  std::string text = drawn_text(*host, app);
  for (const char* words : {"addresses: recorded from the kernel on the mapping model (written by a test)",
                            "Every address of this warp, at every step of every access, is the model's."})
    EXPECT_NE(text.find(words), std::string::npos) << words << " is not drawn:\n" << text;

  // Another step keeps it; another warp drops it, and the view says so.
  EXPECT_EQ(joined(play(*host, app, "memory-step 3\nframes 2\n# expect: memory-source recorded\n")), "");
  EXPECT_EQ(joined(play(*host, app, "memory-warp 2\nframes 2\n# expect: memory-source model\n")), "");
  EXPECT_NE(view.recorder().note().find("was dropped: the view shows another block or warp now"), std::string::npos)
      << view.recorder().note();
  text = drawn_text(*host, app);
  EXPECT_NE(text.find("was dropped"), std::string::npos) << text;

  // A recording with an address the model does not give says where they part.
  const int stream = m->access_sites()[static_cast<std::size_t>(site)].recorded;
  record.recorded.address[(static_cast<std::size_t>(stream) * record.recorded.steps + 3) * kWarpLanes + 7] += 4;
  ASSERT_TRUE(write_recorded_warps_file(file, {record}, &error)) << error;
  EXPECT_EQ(
      joined(play(*host, app, "memory-load-recording " + file + "\nframes 2\n# expect: memory-source recorded\n")), "");
  text = drawn_text(*host, app);
  EXPECT_NE(text.find("Not every address is the model's: stream " + std::to_string(stream) + ", lane 7, step 3"),
            std::string::npos)
      << text;

  // A file of another size, or no recording at all, fails its line and says why.
  const std::vector<std::string> failures = play(
      *host, app, "set n 128\nmemory-load-recording " + file + "\nmemory-load-recording " + dir.path() + "/none.txt\n");
  ASSERT_EQ(failures.size(), 2u) << joined(failures);
  EXPECT_NE(failures[0].find("holds no recording of"), std::string::npos) << failures[0];
  EXPECT_NE(failures[0].find("(it holds: warp 1 of block 1"), std::string::npos) << failures[0];
  EXPECT_NE(failures[1].find("cannot read"), std::string::npos) << failures[1];
}

// The learner took the padding out of the prefetching kernel's slab: its recording (written from
// the unpadded configuration's model) beside the shipped padded kernel's model. The transposing
// stores of A conflict two ways in the edit and not in the shipped kernel.
TEST(MemoryRecording, AnEditBesideTheShippedKernelShowsTheConflictsItMakes) {
  auto host = make_host(1920, 1080);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  const VariantDescriptor& v = typed_prefetch_kernel();
  const int padded = slab32_config(v, true), unpadded = slab32_config(v, false);
  auto shipped = model_of(v, padded);
  auto edited = model_of(v, unpadded);
  ASSERT_TRUE(shipped && edited);
  const int store = site_of(*shipped, 'A', MemorySpace::Shared, AccessKind::Store);
  TempDir dir("tilescope-recording");
  const std::string file = dir.path() + "/edit.txt";
  WarpRecord record = record_from_model(*edited, v, unpadded, Problem::Gemm, Precision::F32, kShape, 0, 0, 1,
                                        "0badc0de", "a test's GPU");
  record.config = config_at(v, padded).name;  // the configuration the edit was made of
  std::string error;
  ASSERT_TRUE(write_recorded_warps_file(file, {record}, &error)) << error;
  EXPECT_EQ(joined(play(*host, app,
                        showing(v, padded) + "memory-load-recording " + file + "\nmemory-site " +
                            shipped->access_sites()[static_cast<std::size_t>(store)].name +
                            "\nmemory-step 0\nframes 3\n# expect: memory-source edited\n")),
            "");
  const WarpAccessView& view = app.mapping().warp_access_view();
  ASSERT_EQ(view.source(), WarpAccessView::Source::EditBeside);
  EXPECT_EQ(view.shown().conflicts, 0);
  EXPECT_EQ(view.shown_edit().conflicts, 1);
  EXPECT_EQ(view.shown_edit().degree, 2);
  const std::string text = drawn_text(*host, app);
  for (const std::string& words :
       {std::string("addresses: the edit's recorded on a test's GPU"), std::string("the shipped kernel (its model)"),
        std::string("the edit 0badc0de"), std::string("wavefronts / ideal"), std::string("(a 2-way bank conflict)."),
        std::string("(no bank conflict)."), std::string("The edit moved '")})
    EXPECT_NE(text.find(words), std::string::npos) << words << " is not drawn:\n" << text;
  // Both pictures' counters and sentences lie in the view.
  const WarpAccessView::Layout& l = view.layout();
  EXPECT_LE(l.counters_max.y, l.visible_max.y);
  EXPECT_LE(l.sentence_max.y, l.visible_max.y);
}

TEST(MemoryRecording, WithoutAGpuTheButtonsSayWhyAndTheScriptWordsFail) {
  auto host = make_host(1600, 1000);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  const VariantDescriptor& v = tiled_kernel();
  // An edit of the variant shown, so that "Record the edited kernel" is offered too.
  EXPECT_EQ(joined(play(*host, app,
                        showing(v, v.default_config) + "edit-replace __syncthreads(); 2 -\nshow-mapping\n" +
                            "mapping-view memory\nframes 3\n")),
            "");
  const MemoryRecorder& recorder = app.mapping().warp_access_view().recorder();
  const std::string why = recorder.shown_refusal(false);
  EXPECT_NE(why.find("GPU"), std::string::npos) << why;
  EXPECT_EQ(recorder.shown_refusal(true), why);
  const std::string text = drawn_text(*host, app);
  EXPECT_NE(text.find("Record on the GPU"), std::string::npos) << text;
  EXPECT_NE(text.find("Record the edited kernel"), std::string::npos) << text;
  const std::vector<std::string> failures = play(*host, app, "memory-record\nmemory-record-edited\n");
  ASSERT_EQ(failures.size(), 2u) << joined(failures);
  EXPECT_NE(failures[0].find("recording.txt:1: memory-record: " + why), std::string::npos) << failures[0];
  EXPECT_NE(failures[1].find("recording.txt:2: memory-record-edited: " + why), std::string::npos) << failures[1];
  EXPECT_FALSE(app.busy());
  // Without an edit the edited one says so first.
  EXPECT_EQ(joined(play(*host, app, "edit-revert\nshow-mapping\nframes 2\n")), "");
  EXPECT_NE(recorder.shown_refusal(true).find("holds no edit"), std::string::npos) << recorder.shown_refusal(true);
}

// The worker's command line is the documented one, gemm and AᵀA (M is N), with and without an
// edit; and the real program started as the worker ends the way the machine allows: recorded on a
// GPU, without one exit 3 with the reason, which the outcome says (the window goes on either way).
TEST(MemoryRecording, TheWorkerIsTheMemoryCommand) {
  const VariantDescriptor& v = tiled_kernel();
  MemoryRecordRequest r;
  r.variant = &v;
  r.config_name = config_at(v, v.default_config).name;
  r.shape = Shape{100, 90, 70};
  r.block = 3;
  r.warp = 1;
  std::vector<std::string> args = memory_worker_arguments("prog", r, "/t/edit.cuh", "/t/warp.txt");
  const std::vector<std::string> gemm = {
      "prog",        "memory",     "--variants",  std::string(v.id) + ":" + r.config_name,
      "--problem",   "gemm",       "--precision", "f32",
      "--m",         "100",        "--n",         "90",
      "--k",         "70",         "--record",    "3,1",
      "--recording", "/t/warp.txt"};
  EXPECT_EQ(args, gemm);
  r.problem = Problem::Ata;
  r.edited_text = "an edit";
  args = memory_worker_arguments("prog", r, "/t/edit.cuh", "/t/warp.txt");
  EXPECT_EQ(std::count(args.begin(), args.end(), "--m"), 0);
  ASSERT_GE(args.size(), 2u);
  EXPECT_EQ(args[args.size() - 2], "--kernel-text");
  EXPECT_EQ(args.back(), std::string(v.id) + "=/t/edit.cuh");

  MemoryRecordJob job(TILESCOPE_BINARY);
  r.problem = Problem::Gemm;
  r.edited_text.clear();
  std::string why;
  ASSERT_TRUE(job.start(r, &why)) << why;
  EXPECT_TRUE(job.working());
  EXPECT_FALSE(job.start(r, &why));
  EXPECT_NE(why.find("being recorded already"), std::string::npos) << why;
  MemoryRecordOutcome o;
  for (int i = 0; i < 3000 && !job.take_outcome(&o); ++i) usleep(10000);
  EXPECT_FALSE(job.working());
  if (probe_device().ok()) {
    EXPECT_TRUE(o.ok) << o.summary << "\n" << o.output;
    ASSERT_EQ(o.records.size(), 1u);
    EXPECT_EQ(o.records.front().block, 3);
  } else {
    EXPECT_FALSE(o.ok);
    EXPECT_NE(o.summary.find("--record needs a GPU"), std::string::npos) << o.summary << "\n" << o.output;
    EXPECT_TRUE(o.records.empty());
  }
}
