// A step-by-step pattern in compact form: the transfers of its first step, the transfers of one
// later step, and how many steps there are. Step k >= 1 repeats the later step with its ids and
// dependencies moved forward by (k - 1) steps, so the pattern stands for a whole Schedule
// (expand()) without holding it: a step-by-step ring all-reduce at 4,096 ranks is 33 million
// transfers and 48 bytes each as a Schedule, two steps of 4,096 here. engine/step_runner.hpp runs
// it holding only the steps in flight.
//
// `pattern` is a Schedule of 2P transfers: [0, P) the first step, with no dependencies, and
// [P, 2P) the generic step, each depending on at least one transfer of [0, P) (a transfer of a
// later step with no dependency would be a root in every step; no pattern needs one). Expanded,
// transfer j of step k has id k P + j; for k >= 1 it is transfer P + j of the pattern, its
// dependencies d moved to (k - 1) P + d and its `step` label the pattern's plus k - 1.
#pragma once

#include <cstddef>

#include "collective/schedule.hpp"

namespace gf {

class StepSchedule {
 public:
  // Throws std::invalid_argument when `pattern` is not of that form, steps < 1, or the expanded
  // ids or step labels would not fit their types.
  StepSchedule(Schedule pattern, int steps);

  const Schedule& pattern() const { return pattern_; }
  int steps() const { return steps_; }
  size_t per_step() const { return pattern_.size() / 2; }
  size_t size() const { return per_step() * static_cast<size_t>(steps_); }

  // The whole Schedule it stands for (for tests and for callers that need every transfer).
  Schedule expand() const;

 private:
  Schedule pattern_;
  int steps_;
};

}  // namespace gf
