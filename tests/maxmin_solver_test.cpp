// The max-min solver on systems small enough to solve by hand; every expected rate is derived in
// a comment by progressive filling (raise all unfixed rates together until a resource fills).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "maxmin_solve.hpp"

TEST(MaxMinSolver, TwoFlowsOnOneLinkGetHalfEach) {
  // One link of 10: both flows rise together and fill it at 5 each.
  MaxMinSolver s;
  R a = s.add_resource(10);
  V f = s.add_variable(std::vector<R>{a});
  V g = s.add_variable(std::vector<R>{a});
  solve(s);
  EXPECT_DOUBLE_EQ(s.rate(f), 5);
  EXPECT_DOUBLE_EQ(s.rate(g), 5);
}

TEST(MaxMinSolver, BottleneckElsewhereFreesCapacity) {
  // Links A (10) and B (4). f1 uses A and B, f2 uses A, f3 uses B.
  // B fills first: at level 2 it carries f1 + f3 = 4, so f1 = f3 = 2. Then f2 rises alone on A
  // until A holds 10: f2 = 10 - 2 = 8.
  MaxMinSolver s;
  R a = s.add_resource(10), b = s.add_resource(4);
  V f1 = s.add_variable(std::vector<R>{a, b});
  V f2 = s.add_variable(std::vector<R>{a});
  V f3 = s.add_variable(std::vector<R>{b});
  solve(s);
  EXPECT_DOUBLE_EQ(s.rate(f1), 2);
  EXPECT_DOUBLE_EQ(s.rate(f2), 8);
  EXPECT_DOUBLE_EQ(s.rate(f3), 2);
}

TEST(MaxMinSolver, BoundCapsAFlowAndTheOthersTakeTheRest) {
  // Link of 10; f1 may not exceed 2. Rising together, f1 stops at 2 (level 2 < 10/2), then f2
  // takes what is left: 8.
  MaxMinSolver s;
  R a = s.add_resource(10);
  V f1 = s.add_variable(std::vector<R>{a}, 1.0, 2.0);
  V f2 = s.add_variable(std::vector<R>{a});
  solve(s);
  EXPECT_DOUBLE_EQ(s.rate(f1), 2);
  EXPECT_DOUBLE_EQ(s.rate(f2), 8);
}

TEST(MaxMinSolver, WeightsShareInProportion) {
  // Link of 9, weights 2 and 1: rates 2L and L fill it at L = 3, so 6 and 3.
  MaxMinSolver s;
  R a = s.add_resource(9);
  V f1 = s.add_variable(std::vector<R>{a}, 2.0);
  V f2 = s.add_variable(std::vector<R>{a}, 1.0);
  solve(s);
  EXPECT_DOUBLE_EQ(s.rate(f1), 6);
  EXPECT_DOUBLE_EQ(s.rate(f2), 3);
}

TEST(MaxMinSolver, NoResourceMeansTheBoundOrUnlimited) {
  MaxMinSolver s;
  V f = s.add_variable(std::vector<R>{});
  V g = s.add_variable(std::vector<R>{}, 1.0, 7.0);
  solve(s);
  EXPECT_EQ(s.rate(f), MaxMinSolver::kUnbounded);
  EXPECT_DOUBLE_EQ(s.rate(g), 7);
}

TEST(MaxMinSolver, RecomputesOnlyWhatIsConnectedToAChange) {
  // A (10) carries f1; B (6) carries f2: disjoint. Adding f3 on B changes f2 (to 3) and f3 (3),
  // and leaves f1 out of the recomputed set. Removing f3 gives f2 all of B again.
  MaxMinSolver s;
  R a = s.add_resource(10), b = s.add_resource(6);
  V f1 = s.add_variable(std::vector<R>{a});
  V f2 = s.add_variable(std::vector<R>{b});
  EXPECT_EQ(solve(s), (std::vector<V>{f1, f2}));  // new variables are always reported
  V f3 = s.add_variable(std::vector<R>{b});
  EXPECT_EQ(solve(s), (std::vector<V>{f2, f3}));
  EXPECT_EQ(s.last_component_variables(), 2u);
  EXPECT_DOUBLE_EQ(s.rate(f1), 10);
  EXPECT_DOUBLE_EQ(s.rate(f2), 3);
  s.remove_variable(f3);
  EXPECT_EQ(solve(s), (std::vector<V>{f2}));
  EXPECT_DOUBLE_EQ(s.rate(f2), 6);
  EXPECT_EQ(s.users(b), 1);
}

TEST(MaxMinSolver, ChainOfLinksPropagatesAFreedShare) {
  // A (4): f1, f2.  B (10): f2, f3.  A fills first at level 2 (f1 = f2 = 2); f3 then takes
  // 10 - 2 = 8 on B. Removing f1 lets f2 rise to 4 on A, so f3 drops to 6: a change on A reaches
  // f3 through f2, so all of them are recomputed.
  MaxMinSolver s;
  R a = s.add_resource(4), b = s.add_resource(10);
  V f1 = s.add_variable(std::vector<R>{a});
  V f2 = s.add_variable(std::vector<R>{a, b});
  V f3 = s.add_variable(std::vector<R>{b});
  solve(s);
  EXPECT_DOUBLE_EQ(s.rate(f2), 2);
  EXPECT_DOUBLE_EQ(s.rate(f3), 8);
  s.remove_variable(f1);
  EXPECT_EQ(solve(s), (std::vector<V>{f2, f3}));
  EXPECT_DOUBLE_EQ(s.rate(f2), 4);
  EXPECT_DOUBLE_EQ(s.rate(f3), 6);
}

TEST(MaxMinSolver, FreedSlotsAreReusedWithCorrectIncidence) {
  MaxMinSolver s;
  R a = s.add_resource(8), b = s.add_resource(8);
  V f1 = s.add_variable(std::vector<R>{a, b});
  V f2 = s.add_variable(std::vector<R>{a});
  solve(s);
  s.remove_variable(f1);
  V f3 = s.add_variable(std::vector<R>{b});  // takes f1's slot
  EXPECT_EQ(f3, f1);
  solve(s);
  EXPECT_DOUBLE_EQ(s.rate(f2), 8);  // alone on A
  EXPECT_DOUBLE_EQ(s.rate(f3), 8);  // alone on B
  EXPECT_EQ(s.users(a), 1);
  EXPECT_EQ(s.users(b), 1);
}

TEST(MaxMinSolver, VariableAddedAloneThenJoinedInTheSameBatch) {
  // f1 is alone on A (10) when added, so it skips the component search; f2 then joins it on A and
  // also uses B (4) before the solve, so both must be solved together and both are reported (new
  // variables). Progressive filling: B fills first at level 4 (f2 = 4), then f1 takes the rest of
  // A, 10 - 4 = 6. Solved alone, f1 would have got 10.
  MaxMinSolver s;
  R a = s.add_resource(10), b = s.add_resource(4);
  V f1 = s.add_variable(std::vector<R>{a});
  V f2 = s.add_variable(std::vector<R>{a, b});
  EXPECT_EQ(solve(s), (std::vector<V>{f1, f2}));
  EXPECT_EQ(s.last_component_variables(), 2u);
  EXPECT_DOUBLE_EQ(s.rate(f1), 6);
  EXPECT_DOUBLE_EQ(s.rate(f2), 4);
}

TEST(MaxMinSolver, RemovalThatEmptiesItsResourcesRecomputesNothing) {
  // f1 alone on A, f2 alone on B. Removing f1 leaves A empty: no remaining variable's share can
  // change, so nothing is recomputed and f2 keeps B's 7.
  MaxMinSolver s;
  R a = s.add_resource(3), b = s.add_resource(7);
  V f1 = s.add_variable(std::vector<R>{a});
  V f2 = s.add_variable(std::vector<R>{b});
  solve(s);
  s.remove_variable(f1);
  EXPECT_TRUE(solve(s).empty());
  EXPECT_EQ(s.last_component_variables(), 0u);
  EXPECT_DOUBLE_EQ(s.rate(f2), 7);
  // The freed slot, reused alone on A, gets A's whole capacity.
  V f3 = s.add_variable(std::vector<R>{a});
  EXPECT_EQ(solve(s), (std::vector<V>{f3}));
  EXPECT_DOUBLE_EQ(s.rate(f3), 3);
}

// Batches of changes between solves on a sparse system (200 resources, paths of 1 to 4), so that
// many variables are added alone, some joined later in the same batch, some removed before the
// solve: after each solve every live rate must equal a from-scratch solve of the same system.
TEST(MaxMinSolver, BatchedChangesMatchASolveFromScratch) {
  std::mt19937_64 rng(7);
  const int nres = 200;
  std::vector<double> cap;
  MaxMinSolver s;
  for (int i = 0; i < nres; ++i) {
    cap.push_back(1.0 + static_cast<double>(rng() % 50));
    s.add_resource(cap.back());
  }
  std::vector<std::vector<R>> uses;
  std::vector<double> bound;
  std::vector<V> live;
  for (int round = 0; round < 300; ++round) {
    const int changes = 1 + static_cast<int>(rng() % 12);
    for (int c = 0; c < changes; ++c) {
      if (live.size() < 10 || (rng() % 2 == 0 && live.size() < 120)) {
        std::vector<R> r;
        const int k = 1 + static_cast<int>(rng() % 4);
        for (int j = 0; j < k; ++j) {
          R x = static_cast<R>(rng() % nres);
          if (std::find(r.begin(), r.end(), x) == r.end()) r.push_back(x);
        }
        const double b = rng() % 5 == 0 ? 1.0 + static_cast<double>(rng() % 20) : MaxMinSolver::kUnbounded;
        V v = s.add_variable(r, 1.0, b);
        if (uses.size() <= static_cast<size_t>(v)) uses.resize(static_cast<size_t>(v) + 1), bound.resize(uses.size());
        uses[static_cast<size_t>(v)] = r;
        bound[static_cast<size_t>(v)] = b;
        live.push_back(v);
      } else {
        const size_t i = rng() % live.size();
        s.remove_variable(live[i]);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
    solve(s);
    MaxMinSolver fresh;
    for (double c : cap) fresh.add_resource(c);
    std::vector<V> fresh_id;
    for (V v : live) fresh_id.push_back(fresh.add_variable(uses[static_cast<size_t>(v)], 1.0, bound[static_cast<size_t>(v)]));
    solve(fresh);
    for (size_t i = 0; i < live.size(); ++i)
      ASSERT_NEAR(s.rate(live[i]), fresh.rate(fresh_id[i]), 1e-9 * cap[0] + 1e-9) << "round " << round;
  }
}

// Random systems, changed one variable at a time: after every solve the rates must be max-min
// fair, which is checkable without knowing them: (1) no resource is over capacity; (2) every
// variable below its bound has a bottleneck: a full resource on which no other variable has a
// larger rate. (Unit weights.)
TEST(MaxMinSolver, RandomIncrementalChangesStayMaxMinFair) {
  std::mt19937_64 rng(42);
  MaxMinSolver s;
  const int nres = 30;
  std::vector<double> cap;
  for (int i = 0; i < nres; ++i) {
    cap.push_back(1.0 + static_cast<double>(rng() % 100));
    s.add_resource(cap.back());
  }
  std::vector<std::vector<R>> uses;  // by variable id
  std::vector<double> bound;
  std::vector<V> live;
  for (int round = 0; round < 400; ++round) {
    if (live.size() < 5 || (rng() % 3 != 0 && live.size() < 60)) {
      std::vector<R> r;
      int k = 1 + static_cast<int>(rng() % 4);
      for (int j = 0; j < k; ++j) {
        R x = static_cast<R>(rng() % nres);
        if (std::find(r.begin(), r.end(), x) == r.end()) r.push_back(x);
      }
      double b = rng() % 4 == 0 ? 1.0 + static_cast<double>(rng() % 20) : MaxMinSolver::kUnbounded;
      V v = s.add_variable(r, 1.0, b);
      if (uses.size() <= static_cast<size_t>(v)) uses.resize(static_cast<size_t>(v) + 1), bound.resize(uses.size());
      uses[static_cast<size_t>(v)] = r;
      bound[static_cast<size_t>(v)] = b;
      live.push_back(v);
    } else {
      size_t i = rng() % live.size();
      s.remove_variable(live[i]);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
    }
    solve(s);
    std::vector<double> load(nres, 0.0), top(nres, 0.0);
    for (V v : live)
      for (R r : uses[static_cast<size_t>(v)]) {
        load[static_cast<size_t>(r)] += s.rate(v);
        top[static_cast<size_t>(r)] = std::max(top[static_cast<size_t>(r)], s.rate(v));
      }
    for (int r = 0; r < nres; ++r) ASSERT_LE(load[static_cast<size_t>(r)], cap[static_cast<size_t>(r)] * (1 + 1e-9));
    for (V v : live) {
      const double x = s.rate(v);
      if (x >= bound[static_cast<size_t>(v)] * (1 - 1e-9)) continue;
      bool bottlenecked = false;
      for (R r : uses[static_cast<size_t>(v)])
        bottlenecked |= load[static_cast<size_t>(r)] >= cap[static_cast<size_t>(r)] * (1 - 1e-9) &&
                        x >= top[static_cast<size_t>(r)] * (1 - 1e-9);
      ASSERT_TRUE(bottlenecked) << "round " << round << " variable " << v << " rate " << x;
    }
  }
}
