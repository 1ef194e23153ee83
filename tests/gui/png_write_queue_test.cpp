// The window's PNG files are encoded and written beside the frames (export/png_write_queue.h):
// every file asked for arrives whole and in order, a failure comes back as a sentence, and the
// queue's end writes what is still queued instead of dropping it.
#include "app/export/png_write_queue.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "app/export/png_writer.h"
#include "tests/gui/gui_test_support.h"

using namespace tilescope;

namespace {

// A picture no two calls share: a gradient shifted by `seed`.
Image picture(int width, int height, int seed) {
  Image image;
  image.width = width;
  image.height = height;
  image.rgba.resize(static_cast<std::size_t>(width) * height * 4);
  for (std::size_t i = 0; i < image.rgba.size(); ++i) image.rgba[i] = static_cast<std::uint8_t>((i * 7 + seed) % 251);
  return image;
}

class PngQueue : public ::testing::Test {
 protected:
  std::string file(int i) const { return dir_.path() + "/picture-" + std::to_string(i) + ".png"; }
  tilescope::testing::TempDir dir_{"tilescope-pngqueue"};
};

TEST_F(PngQueue, EveryFileArrivesWholeInTheOrderAsked) {
  PngWriteQueue queue;
  std::vector<Image> images;
  for (int i = 0; i < 4; ++i) {
    images.push_back(picture(320 + i, 200, i));
    queue.write(100 + i, file(i), images.back());
  }
  queue.wait_idle();
  EXPECT_FALSE(queue.busy());
  const std::vector<PngWriteQueue::Written> written = queue.take_written();
  ASSERT_EQ(written.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(written[i].id, 100u + i);
    EXPECT_EQ(written[i].path, file(i));
    EXPECT_TRUE(written[i].ok) << written[i].error;
    Image back;
    std::string error;
    ASSERT_TRUE(read_png(file(i), &back, &error)) << error;
    EXPECT_EQ(back.width, images[i].width);
    EXPECT_EQ(back.rgba, images[i].rgba) << "picture " << i;
  }
  EXPECT_TRUE(queue.take_written().empty()) << "each file is reported once";
}

TEST_F(PngQueue, AFileThatCannotBeWrittenComesBackAsASentence) {
  PngWriteQueue queue;
  const std::string nowhere = dir_.path() + "/no-such-folder/x.png";
  queue.write(1, nowhere, picture(64, 64, 1));
  queue.write(2, file(2), picture(64, 64, 2));
  queue.wait_idle();
  const std::vector<PngWriteQueue::Written> written = queue.take_written();
  ASSERT_EQ(written.size(), 2u);
  EXPECT_FALSE(written[0].ok);
  EXPECT_EQ(written[0].error.rfind("cannot write " + nowhere, 0), 0u) << written[0].error;
  EXPECT_FALSE(std::filesystem::exists(nowhere));
  EXPECT_TRUE(written[1].ok) << "one failure stops nothing after it: " << written[1].error;
}

TEST_F(PngQueue, ItsEndWritesWhatIsStillQueued) {
  {
    PngWriteQueue queue;
    // Large enough that they are still queued when the queue ends.
    for (int i = 0; i < 3; ++i) queue.write(i, file(i), picture(1920, 1080, i));
  }
  for (int i = 0; i < 3; ++i) {
    Image back;
    std::string error;
    EXPECT_TRUE(read_png(file(i), &back, &error)) << error;
    EXPECT_EQ(back.width, 1920);
  }
}

}  // namespace
