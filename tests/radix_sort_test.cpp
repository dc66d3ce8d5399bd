// sort_ids must give exactly std::sort's order: checked against std::sort on the same input, for
// lengths on both sides of the radix threshold, negative ids, and 64-bit keys whose low bytes
// are all equal (passes the radix sort skips).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "core/radix_sort.hpp"

namespace {

template <class T, class Gen>
void check(size_t n, Gen gen) {
  std::vector<T> v(n);
  for (T& x : v) x = gen();
  std::vector<T> expected = v;
  std::sort(expected.begin(), expected.end());
  std::vector<T> scratch;
  gf::sort_ids(v, scratch);
  EXPECT_EQ(v, expected) << "n = " << n;
}

}  // namespace

TEST(RadixSort, Int32AnyLengthAndSign) {
  std::mt19937_64 rng(3);
  for (size_t n : {0u, 1u, 5u, 95u, 96u, 97u, 1000u, 5000u}) {
    check<int32_t>(n, [&] { return static_cast<int32_t>(rng() % 4000000) - 2000000; });
    check<int32_t>(n, [&] { return static_cast<int32_t>(rng() % 300); });  // many duplicates, one varying byte
  }
}

TEST(RadixSort, Uint64KeysWithConstantBytes) {
  // Keys shaped like the flow model's events: a top flag bit, an id in bits 32..62, zero below.
  std::mt19937_64 rng(5);
  for (size_t n : {10u, 159u, 160u, 3000u})
    check<uint64_t>(n, [&] { return ((rng() & 1) << 63) | ((rng() % 100000) << 32); });
}

TEST(RadixSort, AFewSortedRunsAreMerged) {
  // 1 to 9 ascending runs one after another (the merge path takes up to 7, radix beyond), each
  // run of random length and values: the result must be std::sort's.
  std::mt19937_64 rng(11);
  for (int runs = 1; runs <= 9; ++runs) {
    std::vector<uint64_t> v;
    for (int r = 0; r < runs; ++r) {
      std::vector<uint64_t> run(50 + rng() % 400);
      for (uint64_t& x : run) x = rng() % 100000;
      std::sort(run.begin(), run.end());
      v.insert(v.end(), run.begin(), run.end());
    }
    std::vector<uint64_t> expected = v, scratch;
    std::sort(expected.begin(), expected.end());
    gf::sort_ids(v, scratch);
    EXPECT_EQ(v, expected) << runs << " runs";
  }
}

TEST(RadixSort, AlreadySortedIsLeftAsIs) {
  std::vector<int32_t> v(2000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int32_t>(3 * i);
  const std::vector<int32_t> before = v;
  std::vector<int32_t> scratch;
  gf::sort_ids(v, scratch);
  EXPECT_EQ(v, before);
  EXPECT_TRUE(scratch.empty());  // nothing was moved
}
