// The max-min solver keeps a variable's first MaxMinSolver::kInlineRes (2) resources and their
// positions in the variable itself and longer lists in a block of their own. Checked here: a list
// that outgrows the variable (add_resource_to) and removals that move a user of either kind keep
// every resource's user list and every rate right. Rates derived by progressive filling in the
// comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "maxmin_solve.hpp"

namespace {

std::vector<R> sorted(std::span<const R> r) {
  std::vector<R> out(r.begin(), r.end());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST(MaxMinSolverInline, AListThatOutgrowsTheVariableKeepsItsResources) {
  MaxMinSolver s;
  const R a = s.add_resource(10), b = s.add_resource(10), c = s.add_resource(4);
  const V f = s.add_variable(std::vector<R>{a, b});  // two resources: held in the variable
  const V g = s.add_variable(std::vector<R>{c});
  const V h = s.add_variable(std::vector<R>{a});
  solve(s);
  // f alone on B, with h on A: A's level is 10 / 2 = 5, so f = h = 5; g alone on C: 4.
  EXPECT_DOUBLE_EQ(s.rate(f), 5);
  EXPECT_DOUBLE_EQ(s.rate(h), 5);
  EXPECT_DOUBLE_EQ(s.rate(g), 4);
  s.add_resource_to(f, c);  // a third resource: the list moves out of the variable
  EXPECT_EQ(sorted(s.resources_of(f)), (std::vector<R>{a, b, c}));
  solve(s);
  // C (4) is shared by f and g: level 2, the lowest (A: 10 / 2 = 5, B: 10), so f = g = 2; then A
  // has 10 - 2 = 8 left for h alone.
  EXPECT_DOUBLE_EQ(s.rate(f), 2);
  EXPECT_DOUBLE_EQ(s.rate(g), 2);
  EXPECT_DOUBLE_EQ(s.rate(h), 8);
  // Removing f moves h to the front of A's users and g to the front of C's: their positions,
  // held in the variables, must follow, or removing them next would take the wrong user out.
  s.remove_variable(f);
  solve(s);
  EXPECT_DOUBLE_EQ(s.rate(g), 4);
  EXPECT_DOUBLE_EQ(s.rate(h), 10);
  s.remove_variable(h);
  s.remove_variable(g);
  EXPECT_EQ(s.users(a), 0);
  EXPECT_EQ(s.users(b), 0);
  EXPECT_EQ(s.users(c), 0);
}

TEST(MaxMinSolverInline, RemovingAShortListMovesALongOne) {
  MaxMinSolver s;
  const R a = s.add_resource(12), b = s.add_resource(12), c = s.add_resource(12), d = s.add_resource(3);
  const V q = s.add_variable(std::vector<R>{a});              // held in the variable
  const V p = s.add_variable(std::vector<R>{a, b, c, d});     // four: in a block of its own
  const V r = s.add_variable(std::vector<R>{b, c});           // two: held in the variable
  solve(s);
  // D (3) has p alone: level 3, the lowest (A: 12 / 2 = 6, B and C: 12 / 2 = 6), so p = 3; then
  // A has 9 left for q, B and C 9 each for r: q = r = 9.
  EXPECT_DOUBLE_EQ(s.rate(p), 3);
  EXPECT_DOUBLE_EQ(s.rate(q), 9);
  EXPECT_DOUBLE_EQ(s.rate(r), 9);
  // q was A's first user: removing it moves p (the long list) to A's front.
  s.remove_variable(q);
  solve(s);
  EXPECT_DOUBLE_EQ(s.rate(p), 3);
  EXPECT_DOUBLE_EQ(s.rate(r), 9);
  // p must now come off A at its new position and off B and C ahead of r.
  s.remove_variable(p);
  solve(s);
  EXPECT_EQ(s.users(a), 0);
  EXPECT_EQ(s.users(d), 0);
  EXPECT_EQ(s.users(b), 1);
  EXPECT_EQ(s.users(c), 1);
  EXPECT_DOUBLE_EQ(s.rate(r), 12);  // alone on B and C
  // A fresh variable with two resources, in the first freed slot (q's), reads them from itself.
  const V t = s.add_variable(std::vector<R>{a, d});
  EXPECT_EQ(t, q);  // first freed, first reused
  solve(s);
  EXPECT_DOUBLE_EQ(s.rate(t), 3);  // D
  EXPECT_EQ(sorted(s.resources_of(t)), (std::vector<R>{a, d}));
}
