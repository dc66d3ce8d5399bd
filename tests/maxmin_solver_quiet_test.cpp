// Quiet removals (MaxMinSolver::mark_quiet): removing the whole group of variables one step of the
// fill fixed last on all of their resources re-solves nothing, and must leave every rate exactly
// what a re-solve gives. The small cases are solved by hand (progressive filling); the random
// ones compare, to the bit, a solver with the shortcut against one without it fed the same changes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "maxmin_solve.hpp"

namespace {

// Links A (2) and B (10); x uses A and B, y1 and y2 use B. Levels: A 2/1 = 2, B 10/3. A fills
// first: x = 2, B left 8 for two, level 4. B fills: y1 = y2 = 4, fixed together, and then no
// resource of theirs has an unfixed user: {y1, y2} is a quiet group. x is not quiet (B still had
// y1 and y2 unfixed when x was fixed).
struct TwoLinks {
  MaxMinSolver s;
  R a = s.add_resource(2), b = s.add_resource(10);
  V x = s.add_variable(std::vector<R>{a, b});
  V y1 = s.add_variable(std::vector<R>{b});
  V y2 = s.add_variable(std::vector<R>{b});
  TwoLinks() {
    solve(s);
    EXPECT_DOUBLE_EQ(s.rate(x), 2);
    EXPECT_DOUBLE_EQ(s.rate(y1), 4);
    EXPECT_DOUBLE_EQ(s.rate(y2), 4);
  }
};

}  // namespace

TEST(MaxMinSolverQuiet, RemovingAWholeQuietGroupSolvesNothing) {
  TwoLinks t;
  t.s.remove_variable(t.y1);
  t.s.remove_variable(t.y2);
  // x stays at A's 2 (B now carries x alone, far below 10): nothing changed, nothing solved.
  EXPECT_TRUE(solve(t.s).empty());
  EXPECT_EQ(t.s.last_component_variables(), 0u);
  EXPECT_EQ(t.s.quiet_removals(), 2u);
  EXPECT_DOUBLE_EQ(t.s.rate(t.x), 2);
}

TEST(MaxMinSolverQuiet, PartOfAGroupIsNotQuiet) {
  TwoLinks t;
  t.s.remove_variable(t.y1);
  // B left 8 for y2 alone once x is fixed at 2: y2 = 8, so the component is solved again.
  EXPECT_EQ(solve(t.s), (std::vector<V>{t.y2}));
  EXPECT_EQ(t.s.last_component_variables(), 2u);
  EXPECT_EQ(t.s.quiet_removals(), 0u);
  EXPECT_DOUBLE_EQ(t.s.rate(t.x), 2);
  EXPECT_DOUBLE_EQ(t.s.rate(t.y2), 8);
}

TEST(MaxMinSolverQuiet, AVariableFixedBeforeOthersOnItsLinkIsNotQuiet) {
  TwoLinks t;
  t.s.remove_variable(t.x);
  // y1 and y2 share B's 10: 5 each.
  solve(t.s);
  EXPECT_EQ(t.s.quiet_removals(), 0u);
  EXPECT_DOUBLE_EQ(t.s.rate(t.y1), 5);
  EXPECT_DOUBLE_EQ(t.s.rate(t.y2), 5);
}

TEST(MaxMinSolverQuiet, AWeightThatIsNotWholeTurnsTheShortcutOff) {
  TwoLinks t;
  const V z = t.s.add_variable(std::vector<R>{t.a}, 0.5);  // A: x and z, weights 1 and 0.5
  // Levels: A 2 / 1.5 = 4/3, B 10 / 3. A fills first: x = 4/3, z = 0.5 x 4/3 = 2/3; then B has
  // 10 - 4/3 = 26/3 for y1 and y2: 13/3 each. Removing {y1, y2} would be quiet with whole
  // weights; with z's 0.5 the component {x, z} is solved again.
  solve(t.s);
  EXPECT_DOUBLE_EQ(t.s.rate(z), 2.0 / 3);
  EXPECT_DOUBLE_EQ(t.s.rate(t.y1), 13.0 / 3);
  t.s.remove_variable(t.y1);
  t.s.remove_variable(t.y2);
  solve(t.s);
  EXPECT_EQ(t.s.quiet_removals(), 0u);
  EXPECT_EQ(t.s.last_component_variables(), 2u);
}

// Flows as the flow model makes them: whole weights (merged identical flows), some with a rate
// cap, capacities that are not round, and at each step the flows with the highest rate finish
// (the first to complete), or a random one. Rates and change lists must match a solver without
// the shortcut to the bit, and the shortcut must have fired.
TEST(MaxMinSolverQuiet, MatchesASolverWithoutTheShortcutToTheBit) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    std::mt19937_64 rng(seed);
    MaxMinSolver on, off;
    off.set_quiet_removals(false);
    const int nres = 60;
    for (int i = 0; i < nres; ++i) {
      const double c = 1.0 + static_cast<double>(rng() % 1000) / 7.0;
      on.add_resource(c);
      off.add_resource(c);
    }
    std::vector<V> live;
    for (int round = 0; round < 400; ++round) {
      const int adds = live.size() < 20 ? 8 : static_cast<int>(rng() % 4);
      for (int c = 0; c < adds; ++c) {
        std::vector<R> r;
        const int k = 1 + static_cast<int>(rng() % 4);
        for (int j = 0; j < k; ++j) {
          const R x = static_cast<R>(rng() % nres);
          if (std::find(r.begin(), r.end(), x) == r.end()) r.push_back(x);
        }
        const double w = 1.0 + static_cast<double>(rng() % 3);
        const double b = rng() % 5 == 0 ? w * (1.0 + static_cast<double>(rng() % 40) / 3.0) : MaxMinSolver::kUnbounded;
        const V v = on.add_variable(r, w, b);
        ASSERT_EQ(off.add_variable(r, w, b), v);
        live.push_back(v);
        if (rng() % 8 == 0) {  // a merge: one more identical flow
          on.set_weight(v, w + 1);
          off.set_weight(v, w + 1);
        }
      }
      if (rng() % 4 == 0 && !live.empty()) {
        const size_t i = rng() % live.size();
        on.remove_variable(live[i]);
        off.remove_variable(live[i]);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
      } else if (!live.empty()) {
        // The fastest flows per unit weight finish together.
        double top = 0;
        for (V v : live) top = std::max(top, on.rate(v) / on.weight(v));
        std::vector<V> rest;
        for (V v : live) {
          if (on.rate(v) / on.weight(v) == top) {
            on.remove_variable(v);
            off.remove_variable(v);
          } else {
            rest.push_back(v);
          }
        }
        live.swap(rest);
      }
      const std::vector<V> a = solve(on), b = solve(off);
      ASSERT_EQ(a, b) << "seed " << seed << " round " << round;
      for (V v : live) ASSERT_EQ(on.rate(v), off.rate(v)) << "seed " << seed << " round " << round << " variable " << v;
    }
    EXPECT_GT(on.quiet_removals(), 50u) << "seed " << seed;
    EXPECT_EQ(off.quiet_removals(), 0u);
  }
}
