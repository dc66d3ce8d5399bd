// InlineIds (src/core/inline_ids.hpp): a list of ids whose first four live in the object. Checked
// here against std::vector as the reference, across the move from inline to heap storage, the
// solver's swap-remove, copies and moves (the solver's resource array grows by moving them).
#include <gtest/gtest.h>

#include <vector>

#include "core/inline_ids.hpp"

using namespace gf;

namespace {

std::vector<int32_t> as_vector(const InlineIds& ids) { return {ids.begin(), ids.end()}; }

}  // namespace

TEST(InlineIds, PushPastTheInlineCapacityKeepsEveryIdInOrder) {
  InlineIds ids;
  std::vector<int32_t> want;
  EXPECT_TRUE(ids.empty());
  // 4 inline, then the heap at 8, 16, 32: 20 pushes cross two growths.
  for (int32_t i = 0; i < 20; ++i) {
    ids.push_back(100 + i);
    want.push_back(100 + i);
    ASSERT_EQ(as_vector(ids), want) << "after push " << i;
  }
  EXPECT_EQ(ids.size(), 20u);
  EXPECT_EQ(ids.back(), 119);
}

TEST(InlineIds, SwapRemoveAsTheSolverDoesMatchesAVector) {
  // MaxMinSolver::remove_variable: the last id moves into the removed one's place.
  InlineIds ids;
  std::vector<int32_t> want;
  for (int32_t i = 0; i < 6; ++i) {
    ids.push_back(i);
    want.push_back(i);
  }
  for (size_t at : {1u, 0u, 2u, 0u}) {
    ids[at] = ids.back();
    ids.pop_back();
    want[at] = want.back();
    want.pop_back();
    ASSERT_EQ(as_vector(ids), want);
  }
  // Down to 2, on the heap still; growing again reuses it.
  ids.push_back(7);
  want.push_back(7);
  EXPECT_EQ(as_vector(ids), want);
}

TEST(InlineIds, CopiesAndMovesCarryTheIdsInlineAndOnTheHeap) {
  for (int32_t n : {0, 3, 4, 5, 9}) {
    InlineIds a;
    std::vector<int32_t> want;
    for (int32_t i = 0; i < n; ++i) {
      a.push_back(i * 7);
      want.push_back(i * 7);
    }
    InlineIds copy(a);
    EXPECT_EQ(as_vector(copy), want) << n;
    InlineIds assigned;
    assigned.push_back(-1);
    assigned = a;
    EXPECT_EQ(as_vector(assigned), want) << n;
    InlineIds moved(std::move(copy));
    EXPECT_EQ(as_vector(moved), want) << n;
    EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): a moved-from list is empty
    std::vector<InlineIds> grown;  // reallocation moves the elements
    for (int k = 0; k < 9; ++k) grown.push_back(a);
    for (const InlineIds& g : grown) EXPECT_EQ(as_vector(g), want) << n;
    EXPECT_EQ(as_vector(a), want) << n;
  }
}
