// InstantQueue delivers what EventQueue delivers, (time, key) ascending, but a whole instant per
// pop: each expected order below is the sorted order of the pushed pairs.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "core/instant_queue.hpp"

using gf::InstantQueue;
using gf::Time;

TEST(InstantQueue, OneInstantPerPopKeysAscending) {
  InstantQueue q;
  EXPECT_TRUE(q.empty());
  EXPECT_TRUE(q.next_time().is_infinite());
  q.push(Time::ps(30), 1);
  q.push(Time::ps(10), 9);
  q.push(Time::ps(10), 2);  // pushed after 9: the instant's keys must be sorted on the way out
  q.push(Time::ps(20), 0);
  q.push(Time::ps(10), 5);
  EXPECT_EQ(q.size(), 5u);
  EXPECT_EQ(q.next_time(), Time::ps(10));
  std::vector<uint64_t> keys = {77};  // dropped by the pop
  EXPECT_EQ(q.pop_instant(keys), Time::ps(10));
  EXPECT_EQ(keys, (std::vector<uint64_t>{2, 5, 9}));
  EXPECT_EQ(q.pop_instant(keys), Time::ps(20));
  EXPECT_EQ(keys, (std::vector<uint64_t>{0}));
  EXPECT_EQ(q.pop_instant(keys), Time::ps(30));
  EXPECT_EQ(keys, (std::vector<uint64_t>{1}));
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.size(), 0u);
}

TEST(InstantQueue, PushToTheInstantJustPoppedOpensItAgain) {
  // A flow model pushes a zero-latency start at `now` after handling `now`: it must come out next.
  InstantQueue q;
  q.push(Time::ps(5), 3);
  q.push(Time::ps(8), 1);
  std::vector<uint64_t> keys;
  EXPECT_EQ(q.pop_instant(keys), Time::ps(5));
  q.push(Time::ps(5), 4);
  q.push(Time::ps(5), 2);
  EXPECT_EQ(q.next_time(), Time::ps(5));
  EXPECT_EQ(q.pop_instant(keys), Time::ps(5));
  EXPECT_EQ(keys, (std::vector<uint64_t>{2, 4}));
  EXPECT_EQ(q.pop_instant(keys), Time::ps(8));
  EXPECT_EQ(keys, (std::vector<uint64_t>{1}));
}

TEST(InstantQueue, ManyInstantsInterleavedMatchSortedPairs) {
  // More distinct pending instants (500) than the bucket cache has slots (64), pushed in a
  // scrambled order, so one instant ends up in several buckets that the pop must merge. Checked
  // against the pushed (time, key) pairs themselves: each pop must return the earliest pushed
  // time still pending and exactly its keys, sorted.
  InstantQueue q;
  std::vector<std::pair<int64_t, uint64_t>> pending;
  uint64_t x = 987654321;
  std::vector<uint64_t> keys;
  auto pop_and_check = [&] {
    std::sort(pending.begin(), pending.end());
    const int64_t t = pending.front().first;
    std::vector<uint64_t> expected;
    while (!pending.empty() && pending.front().first == t) {
      expected.push_back(pending.front().second);
      pending.erase(pending.begin());
    }
    ASSERT_EQ(q.pop_instant(keys), Time::ps(t));
    ASSERT_EQ(keys, expected);
  };
  for (int i = 0; i < 20000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const int64_t t = 1000 + static_cast<int64_t>((x >> 33) % 500) * 7;
    const uint64_t key = (x >> 13) % 100000;
    pending.emplace_back(t, key);
    q.push(Time::ps(t), key);
    if (i % 1000 == 999) pop_and_check();
  }
  EXPECT_EQ(q.size(), pending.size());
  while (!pending.empty()) pop_and_check();
  EXPECT_TRUE(q.empty());
}

TEST(InstantQueue, OneInstantsBucketGrowsAndAnotherInstantCutsIn) {
  // push's inlined path serves only a push to the previous push's instant whose bucket has room;
  // a full bucket (it grows) and a push to another instant go the other way. 1,000 keys on one
  // instant, pushed in decreasing order, make its bucket grow many times, and every 100th push
  // goes to another instant first, so the next push to t = 50 is no longer the previous push's
  // instant. Each key is counted once and comes out with its instant: size 1,000 + 10, then
  // t = 20 alone with its 10 keys (5000 + 0, 10, ..., 90), then t = 50 with 0 .. 999 ascending.
  InstantQueue q;
  std::vector<uint64_t> early;
  for (uint64_t k = 1000; k-- > 0;) {
    q.push(Time::ps(50), k);
    if (k % 100 == 0) {
      q.push(Time::ps(20), 5000 + k / 10);
      early.push_back(5000 + k / 10);
    }
  }
  EXPECT_EQ(q.size(), 1010u);
  std::vector<uint64_t> keys;
  EXPECT_EQ(q.pop_instant(keys), Time::ps(20));
  std::sort(early.begin(), early.end());
  EXPECT_EQ(keys, early);
  EXPECT_EQ(q.pop_instant(keys), Time::ps(50));
  ASSERT_EQ(keys.size(), 1000u);
  for (uint64_t k = 0; k < 1000; ++k) EXPECT_EQ(keys[k], k);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.size(), 0u);
}
