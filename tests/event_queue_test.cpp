// The event core's ordering: earliest time first, ties broken by the smaller key, and equal
// (time, key) pairs are both delivered.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/event_queue.hpp"

using gf::Event;
using gf::EventQueue;
using gf::Time;

TEST(EventQueue, EarliestFirstThenSmallerKey) {
  EventQueue q;
  EXPECT_TRUE(q.next_time().is_infinite());
  q.push({Time::ps(30), 1});
  q.push({Time::ps(10), 9});
  q.push({Time::ps(10), 2});
  q.push({Time::ps(20), 0});
  q.push({Time::ps(10), 2});
  std::vector<std::pair<int64_t, uint64_t>> out;
  while (!q.empty()) {
    Event e = q.pop();
    out.emplace_back(e.at.picoseconds(), e.key);
  }
  const std::vector<std::pair<int64_t, uint64_t>> expected = {{10, 2}, {10, 2}, {10, 9}, {20, 0}, {30, 1}};
  EXPECT_EQ(out, expected);
}

TEST(EventQueue, InterleavedPushAndPopStayOrdered) {
  // Keys descending while times ascend: a heap that compared keys first would pop 99 first.
  EventQueue q;
  for (uint64_t i = 0; i < 100; ++i) q.push({Time::ps(static_cast<int64_t>(i)), 99 - i});
  Time last = Time::zero();
  for (int i = 0; i < 50; ++i) {
    Event e = q.pop();
    EXPECT_GE(e.at, last);
    last = e.at;
    q.push({e.at + Time::ps(1000), e.key});  // later than everything still queued
  }
  EXPECT_EQ(q.size(), 100u);
  EXPECT_EQ(q.pop().at, Time::ps(50));
}

TEST(EventQueue, RandomEventsComeOutSorted) {
  // Against std::sort on (time, key): many equal times so the key decides often.
  EventQueue q;
  std::vector<std::pair<int64_t, uint64_t>> all;
  uint64_t x = 12345;
  for (int i = 0; i < 2000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const int64_t t = static_cast<int64_t>((x >> 33) % 50);
    const uint64_t key = (x >> 13) % 1000;
    all.emplace_back(t, key);
    q.push({Time::ps(t), key});
    if (i % 3 == 0) {  // interleave pops: remove the current minimum from `all` too
      auto it = std::min_element(all.begin(), all.end());
      Event e = q.pop();
      ASSERT_EQ(std::make_pair(e.at.picoseconds(), e.key), *it);
      all.erase(it);
    }
  }
  std::sort(all.begin(), all.end());
  for (const auto& expected : all) {
    Event e = q.pop();
    ASSERT_EQ(std::make_pair(e.at.picoseconds(), e.key), expected);
  }
  EXPECT_TRUE(q.empty());
}
