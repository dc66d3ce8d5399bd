// `gpufabric topo --nccl-graph`: the rings and trees NCCL would build (nccl/channel_graph.hpp), in
// the line formats NCCL prints at init with NCCL_DEBUG=INFO, so a user can diff them with the
// message part of their own log. Format strings: NVIDIA/nccl src/graph/rings.cc (Channel),
// src/init.cc (Ring, Trees), src/graph/connect.cc (Tree, NVLS Head), as quoted and sampled in
// ../shared/validation/formats/nccl-debug-info-log-excerpts.txt. Lines that are gpufabric's own
// summary (CollNet heads) and every explanation start with '#'.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "nccl/channel_graph.hpp"

namespace gf {

// "Channel %02d/%02d : " then " %3d" per rank of the ring (rings.cc; rank 0 prints these).
std::string nccl_channel_line(int channel, int channels, const std::vector<Rank>& order);
// "Ring %02d : prev -> rank -> next" (init.cc; every rank, every channel).
std::string nccl_ring_line(const NcclGraph& g, int channel, Rank rank);
// "Tree %d : up -> rank -> down0/down1/down2" (connect.cc; every rank, per channel).
std::string nccl_tree_line(const NcclGraph& g, int channel, Rank rank);
// "Trees [c] d0/d1/d2->rank->up" for every channel on one line, -1 for none (init.cc).
std::string nccl_trees_line(const NcclGraph& g, Rank rank);
// "NVLS Head %2d:" then " %2d" per node (connect.cc).
std::string nccl_nvls_head_line(int head, const std::vector<Rank>& ranks);

// `rank` < 0: what every rank would print (shared lines once, then each rank's own); otherwise only
// the lines rank `rank` would print, in the order a real log shows them (excerpts, blocks A and B:
// Tree, Channel on rank 0, Ring, NVLS Head, Trees), then gpufabric's CollNet summary. `cluster` names the cluster in the header comment.
// Throws InputError when `rank` is not a rank of the graph.
std::string nccl_graph_text(const NcclGraph& g, const std::string& cluster, Rank rank = -1);
nlohmann::json nccl_graph_json(const NcclGraph& g, const std::string& cluster, Rank rank = -1);

}  // namespace gf
