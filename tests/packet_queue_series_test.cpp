// QueueSeries (model/packet/queue_series.hpp): queue depth in time buckets, each the exact mean of
// its span, widening by merging pairs once the run outgrows the bucket count. Values by hand.
#include <gtest/gtest.h>

#include "model/packet/queue_series.hpp"

using namespace gf;

TEST(PacketQueueSeries, EachBucketIsTheMeanOfItsSpan) {
  QueueSeries s(2, Time::us(1), 8);
  s.add(0, 100, Time::ns(0), Time::ns(2500));     // 100 B over [0, 2.5 us)
  s.add(0, 400, Time::ns(2500), Time::ns(3000));  // 400 B over [2.5, 3 us)
  // Bucket 2 = [2, 3 us): half at 100, half at 400 -> 250.
  const auto m = s.means(0, Time::us(3));
  ASSERT_EQ(m.size(), 3u);
  EXPECT_DOUBLE_EQ(m[0], 100);
  EXPECT_DOUBLE_EQ(m[1], 100);
  EXPECT_DOUBLE_EQ(m[2], 250);
  EXPECT_TRUE(s.means(1, Time::us(3)).empty());  // port 1 never queued
  // A run ending inside a bucket: the last bucket's mean is over the part that ran.
  QueueSeries t(1, Time::us(1), 8);
  t.add(0, 100, Time::ns(0), Time::ns(2500));
  const auto half = t.means(0, Time::ns(2500));
  ASSERT_EQ(half.size(), 3u);
  EXPECT_DOUBLE_EQ(half[2], 100);  // [2, 2.5 us) at 100 B, over 0.5 us
}

TEST(PacketQueueSeries, WidensByMergingPairs) {
  QueueSeries s(1, Time::us(1), 4);
  s.add(0, 80, Time::us(0), Time::us(1));  // bucket 0 of 1 us
  s.add(0, 40, Time::us(3), Time::us(4));  // bucket 3
  // Past 4 x 1 us the width doubles to 2 us, then to 4 us for t = 10 us (4 x 2 = 8 < 10 <= 16).
  s.add(0, 20, Time::us(9), Time::us(10));
  EXPECT_EQ(s.bucket_for(Time::us(10)), Time::us(4));
  const auto m = s.means(0, Time::us(10));
  ASSERT_EQ(m.size(), 3u);              // [0,4), [4,8), [8,10)
  EXPECT_DOUBLE_EQ(m[0], (80 + 40) / 4.0);  // 80 B x 1 us + 40 B x 1 us over 4 us
  EXPECT_DOUBLE_EQ(m[1], 0);
  EXPECT_DOUBLE_EQ(m[2], 20 / 2.0);     // 20 B x 1 us over the 2 us that ran
  // A run that ends long after the last queue: means() groups buckets to keep at most 4.
  const auto late = s.means(0, Time::us(32));
  ASSERT_EQ(late.size(), 4u);           // 8 us buckets
  EXPECT_DOUBLE_EQ(late[0], (80 + 40) / 8.0);
  EXPECT_DOUBLE_EQ(late[1], 20 / 8.0);
}

TEST(PacketQueueSeries, TimelineKeepsPeaksMarksAndPausesPerBucket) {
  QueueSeries s(2, Time::us(1), 4);
  s.add(0, 100, Time::ns(0), Time::ns(500));     // bucket 0: 100 B
  s.add(0, 300, Time::ns(500), Time::ns(1500));  // buckets 0 and 1: 300 B
  s.mark(0, Time::ns(700));                      // bucket 0
  s.mark(0, Time::ns(2100));                     // bucket 2
  s.pause_frame(0, Time::ns(1200));              // bucket 1
  s.paused(0, Time::ns(1200), Time::ns(2400));   // 800 ns of bucket 1, 400 ns of bucket 2
  const PortTimeline t = s.timeline(0, Time::us(3));
  EXPECT_EQ(t.bucket, Time::us(1));
  EXPECT_EQ(t.peak_queue, (std::vector<int64_t>{300, 300, 0}));
  EXPECT_EQ(t.ecn_marks, (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(t.pause_frames, (std::vector<int64_t>{0, 1, 0}));
  ASSERT_EQ(t.paused.size(), 3u);
  EXPECT_DOUBLE_EQ(t.paused[0], 0);
  EXPECT_DOUBLE_EQ(t.paused[1], 0.8);
  EXPECT_DOUBLE_EQ(t.paused[2], 0.4);
  EXPECT_TRUE(s.active(0));
  EXPECT_FALSE(s.active(1));
  // A pause still in force at the end counts up to it: port 1 paused from 2.5 us, run ends at 3 us.
  const PortTimeline open = s.timeline(1, Time::us(3), Time::ns(2500));
  ASSERT_EQ(open.paused.size(), 3u);
  EXPECT_DOUBLE_EQ(open.paused[2], 0.5);
  // Widening to 2 us buckets (t = 5 us > 4 x 1 us): peaks take the larger, counts and paused
  // time add up. [0, 2 us): peak 300, 1 mark, 1 frame, 800 ns paused of 2 us = 0.4.
  s.mark(0, Time::ns(5000));
  const PortTimeline w = s.timeline(0, Time::us(6));
  EXPECT_EQ(w.bucket, Time::us(2));
  EXPECT_EQ(w.peak_queue, (std::vector<int64_t>{300, 0, 0}));
  EXPECT_EQ(w.ecn_marks, (std::vector<int64_t>{1, 1, 1}));
  EXPECT_EQ(w.pause_frames, (std::vector<int64_t>{1, 0, 0}));
  EXPECT_DOUBLE_EQ(w.paused[0], 0.4);
  EXPECT_DOUBLE_EQ(w.paused[1], 0.2);  // 400 ns of [2, 4 us)
}
