#include "engine/executor.hpp"

#include <memory>

#include "engine/job_runner.hpp"
#include "engine/transfer_routes.hpp"

namespace gf {

ModelTransfer to_model_transfer(const Schedule& s, TransferId id, const Communicator& comm, const Router& router,
                                uint64_t seed) {
  ModelTransfer m = transfer_fields(s, id, comm);
  m.route = std::make_shared<const Route>(transfer_legs(s, id, comm, router, seed));
  return m;
}

ScheduleRun run_schedule(const Schedule& s, const Communicator& comm, const Router& router, Model& model, uint64_t seed,
                         RoutingPolicy policy, RouteCache* routes, std::span<const Time> rank_delay) {
  Job job;
  job.routing = policy;
  // Left nameless: an error names the transfer, and the caller (the sweep, the tuner inside a
  // scenario) adds the job and call it knows.
  job.calls.push_back({&s, &comm, Time::zero(), "", routes, rank_delay});
  job.seed = seed;
  JobsRun r = run_jobs(std::span<const Job>(&job, 1), router, model);
  ScheduleRun run;
  run.duration = r.jobs[0].calls[0][0].duration();
  run.finish = std::move(r.jobs[0].finish[0]);
  run.events = r.events;
  return run;
}

}  // namespace gf
