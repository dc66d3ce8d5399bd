#include "workload/scenario.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <stdexcept>

#include "collective/algorithm.hpp"
#include "collective/communicator.hpp"
#include "config/presets.hpp"
#include "core/hash.hpp"
#include "engine/run_tick.hpp"
#include "engine/transfer_routes.hpp"
#include "model/flow/flow_model.hpp"
#include "model/link_events.hpp"
#include "model/model_factory.hpp"
#include "nccl/nccl_env.hpp"
#include "nccl/sharp_allocation.hpp"
#include "routing/net_pairs.hpp"
#include "routing/routing_policy.hpp"
#include "topology/bundle.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/ib_hca.hpp"
#include "topology/net_ib_check.hpp"
#include "workload/scenario_compute.hpp"

namespace gf {

namespace {

const std::vector<std::string> kProtocols = {"auto", "ll", "ll128", "simple"};
const std::vector<std::string> kRedops = {"sum", "prod", "min", "max", "avg"};

// "0-15" / "0-3,8-11": consecutive runs of a list, as written in a scenario.
std::string ranges_text(const std::vector<int64_t>& v) {
  std::string out;
  for (size_t i = 0; i < v.size();) {
    size_t k = i;
    while (k + 1 < v.size() && v[k + 1] == v[k] + 1) ++k;
    out += (out.empty() ? "" : ",") + std::to_string(v[i]) + (k > i ? "-" + std::to_string(v[k]) : "");
    i = k + 1;
  }
  return out;
}

// A message from a library check that has no file position gets the scenario key's.
[[noreturn]] void rethrow_at(const InputError& e, const KeyPlaces& p, const std::string& key) {
  if (!e.where().file.empty()) throw e;
  p.fail(key, e.message(), e.hint());
}

ClusterSpec cluster_spec(const ScenarioSpec& spec, std::string& name) {
  ClusterSpec cs;
  try {
    cs = resolve_cluster(spec.cluster, spec.nodes);
  } catch (const InputError& e) {
    rethrow_at(e, spec.places, e.key() == "--nodes" ? "nodes" : "cluster");
  }
  ClusterCounts counts = count_cluster(cs);
  if (counts.links_directed > kMaxBuildLinks)
    spec.places.fail(spec.nodes ? "nodes" : "cluster",
                     "this cluster is too large to simulate (" + std::to_string(counts.links_directed) + " directed links)",
                     "use fewer nodes");
  name = cs.name.empty() ? spec.cluster : cs.name;
  return cs;
}

// A job whose env: sets NCCL_IB_HCA, NCCL_P2P_LEVEL / NCCL_P2P_DISABLE or NCCL_SHM_DISABLE sees the
// cluster as NCCL would with them: a copy built with the NICs NCCL_IB_HCA leaves out marked (still
// cabled, so the copy has the same nodes and links under the same ids) and the transports inside a
// server chosen anew, with a Router of its own. The job's communicator, tuner and routes use that view; its
// routes go to the run through JobCall::routes (engine/transfer_routes.hpp RouteCache), so its
// flows share the one model's links with every other job's.
struct JobView {
  std::unique_ptr<Cluster> cluster;
  std::unique_ptr<Router> router;
};

// NCCL_NET=IB in a job's env: on NICs NCCL's IB transport cannot drive is refused at the job's
// env: (topology/net_ib_check.hpp), judged on the NICs the job's own NCCL_IB_HCA leaves it.
void check_job_net(const ClusterSpec& base, const JobSpec& js) {
  if (!js.nccl.net_ib) return;
  ServerTemplate server = base.server;
  try {
    if (!js.nccl.ib_hca.empty()) apply_ib_hca(server, js.nccl.ib_hca, base.servers > 1, "");
  } catch (const InputError& e) {
    rethrow_at(e, js.places, "env");
  }
  const NetRefusal r = ib_transport_refusal(server, base.catalog);
  if (r.refused()) js.places.fail("env", r.message, r.hint);
}

JobView job_view(const ClusterSpec& base, const JobSpec& js) {
  JobView v;
  check_job_net(base, js);
  if (!changes_cluster(js.nccl)) return v;
  // Sockets run every network link at the TCP fraction (model/transfer_cost.cpp), a property of the
  // one model all jobs share, so one job cannot have it alone.
  if (js.nccl.net.socket)
    js.places.fail("env", "NCCL_NET=Socket in one job's env: is not modelled: the links' TCP rate is shared by every job",
                   "set it for a whole run with `gpufabric perf --env NCCL_NET=Socket`, or give the cluster a TCP "
                   "network technology (e.g. eth-400g-tcp)");
  ClusterSpec cs = base;
  try {
    if (!js.nccl.ib_hca.empty())
      apply_ib_hca(cs.server, js.nccl.ib_hca, cs.servers > 1, "");  // positioned at the job's env: below
  } catch (const InputError& e) {
    rethrow_at(e, js.places, "env");
  }
  apply_transport_env(cs.server.transport, js.nccl);
  v.cluster = std::make_unique<Cluster>(build_cluster(cs));
  v.router = std::make_unique<Router>(*v.cluster);
  if (const std::string why = net_pairs_without_network(cs.servers, *v.router); !why.empty())
    js.places.fail("env", why, "use `nodes: 2` or more (a fabric joins the NICs), or drop NCCL_SHM_DISABLE from this env:");
  return v;
}

// A job's servers and the GPU positions it uses on each.
struct Placement {
  std::vector<int64_t> servers;
  std::vector<int> locals;
};

Placement place(const JobSpec& j, const Cluster& c) {
  Placement p;
  const int gps = c.gpus_per_server();
  if (!j.servers.empty()) {
    for (int64_t s : j.servers)
      if (s >= c.servers())
        j.places.fail("servers", "server " + std::to_string(s) + " does not exist: the cluster has " +
                                     std::to_string(c.servers()) + " servers",
                      "use servers 0-" + std::to_string(c.servers() - 1) + " (or a larger `nodes:`)");
    const int64_t g = j.gpus_per_server.value_or(gps);
    if (g > gps)
      j.places.fail("gpus_per_server", "a server has " + std::to_string(gps) + " GPUs, asked for " + std::to_string(g),
                    "use 1.." + std::to_string(gps));
    p.servers = j.servers;
    p.locals.resize(static_cast<size_t>(g));
    std::iota(p.locals.begin(), p.locals.end(), 0);
  } else {
    std::map<int64_t, std::vector<int>> by_server;  // positions per server
    for (int64_t g : j.gpus) {
      if (g >= c.gpu_count())
        j.places.fail("gpus", "GPU " + std::to_string(g) + " does not exist: the cluster has " +
                                  std::to_string(c.gpu_count()) + " GPUs",
                      "use GPUs 0-" + std::to_string(c.gpu_count() - 1));
      if (!by_server.count(g / gps)) p.servers.push_back(g / gps);
      by_server[g / gps].push_back(static_cast<int>(g % gps));
    }
    for (auto& [s, locals] : by_server) std::sort(locals.begin(), locals.end());
    p.locals = by_server.begin()->second;
    for (const auto& [s, locals] : by_server)
      if (locals != p.locals)
        j.places.fail("gpus", "server " + std::to_string(s) + " contributes " + std::to_string(locals.size()) +
                                  " GPUs at other positions than server " + std::to_string(by_server.begin()->first),
                      "use the same GPU positions on every server, as NCCL's algorithms assume the same ranks per node");
  }
  for (size_t i = 0; i < p.servers.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (p.servers[i] == p.servers[k])
        j.places.fail(j.servers.empty() ? "gpus" : "servers", "server " + std::to_string(p.servers[i]) + " is listed twice", "name each server once");
  for (size_t i = 1; i < p.locals.size(); ++i)
    if (p.locals[i] == p.locals[i - 1]) j.places.fail("gpus", "GPU position " + std::to_string(p.locals[i]) + " is listed twice", "name each GPU position once");
  return p;
}

std::string placement_text(const Placement& p, int gps) {
  std::string s = "server" + std::string(p.servers.size() > 1 ? "s " : " ") + ranges_text(p.servers) + " x " +
                  std::to_string(p.locals.size()) + " GPU" + (p.locals.size() > 1 ? "s" : "");
  if (static_cast<int>(p.locals.size()) < gps) {
    std::vector<int64_t> l(p.locals.begin(), p.locals.end());
    s += " (positions " + ranges_text(l) + ")";
  }
  return s;
}

// nccl-tests' element count: AllGather, ReduceScatter and AllToAll split the buffer into one piece
// per rank, so the size is rounded down to a multiple of type x nranks (as `gpufabric perf`).
Bytes rounded_size(CollectiveKind k, Bytes size, int type, int nranks) {
  const bool per_rank = k == CollectiveKind::AllGather || k == CollectiveKind::ReduceScatter || k == CollectiveKind::AllToAll;
  const int64_t unit = per_rank ? static_cast<int64_t>(type) * nranks : type;
  return Bytes(size.count() / unit * unit);
}

CollectiveCall make_call(const CallSpec& cs, const Communicator& comm) {
  const KeyPlaces& p = cs.places;
  CollectiveCall call;
  auto kind = parse_collective(cs.collective);
  if (!kind) p.fail("collective", "unknown collective '" + cs.collective + "'", suggest(cs.collective, collective_names()));
  call.kind = *kind;
  auto type = parse_datatype(cs.dtype);
  if (!type) p.fail("dtype", "unknown datatype '" + cs.dtype + "'", suggest(cs.dtype, datatype_names()));
  call.type = *type;
  auto op = parse_redop(cs.op);
  if (!op) p.fail("op", "unknown reduction '" + cs.op + "'", suggest(cs.op, kRedops));
  call.redop = *op;
  if (is_rooted(call.kind) && cs.root >= comm.nranks)
    p.fail("root", "root " + std::to_string(cs.root) + " is not a rank of this job (it has " + std::to_string(comm.nranks) + ")",
           "use 0.." + std::to_string(comm.nranks - 1));
  call.root = static_cast<int>(cs.root);
  // A size that is not whole elements is an error, as `perf -b 6` is (nccl-tests counts elements);
  // the per-rank split below still rounds down, as nccl-tests does.
  if (cs.size.count() % call.type.size != 0)
    p.fail("size", std::to_string(cs.size.count()) + " B is not a multiple of the " + call.type.name + " element size (" +
                       std::to_string(call.type.size) + " B)",
           "use a multiple of " + std::to_string(call.type.size) + " B, e.g. size: " +
               std::to_string(cs.size.count() / call.type.size * call.type.size + call.type.size));
  call.bytes = rounded_size(call.kind, cs.size, call.type.size, comm.nranks);
  if (call.bytes.count() == 0)
    p.fail("size", std::to_string(cs.size.count()) + " B holds no " + call.type.name + " element per rank (" +
                       std::to_string(comm.nranks) + " ranks)",
           "use at least " + std::to_string(static_cast<int64_t>(call.type.size) * comm.nranks) + " B");
  std::vector<std::string> algos = algorithm_names();
  algos.insert(algos.begin(), "auto");
  if (std::find(algos.begin(), algos.end(), cs.algo) == algos.end())
    p.fail("algo", "unknown algorithm '" + cs.algo + "'", suggest(cs.algo, algos));
  if (std::find(kProtocols.begin(), kProtocols.end(), cs.proto) == kProtocols.end())
    p.fail("proto", "unknown protocol '" + cs.proto + "'", suggest(cs.proto, kProtocols));
  return call;
}

std::string call_label(const CollectiveCall& c) {
  return std::string(to_string(c.kind)) + " " + std::to_string(c.bytes.count()) + " B";
}

// Everything a job needs to stay alive while it runs.
struct PreparedJob {
  JobView view;  // the job's own cluster and router where its env: picks NICs; else empty
  std::vector<std::unique_ptr<RouteCache>> routes;  // with a view: each call's routes on it
  std::unique_ptr<Communicator> comm;
  std::vector<std::unique_ptr<Schedule>> schedules;
  ScenarioJobResult result;
};

void check_overlap(const ScenarioSpec& spec, const std::vector<PreparedJob>& jobs, const Cluster& c) {
  if (spec.share_gpus) return;
  std::map<NodeId, size_t> owner;
  for (size_t j = 0; j < jobs.size(); ++j)
    for (NodeId g : jobs[j].comm->gpu) {
      auto [it, fresh] = owner.emplace(g, j);
      if (!fresh) {
        const JobSpec& js = spec.jobs[j];
        js.places.fail(js.servers.empty() ? "gpus" : "servers",
                       "GPU " + std::to_string(c.gpu_index(g)) + " (" + c.node_name(g) + ") is also used by job '" +
                           spec.jobs[it->second].name + "' (jobs[" + std::to_string(it->second) + "])",
                       "place the jobs on different GPUs, or set `share_gpus: true` at the top level to let them share");
      }
    }
}

std::vector<LinkUse> top_links(const Cluster& c, const Model& model, Time makespan, int k, size_t& used) {
  const std::vector<double>& carried = model.carried_bytes();
  // Utilisation = wire bytes / (catalog bandwidth x makespan): the share of the run the link was
  // busy, were it always busy at its full catalog rate.
  auto bytes_of = [&](LinkId l) { return static_cast<size_t>(l) < carried.size() ? carried[static_cast<size_t>(l)] : 0.0; };
  auto util_of = [&](LinkId l) {
    const double capacity_bytes = c.link(l).bandwidth.bytes_per_second() * makespan.to_s();
    return capacity_bytes > 0 ? bytes_of(l) / capacity_bytes : 0.0;
  };
  // Parallel cables between two switches (topology/bundle.hpp) are one row, "8 x ib-ndr" at one
  // cable's bandwidth, while the hash loaded them alike (to the table's 0.1%); where it did not,
  // each cable is its own row, "ib-ndr #2 of 8", so a hot cable among idle ones shows.
  struct Row {
    std::vector<LinkId> links;  // one cable, or the whole bundle
    int cable = 0, cables = 1;  // cable > 0: one cable of `cables`
    double util = 0, bytes = 0;
  };
  std::vector<Row> rows;
  for (size_t l = 0; l < carried.size(); ++l) {
    if (carried[l] <= 0) continue;
    const std::vector<LinkId> b = bundle_links(c, static_cast<LinkId>(l));
    if (std::any_of(b.begin(), b.end(), [&](LinkId x) { return static_cast<size_t>(x) < l && bytes_of(x) > 0; }))
      continue;  // the bundle was seen at its first cable that carried anything
    const int n = static_cast<int>(b.size());
    bool even = true;
    for (LinkId x : b) even = even && std::llround(util_of(x) * 1000) == std::llround(util_of(b.front()) * 1000);
    if (even) {
      Row r{b, 0, n, 0, 0};
      double bw = 0;
      for (LinkId x : b) r.bytes += bytes_of(x), bw += c.link(x).bandwidth.bytes_per_second();
      r.util = bw > 0 && makespan > Time::zero() ? r.bytes / (bw * makespan.to_s()) : 0;
      rows.push_back(std::move(r));
    } else {
      for (int i = 0; i < n; ++i)
        if (bytes_of(b[static_cast<size_t>(i)]) > 0)
          rows.push_back({{b[static_cast<size_t>(i)]}, i + 1, n, util_of(b[static_cast<size_t>(i)]), bytes_of(b[static_cast<size_t>(i)])});
    }
  }
  used = rows.size();
  // Highest utilisation first; then most bytes; then link id, so the list is the same on every run.
  auto order = [](const Row& a, const Row& b) {
    if (a.util != b.util) return a.util > b.util;
    if (a.bytes != b.bytes) return a.bytes > b.bytes;
    return a.links.front() < b.links.front();
  };
  const size_t n = std::min(rows.size(), static_cast<size_t>(std::max(k, 0)));
  std::partial_sort(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(n), rows.end(), order);
  std::vector<LinkUse> out;
  for (size_t i = 0; i < n; ++i) {
    const Row& r = rows[i];
    const Link& l = c.link(r.links.front());
    const std::string tech = c.catalog().tech(l.tech).name;
    LinkUse u;
    u.link = r.links.front();
    u.from = c.node_name(l.src);
    u.to = c.node_name(l.dst);
    u.tech = r.cable > 0       ? fmt::format("{} #{} of {}", tech, r.cable, r.cables)
             : r.cables > 1 ? fmt::format("{} x {}", r.cables, tech)
                            : tech;
    u.cable = r.cables > 1 ? r.cable : 1;  // Row::cable is 0 for a whole bundle
    u.cables = r.cables;
    u.lanes = l.lanes;
    u.bandwidth = l.bandwidth;
    u.bytes = r.bytes;
    u.utilisation = r.util;
    out.push_back(std::move(u));
  }
  return out;
}

void summarise(ScenarioCallResult& r, int nranks) {
  r.min = Time::infinity();
  r.max = Time::zero();
  double sum = 0;
  for (const CallSpan& s : r.spans) {
    r.min = std::min(r.min, s.duration());
    r.max = std::max(r.max, s.duration());
    sum += s.duration().to_s();
  }
  const double mean_s = sum / static_cast<double>(r.spans.size());
  r.mean = Time::ps(static_cast<int64_t>(mean_s * 1e12 + 0.5));
  r.algbw_gBps = mean_s > 0 ? static_cast<double>(r.call.bytes.count()) / mean_s / 1e9 : 0;
  r.busbw_gBps = r.algbw_gBps * busbw_factor(r.call.kind, nranks);
}

// SHARP trees for the jobs that enable CollNet, in start order (then file order), as the
// aggregation manager grants them when each communicator is created; a job refused runs without
// CollNet, as NCCL does when its CollNet setup fails (nccl/sharp_allocation.hpp).
void share_sharp(const ScenarioSpec& spec, const Cluster& cluster, const Router& router,
                 std::vector<PreparedJob>& prepared, std::vector<std::string>& notes) {
  std::vector<size_t> order;
  for (size_t j = 0; j < spec.jobs.size(); ++j)
    if (spec.jobs[j].nccl.collnet && prepared[j].comm->collnet) order.push_back(j);
  if (order.size() < 2) return;  // one tree always fits
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return spec.jobs[a].start < spec.jobs[b].start; });
  std::vector<SharpRequest> requests;
  for (size_t j : order) requests.push_back({spec.jobs[j].name, prepared[j].comm.get()});
  const std::vector<SharpGrant> grants = allocate_sharp(cluster, router, requests);
  for (size_t k = 0; k < order.size(); ++k) {
    if (grants[k].granted) continue;
    prepared[order[k]].comm->collnet = false;
    notes.push_back("job '" + spec.jobs[order[k]].name + "' gets no SHARP tree: " + grants[k].why +
                    "; it runs without CollNet, as NCCL does when CollNet setup fails");
  }
}

// Each job run again by itself on a fresh model of the same cluster: the baseline a user compares
// the shared run against (otherwise they delete the other jobs into a second file to get it).
template <class MakeModel, class Tick>
void alone_times(const std::vector<Job>& jobs, const Router& router, ScenarioResult& out, MakeModel make, Tick tick) {
  for (size_t j = 0; j < jobs.size(); ++j) {
    std::unique_ptr<Model> model = make();
    const RunTick t = tick("job " + jobs[j].name + " alone");
    const JobsRun solo = run_jobs(std::span<const Job>(&jobs[j], 1), router, *model, t);
    std::vector<ScenarioCallResult>& calls = out.jobs[j].calls;
    for (size_t c = 0; c < calls.size(); ++c) {
      double sum = 0;
      for (const CallSpan& s : solo.jobs[0].calls[c]) sum += s.duration().to_s();
      const double mean_s = sum / static_cast<double>(solo.jobs[0].calls[c].size());
      calls[c].alone_mean = Time::ps(static_cast<int64_t>(mean_s * 1e12 + 0.5));
      calls[c].slowdown = mean_s > 0 ? calls[c].mean.to_s() / mean_s : 0;
    }
  }
}

}  // namespace

Communicator job_communicator(const JobSpec& j, const Cluster& cluster, const Router& router) {
  const Placement p = place(j, cluster);
  return make_communicator(cluster, router, p.servers, p.locals);
}

ScenarioResult run_scenario(const ScenarioSpec& spec, const ScenarioOptions& options) {
  ScenarioResult out;
  out.name = spec.name;
  out.description = spec.description;
  out.file = spec.file;
  out.seed = spec.seed;
  out.model = options.model.value_or(spec.model);
  out.routing = options.routing.value_or(spec.routing);
  if (options.model) require_model(out.model, {}, "--model");
  else require_model(out.model, spec.places.at("model"), spec.places.key("model"));
  const auto& policies = routing_policy_names();
  if (std::find(policies.begin(), policies.end(), out.routing) == policies.end()) {
    if (options.routing)
      throw InputError({}, "--routing", "unknown routing policy '" + out.routing + "'", suggest(out.routing, policies));
    spec.places.fail("routing", "unknown routing policy '" + out.routing + "'", suggest(out.routing, policies));
  }
  const RoutingPolicy policy = *parse_routing_policy(out.routing);

  const ClusterSpec base = cluster_spec(spec, out.cluster);
  Cluster cluster = build_cluster(base);
  Router router(cluster);
  out.gpus = cluster.gpu_count();
  out.servers = cluster.servers();

  std::vector<PreparedJob> prepared(spec.jobs.size());
  for (size_t j = 0; j < spec.jobs.size(); ++j) {
    const JobSpec& js = spec.jobs[j];
    Placement p = place(js, cluster);
    PreparedJob& pj = prepared[j];
    pj.view = job_view(base, js);
    try {
      pj.comm = std::make_unique<Communicator>(make_communicator(pj.view.cluster ? *pj.view.cluster : cluster,
                                                                 pj.view.router ? *pj.view.router : router, p.servers,
                                                                 p.locals));
    } catch (const InputError& e) {
      rethrow_at(e, js.places, js.servers.empty() ? "gpus" : "servers");
    }
    pj.result.name = js.name;
    pj.result.placement = placement_text(p, cluster.gpus_per_server());
    pj.result.nranks = pj.comm->nranks;
    pj.result.nnodes = pj.comm->nnodes;
    pj.result.ppn = pj.comm->ppn;
    pj.result.repeat = static_cast<int>(js.repeat);
  }
  check_overlap(spec, prepared, cluster);
  share_sharp(spec, cluster, router, prepared, out.notes);

  std::vector<Job> jobs(spec.jobs.size());
  for (size_t j = 0; j < spec.jobs.size(); ++j) {
    const JobSpec& js = spec.jobs[j];
    PreparedJob& pj = prepared[j];
    jobs[j].name = js.name;
    jobs[j].start = js.start;
    jobs[j].repeat = static_cast<int>(js.repeat);
    // Each job hashes its flows with its own seed, as two jobs' flows differ in their addresses.
    jobs[j].seed = mix_hash(spec.seed, j);
    jobs[j].routing = policy;
    const Router& job_router = pj.view.router ? *pj.view.router : router;
    for (size_t ci = 0; ci < js.calls.size(); ++ci) {
      const CallSpec& cs = js.calls[ci];
      ScenarioCallResult r;
      r.call = make_call(cs, *pj.comm);
      try {
        r.choice = choose(*pj.comm, job_router, r.call, with_forced(js.nccl, cs.algo, cs.proto));
      } catch (const InputError& e) {
        if (e.key().rfind("NCCL_", 0) == 0) rethrow_at(e, js.places, "env");  // from the job's env: map
        rethrow_at(e, cs.places, e.key() == "--proto" ? "proto" : "algo");
      } catch (const std::runtime_error& e) {
        // The tuner's trial runs meet a transfer with no route before the jobs run: named as the
        // run itself would name it (job, call, transfer).
        cs.places.fail("collective",
                       "job '" + js.name + "', call " + std::to_string(ci) + " (" + call_label(r.call) + "): " + e.what(),
                       "check that the cluster joins every job's GPUs: gpufabric topo CLUSTER --path gpuA gpuB");
      }
      const Algorithm* a = find_algorithm(r.choice.algorithm);
      pj.schedules.push_back(std::make_unique<Schedule>(a->build(*pj.comm, r.call, {r.choice.proto, r.choice.channels})));
      pj.schedules.back()->set_traffic_class(static_cast<uint8_t>(js.traffic_class));  // checked below 8 when parsed
      jobs[j].calls.push_back({pj.schedules.back().get(), pj.comm.get(), cs.gap, call_label(r.call)});
      if (pj.view.router || options.keep_routes) {
        pj.routes.push_back(std::make_unique<RouteCache>(*pj.schedules.back(), *pj.comm, job_router, jobs[j].seed, policy));
        jobs[j].calls.back().routes = pj.routes.back().get();
      }
      pj.result.calls.push_back(std::move(r));
    }
  }

  // `routing: adaptive` is the packet model's per-packet adaptive load balance unless the packet
  // block chose one; ecmp and spray keep the routes the engine pins (LoadBalance::Auto).
  PacketParams packet = spec.packet;
  if (policy == RoutingPolicy::Adaptive && packet.load_balance == LoadBalance::Auto)
    packet.load_balance = LoadBalance::Adaptive;
  std::unique_ptr<Model> model = make_model(out.model, cluster, {}, packet);
  // The progress line's view of one of the runs below (an empty RunTick when none is asked for).
  auto tick = [&](const std::string& phase) {
    RunTick t;
    if (options.tick)
      t.fn = [&options, phase](Time now, size_t events, double done) { options.tick(phase, now, events, done); };
    return t;
  };
  auto run_on = [&](Model& m, const std::vector<Job>& run_jobs_list, const std::string& phase) -> JobsRun {
    try {
      const RunTick t = tick(phase);
      return run_jobs(run_jobs_list, router, m, t);
    } catch (const InputError& e) {
      // The model's own verdict on this input (a packet-model deadlock names its ports and the
      // fix): reported at the jobs, with the model's key, message and hint.
      spec.places.fail("jobs", "'" + e.key() + "': " + e.message(), e.hint());
    } catch (const std::runtime_error& e) {
      // No route between two of a job's GPUs, or a transfer the model can never finish: the
      // cluster cannot run this scenario; say which transfer and why rather than hang.
      spec.places.fail("jobs", e.what(), "check that the cluster joins every job's GPUs: gpufabric topo CLUSTER --path gpuA gpuB");
    }
  };
  // With events: the run without them first (the comparison, and the end no event may pass),
  // then the run with the links changing under it (workload/scenario_events.hpp).
  std::optional<JobsRun> baseline;
  std::optional<EventPlan> plan;
  std::unique_ptr<RouterAround> around;  // the fabric's routes after a reroute; outlives `timed`'s run
  std::unique_ptr<LinkEventModel> timed;
  // The jobs as the events run them: with `compute:` events, slow GPUs' ranks start late
  // (workload/scenario_compute.hpp).
  std::vector<Job> slowed;
  if (!spec.events.empty()) {
    if (out.model != "flow")
      spec.places.fail("events", "events change links during a run, which only the flow model does (model is '" + out.model + "')",
                       "use `model: flow` (the default), or drop --model");
    check_compute_events(spec.events, cluster);
    std::unique_ptr<Model> plain = make_model(out.model, cluster, {}, packet);
    baseline = run_on(*plain, jobs, "the jobs without the events");
    FailureResponse response;
    response.nccl = *parse_nccl_on_failure(spec.nccl_on_failure);
    response.routing = policy;
    plan = plan_events(spec.events, cluster, response, baseline->makespan);
    timed = std::make_unique<LinkEventModel>(dynamic_cast<FlowModel&>(*model), plan->changes, cluster.links().size());
    if (!plan->reroutes.empty()) {
      around = std::make_unique<RouterAround>(cluster);
      timed->set_reroutes(plan->reroutes, *around);
    }
    out.event_lines = plan->lines;
    out.baseline_makespan = baseline->makespan;
    out.nccl_on_failure = spec.nccl_on_failure;
    std::vector<const Communicator*> comms;
    for (const PreparedJob& pj : prepared) comms.push_back(pj.comm.get());
    slowed = jobs_with_slow_gpus(jobs, comms, spec.events);
  }
  JobsRun run = timed ? run_on(*timed, slowed, "the jobs") : run_on(*model, jobs, "the jobs");
  if (timed && timed->moved() > 0)
    out.event_lines.push_back(fmt::format("rerouted: {} stalled transfer{} moved onto the routes around the dead links",
                                          timed->moved(), timed->moved() == 1 ? "" : "s"));
  if (timed && timed->reroutes_given_up() > 0)
    out.event_lines.push_back(fmt::format("{} reroute{} not done (a leg with no way around): the links came back at the "
                                          "resume instead",
                                          timed->reroutes_given_up(), timed->reroutes_given_up() == 1 ? "" : "s"));
  if (run.makespan.is_infinite() || run.makespan < Time::zero())
    spec.places.fail("jobs", "the run takes longer than gpufabric's clock holds (int64 picoseconds, 106 days)",
                     "check the cluster's bandwidths and the jobs' start, gap and repeat (docs/limits.md)");
  out.makespan = run.makespan;
  out.events = run.events;
  // Before the spans move into the result: the observer sees the run as the engine left it.
  if (options.on_run) options.on_run(ScenarioView{cluster, router, *model, jobs, run, policy});
  for (size_t j = 0; j < prepared.size(); ++j) {
    ScenarioJobResult& jr = prepared[j].result;
    jr.start = spec.jobs[j].start;
    jr.end = run.jobs[j].end;
    for (size_t c = 0; c < jr.calls.size(); ++c) {
      jr.calls[c].spans = std::move(run.jobs[j].calls[c]);
      summarise(jr.calls[c], jr.nranks);
    }
    out.jobs.push_back(std::move(jr));
  }
  if (plan) {
    // Job j's transfers hold the global ids [offset_j, offset_j + its largest schedule), offsets
    // in job order (engine/job_runner.hpp).
    std::vector<int32_t> offsets;
    std::vector<Time> ends, base_ends;
    int32_t offset = 0;
    for (size_t j = 0; j < jobs.size(); ++j) {
      offsets.push_back(offset);
      size_t largest = 0;
      for (const JobCall& jc : jobs[j].calls) largest = std::max(largest, jc.schedule->size());
      offset += static_cast<int32_t>(largest);
      ends.push_back(run.jobs[j].end);
      base_ends.push_back(baseline->jobs[j].end);
    }
    const bool degrades = std::any_of(spec.events.begin(), spec.events.end(), [](const EventSpec& e) {
      return e.kind == EventSpec::Kind::Degrade || e.component.find('#') != std::string::npos;  // compute: too
    });
    std::vector<JobEventOutcome> outcomes = job_outcomes(cluster, *plan, timed->stalls(), offsets, ends, base_ends, degrades);
    for (size_t j = 0; j < out.jobs.size(); ++j) out.jobs[j].outcome = std::move(outcomes[j]);
  }
  if (jobs.size() > 1)
    alone_times(jobs, router, out, [&] { return make_model(out.model, cluster, {}, spec.packet); }, tick);
  out.top_links = top_links(cluster, *model, out.makespan, options.top_links, out.links_used);
  out.model_statistics = model->statistics();
  for (PortQueueReport& q : model->queue_report(static_cast<size_t>(std::max(0, options.top_links)))) {
    const Link& l = cluster.link(q.link);
    out.queues.push_back({cluster.node_name(l.src), cluster.node_name(l.dst), std::move(q)});
  }
  return out;
}

}  // namespace gf
