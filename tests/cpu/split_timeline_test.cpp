// The GPUs tab's timeline as data (app/viz/split_timeline.h): a product and a transfer row per
// GPU, each span on its row, and how much of each GPU's transfers ran under its products.
#include "app/viz/split_timeline.h"

#include <gtest/gtest.h>

using namespace tilescope;

TEST(SplitTimeline, RowsPerGpuAndStreamAndTheOverlapOfTransfersUnderProducts) {
  const std::vector<RunSpan> spans = {
      {0, SpanStream::Transfer, "B 0", 0.0, 1.0},       {0, SpanStream::Compute, "C 0", 1.0, 5.0},
      {0, SpanStream::Transfer, "B 1", 1.0, 2.0},       {0, SpanStream::Compute, "C 1", 5.0, 9.0},
      {1, SpanStream::Transfer, "B 0", 0.0, 1.5},       {1, SpanStream::Compute, "C 0", 1.5, 5.5},
      {1, SpanStream::Transfer, "B 1", 4.0, 7.0},       {1, SpanStream::Compute, "C 1", 7.0, 10.0},
      {1, SpanStream::Transfer, "B 1 again", 6.0, 6.5},
  };
  const SplitTimeline t = lay_out_split_timeline(spans);
  ASSERT_EQ(t.rows.size(), 4u);
  EXPECT_EQ(t.rows[3].gpu, 1);
  EXPECT_EQ(t.rows[3].stream, SpanStream::Transfer);
  EXPECT_EQ(t.row_of_span, (std::vector<int>{1, 0, 1, 0, 3, 2, 3, 2, 3}));
  EXPECT_DOUBLE_EQ(t.end_ms, 10.0);

  const std::vector<GpuBusy> busy = busy_of(spans);
  ASSERT_EQ(busy.size(), 2u);
  EXPECT_DOUBLE_EQ(busy[0].compute_ms, 8.0);
  EXPECT_DOUBLE_EQ(busy[0].transfer_ms, 2.0);
  EXPECT_DOUBLE_EQ(busy[0].hidden_ms, 1.0);  // the second panel's, under the first product
  EXPECT_DOUBLE_EQ(busy[1].compute_ms, 7.0);
  EXPECT_DOUBLE_EQ(busy[1].transfer_ms, 4.5);  // 1.5 + 3 (the overlapping one counted once)
  EXPECT_DOUBLE_EQ(busy[1].hidden_ms, 1.5);    // 4.0-5.5 under the first product
  EXPECT_TRUE(lay_out_split_timeline({}).rows.empty());
}
