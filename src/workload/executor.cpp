#include "workload/executor.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "core/hash.hpp"

namespace gf {

namespace {

// A GPU reduces by reading two operands and writing one result: a third of its memory bandwidth.
Bandwidth reduce_rate(const Communicator& comm) {
  return comm.cluster->server_template().gpu.memory_bw / 3.0;
}

void append(Route& to, Route from, double scale) {
  for (auto& leg : from) {
    leg.share *= scale;
    to.push_back(std::move(leg));
  }
}

// The same legs travelled the other way: from the reduction point back down to the GPU.
Route reversed(const Cluster& c, Route r) {
  for (auto& leg : r) {
    std::reverse(leg.path.links.begin(), leg.path.links.end());
    for (LinkId& l : leg.path.links) l = c.link(l).reverse;
  }
  return r;
}

// Legs of a group endpoint: every member's links to where the group reduces (toward it when the
// group sends, back from it when the group receives). Each member moves the whole payload, so each
// member's legs share 1 among themselves.
Route group_legs(const RankGroup& g, bool receiving, const Communicator& comm, const Router& router, uint64_t key,
                 int channel) {
  Route r;
  for (Rank m : g.ranks) {
    NodeId gpu = comm.gpu[static_cast<size_t>(m)];
    Route up = g.where == ReductionPoint::NvSwitch ? router.links_to_nvswitch(gpu) : router.uplink_to_fabric(gpu, key, channel);
    append(r, receiving ? reversed(*comm.cluster, std::move(up)) : std::move(up), 1.0);
  }
  return r;
}

}  // namespace

namespace {

// Everything a model needs about transfer `id` except its route.
ModelTransfer without_legs(const Schedule& s, TransferId id, const Communicator& comm) {
  const Transfer& t = s.transfer(id);
  ModelTransfer m;
  m.bytes = t.bytes;
  m.reduce = t.reduce;
  m.reduce_rate = reduce_rate(comm);
  m.proto = s.protocol();
  m.channels = s.channels();
  m.step_latency = s.step_latency();
  m.steps = t.steps;
  if (is_group(t.src) || is_group(t.dst)) m.efficiency = s.in_network_efficiency();
  return m;
}

// The legs of transfer `id`: its route between ranks, or its group members' links for in-network
// reductions. Channel k of a GPU with several NICs takes its (k / ranks-per-server)-th NIC in turn.
Route legs_of(const Schedule& s, TransferId id, const Communicator& comm, const Router& router, uint64_t seed) {
  const Transfer& t = s.transfer(id);
  const int nic_choice = t.channel / comm.ppn;
  uint64_t key = mix_hash(mix_hash(seed, static_cast<uint64_t>(t.src) * 1000003u + static_cast<uint64_t>(t.dst)),
                          static_cast<uint64_t>(t.channel));
  Route legs;
  if (!is_group(t.src) && !is_group(t.dst)) {
    legs = router.route(comm.gpu[static_cast<size_t>(t.src)], comm.gpu[static_cast<size_t>(t.dst)], key, nic_choice);
  } else {
    const ReductionPoint where = s.groups()[static_cast<size_t>(group_index(is_group(t.src) ? t.src : t.dst))].where;
    for (int32_t end : {t.src, t.dst}) {
      const bool receiving = end == t.dst;
      RankGroup g = is_group(end) ? s.groups()[static_cast<size_t>(group_index(end))] : RankGroup{{end}, where};
      append(legs, group_legs(g, receiving, comm, router, key, nic_choice), 1.0);
    }
  }
  if (legs.empty())
    throw std::runtime_error("transfer " + std::to_string(id) + " (rank " + std::to_string(t.src) + " -> " +
                             std::to_string(t.dst) + ") has no route");
  return legs;
}

}  // namespace

ModelTransfer to_model_transfer(const Schedule& s, TransferId id, const Communicator& comm, const Router& router,
                                uint64_t seed) {
  ModelTransfer m = without_legs(s, id, comm);
  m.route = std::make_shared<const Route>(legs_of(s, id, comm, router, seed));
  return m;
}

namespace {

class Release final : public CompletionSink {
 public:
  Release(const Schedule& s, std::vector<Time>& finish) : finish_(finish), waiting_(s.size()) {
    dependents_.resize(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
      auto deps = s.deps(static_cast<TransferId>(i));
      waiting_[i] = static_cast<int>(deps.size());
      for (TransferId d : deps) dependents_[static_cast<size_t>(d)].push_back(static_cast<TransferId>(i));
    }
  }
  void completed(TransferId id, Time at) override {
    finish_[static_cast<size_t>(id)] = at;
    ++done_;
    for (TransferId d : dependents_[static_cast<size_t>(id)])
      if (--waiting_[static_cast<size_t>(d)] == 0) ready_.push_back(d);
  }
  std::vector<TransferId> take_ready() { return std::exchange(ready_, {}); }
  bool waiting_on_nothing(size_t i) const { return waiting_[i] == 0; }
  size_t done() const { return done_; }

 private:
  std::vector<Time>& finish_;
  std::vector<int> waiting_;
  std::vector<std::vector<TransferId>> dependents_;
  std::vector<TransferId> ready_;
  size_t done_ = 0;
};

}  // namespace

namespace {

// Transfers of one schedule repeat the same (source, destination, channel) many times (a ring
// visits each edge 2(n-1) times): route each once.
class RouteCache {
 public:
  RouteCache(const Schedule& s, const Communicator& comm, const Router& router, uint64_t seed)
      : s_(s), comm_(comm), router_(router), seed_(seed) {}
  ModelTransfer get(TransferId id) {
    const Transfer& t = s_.transfer(id);
    uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(t.src)) << 40) ^
                   (static_cast<uint64_t>(static_cast<uint32_t>(t.dst)) << 16) ^ static_cast<uint16_t>(t.channel);
    auto it = cache_.find(key);
    if (it == cache_.end())
      it = cache_.emplace(key, std::make_shared<const Route>(legs_of(s_, id, comm_, router_, seed_))).first;
    ModelTransfer m = without_legs(s_, id, comm_);
    m.route = it->second;
    return m;
  }

 private:
  const Schedule& s_;
  const Communicator& comm_;
  const Router& router_;
  uint64_t seed_;
  std::unordered_map<uint64_t, std::shared_ptr<const Route>> cache_;
};

}  // namespace

ScheduleRun run_schedule(const Schedule& s, const Communicator& comm, const Router& router, Model& model, uint64_t seed) {
  RouteCache routes(s, comm, router, seed);
  ScheduleRun run;
  run.finish.assign(s.size(), Time::zero());
  Release release(s, run.finish);
  Time now = Time::zero();
  for (size_t i = 0; i < s.size(); ++i)
    if (release.waiting_on_nothing(i))
      model.start(static_cast<TransferId>(i), routes.get(static_cast<TransferId>(i)), now);
  while (release.done() < s.size()) {
    Time next = model.next_event_time();
    if (next.is_infinite())
      throw std::runtime_error("the model went idle with " + std::to_string(s.size() - release.done()) +
                               " transfers unfinished (a dependency cycle?)");
    now = next;
    model.advance_to(now, release);
    ++run.events;
    std::vector<TransferId> ready = release.take_ready();
    std::sort(ready.begin(), ready.end());
    for (TransferId id : ready) model.start(id, routes.get(id), now);
  }
  Time last = Time::zero();
  for (Time t : run.finish) last = std::max(last, t);
  run.duration = s.base_latency() + last;
  return run;
}

}  // namespace gf
