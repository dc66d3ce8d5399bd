// Runs a StepSchedule (collective/step_schedule.hpp) on a Model the way run_schedule runs its
// expand(): the same transfer ids, started at the same instants in the same order, so the model
// sees the same calls and every time comes out the same to the picosecond. What differs is
// memory: only the steps in flight are held (a dependency count per transfer of each step between
// the oldest unfinished one and the newest one a completion has reached), not the whole schedule,
// so a step-by-step ring at N ranks needs O(N) state instead of O(N^2).
//
// The pattern's 2P transfers are routed once (RouteCache); a transfer of step k >= 1 is handed to
// the model as the pattern's generic transfer j. Adaptive routing (a route per start, chosen by
// the load) is not offered here: run the expanded schedule with run_schedule for that.
#pragma once

#include <cstddef>
#include <cstdint>

#include "collective/communicator.hpp"
#include "collective/step_schedule.hpp"
#include "model/model.hpp"
#include "routing/router.hpp"
#include "routing/routing_policy.hpp"

namespace gf {

struct StepRun {
  Time duration;         // base latency + last completion, as ScheduleRun::duration
  size_t events = 0;     // model advances processed, as ScheduleRun::events
  size_t peak_steps = 0;  // most steps held at once (the live window)
};

// Throws std::invalid_argument for adaptive routing; std::runtime_error naming the transfer when
// a route does not exist or when the model stops before every transfer has finished.
StepRun run_steps(const StepSchedule& s, const Communicator& comm, const Router& router, Model& model,
                  uint64_t seed = 0, RoutingPolicy policy = RoutingPolicy::Ecmp);

}  // namespace gf
