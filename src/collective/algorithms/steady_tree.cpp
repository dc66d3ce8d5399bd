// Steady-state tree and NVLS tree (see collective/steady_state.hpp): one transfer per tree edge, direction
// and channel carrying all of that edge's chunks, with no dependencies.
//
// Tree (tree.cpp): per channel and tree t, every non-root rank sends its half up (reduced by the
// parent) and receives it back down: each edge carries the half once each way. Step by step a
// chunk climbs the rank tree's height h and comes back down, and K chunks follow it, hiding their
// latency inside a server and paying a network step each across servers (patterns.hpp
// add_chunk): 2h latencies plus K - 1 network ones on the critical path, which every edge's
// transfer is charged (steps_for).
//
// NVLS tree (nvlstree.cpp): per channel and head l, a switch reduction into head l of every server
// and a multicast back (both trees' halves together: the same transfer ends, the same links), and
// per tree the edges between the servers' head-l GPUs in the servers' binary tree. Critical path per chunk:
// 1 + 2 x (the taller tree's height) + 1 steps, plus K - 1 on the network tree's edges, of which
// only the tree's cost latency.
#include <algorithm>

#include "collective/algorithms/patterns.hpp"
#include "collective/algorithms/steady_forms.hpp"
#include "collective/nccl_constants.hpp"
#include "collective/nvls_switch_rate.hpp"

namespace gf {

namespace {

// Up (reduced) and down transfers for every edge of `parent` over `members`; an edge within one
// server is charged `intra_steps`, one between servers `inter_steps`.
void tree_edges(Schedule& s, const Communicator& comm, const std::vector<Rank>& members, const std::vector<int>& parent,
                Bytes bytes, int channel, int intra_steps, int inter_steps) {
  for (size_t i = 0; i < members.size(); ++i) {
    if (parent[i] < 0) continue;
    const Rank child = members[i], up = members[static_cast<size_t>(parent[i])];
    const bool same_server = comm.node_of[static_cast<size_t>(child)] == comm.node_of[static_cast<size_t>(up)];
    Transfer t = make_transfer(child, up, bytes, true, channel, 0);
    t.steps = same_server ? intra_steps : inter_steps;
    s.add(t);
    t = make_transfer(up, child, bytes, false, channel, 0);
    t.steps = same_server ? intra_steps : inter_steps;
    s.add(t);
  }
}

}  // namespace

Schedule steady_tree(const Algorithm& a, const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) {
  const int C = opt.channels;
  std::vector<std::vector<int>> parents[2];
  for (int c = 0; c < C; ++c)
    for (int t = 0; t < 2; ++t) parents[t].push_back(tree_rank_parents(comm, c, t));
  const int kept = steady_channels(C, 4 * (static_cast<int64_t>(comm.nranks) - 1), [&](int c, int k) {
    return parents[0][static_cast<size_t>(c)] == parents[0][static_cast<size_t>(k)] &&
           parents[1][static_cast<size_t>(c)] == parents[1][static_cast<size_t>(k)];
  });
  Schedule s("tree", comm.nranks, kept, opt.proto);
  a.apply_latencies(s, opt.proto);
  std::vector<Rank> members(static_cast<size_t>(comm.nranks));
  for (Rank r = 0; r < comm.nranks; ++r) members[static_cast<size_t>(r)] = r;
  for (int k = 0; k < kept; ++k)
    for (int t = 0; t < 2; ++t) {
      int64_t half = 0;
      for (int c = k; c < C; c += kept) half += piece(piece(call.bytes, C, c), 2, t).count();
      const std::vector<int>& parent = parents[t][static_cast<size_t>(k)];
      // Critical path: up the chain and the server tree and back down (NCCL: 2 x ((ppn-1)
      // intraLat + log2(nodes) interLat)), then one network step per further chunk across servers.
      const int chunks = pipeline_chunks(piece(piece(call.bytes, C, k), 2, t));
      const int server_hops = tree_height(parent) - (comm.ppn - 1);
      const Time a = intra_step(s, comm), b = inter_step(s);
      const Time path = (a * (comm.ppn - 1) + b * server_hops) * 2 + (comm.nnodes > 1 ? b : Time::zero()) * (chunks - 1);
      // Tree t on NCCL's channel k + t x kept: connections of its own (engine/transfer_routes.hpp).
      tree_edges(s, comm, members, parent, Bytes(half), k + t * kept, steps_for(path, a), steps_for(path, b));
    }
  return s;
}

Schedule steady_nvlstree(const Algorithm& a, const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) {
  const int C = opt.channels, nodes = comm.nnodes, H = nvls_tree_heads(comm);
  // Every channel runs the same pattern over the same ranks (nvlstree.cpp): any may merge.
  const int64_t per_channel = static_cast<int64_t>(H) * (2 * nodes + 4 * (static_cast<int64_t>(nodes) - 1));
  const int kept = steady_channels(C, per_channel, [](int, int) { return true; });
  Schedule s("nvlstree", comm.nranks, kept, opt.proto);
  a.apply_latencies(s, opt.proto);
  const std::vector<int> trees[2] = {dtree_parents(nodes, 0), dtree_parents(nodes, 1)};
  const int tree_steps = 2 * std::max(tree_height(trees[0]), tree_height(trees[1]));
  // Pipeline fill and drain: NCCL cuts a half-slice into K chunks of kNvlsChunkBytes, and they pass
  // D = 1 + tree_steps + 1 stages (switch reduce, the tree up and down, multicast), so a stage is
  // busy K of the K + D - 1 chunk-times the call takes. The switch stages, the in-server part
  // that every server's GPUs carry, run at K / (K + D - 1) of the NVLS rate; the step-by-step form
  // (nvlstree.cpp) pays the same fill through its chunks' dependencies.
  const int64_t half0 = piece(piece(piece(call.bytes, C, 0), H, 0), 2, 0).count();
  const int64_t K = std::max<int64_t>(1, (half0 + kNvlsChunkBytes - 1) / kNvlsChunkBytes);
  const double fill = static_cast<double>(K) / static_cast<double>(K + tree_steps + 1);
  s.set_in_network_efficiency(nvls_switch_efficiency(comm.arch, H) * fill);
  std::vector<int32_t> server(static_cast<size_t>(nodes));
  for (int k = 0; k < nodes; ++k)
    server[static_cast<size_t>(k)] = group_endpoint(s.add_group(RankGroup{node_chain(comm, k, 0), ReductionPoint::NvSwitch}));
  std::vector<Rank> heads(static_cast<size_t>(nodes));
  for (int k = 0; k < kept; ++k)
    for (int l = 0; l < H; ++l) {
      int64_t half[2] = {0, 0};
      for (int c = k; c < C; c += kept)
        for (int t = 0; t < 2; ++t) half[t] += piece(piece(piece(call.bytes, C, c), H, l), 2, t).count();
      const int chunks = pipeline_chunks(piece(piece(piece(call.bytes, C, k), H, l), 2, 0));
      // The switch steps cost nothing per step (NCCL charges NVLS's NVLink latency once, in the
      // base): the tree's hops and the further chunks on its network edges are the critical path.
      const int steps = tree_steps + chunks - 1;
      const Bytes slice(half[0] + half[1]);
      for (int m = 0; m < nodes; ++m) {
        heads[static_cast<size_t>(m)] = comm.rank(m, nvls_tree_head(comm, H, l));
        for (bool down : {false, true}) {
          const int32_t g = server[static_cast<size_t>(m)], head = heads[static_cast<size_t>(m)];
          Transfer t = make_transfer(down ? head : g, down ? g : head, slice, false, k, 0);
          t.steps = steps;
          s.add(t);
        }
      }
      // Each tree on NCCL channels of its own (connectNvls), labelled k + t x kept: its own connections.
      for (int t = 0; t < 2; ++t) tree_edges(s, comm, heads, trees[t], Bytes(half[t]), k + t * kept, steps, steps);
    }
  return s;
}

}  // namespace gf
