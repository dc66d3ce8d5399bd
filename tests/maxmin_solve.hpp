// What the max-min solver's test files share: its id types and a solve that returns the variables
// whose rate changed (the solver fills a caller's vector; the tests compare the result).
#pragma once

#include <vector>

#include "model/flow/maxmin_solver.hpp"

using gf::MaxMinSolver;
using R = MaxMinSolver::ResourceId;
using V = MaxMinSolver::VarId;

inline std::vector<V> solve(MaxMinSolver& s) {
  std::vector<V> changed;
  s.solve(changed);
  return changed;
}
