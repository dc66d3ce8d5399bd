// InstantQueue::peek_key (src/core/instant_queue.hpp): a key of the earliest instant, read
// without popping it, so a caller can decide to leave the instant where it is.
#include <gtest/gtest.h>

#include <vector>

#include "core/instant_queue.hpp"

using namespace gf;

TEST(InstantQueuePeek, AKeyOfTheEarliestInstantAndNothingPopped) {
  InstantQueue q;
  q.push(Time::us(2), 7);
  q.push(Time::us(1), 9);  // the earliest instant, two buckets' worth of keys
  q.push(Time::us(1), 3);
  const uint64_t k = q.peek_key();
  EXPECT_TRUE(k == 9 || k == 3);  // one of time 1 us's keys, not necessarily its least
  EXPECT_EQ(q.size(), 3u);
  EXPECT_EQ(q.next_time(), Time::us(1));
  std::vector<uint64_t> keys;
  EXPECT_EQ(q.pop_instant(keys), Time::us(1));
  EXPECT_EQ(keys, (std::vector<uint64_t>{3, 9}));  // peeking changed nothing popped
  EXPECT_EQ(q.peek_key(), 7u);
  EXPECT_EQ(q.pop_instant(keys), Time::us(2));
  EXPECT_TRUE(q.empty());
}
