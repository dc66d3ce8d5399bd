// The rings and trees NCCL would build for a communicator, as gpufabric's algorithms build them:
// the data behind `gpufabric topo --nccl-graph` (report/channel_graph_report.hpp writes it in NCCL's
// NCCL_DEBUG=INFO line formats). Lives in nccl/ beside the tuner, which gives the channel count.
//
// How NCCL lays its channels out (NVIDIA/nccl src/graph/connect.cc, connectTrees): the topology
// search finds C/2 channels, which are then doubled; channel k < C/2 carries tree 0 of the double
// binary tree and channel k + C/2 tree 1, both over the same in-server chain. gpufabric's tree
// algorithm (collective/algorithms/tree.cpp) instead runs both trees in every channel on half the
// data each; the bytes on each edge are the same, and this view follows NCCL's layout so that its
// lines can be compared with a real log.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "collective/communicator.hpp"
#include "core/units.hpp"
#include "routing/router.hpp"

namespace gf {

// One rank's place in one channel's tree; -1 where there is none (NCCL's convention).
struct NcclTreeLinks {
  Rank up = -1;
  // Chain child in the same server first, then children on other servers in ascending server
  // order (NCCL fills tree.down with the in-server child, then the inter-node ones; ncclGetBtree's
  // d0 < d1). At most 3: one chain child and two in the binary tree over servers.
  std::array<Rank, 3> down{-1, -1, -1};
};

struct NcclGraph {
  int nranks = 0, nnodes = 0, ppn = 0;
  std::vector<int> node_of, local_of;  // rank -> server in the communicator, position in it
  int channels = 0;     // channels of the ring and tree graphs (default_channels), whatever the size
  Bytes sized_for;      // the all-reduce size tuner_pick is for
  std::string tuner_pick;  // what the tuner itself picks at that size, "algorithm/protocol"

  std::vector<std::vector<Rank>> rings;  // [channel] -> ranks in ring order (Communicator::ring)
  std::vector<std::vector<int>> ring_position;  // [channel][rank] -> its index in rings[channel]
  std::vector<int> tree_of_channel;      // [channel] -> 0 or 1, which tree of the double binary pair
  std::vector<std::vector<NcclTreeLinks>> trees;  // [channel][rank]

  // NVLS across servers (nvlstree): [head index] -> the head rank on each server, the ranks whose
  // slice of the buffer crosses the network; empty when there is no NVLS or the ranks share one
  // NVLink domain (nvls reduces in the switch alone and has no heads). `nvls_one_domain` says which.
  std::vector<std::vector<Rank>> nvls_heads;
  bool nvls_one_domain = false;
  // CollNet (SHARP): collnet_chain's head on each server per channel ([channel] -> rank per
  // server); collnet_direct uses every GPU as the head of its slice, like nvlstree. Empty without
  // in-network reduction.
  std::vector<std::vector<Rank>> collnet_chain_heads;
  bool collnet_direct = false;

  // Ring neighbours of `rank` in `channel`.
  Rank ring_prev(int channel, Rank rank) const;
  Rank ring_next(int channel, Rank rank) const;
};

// The all-reduce size the channel count is chosen for: 8 GiB, the top of the nccl-tests sweep
// (-e 8G) the README runs, where NCCL runs on its full channel count.
inline constexpr Bytes kNcclGraphSize = Bytes::gib(8);

// Throws InputError when the communicator has fewer than 2 ranks (NCCL builds no rings then).
NcclGraph build_nccl_graph(const Communicator& comm, const Router& router, Bytes sized_for = kNcclGraphSize);

}  // namespace gf
