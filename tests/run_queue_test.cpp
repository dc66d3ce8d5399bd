// RunQueue (src/core/run_queue.hpp): pairs pushed between reads become one run sorted by time, so
// a caller that reads after each batch, as the flow model does after each solve, leaves many runs
// pending, and one instant may have pairs in several runs. Checked against the pushed (time, key)
// pairs themselves: next_time is the earliest pushed time still pending, peek_key one of its keys,
// and pop_instant returns exactly its keys, sorted.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "core/run_queue.hpp"

using gf::RunQueue;
using gf::Time;

namespace {

using Pending = std::multiset<std::pair<int64_t, uint64_t>>;

// Pops the earliest instant from both and compares.
void pop_and_compare(RunQueue& q, Pending& pending, std::vector<uint64_t>& keys) {
  const int64_t t = pending.begin()->first;
  std::vector<uint64_t> expected;
  while (!pending.empty() && pending.begin()->first == t) {
    expected.push_back(pending.begin()->second);
    pending.erase(pending.begin());
  }
  ASSERT_EQ(q.pop_instant(keys), Time::ps(t));
  ASSERT_EQ(keys, expected);
}

}  // namespace

// Batches of up to 2,000 pairs (past the radix sort's threshold), their times spread over 2^40 ps
// ahead of the earliest pending one (five of the eight bytes differ) or bunched within 300 ps
// (one or two differ), or one instant for the whole batch (a ring step, already sorted), keys in
// random order; reads between the batches.
TEST(RunQueue, BatchesBetweenReadsMatchThePushedPairs) {
  RunQueue q;
  Pending pending;
  std::vector<uint64_t> keys;
  uint64_t x = 987654321;
  auto next = [&x] { return x = x * 6364136223846793005ull + 1442695040888963407ull; };
  size_t pops = 0, peeks = 0, pairs = 0;
  for (int batch = 0; batch < 400; ++batch) {
    const uint64_t shape = next() >> 62;  // 0, 1: spread; 2: bunched; 3: one instant
    const size_t n = (next() >> 33) % 2000 + 1;
    const int64_t base = pending.empty() ? 0 : pending.begin()->first;
    const int64_t one = base + static_cast<int64_t>((next() >> 24) % 1000);
    for (size_t i = 0; i < n; ++i) {
      const uint64_t r = next();
      int64_t t = one;
      if (shape < 2) t = base + static_cast<int64_t>((r >> 20) & ((1ull << 40) - 1));
      if (shape == 2) t = base + static_cast<int64_t>((r >> 20) % 300);
      const uint64_t key = (r >> 8) % 100000;
      q.push(Time::ps(t), key);
      pending.insert({t, key});
    }
    pairs += n;
    // A few reads: next_time and peek_key, then pops of some instants.
    ASSERT_EQ(q.next_time(), Time::ps(pending.begin()->first));
    ASSERT_TRUE(pending.count({pending.begin()->first, q.peek_key()}) > 0);
    ++peeks;
    const size_t reads = (next() >> 40) % 600;
    for (size_t i = 0; i < reads && !pending.empty(); ++i) {
      pop_and_compare(q, pending, keys);
      ++pops;
    }
    ASSERT_EQ(q.size(), pending.size());
  }
  EXPECT_GT(pairs, 300000u);  // the loop did exercise long batches and many reads
  EXPECT_GT(pops, 50000u);
  EXPECT_EQ(peeks, 400u);
  while (!pending.empty()) pop_and_compare(q, pending, keys);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.next_time(), Time::infinity());
}

// A worked case: the second batch's pairs fall between and onto the first's instants.
TEST(RunQueue, InstantsOfSeveralRunsMergeInKeyOrder) {
  RunQueue q;
  q.push(Time::ps(30), 7);
  q.push(Time::ps(10), 5);
  q.push(Time::ps(30), 2);
  EXPECT_EQ(q.next_time(), Time::ps(10));  // a read: the three are one run
  q.push(Time::ps(20), 9);
  q.push(Time::ps(30), 4);
  q.push(Time::ps(10), 1);
  std::vector<uint64_t> keys;
  EXPECT_EQ(q.pop_instant(keys), Time::ps(10));
  EXPECT_EQ(keys, (std::vector<uint64_t>{1, 5}));
  EXPECT_EQ(q.pop_instant(keys), Time::ps(20));
  EXPECT_EQ(keys, (std::vector<uint64_t>{9}));
  EXPECT_EQ(q.pop_instant(keys), Time::ps(30));
  EXPECT_EQ(keys, (std::vector<uint64_t>{2, 4, 7}));
  EXPECT_TRUE(q.empty());
}
