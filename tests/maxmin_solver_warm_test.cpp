// Warm re-solves (MaxMinSolver::resume_fill): after removals only, the solver resumes its logged
// fill at the step of the earliest-fixed removed variable. The small cases are solved by hand
// (progressive filling); the random ones compare, to the bit, a solver that resumes against one
// that fills from the start, fed the same changes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "maxmin_solve.hpp"

namespace {

// Links A (2), B (10), C (9); x uses A and B, y1 and y2 use B, z uses B and C, u uses C.
// Levels: A 2/1 = 2, B 10/4 = 2.5, C 9/2 = 4.5. Step 0: A pops, x = 2 (B left 8 for three, level
// 8/3; C unchanged). Step 1: B pops at 8/3: y1, y2, z = 8/3 each (C left 9 - 8/3 = 19/3 for u).
// Step 2: C pops, u = 19/3.
struct ThreeLinks {
  MaxMinSolver s;
  R a = s.add_resource(2), b = s.add_resource(10), c = s.add_resource(9);
  V x = s.add_variable(std::vector<R>{a, b});
  V y1 = s.add_variable(std::vector<R>{b});
  V y2 = s.add_variable(std::vector<R>{b});
  V z = s.add_variable(std::vector<R>{b, c});
  V u = s.add_variable(std::vector<R>{c});
  ThreeLinks() {
    s.set_warm_min_variables(1);
    solve(s);
    EXPECT_DOUBLE_EQ(s.rate(x), 2);
    EXPECT_DOUBLE_EQ(s.rate(y1), 8.0 / 3);
    EXPECT_DOUBLE_EQ(s.rate(z), 8.0 / 3);
    EXPECT_DOUBLE_EQ(s.rate(u), 19.0 / 3);
  }
};

}  // namespace

TEST(MaxMinSolverWarm, ARemovalResumesAtItsStep) {
  ThreeLinks t;
  t.s.remove_variable(t.y1);
  // y1 was fixed at step 1: x (step 0) keeps its 2 and is not solved again. From step 1: B has 8
  // for y2 and z (level 4), C 9 for z and u (4.5): B pops, y2 = z = 4; C has 5 left for u.
  EXPECT_EQ(solve(t.s), (std::vector<V>{t.y2, t.z, t.u}));
  EXPECT_EQ(t.s.warm_solves(), 1u);
  EXPECT_EQ(t.s.warm_refixed(), 3u);  // y2, z, u: not x
  EXPECT_DOUBLE_EQ(t.s.rate(t.x), 2);
  EXPECT_DOUBLE_EQ(t.s.rate(t.y2), 4);
  EXPECT_DOUBLE_EQ(t.s.rate(t.z), 4);
  EXPECT_DOUBLE_EQ(t.s.rate(t.u), 5);
}

TEST(MaxMinSolverWarm, TheLastStepAloneIsQuietOrResumedThere) {
  ThreeLinks t;
  t.s.remove_variable(t.u);
  // u was fixed last, alone on C: a quiet group, so nothing is solved and nothing changes.
  EXPECT_TRUE(solve(t.s).empty());
  EXPECT_EQ(t.s.warm_solves(), 0u);
  // Then removing x (step 0) resumes from the start: A is dead, B has 10 for y1, y2, z (10/3),
  // C 9 for z alone: B pops, all three at 10/3.
  t.s.remove_variable(t.x);
  EXPECT_EQ(solve(t.s), (std::vector<V>{t.y1, t.y2, t.z}));
  EXPECT_EQ(t.s.warm_solves(), 1u);
  EXPECT_EQ(t.s.warm_refixed(), 3u);
  EXPECT_DOUBLE_EQ(t.s.rate(t.y1), 10.0 / 3);
  EXPECT_DOUBLE_EQ(t.s.rate(t.z), 10.0 / 3);
}

TEST(MaxMinSolverWarm, AnAdditionFillsFromTheStart) {
  ThreeLinks t;
  t.s.remove_variable(t.y1);
  const V w = t.s.add_variable(std::vector<R>{t.c});
  // An addition is not a removal: the component is filled from the start. Levels A 2/1 = 2,
  // B 10/3 (x, y2, z), C 9/3 = 3 (z, u, w). A pops: x = 2, B has 8 for y2 and z (4). C pops at 3:
  // z = u = w = 3; B has 8 - 3 = 5 for y2.
  solve(t.s);
  EXPECT_EQ(t.s.warm_solves(), 0u);
  EXPECT_DOUBLE_EQ(t.s.rate(t.z), 3);
  EXPECT_DOUBLE_EQ(t.s.rate(w), 3);
  EXPECT_DOUBLE_EQ(t.s.rate(t.u), 3);
  EXPECT_DOUBLE_EQ(t.s.rate(t.y2), 5);
}

// Flows as the flow model makes them: whole weights (merged identical flows), some with a rate
// cap, capacities that are not round; most rounds remove flows only (the fastest first, or
// random ones, one or several), some add flows, merge one, or change a capacity. Rates and
// change lists must match a solver that fills from the start, to the bit, and resuming must have
// fired. A weight that is not whole (last seeds) turns resuming off.
TEST(MaxMinSolverWarm, MatchesASolverFillingFromTheStartToTheBit) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    std::mt19937_64 rng(seed);
    MaxMinSolver on, off;
    on.set_warm_min_variables(seed % 2 == 0 ? 1 : 30);
    off.set_warm_start(false);
    if (seed == 3) {  // resuming and quiet removals each alone
      on.set_quiet_removals(false);
      off.set_quiet_removals(false);
    }
    const int nres = 40;
    std::vector<R> res;
    for (int i = 0; i < nres; ++i) {
      const double c = 1.0 + static_cast<double>(rng() % 1000) / 7.0;
      res.push_back(on.add_resource(c));
      off.add_resource(c);
    }
    std::vector<V> live;
    auto add = [&](int n) {
      for (int c = 0; c < n; ++c) {
        std::vector<R> r;
        const int k = 1 + static_cast<int>(rng() % 4);
        for (int j = 0; j < k; ++j) {
          const R x = static_cast<R>(rng() % nres);
          if (std::find(r.begin(), r.end(), x) == r.end()) r.push_back(x);
        }
        const double w = seed >= 7 && rng() % 50 == 0 ? 0.5 : 1.0 + static_cast<double>(rng() % 3);
        const double b = rng() % 5 == 0 ? w * (1.0 + static_cast<double>(rng() % 40) / 3.0) : MaxMinSolver::kUnbounded;
        const V v = on.add_variable(r, w, b);
        ASSERT_EQ(off.add_variable(r, w, b), v);
        live.push_back(v);
        if (rng() % 8 == 0) {  // a merge: one more identical flow
          on.set_weight(v, w + 1);
          off.set_weight(v, w + 1);
        }
      }
    };
    for (int round = 0; round < 600; ++round) {
      if (live.size() < 40) add(80);
      const uint64_t what = rng() % 16;
      if (what == 0) {
        add(1 + static_cast<int>(rng() % 3));
      } else if (what == 1) {
        const R r = res[rng() % res.size()];
        const double c = 1.0 + static_cast<double>(rng() % 1000) / 7.0;
        on.set_capacity(r, c);
        off.set_capacity(r, c);
      } else if (what < 6) {  // a few random flows end
        for (uint64_t n = 1 + rng() % 3; n > 0 && !live.empty(); --n) {
          const size_t i = rng() % live.size();
          on.remove_variable(live[i]);
          off.remove_variable(live[i]);
          live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
        }
      } else {  // the fastest flows per unit weight finish together
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
      for (V v : live) ASSERT_EQ(on.rate(v), off.rate(v)) << "seed " << seed << " round " << round << " var " << v;
    }
    EXPECT_EQ(off.warm_solves(), 0u);
    if (seed < 7) {
      EXPECT_GT(on.warm_solves(), 50u) << "seed " << seed;
    }
  }
}
