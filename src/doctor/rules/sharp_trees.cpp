// sharp-trees: jobs of a scenario that enable CollNet but cannot all get a SHARP aggregation tree
// (nccl/sharp_allocation.hpp: Quantum holds one tree per switch, Quantum-2 one per port). The
// refused job runs without CollNet; the prediction is its all-reduce alone on as many servers,
// without and with CollNet, so the cost is what the missing tree takes from it.
#include <algorithm>

#include "doctor/rules/fabric_rules.hpp"
#include "nccl/sharp_allocation.hpp"
#include "workload/scenario.hpp"

namespace gf {

namespace {

std::vector<Finding> check(const DoctorContext& ctx) {
  if (!ctx.scenario) return {};
  const ScenarioSpec& s = *ctx.scenario;
  std::vector<size_t> order;
  std::vector<Communicator> comms(s.jobs.size());
  for (size_t j = 0; j < s.jobs.size(); ++j) {
    if (!s.jobs[j].nccl.collnet) continue;
    comms[j] = job_communicator(s.jobs[j], ctx.cluster, ctx.router);
    if (comms[j].collnet) order.push_back(j);
  }
  if (order.size() < 2) return {};
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s.jobs[a].start < s.jobs[b].start; });
  std::vector<SharpRequest> requests;
  for (size_t j : order) requests.push_back({s.jobs[j].name, &comms[j]});
  const std::vector<SharpGrant> grants = allocate_sharp(ctx.cluster, ctx.router, requests);
  std::vector<Finding> out;
  std::string granted;
  for (size_t k = 0; k < order.size(); ++k)
    if (grants[k].granted) granted += (granted.empty() ? "" : ", ") + ("'" + s.jobs[order[k]].name + "'");
  for (size_t k = 0; k < order.size(); ++k) {
    if (grants[k].granted) continue;
    const JobSpec& job = s.jobs[order[k]];
    const Communicator& comm = comms[order[k]];
    Finding f;
    f.severity = Severity::Warning;
    f.summary = "job '" + job.name + "' asks for SHARP (NCCL_COLLNET_ENABLE=1) but gets no aggregation tree: it runs " +
                "without CollNet";
    f.evidence.push_back(grants[k].why);
    f.evidence.push_back("trees granted, in start order: " + (granted.empty() ? std::string("none") : granted));
    f.evidence.push_back("job '" + job.name + "': " + std::to_string(comm.nranks) + " ranks on " +
                         std::to_string(comm.nnodes) + " servers");
    f.fix = "place job '" + job.name +
            "' on servers whose NICs meet leaves no other CollNet job uses, run the jobs one " +
            "after another, or use switches with more SHARP resources (Quantum-2: one tree per port)";
    Comparison c;
    c.before = ctx.spec;
    c.before.servers = comm.nnodes;
    c.after = c.before;
    c.after_collnet = true;
    c.after_what =
        "job '" + job.name + "' with a SHARP tree (CollNet on), alone on " + std::to_string(comm.nnodes) + " servers";
    f.compare = std::move(c);
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace

DoctorRule sharp_trees_rule() {
  return {"sharp-trees",
          "scenario jobs that enable CollNet beyond the SHARP aggregation trees the switches hold (Quantum: one per "
          "switch; Quantum-2: one per port): the refused job runs without CollNet",
          "../shared/seeds/004 (SHARP does part of the all-reduce in the switches); NVIDIA SHARP Rev 3.13.0 release "
          "notes (Device Capabilities and Limitations); NVIDIA/nccl src/init.cc collNetTrySetup",
          &check};
}

}  // namespace gf
