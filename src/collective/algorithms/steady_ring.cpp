// Steady-state ring (see collective/steady_state.hpp): one transfer per (ring edge, channel) carrying what
// ring.cpp's steps put on that edge, Transfer::steps = the step count.
//
// What position i of a ring of n sends, summed over ring.cpp's steps (per channel of P bytes,
// piece(P, n, p) the p-th of n near-equal pieces):
//  - AllReduce: steps k = 0..n-2 send pieces (i-k-1) mod n, every piece but i: P - piece(i),
//    reduced on arrival; steps n-1..2n-3 every piece but (i+1) mod n: P - piece(i+1). In all
//    2(n-1)/n x P up to rounding, over 2(n-1) steps.
//  - ReduceScatter: blocks of ranks order[(i-k-1) mod n], k = 0..n-2: all but order[i]'s; reduced.
//  - AllGather: blocks of order[(i-k) mod n], k = 0..n-2: all but order[(i+1) mod n]'s.
//  - Broadcast / Reduce: every hop of the chain carries the whole channel, pipelined in K chunks
//    over n-1 hops: n-1 step latencies, plus K-1 across servers (patterns.hpp add_chunk).
//
// Latency: step by step (ring_steps, patterns.hpp) a send waits for what its sender received the
// step before and for the slot it reuses, NCCL_STEPS = 8 steps back on its own edge; it does not
// wait for its own previous send. Two regimes follow, and the steady form charges each on the
// edges where it shows:
//  - few bytes: the critical path walks S steps back around the ring, each hop at its own class's
//    step latency (ring_walk). Every NVLink/PCIe edge is charged that walk in its own class's
//    steps (steps_for); its wire time is small, so its transfer ends with the walk.
//  - many bytes: the network edge is busy throughout with up to 8 steps in flight, so its own
//    latency overlaps its wire time except once per 8 steps (the slot it waits for): a network
//    edge is charged ceil(S / 8) of its steps on top of all its bytes.
// A ring whose every edge crosses servers (one GPU per server) has no other edge to carry the
// walk: its edges are charged all S steps, as step by step. The walk prices a network hop at
// NCCL's NET figure plus the network's transport term (link_tech.hpp); the model adds the path's
// wire and switch time to a network edge's own steps only.
#include <algorithm>

#include "collective/algorithms/patterns.hpp"
#include "collective/algorithms/steady_forms.hpp"
#include "collective/nccl_constants.hpp"
#include "topology/nic_transport.hpp"

namespace gf {
namespace {

// The latency of the worst walk of `steps` consecutive edges around `order` (wrapping the ring as
// often as needed), an edge costing `intra` inside a server and `inter` between servers.
Time ring_walk(const std::vector<Rank>& order, const Communicator& comm, Time intra, Time inter, int steps) {
  const size_t n = order.size();
  std::vector<int64_t> edge(n);  // picoseconds of edge i -> i+1
  int64_t loop = 0;
  for (size_t i = 0; i < n; ++i) {
    const bool same = comm.node_of[static_cast<size_t>(order[i])] == comm.node_of[static_cast<size_t>(order[(i + 1) % n])];
    edge[i] = (same ? intra : inter).picoseconds();
    loop += edge[i];
  }
  const int64_t laps = steps / static_cast<int64_t>(n), rest = steps % static_cast<int64_t>(n);
  // Window of `rest` edges starting at each i (a sliding sum), plus `laps` whole loops.
  int64_t window = 0;
  for (int64_t j = 0; j < rest; ++j) window += edge[static_cast<size_t>(j)];
  int64_t best = window;
  for (size_t i = 0; i < n; ++i) {
    window += edge[(i + static_cast<size_t>(rest)) % n] - edge[i];
    best = std::max(best, window);
  }
  return Time::ps(laps * loop + best);
}

// The largest transport term of the cluster's network links (EFA's plugin term, a YAML
// `transport_latency`): what a network step pays on top of NCCL's NET figure.
Time network_transport(const Communicator& comm) {
  Time t = Time::zero();
  if (!comm.cluster) return t;
  // NCCL_NET=Socket: the socket transport's term on every network link (model/transfer_cost.cpp).
  const bool socket = comm.cluster->server_template().transport.net.socket;
  for (const Link& l : comm.cluster->links()) {
    const LinkTech& tech = comm.cluster->catalog().tech(l.tech);
    t = std::max(t, socket && is_network_family(tech.family) ? transport_latency(NicTransport::Socket)
                                                             : tech.transport_latency);
  }
  return t;
}

}  // namespace

Schedule steady_ring(const Algorithm& a, const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) {
  const int n = comm.nranks, C = opt.channels;
  std::vector<std::vector<Rank>> orders;
  for (int c = 0; c < C; ++c) orders.push_back(comm.ring(c));
  const int64_t per_channel = call.kind == CollectiveKind::Broadcast || call.kind == CollectiveKind::Reduce ? n - 1 : n;
  const int kept = steady_channels(C, per_channel, [&](int c, int k) { return orders[static_cast<size_t>(c)] == orders[static_cast<size_t>(k)]; });
  Schedule s("ring", n, kept, opt.proto);
  a.apply_latencies(s, opt.proto);
  auto at = [n](int i) { return static_cast<size_t>(((i % n) + n) % n); };
  const Time intra = intra_step(s, comm), inter = inter_step(s), transport = network_transport(comm);
  for (int k = 0; k < kept; ++k) {
    const std::vector<Rank>& order = orders[static_cast<size_t>(k)];
    // `steps` ring steps pipelined as ring_steps runs them (all-reduce, reduce-scatter, all-gather);
    // a chain (`walked` false) keeps its own count.
    bool stays = false;  // whether some edge stays inside a server
    for (int i = 0; i < n && !stays; ++i)
      stays = comm.node_of[static_cast<size_t>(order[at(i)])] == comm.node_of[static_cast<size_t>(order[at(i + 1)])];
    int walk_steps = -1;  // the walk of this order, computed once per step count
    Time walk = Time::zero();
    auto emit = [&](int i, int64_t bytes, int64_t reduced, int steps, bool walked = true) {
      Transfer t = make_transfer(order[at(i)], order[at(i + 1)], Bytes(bytes), false, k, 0);
      t.reduce = Bytes(reduced);
      t.steps = steps;
      const bool same = comm.node_of[static_cast<size_t>(t.src)] == comm.node_of[static_cast<size_t>(t.dst)];
      if (walked && same) {  // the walk (see the header)
        if (walk_steps != steps) walk = ring_walk(order, comm, intra, inter + transport, walk_steps = steps);
        t.steps = steps_for(walk, intra);
      } else if (walked && stays) {  // a network edge beside others that carry the walk
        t.steps = (steps + kPipelineChunks - 1) / kPipelineChunks;
      }
      s.add(t);
    };
    switch (call.kind) {
      case CollectiveKind::AllReduce:
        for (int i = 0; i < n; ++i) {
          int64_t rs = 0, ag = 0;
          for (int c = k; c < C; c += kept) {
            const Bytes P = piece(call.bytes, C, c);
            rs += P.count() - piece(P, n, static_cast<int>(at(i))).count();
            ag += P.count() - piece(P, n, static_cast<int>(at(i + 1))).count();
          }
          emit(i, rs + ag, rs, 2 * (n - 1));
        }
        break;
      case CollectiveKind::ReduceScatter:
      case CollectiveKind::AllGather: {
        const bool rs = call.kind == CollectiveKind::ReduceScatter;
        for (int i = 0; i < n; ++i) {
          const Rank skip = rs ? order[at(i)] : order[at(i + 1)];
          int64_t b = 0;
          for (int c = k; c < C; c += kept) {
            const Bytes P = piece(call.bytes, C, c);
            b += P.count() - piece(P, n, skip).count();
          }
          emit(i, b, rs ? b : 0, n - 1);
        }
        break;
      }
      case CollectiveKind::Broadcast:
      case CollectiveKind::Reduce: {
        const bool reduce = call.kind == CollectiveKind::Reduce;
        int root_at = 0;
        for (int i = 0; i < n; ++i)
          if (order[static_cast<size_t>(i)] == call.root) root_at = i;
        const Bytes P = merged_channel_bytes(call.bytes, C, kept, k);
        // One latency per hop; later chunks hide theirs inside a server only (add_chunk).
        const int steps = n - 1 + (comm.nnodes > 1 ? pipeline_chunks(piece(call.bytes, C, k)) - 1 : 0);
        // Broadcast walks forward from the root; Reduce walks toward it, starting after it.
        for (int h = 0; h + 1 < n; ++h)
          emit(reduce ? root_at + 1 + h : root_at + h, P.count(), reduce ? P.count() : 0, steps, false);
        break;
      }
      default:
        break;
    }
  }
  return s;
}

}  // namespace gf
