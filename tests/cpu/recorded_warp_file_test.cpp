// The recorded-warp file (app/export/recorded_warp_file.h), which `tilescope memory --recording`
// writes and the window reads back from its worker: a recording written from a model reads back
// exactly, every field and every address, several configurations in one file; a file cut short or
// garbled anywhere is refused with its line and what was wrong, never read as a recording.
#include "app/export/recorded_warp_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "kernels/core/typed_configs.h"
#include "kernels/instrument/recorded_streams.h"
#include "kernels/models/mapping_model.h"
#include "tests/support/memory_picks.h"
#include "tests/support/recording_from_model.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
using tilescope::testing::record_from_model;

namespace fs = std::filesystem;

namespace {

// Two records: the prefetching kernel's padded slab (float gemm, an edit's tag) and the tiled
// kernel in double AᵀA, each a warp in the middle of a ragged launch.
std::vector<WarpRecord> two_records() {
  std::vector<WarpRecord> out;
  const VariantDescriptor& p = tilescope::testing::prefetch_kernel();
  const int padded = tilescope::testing::slab32_config(p, true);
  std::string why;
  const Shape gemm{150, 133, 141};
  auto m = make_mapping_model(p.id, padded, Problem::Gemm, Precision::F32, gemm, &why);
  EXPECT_TRUE(m) << why;
  out.push_back(record_from_model(*m, p, padded, Problem::Gemm, Precision::F32, gemm, 1, 0, 3, "3fa2c1d0",
                                  "a GPU with a long name"));
  const VariantDescriptor& t = tilescope::testing::tiled_kernel();
  const Shape ata = normalised(Problem::Ata, Shape{0, 75, 40});
  auto a = make_mapping_model(t.id, t.default_config, Problem::Ata, Precision::F64, ata, &why);
  EXPECT_TRUE(a) << why;
  out.push_back(record_from_model(*a, t, t.default_config, Problem::Ata, Precision::F64, ata, 0, 1, 1));
  return out;
}

void expect_same(const WarpRecord& a, const WarpRecord& b) {
  EXPECT_EQ(a.device, b.device);
  EXPECT_EQ(a.variant, b.variant);
  EXPECT_EQ(a.config, b.config);
  EXPECT_EQ(a.edit, b.edit);
  EXPECT_EQ(a.problem, b.problem);
  EXPECT_EQ(a.precision, b.precision);
  EXPECT_EQ(a.shape.M, b.shape.M);
  EXPECT_EQ(a.shape.N, b.shape.N);
  EXPECT_EQ(a.shape.K, b.shape.K);
  EXPECT_EQ(a.block, b.block);
  EXPECT_EQ(a.warp, b.warp);
  EXPECT_EQ(a.recorded.steps, b.recorded.steps);
  EXPECT_EQ(a.recorded.address, b.recorded.address);
}

std::string refusal(const std::string& text) {
  std::vector<WarpRecord> out;
  std::string error;
  EXPECT_FALSE(read_recorded_warps_text(text, "warp.txt", &out, &error)) << "read: " << text.substr(0, 200);
  EXPECT_TRUE(out.empty());
  return error;
}

// The text with its n-th line (1-based) replaced by `with`.
std::string with_line(const std::string& text, int n, const std::string& with) {
  std::size_t from = 0;
  for (int i = 1; i < n; ++i) from = text.find('\n', from) + 1;
  return text.substr(0, from) + with + text.substr(text.find('\n', from));
}

// The number of the first line of `text` that starts with `start`.
int line_of(const std::string& text, const std::string& start) {
  int n = 1;
  for (std::size_t at = 0; at < text.size(); at = text.find('\n', at) + 1, ++n)
    if (text.compare(at, start.size(), start) == 0) return n;
  return -1;
}

}  // namespace

TEST(RecordedWarpFile, ReadsBackEveryFieldAndEveryAddress) {
  const std::vector<WarpRecord> records = two_records();
  ASSERT_EQ(records.size(), 2u);
  const std::string text = recorded_warps_text(records);
  // Readable as it says: streams that made no access left out, steps without one as "-".
  EXPECT_NE(text.find("\nedit 3fa2c1d0\n"), std::string::npos);
  EXPECT_NE(text.find("\nedit -\n"), std::string::npos);
  EXPECT_EQ(text.find("stream " + std::to_string(kRecordedStreamCount - 1) + "\n"), std::string::npos);
  std::vector<WarpRecord> back;
  std::string error;
  ASSERT_TRUE(read_recorded_warps_text(text, "warp.txt", &back, &error)) << error;
  ASSERT_EQ(back.size(), records.size());
  for (std::size_t i = 0; i < records.size(); ++i) expect_same(back[i], records[i]);

  // Through a file, written atomically: nothing but the file is left in its folder.
  const fs::path dir = fs::temp_directory_path() / ("tilescope-recording-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "warp.txt").string();
  ASSERT_TRUE(write_recorded_warps_file(path, records, &error)) << error;
  back.clear();
  ASSERT_TRUE(read_recorded_warps_file(path, &back, &error)) << error;
  ASSERT_EQ(back.size(), records.size());
  expect_same(back[1], records[1]);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  EXPECT_FALSE(write_recorded_warps_file((dir / "no-such-folder" / "warp.txt").string(), records, &error));
  EXPECT_NE(error.find("no-such-folder"), std::string::npos) << error;
  EXPECT_FALSE(read_recorded_warps_file((dir / "missing.txt").string(), &back, &error));
  EXPECT_NE(error.find("missing.txt"), std::string::npos) << error;
  fs::remove_all(dir);
}

TEST(RecordedWarpFile, RefusesAFileCutShortOrGarbled) {
  const std::string text = recorded_warps_text(two_records());
  // Cut anywhere before the last "end": the reader says where the file ended.
  for (std::size_t cut : {text.size() / 3, text.size() / 2, text.size() - 5}) {
    const std::string error = refusal(text.substr(0, cut));
    EXPECT_EQ(error.rfind("warp.txt:", 0), 0u) << error;
  }
  EXPECT_NE(refusal(text.substr(0, text.find("\nend\n") + 1)).find("ends after line"), std::string::npos);
  // Not such a file at all; empty; no record.
  EXPECT_NE(refusal("variant,config,problem\n").find("not a recording"), std::string::npos);
  EXPECT_NE(refusal("").find("not a recording"), std::string::npos);
  EXPECT_NE(refusal("tilescope recorded warps, format 1\n").find("no recorded warp"), std::string::npos);
  // A key out of its place, a bad value, an address that is none, a short or long step line, a
  // stream twice or out of range: each named with its line.
  const int shape = line_of(text, "shape "), steps = line_of(text, "steps "), stream = line_of(text, "stream ");
  ASSERT_GT(shape, 0);
  EXPECT_NE(refusal(with_line(text, shape, "block 3")).find("warp.txt:" + std::to_string(shape) + ": expected 'shape"),
            std::string::npos);
  EXPECT_NE(refusal(with_line(text, shape, "shape 64 -1 64")).find("is not M N K"), std::string::npos);
  EXPECT_NE(refusal(with_line(text, line_of(text, "problem "), "problem syrk")).find("not gemm or ata"),
            std::string::npos);
  EXPECT_NE(refusal(with_line(text, line_of(text, "precision "), "precision f8")).find("is no type"),
            std::string::npos);
  EXPECT_NE(refusal(with_line(text, steps, "steps 99999999999")).find("steps:"), std::string::npos);
  EXPECT_NE(refusal(with_line(text, steps, "steps many")).find("not a whole number"), std::string::npos);
  const std::string lanes(
      " 0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 96 100 104 108 112 116 120");
  EXPECT_NE(refusal(with_line(text, stream + 1, "0" + lanes.substr(0, lanes.size() - 4))).find("31 addresses"),
            std::string::npos);
  EXPECT_NE(refusal(with_line(text, stream + 1, "0" + lanes + " 124")).find("more than 32"), std::string::npos);
  EXPECT_NE(refusal(with_line(text, stream + 1, "x" + lanes)).find("'x' is no address"), std::string::npos);
  EXPECT_NE(refusal(with_line(text, stream + 1, "-2" + lanes)).find("'-2' is no address"), std::string::npos);
  EXPECT_NE(
      refusal(with_line(text, stream, "stream " + std::to_string(kRecordedStreamCount))).find("expected 'stream N'"),
      std::string::npos);
  const std::string twice =
      text.substr(0, text.find("\nend\n")) + "\n" +
      text.substr(text.find("stream "), text.find('\n', text.find("stream ")) - text.find("stream ")) + "\n";
  EXPECT_NE(refusal(twice).find("again"), std::string::npos) << refusal(twice);
  EXPECT_NE(refusal(text + "record\ndevice x\n").find("ends after line"), std::string::npos);
  EXPECT_NE(refusal(text + "garbage\n").find("expected 'record'"), std::string::npos);
}
