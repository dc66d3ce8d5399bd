#include "report/channel_graph_report.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace gf {

namespace {

std::string size_words(Bytes b) {
  const int64_t gib = int64_t{1} << 30, mib = int64_t{1} << 20;
  if (b.count() % gib == 0) return fmt::format("{} GiB", b.count() / gib);
  if (b.count() % mib == 0) return fmt::format("{} MiB", b.count() / mib);
  return fmt::format("{} B", b.count());
}

void check_rank(const NcclGraph& g, Rank rank) {
  if (rank >= g.nranks)
    throw InputError({}, "--rank", fmt::format("rank {} does not exist; this communicator has {} ranks", rank, g.nranks),
                     fmt::format("use --rank 0..{}", g.nranks - 1));
}

// The NVLS heads, which every rank prints the same.
void nvls_lines(const NcclGraph& g, std::string& out) {
  if (!g.nvls_heads.empty()) {
    out += "# NVLS heads (connect.cc; every rank prints them): head l is GPU l of every server, the rank that\n"
           "# carries slice l of the buffer across the network in gpufabric's nvlstree\n";
    for (size_t h = 0; h < g.nvls_heads.size(); ++h) out += nccl_nvls_head_line(static_cast<int>(h), g.nvls_heads[h]) + "\n";
  } else if (g.nvls_one_domain) {
    out += "# NVLS: all ranks share one NVLink domain; the NVSwitch reduces over all of them (gpufabric's nvls),\n"
           "# so there are no heads crossing the network to list\n";
  }
}

// gpufabric's own summary of the CollNet heads (NCCL prints no such line).
void collnet_lines(const NcclGraph& g, std::string& out) {
  if (!g.collnet_chain_heads.empty()) {
    out += "# CollNet (SHARP): the 'CollNet Chain' lines are gpufabric's own summary, not a NCCL format: per channel,\n"
           "# the rank of each server that hands its server's sum to the switches (collnet_chain)";
    out += g.collnet_direct ? "; collnet_direct\n# makes every GPU the head of its slice, as the NVLS heads above\n" : "\n";
    for (size_t c = 0; c < g.collnet_chain_heads.size(); ++c) {
      std::string line = fmt::format("CollNet Chain {:02d} :", c);
      for (Rank r : g.collnet_chain_heads[c]) line += fmt::format(" {:3d}", r);
      out += line + "\n";
    }
  }
}

void channel_lines(const NcclGraph& g, std::string& out) {
  out += "# The ring order of every channel (rings.cc; rank 0 alone prints these)\n";
  for (int c = 0; c < g.channels; ++c) out += nccl_channel_line(c, g.channels, g.rings[static_cast<size_t>(c)]) + "\n";
}

// One rank's own lines; `shared` adds those every rank prints alike (the NVLS heads) and, on rank
// 0, the channel orders, where a real log has them.
void rank_lines(const NcclGraph& g, Rank r, bool shared, std::string& out) {
  out += fmt::format("# rank {} (node {}, local rank {})\n", r, g.node_of[static_cast<size_t>(r)],
                     g.local_of[static_cast<size_t>(r)]);
  for (int c = 0; c < g.channels; ++c) out += nccl_tree_line(g, c, r) + "\n";
  if (shared && r == 0) channel_lines(g, out);
  for (int c = 0; c < g.channels; ++c) out += nccl_ring_line(g, c, r) + "\n";
  if (shared) nvls_lines(g, out);
  out += nccl_trees_line(g, r) + "\n";
}

nlohmann::json tree_json(const NcclTreeLinks& l) {
  nlohmann::json down = nlohmann::json::array();
  for (Rank d : l.down)
    if (d >= 0) down.push_back(d);
  return {{"up", l.up}, {"down", down}};
}

}  // namespace

std::string nccl_channel_line(int channel, int channels, const std::vector<Rank>& order) {
  // "Channel 00/02 :    0   1" in block A of the excerpts: the prefix ends in a space, then each
  // rank is " %3d".
  std::string line = fmt::format("Channel {:02d}/{:02d} : ", channel, channels);
  for (Rank r : order) line += fmt::format(" {:3d}", r);
  return line;
}

std::string nccl_ring_line(const NcclGraph& g, int channel, Rank rank) {
  return fmt::format("Ring {:02d} : {} -> {} -> {}", channel, g.ring_prev(channel, rank), rank, g.ring_next(channel, rank));
}

std::string nccl_tree_line(const NcclGraph& g, int channel, Rank rank) {
  const NcclTreeLinks& l = g.trees[static_cast<size_t>(channel)][static_cast<size_t>(rank)];
  return fmt::format("Tree {} : {} -> {} -> {}/{}/{}", channel, l.up, rank, l.down[0], l.down[1], l.down[2]);
}

std::string nccl_trees_line(const NcclGraph& g, Rank rank) {
  std::string line = "Trees";
  for (int c = 0; c < g.channels; ++c) {
    const NcclTreeLinks& l = g.trees[static_cast<size_t>(c)][static_cast<size_t>(rank)];
    line += fmt::format(" [{}] {}/{}/{}->{}->{}", c, l.down[0], l.down[1], l.down[2], rank, l.up);
  }
  return line;
}

std::string nccl_nvls_head_line(int head, const std::vector<Rank>& ranks) {
  // "NVLS Head  0:  0  8" in block B of the excerpts.
  std::string line = fmt::format("NVLS Head {:2d}:", head);
  for (Rank r : ranks) line += fmt::format(" {:2d}", r);
  return line;
}

std::string nccl_graph_text(const NcclGraph& g, const std::string& cluster, Rank rank) {
  check_rank(g, rank);
  const int half = (g.channels + 1) / 2;
  std::string out;
  out += "# The rings and trees NCCL would build, as gpufabric's algorithms build them, in NCCL_DEBUG=INFO's line\n"
         "# formats (message text only). Compare with your log:\n"
         "#   grep -E 'NCCL INFO (Tree |Channel [0-9]+/[0-9]+ : |Ring |Trees |NVLS Head)' LOG | sed 's/.*NCCL INFO //'\n";
  out += fmt::format("# {}: {} ranks, {} nodes x {} local ranks\n", cluster, g.nranks, g.nnodes, g.ppn);
  out += fmt::format("# {} channels: the tuner's count for ring and tree on an all-reduce of {} (at that size it picks {})\n",
                     g.channels, size_words(g.sized_for), g.tuner_pick);
  if (g.channels > 1)
    out += fmt::format("# Trees: channels 0..{} carry tree 0 and {}..{} tree 1 of the double binary tree, over the same\n"
                       "# chains (NCCL's connectTrees); format d0/d1/d2->rank->up, -1 for none\n",
                       half - 1, half, g.channels - 1);
  if (rank >= 0) {
    if (rank > 0) out += fmt::format("# rank {} prints no 'Channel NN/NN :' ring orders: NCCL prints them on rank 0 only\n", rank);
    rank_lines(g, rank, true, out);
    collnet_lines(g, out);
    return out;
  }
  // Every rank: what all print alike once, then each rank's own lines.
  channel_lines(g, out);
  nvls_lines(g, out);
  collnet_lines(g, out);
  for (Rank r = 0; r < g.nranks; ++r) rank_lines(g, r, false, out);
  return out;
}

nlohmann::json nccl_graph_json(const NcclGraph& g, const std::string& cluster, Rank rank) {
  check_rank(g, rank);
  nlohmann::json j;
  j["cluster"] = cluster;
  j["nranks"] = g.nranks;
  j["nnodes"] = g.nnodes;
  j["local_ranks"] = g.ppn;
  j["channels"] = g.channels;
  j["channels_sized_for_bytes"] = g.sized_for.count();
  j["tuner_pick"] = g.tuner_pick;
  j["tree_of_channel"] = g.tree_of_channel;
  j["nvls_heads"] = g.nvls_heads;
  j["nvls_one_domain"] = g.nvls_one_domain;
  j["collnet_chain_heads"] = g.collnet_chain_heads;
  j["collnet_direct"] = g.collnet_direct;
  if (rank < 0) {
    j["rings"] = g.rings;
    nlohmann::json trees = nlohmann::json::array();
    for (int c = 0; c < g.channels; ++c) {
      nlohmann::json ranks = nlohmann::json::array();
      for (Rank r = 0; r < g.nranks; ++r) ranks.push_back(tree_json(g.trees[static_cast<size_t>(c)][static_cast<size_t>(r)]));
      trees.push_back(std::move(ranks));
    }
    j["trees"] = std::move(trees);  // [channel][rank] -> {up, down}
    return j;
  }
  j["rank"] = rank;
  j["node"] = g.node_of[static_cast<size_t>(rank)];
  j["local_rank"] = g.local_of[static_cast<size_t>(rank)];
  nlohmann::json ring = nlohmann::json::array(), tree = nlohmann::json::array();
  for (int c = 0; c < g.channels; ++c) {
    ring.push_back({{"channel", c}, {"prev", g.ring_prev(c, rank)}, {"next", g.ring_next(c, rank)}});
    nlohmann::json t = tree_json(g.trees[static_cast<size_t>(c)][static_cast<size_t>(rank)]);
    t["channel"] = c;
    tree.push_back(std::move(t));
  }
  j["ring"] = std::move(ring);
  j["tree"] = std::move(tree);
  if (rank == 0) j["rings"] = g.rings;  // rank 0 also prints every channel's order
  return j;
}

}  // namespace gf
