#include "engine/executor.hpp"

#include <memory>

#include "engine/job_runner.hpp"
#include "engine/run_tick.hpp"
#include "engine/transfer_routes.hpp"

namespace gf {

ModelTransfer to_model_transfer(const Schedule& s, TransferId id, const Communicator& comm, const Router& router,
                                uint64_t seed) {
  ModelTransfer m = transfer_fields(s, id, comm);
  m.route = std::make_shared<const Route>(transfer_legs(s, id, comm, router, seed));
  return m;
}

namespace {

ScheduleRun run_one(const Schedule& s, const Communicator& comm, const Router& router, Model& model, uint64_t seed,
                    RoutingPolicy policy, RouteCache* routes, std::span<const Time> rank_delay, const RunTick* tick) {
  Job job;
  job.routing = policy;
  // Left nameless: an error names the transfer, and the caller (the sweep, the tuner inside a
  // scenario) adds the job and call it knows.
  job.calls.push_back({&s, &comm, Time::zero(), "", routes, rank_delay});
  job.seed = seed;
  const std::span<const Job> jobs(&job, 1);
  JobsRun r = tick != nullptr ? run_jobs(jobs, router, model, *tick) : run_jobs(jobs, router, model);
  ScheduleRun run;
  run.duration = r.jobs[0].calls[0][0].duration();
  run.finish = std::move(r.jobs[0].finish[0]);
  run.events = r.events;
  return run;
}

}  // namespace

ScheduleRun run_schedule(const Schedule& s, const Communicator& comm, const Router& router, Model& model, uint64_t seed,
                         RoutingPolicy policy, RouteCache* routes, std::span<const Time> rank_delay) {
  return run_one(s, comm, router, model, seed, policy, routes, rank_delay, nullptr);
}

ScheduleRun run_schedule(const Schedule& s, const Communicator& comm, const Router& router, Model& model, uint64_t seed,
                         RoutingPolicy policy, RouteCache* routes, const RunTick& tick) {
  return run_one(s, comm, router, model, seed, policy, routes, {}, &tick);
}

}  // namespace gf
