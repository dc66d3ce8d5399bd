// InstantQueue's sorted runs (src/core/instant_queue.hpp): every read (next_time, peek_key,
// pop_instant) makes the buckets opened since the last read one run, so a caller that reads
// between pushes, as the flow model does after each solve, leaves many runs pending at once, and
// one instant may have buckets in several of them. Checked against the pushed (time, key) pairs
// themselves: next_time is the earliest pushed time still pending, peek_key one of its keys, and
// pop_instant returns exactly its keys, sorted.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "core/instant_queue.hpp"

using gf::InstantQueue;
using gf::Time;

TEST(InstantQueueRuns, ReadsBetweenPushesMatchThePushedPairs) {
  InstantQueue q;
  std::multiset<std::pair<int64_t, uint64_t>> pending;
  std::vector<uint64_t> keys;
  uint64_t x = 12345;
  size_t pops = 0, peeks = 0;
  for (int i = 0; i < 50000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const uint64_t op = (x >> 60) & 7;  // 5 in 8 push, 1 in 8 reads the front, 2 in 8 pop
    if (op < 5 || pending.empty()) {
      // Within 300 ps of the earliest pending instant, as a flow model reschedules into the
      // near future: more distinct instants pending (up to 300) than the bucket cache's 64 slots.
      const int64_t t = (pending.empty() ? 0 : pending.begin()->first) + static_cast<int64_t>((x >> 20) % 300);
      const uint64_t key = (x >> 40) % 1000;
      q.push(Time::ps(t), key);
      pending.insert({t, key});
    } else if (op == 5) {
      const int64_t t = pending.begin()->first;
      ASSERT_EQ(q.next_time(), Time::ps(t));
      const uint64_t k = q.peek_key();
      ASSERT_TRUE(pending.count({t, k}) > 0) << "peek_key " << k << " is not a key of instant " << t;
      ++peeks;
    } else {
      const int64_t t = pending.begin()->first;
      std::vector<uint64_t> expected;
      while (!pending.empty() && pending.begin()->first == t) {
        expected.push_back(pending.begin()->second);
        pending.erase(pending.begin());
      }
      ASSERT_EQ(q.pop_instant(keys), Time::ps(t));
      ASSERT_EQ(keys, expected);
      ++pops;
    }
    ASSERT_EQ(q.size(), pending.size());
  }
  EXPECT_GT(pops, 10000u);  // the loop did exercise both reads
  EXPECT_GT(peeks, 3000u);
  while (!pending.empty()) {
    const int64_t t = pending.begin()->first;
    std::vector<uint64_t> expected;
    while (!pending.empty() && pending.begin()->first == t) {
      expected.push_back(pending.begin()->second);
      pending.erase(pending.begin());
    }
    ASSERT_EQ(q.pop_instant(keys), Time::ps(t));
    ASSERT_EQ(keys, expected);
  }
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.next_time(), Time::infinity());
}
