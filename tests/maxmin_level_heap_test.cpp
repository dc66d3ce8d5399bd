// The max-min fill's 4-ary heap (model/flow/maxmin_solver_heap.hpp) and the fill's set-up made in the
// component search. The heap must yield entries in (level, resource id) order whatever the
// sequence of appends, pops and in-place renewals: that order is what makes the fill's result
// independent of the queue behind it (the expected order below is a sort of the keys, or a set
// kept beside the heap). The solver cases derive their rates by progressive filling in comments.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "model/flow/maxmin_solver_heap.hpp"
#include "model/flow/maxmin_solver.hpp"

using gf::LevelHeap;
using gf::MaxMinSolver;

TEST(LevelHeap, PopsByLevelThenResourceId) {
  LevelHeap h;
  // Levels 3, 1, 2, 1 on resources 0..3: the two at level 1 come out by id (1 before 3).
  h.append({3.0, 0, 0});
  h.append({1.0, 1, 0});
  h.append({2.0, 2, 0});
  h.append({1.0, 3, 0});
  h.heapify();
  std::vector<int32_t> order;
  while (!h.empty()) {
    order.push_back(h.top().r);
    h.pop();
  }
  EXPECT_EQ(order, (std::vector<int32_t>{1, 3, 2, 0}));
}

TEST(LevelHeap, ReplaceTopKeepsTheOrderOfASortedSet) {
  // Many equal levels (ties broken by id), a heap deeper than one line, and renewals that raise
  // the top's level as the fill does: each step checks the top against the smallest key of a
  // std::set holding the same entries.
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    LevelHeap h;
    std::set<std::pair<double, int32_t>> ref;
    const int n = 1 + static_cast<int>(rng() % 3000);
    for (int32_t r = 0; r < n; ++r) {
      const double level = static_cast<double>(rng() % 64);  // few distinct levels: many ties
      h.append({level, r, 0});
      ref.insert({level, r});
    }
    h.heapify();
    while (!h.empty()) {
      ASSERT_EQ(h.size(), ref.size());
      const auto [level, r] = *ref.begin();
      ASSERT_EQ(h.top().level, level);
      ASSERT_EQ(h.top().r, r);
      ref.erase(ref.begin());
      const uint32_t what = rng() % 4;
      if (what == 0) {
        h.pop();
      } else {  // renewed: the same resource at a level no lower
        const double renewed = level + static_cast<double>(rng() % 8);
        h.replace_top({renewed, r, 1});
        ref.insert({renewed, r});
        if (what == 3) {  // and sometimes dropped at once after
          ASSERT_EQ(h.top().r, ref.begin()->second);
          ref.erase(ref.begin());
          h.pop();
        }
      }
    }
    EXPECT_TRUE(ref.empty());
  }
}

TEST(LevelHeap, ClearedHeapIsReused) {
  LevelHeap h;
  for (int32_t r = 0; r < 100; ++r) h.append({static_cast<double>(100 - r), r, 0});
  h.heapify();
  EXPECT_EQ(h.top().r, 99);  // level 1
  h.clear();
  EXPECT_TRUE(h.empty());
  h.append({5.0, 7, 0});
  h.heapify();
  EXPECT_EQ(h.top().r, 7);
  EXPECT_EQ(h.size(), 1u);
}

TEST(MaxMinSolverSetUp, TwoComponentsWithBoundsInOneSolve) {
  // Two separate components changed before one solve, each with a bounded variable: the set-up
  // (levels, weights, bounded lists) is made per component during the search.
  MaxMinSolver s;
  const auto a = s.add_resource(10), b = s.add_resource(6);
  const auto x = s.add_variable(std::vector<MaxMinSolver::ResourceId>{a}, 1.0, 2.0);
  const auto y = s.add_variable(std::vector<MaxMinSolver::ResourceId>{a});
  const auto u = s.add_variable(std::vector<MaxMinSolver::ResourceId>{b}, 1.0, 1.0);
  const auto v = s.add_variable(std::vector<MaxMinSolver::ResourceId>{b});
  const auto w = s.add_variable(std::vector<MaxMinSolver::ResourceId>{b}, 2.0);
  std::vector<MaxMinSolver::VarId> changed;
  s.solve(changed);
  EXPECT_EQ(changed.size(), 5u);
  // A: level 10 / 2 = 5 > x's bound 2: x = 2, then y alone on the 8 left: 8.
  EXPECT_DOUBLE_EQ(s.rate(x), 2.0);
  EXPECT_DOUBLE_EQ(s.rate(y), 8.0);
  // B: weights 1 + 1 + 2, level 6 / 4 = 1.5 > u's bound 1: u = 1; then 5 over weight 3: level
  // 5 / 3, v = 5 / 3 and w = 2 x 5 / 3.
  EXPECT_DOUBLE_EQ(s.rate(u), 1.0);
  EXPECT_DOUBLE_EQ(s.rate(v), 5.0 / 3.0);
  EXPECT_DOUBLE_EQ(s.rate(w), 10.0 / 3.0);
  // Removing y leaves x bound-limited on A and changes nothing on B: only A's component is solved.
  s.remove_variable(y);
  changed.clear();
  s.solve(changed);
  EXPECT_EQ(changed, std::vector<MaxMinSolver::VarId>{});  // x stays at its bound 2
  EXPECT_DOUBLE_EQ(s.rate(x), 2.0);
}
