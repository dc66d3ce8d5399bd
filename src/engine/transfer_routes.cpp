#include "engine/transfer_routes.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/hash.hpp"
#include "engine/queue_pairs.hpp"

namespace gf {

namespace {

// A GPU reduces by reading two operands and writing one result: a third of its memory bandwidth.
Bandwidth reduce_rate(const Communicator& comm) {
  return comm.cluster->server_template().gpu.memory_bw / 3.0;
}

void append(Route& to, Route from) {
  for (auto& leg : from) to.push_back(std::move(leg));
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
    append(r, receiving ? reversed(*comm.cluster, std::move(up)) : std::move(up));
  }
  return r;
}

}  // namespace

ModelTransfer transfer_fields(const Schedule& s, TransferId id, const Communicator& comm) {
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
  m.scale_up_efficiency = s.scale_up_efficiency();
  m.traffic_class = s.traffic_class();
  return m;
}

// The channel a transfer is routed as. NCCL runs its double binary tree on twice its channels:
// tree 1 on channel c + nChannels, a copy of channel c with the same graph, so the same NICs
// (src/graph/connect.cc: ncclTopoPreset copies the channels, connectTrees sets channel0's tree
// from tree 0 and channel1 = channel0 + nChannels's from tree 1; connectNvls puts NVLS tree c % 2
// on channel c). The tree builders label tree t's transfers c + t x channels() so that each tree
// has connections of its own: NCCL keeps a connector per channel and peer (src/transport.cc,
// ncclTransportP2pSetup: channels[c].peers[peer]->send/recv), and the route object, one per
// (source, destination, channel) here, is the connection the flow model serves in order
// (model/flow/connection_queue.hpp). Routed as channel c, a tree-1 transfer takes tree 0's path.
static int routing_channel(const Schedule& s, const Transfer& t) {
  return s.channels() > 0 && t.channel >= s.channels() ? t.channel % s.channels() : t.channel;
}

Route transfer_legs(const Schedule& s, TransferId id, const Communicator& comm, const Router& router, uint64_t seed,
                    RoutingPolicy policy, const LinkLoad* load) {
  const Transfer& t = s.transfer(id);
  const int channel = routing_channel(s, t);
  const int nic_choice = channel / comm.ppn;
  uint64_t key = mix_hash(mix_hash(seed, static_cast<uint64_t>(t.src) * 1000003u + static_cast<uint64_t>(t.dst)),
                          static_cast<uint64_t>(channel));
  Route legs;
  if (!is_group(t.src) && !is_group(t.dst)) {
    const NodeId a = comm.gpu[static_cast<size_t>(t.src)], b = comm.gpu[static_cast<size_t>(t.dst)];
    // QP q of the connection hashes as its own flow (engine/queue_pairs.hpp); QP 0 keeps the key.
    auto route_of = [&](int q) {
      const uint64_t k = q == 0 ? key : mix_hash(key, static_cast<uint64_t>(q));
      return s.pxn() ? router.pxn_route(a, b, k, nic_choice, policy, load) : router.route(a, b, k, nic_choice, policy, load);
    };
    legs = route_of(0);
    // Spraying already spreads every packet over the paths; QPs add nothing to it.
    if (policy != RoutingPolicy::Spray)
      if (const int qps = connection_queue_pairs(*comm.cluster, legs); qps > 1)
        legs = over_queue_pairs(std::move(legs), qps, route_of);
  } else {
    const ReductionPoint where = s.groups()[static_cast<size_t>(group_index(is_group(t.src) ? t.src : t.dst))].where;
    // The source side's legs run toward the reduction point, the destination side's back from it
    // (by position: a group -> same group transfer, CollNet's in-network all-reduce, has both).
    for (const bool receiving : {false, true}) {
      const int32_t end = receiving ? t.dst : t.src;
      RankGroup g = is_group(end) ? s.groups()[static_cast<size_t>(group_index(end))] : RankGroup{{end}, where};
      append(legs, group_legs(g, receiving, comm, router, key, nic_choice));
    }
  }
  if (legs.empty()) {
    auto end_name = [&](int32_t end) {
      if (is_group(end)) return "group " + std::to_string(group_index(end));
      return "rank " + std::to_string(end) + " = " + comm.cluster->node_name(comm.gpu[static_cast<size_t>(end)]);
    };
    throw std::runtime_error("transfer " + std::to_string(id) + " (" + end_name(t.src) + " -> " + end_name(t.dst) +
                             ") has no route: no path joins the two GPUs in this cluster (a missing or failed link?)");
  }
  return legs;
}

static uint64_t route_key(const Transfer& t, int channel) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(t.src)) << 40) ^
         (static_cast<uint64_t>(static_cast<uint32_t>(t.dst)) << 16) ^ static_cast<uint16_t>(channel);
}

const std::shared_ptr<const Route>& RouteCache::route(TransferId id) {
  const Transfer& t = s_->transfer(id);
  const uint64_t key = route_key(t, t.channel);
  auto it = cache_.find(key);
  if (it == cache_.end()) {
    std::shared_ptr<const Route> r;
    // A second tree's channel c + C takes channel c's path as its own connection (routing_channel
    // above): a copy of channel c's route when it is known, rather than the same search again.
    const int routed = routing_channel(*s_, t);
    if (routed != t.channel) {
      const auto base = cache_.find(route_key(t, routed));
      if (base != cache_.end()) r = std::make_shared<const Route>(*base->second);
    }
    if (!r) r = std::make_shared<const Route>(transfer_legs(*s_, id, *comm_, *router_, seed_, policy_));
    it = cache_.emplace(key, std::move(r)).first;
  }
  return it->second;
}

void RouteCache::use(const Schedule& s) {
  // Compared with copies: the schedule the routes were found for may be gone.
  if (s.groups() != groups_ || s.pxn() != pxn_ || s.channels() != channels_) {
    cache_.clear();
    groups_ = s.groups();
    pxn_ = s.pxn();
    channels_ = s.channels();
  }
  s_ = &s;
}

ModelTransfer RouteCache::get(TransferId id) {
  ModelTransfer m = transfer_fields(*s_, id, *comm_);
  m.route = route(id);
  return m;
}

}  // namespace gf
