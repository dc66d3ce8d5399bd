#include "nccl/channel_graph.hpp"

#include <algorithm>
#include <stdexcept>

#include "collective/algorithm.hpp"
#include "collective/trees.hpp"
#include "core/error.hpp"
#include "nccl/tuner.hpp"

namespace gf {

namespace {

// Every rank's up and down links in one tree, from the parent array tree_rank_parents gives.
std::vector<NcclTreeLinks> tree_links(const Communicator& comm, const std::vector<int>& parent) {
  std::vector<NcclTreeLinks> links(static_cast<size_t>(comm.nranks));
  std::vector<int> filled(static_cast<size_t>(comm.nranks), 0);
  // Chain children first (same server), then other servers' heads in ascending server order.
  // Ranks are numbered server-major, so ascending rank within each pass is ascending server.
  for (int pass = 0; pass < 2; ++pass) {
    for (Rank r = 0; r < comm.nranks; ++r) {
      const int p = parent[static_cast<size_t>(r)];
      if (p < 0) continue;
      const bool same_server = comm.node_of[static_cast<size_t>(p)] == comm.node_of[static_cast<size_t>(r)];
      if (same_server != (pass == 0)) continue;
      int& n = filled[static_cast<size_t>(p)];
      if (n >= 3) throw std::logic_error("a tree rank with more than three children");
      links[static_cast<size_t>(p)].down[static_cast<size_t>(n++)] = r;
    }
  }
  for (Rank r = 0; r < comm.nranks; ++r) links[static_cast<size_t>(r)].up = parent[static_cast<size_t>(r)];
  return links;
}

}  // namespace

Rank NcclGraph::ring_prev(int channel, Rank rank) const {
  const auto& order = rings[static_cast<size_t>(channel)];
  const int i = ring_position[static_cast<size_t>(channel)][static_cast<size_t>(rank)];
  return order[static_cast<size_t>((i + nranks - 1) % nranks)];
}

Rank NcclGraph::ring_next(int channel, Rank rank) const {
  const auto& order = rings[static_cast<size_t>(channel)];
  const int i = ring_position[static_cast<size_t>(channel)][static_cast<size_t>(rank)];
  return order[static_cast<size_t>((i + 1) % nranks)];
}

NcclGraph build_nccl_graph(const Communicator& comm, const Router& router, Bytes sized_for) {
  if (comm.nranks < 2)
    throw InputError({}, "--nccl-graph", "NCCL builds rings and trees only between 2 or more GPUs; this communicator has " +
                                             std::to_string(comm.nranks),
                     "use a cluster with at least 2 GPUs (e.g. --nodes 2)");
  NcclGraph g;
  g.nranks = comm.nranks;
  g.nnodes = comm.nnodes;
  g.ppn = comm.ppn;
  g.node_of = comm.node_of;
  g.local_of = comm.local_of;
  g.sized_for = sized_for;
  const CollectiveCall call{CollectiveKind::AllReduce, sized_for};
  // Ring and tree get the same count (default_channels), as NCCL's rings and trees share its
  // channels; the whole graph, as NCCL prints it, not the fewer a small call launches with.
  g.channels = default_channels(comm, "ring");
  const TunerChoice pick = choose(comm, router, call, "auto", "auto");
  g.tuner_pick = pick.algorithm + "/" + to_string(pick.proto);

  const int C = g.channels;
  for (int c = 0; c < C; ++c) {
    g.rings.push_back(comm.ring(c));
    std::vector<int> pos(static_cast<size_t>(comm.nranks), -1);
    for (size_t i = 0; i < g.rings.back().size(); ++i) pos[static_cast<size_t>(g.rings.back()[i])] = static_cast<int>(i);
    g.ring_position.push_back(std::move(pos));
  }

  // NCCL's channel k < C/2 carries tree 0 and k + C/2 tree 1 over the same chain (connect.cc,
  // connectTrees); the chain is the one gpufabric's tree algorithm uses in channel k mod C/2.
  const int half = (C + 1) / 2;
  for (int k = 0; k < C; ++k) {
    const int which = k < half ? 0 : 1;
    g.tree_of_channel.push_back(which);
    g.trees.push_back(tree_links(comm, tree_rank_parents(comm, k % half, which)));
  }

  // NVLS heads as nvlstree.cpp uses them: GPU l of every server heads slice l.
  if (const Algorithm* a = find_algorithm("nvlstree"); a && a->unsupported(comm, CollectiveKind::AllReduce).empty()) {
    for (int l = 0; l < comm.ppn; ++l) {
      std::vector<Rank> heads;
      for (int k = 0; k < comm.nnodes; ++k) heads.push_back(comm.rank(k, l));
      g.nvls_heads.push_back(std::move(heads));
    }
  } else if (const Algorithm* n = find_algorithm("nvls"); n && n->unsupported(comm, CollectiveKind::AllReduce).empty()) {
    g.nvls_one_domain = true;
  }

  // CollNet heads as collnet_chain.cpp uses them: the first rank of each server's chain.
  if (const Algorithm* a = find_algorithm("collnet_chain"); a && a->unsupported(comm, CollectiveKind::AllReduce).empty()) {
    for (int c = 0; c < C; ++c) {
      std::vector<Rank> heads;
      for (int k = 0; k < comm.nnodes; ++k) heads.push_back(node_chain(comm, k, c)[0]);
      g.collnet_chain_heads.push_back(std::move(heads));
    }
  }
  if (const Algorithm* a = find_algorithm("collnet_direct"); a)
    g.collnet_direct = a->unsupported(comm, CollectiveKind::AllReduce).empty();
  return g;
}

}  // namespace gf
