// `topo --nccl-graph`: the rings and trees NCCL would build (nccl/channel_graph) and their
// NCCL_DEBUG=INFO lines (report/channel_graph_report), on 2 (and 4) DGX H100 servers, one rank per GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "config/presets.hpp"
#include "core/error.hpp"
#include "report/channel_graph_report.hpp"
#include "topology/link_tech.hpp"
#include "nccl/channel_graph.hpp"
#include "shared_data.hpp"

using namespace gf;

namespace {

struct DgxH100s {
  Cluster cluster;
  Router router;
  Communicator comm;
  NcclGraph graph;
  explicit DgxH100s(int nodes)
      : cluster(build_cluster(resolve_cluster("dgx-h100", nodes))),
        router(cluster),
        comm(make_communicator(cluster, router, nodes, 8)),
        graph(build_nccl_graph(comm, router)) {}
};

// Regexes written from the format strings quoted at the top of
// ../shared/validation/formats/nccl-debug-info-log-excerpts.txt:
//   "Channel %02d/%02d : r0 r1 r2 ..." (each rank " %3d" after the prefix, as block A shows),
//   "Ring %02d : prev -> rank -> next", "Tree %d : up -> rank -> down0/down1/down2", "Trees [c] d0/d1/d2->rank->up [c+1] ..." (-1 = none),
//   "NVLS Head %2d: <rank per node>" (" %2d" each, as block B shows).
const std::regex kChannel(R"(Channel \d{2}/\d{2} : ( {1,3}\d+)+)");
const std::regex kRing(R"(Ring \d{2} : -?\d+ -> \d+ -> -?\d+)");
const std::regex kTree(R"(Tree \d+ : -?\d+ -> \d+ -> -?\d+/-?\d+/-?\d+)");
const std::regex kTrees(R"(Trees( \[\d+\] -?\d+/-?\d+/-?\d+->\d+->-?\d+)+)");
const std::regex kNvlsHead(R"(NVLS Head +\d+:( +\d+)+)");

// The message part of an excerpt line: what follows "NCCL INFO ".
std::vector<std::string> excerpt_messages() {
  std::ifstream in(shared_dir() + "/validation/formats/nccl-debug-info-log-excerpts.txt");
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    auto at = line.find("NCCL INFO ");
    if (line.rfind("#", 0) != 0 && at != std::string::npos) out.push_back(line.substr(at + 10));
  }
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

bool all_nvlink(const Cluster& c, const std::vector<Path>& paths) {
  for (const Path& p : paths)
    for (LinkId l : p.links) {
      const LinkFamily f = c.catalog().tech(c.link(l).tech).family;
      if (f != LinkFamily::NvLink) return false;
    }
  return !paths.empty();
}

}  // namespace

TEST(NcclGraph, ChannelCountIsTheTunersForRingOnTwoServers) {
  DgxH100s s(2);
  // tuner.cpp default_channels on more than one server: 2 channels per NIC, scaled to the ranks per
  // server: 2 x 8 NICs / 8 GPUs x 8 ranks = 16, which is also what the real 2 x 8 H100 log in
  // block B implies (its tree 0/tree 1 twins sit 8 channels apart: [3] and [11]).
  EXPECT_EQ(s.graph.channels, 16);
  EXPECT_EQ(s.graph.rings.size(), 16u);
  EXPECT_EQ(s.graph.trees.size(), 16u);
}

TEST(NcclGraph, EveryRingIsAPermutationOfAllRanks) {
  DgxH100s s(2);
  for (const auto& ring : s.graph.rings) {
    // A ring visits every rank once: sorted, it is 0..15.
    std::vector<Rank> sorted = ring;
    std::sort(sorted.begin(), sorted.end());
    for (int r = 0; r < 16; ++r) EXPECT_EQ(sorted[static_cast<size_t>(r)], r);
  }
}

TEST(NcclGraph, ConsecutiveRanksInAServerAreNvlinkNeighbours) {
  DgxH100s s(2);
  // DGX H100: every GPU has 18 NVLink4 lanes spread over the 4 NVSwitch chips (dgx_h100.cpp), so
  // two GPUs of a server are one switch apart and every route between them is NVLink only.
  int checked = 0;
  for (const auto& ring : s.graph.rings)
    for (size_t i = 0; i < ring.size(); ++i) {
      Rank a = ring[i], b = ring[(i + 1) % ring.size()];
      if (s.comm.node_of[static_cast<size_t>(a)] != s.comm.node_of[static_cast<size_t>(b)]) continue;
      EXPECT_TRUE(all_nvlink(s.cluster, s.router.equal_cost_paths(s.comm.gpu[static_cast<size_t>(a)],
                                                                   s.comm.gpu[static_cast<size_t>(b)], 64)))
          << a << " -> " << b;
      ++checked;
    }
  // 16 hops per ring, 2 of them between servers (next test): 14 inside, x 16 channels.
  EXPECT_EQ(checked, 14 * 16);
}

TEST(NcclGraph, EachRingCrossesBetweenServersExactlyTwiceOnOneRail) {
  DgxH100s s(2);
  for (const auto& ring : s.graph.rings) {
    // Each server's ranks form one contiguous run of the cyclic ring (Communicator::ring walks a
    // server's GPUs before moving on), and a cycle made of 2 runs has 2 boundaries: out and back.
    int crossings = 0;
    for (size_t i = 0; i < ring.size(); ++i) {
      Rank a = ring[i], b = ring[(i + 1) % ring.size()];
      if (s.comm.node_of[static_cast<size_t>(a)] == s.comm.node_of[static_cast<size_t>(b)]) continue;
      ++crossings;
      // The odd server walks back from where the even one left off, so a crossing joins the same
      // GPU position (the same NIC rail) on both sides.
      EXPECT_EQ(s.comm.local_of[static_cast<size_t>(a)], s.comm.local_of[static_cast<size_t>(b)]);
    }
    EXPECT_EQ(crossings, 2);
  }
}

TEST(NcclGraph, EachChannelsTreeSpansAllRanksWithOneUpRankPerServer) {
  DgxH100s s(2);
  for (int c = 0; c < s.graph.channels; ++c) {
    const auto& t = s.graph.trees[static_cast<size_t>(c)];
    int roots = 0;
    std::vector<int> up_out(2, 0);  // per server: ranks whose up link leaves the server (or is -1)
    for (Rank r = 0; r < 16; ++r) {
      const NcclTreeLinks& l = t[static_cast<size_t>(r)];
      roots += l.up < 0;
      const int node = s.comm.node_of[static_cast<size_t>(r)];
      if (l.up < 0 || s.comm.node_of[static_cast<size_t>(l.up)] != node) ++up_out[static_cast<size_t>(node)];
      // down and up agree: r is among its parent's children.
      if (l.up >= 0) {
        const auto& pd = t[static_cast<size_t>(l.up)].down;
        EXPECT_NE(std::find(pd.begin(), pd.end(), r), pd.end());
      }
    }
    // One tree: a single root. A server's chain has one head, the only rank whose parent is not in
    // the server (the root's head has none at all).
    EXPECT_EQ(roots, 1) << "channel " << c;
    EXPECT_EQ(up_out[0], 1) << "channel " << c;
    EXPECT_EQ(up_out[1], 1) << "channel " << c;
  }
}

namespace {

// Whether rank r has a child on another server in this channel's tree (is interior in the tree
// over servers).
bool has_server_child(const Communicator& comm, const NcclTreeLinks& l, Rank r) {
  for (Rank d : l.down)
    if (d >= 0 && comm.node_of[static_cast<size_t>(d)] != comm.node_of[static_cast<size_t>(r)]) return true;
  return false;
}

// Rank r's child in its own server's chain, -1 at the chain's tail (the chain child comes first).
Rank chain_child(const Communicator& comm, const NcclTreeLinks& l, Rank r) {
  const Rank d = l.down[0];
  return d >= 0 && comm.node_of[static_cast<size_t>(d)] == comm.node_of[static_cast<size_t>(r)] ? d : -1;
}

void expect_complementary_pairs(int nodes) {
  DgxH100s s(nodes);
  const int half = s.graph.channels / 2;
  for (int c = 0; c < half; ++c) {
    EXPECT_EQ(s.graph.tree_of_channel[static_cast<size_t>(c)], 0);
    EXPECT_EQ(s.graph.tree_of_channel[static_cast<size_t>(c + half)], 1);
    const auto& t0 = s.graph.trees[static_cast<size_t>(c)];
    const auto& t1 = s.graph.trees[static_cast<size_t>(c + half)];
    int interior = 0;
    for (Rank r = 0; r < s.comm.nranks; ++r) {
      const bool in0 = has_server_child(s.comm, t0[static_cast<size_t>(r)], r);
      const bool in1 = has_server_child(s.comm, t1[static_cast<size_t>(r)], r);
      // NCCL's double binary tree: a server interior in one tree is a leaf in the other.
      EXPECT_FALSE(in0 && in1) << "rank " << r << " channel " << c;
      interior += in0 + in1;
      // Both trees of a pair use the same chain: the same child inside the server.
      EXPECT_EQ(chain_child(s.comm, t0[static_cast<size_t>(r)], r), chain_child(s.comm, t1[static_cast<size_t>(r)], r));
    }
    // Binary trees over n servers have n/2 interior servers each when n is a power of two (2: the
    // root alone; 4: the root 0 and 2 in tree 0, 3 and 1 in the mirror), so together the two
    // trees make every server interior exactly once.
    EXPECT_EQ(interior, nodes) << "channel " << c;
  }
}

}  // namespace

TEST(NcclGraph, TreesOfAChannelPairAreComplementaryOnTwoServers) { expect_complementary_pairs(2); }
TEST(NcclGraph, TreesOfAChannelPairAreComplementaryOnFourServers) { expect_complementary_pairs(4); }

TEST(NcclGraph, TwoServerTreesAsNcclBuildsThem) {
  DgxH100s s(2);
  // Channel 0: the chain of each server starts at GPU 0 (node_chain rotates by the channel), so
  // rank 0 is server 0's head and rank 8 server 1's. Tree 0 is ncclGetBtree over 2 nodes: node 0
  // the root with node 1 below it, so rank 0 has its chain child 1 and rank 8 as children.
  const NcclTreeLinks& r0 = s.graph.trees[0][0];
  EXPECT_EQ(r0.up, -1);
  EXPECT_EQ(r0.down[0], 1);
  EXPECT_EQ(r0.down[1], 8);
  EXPECT_EQ(s.graph.trees[0][8].up, 0);
  // Channel 8 is channel 0's twin carrying tree 1, the mirror: node 1 is the root, so rank 8 is.
  EXPECT_EQ(s.graph.trees[8][8].up, -1);
  EXPECT_EQ(s.graph.trees[8][0].up, 8);
  // Inside a server, the chain 0, 1, ..., 7: rank 3 hangs under 2 and has 4 below it.
  EXPECT_EQ(s.graph.trees[0][3].up, 2);
  EXPECT_EQ(s.graph.trees[0][3].down[0], 4);
  EXPECT_EQ(s.graph.trees[0][3].down[1], -1);
}

TEST(NcclGraph, NvlsHeadsAreEveryGpuOfEveryServer) {
  DgxH100s s(2);
  // nvlstree.cpp: GPU l of every server heads slice l, so 8 heads of 2 ranks each: l and 8 + l.
  ASSERT_EQ(s.graph.nvls_heads.size(), 8u);
  for (int l = 0; l < 8; ++l) EXPECT_EQ(s.graph.nvls_heads[static_cast<size_t>(l)], (std::vector<Rank>{l, 8 + l}));
  EXPECT_FALSE(s.graph.nvls_one_domain);
}

TEST(NcclGraph, OneServerHasNoNvlsHeadsAndItsTreeIsTheChain) {
  Cluster c = build_cluster(resolve_cluster("dgx-h100"));
  Router router(c);
  NcclGraph g = build_nccl_graph(make_communicator(c, router, 1, 8), router);
  // One NVLink domain: nvls reduces in the switch alone, nothing crosses the network.
  EXPECT_TRUE(g.nvls_heads.empty());
  EXPECT_TRUE(g.nvls_one_domain);
  EXPECT_TRUE(g.collnet_chain_heads.empty());
  // A single-server tree is the chain: channel 0 is 0 -> 1 -> ... -> 7, rank 0 the root.
  EXPECT_EQ(g.trees[0][0].up, -1);
  EXPECT_EQ(g.trees[0][7].up, 6);
  EXPECT_EQ(g.trees[0][7].down[0], -1);
}

TEST(NcclGraph, OneGpuIsAnInputError) {
  Cluster c = build_cluster(resolve_cluster("dgx-h100"));
  Router router(c);
  EXPECT_THROW(build_nccl_graph(make_communicator(c, router, 1, 1), router), InputError);
}

TEST(NcclGraphText, FormatRegexesMatchTheRealExcerpts) {
  REQUIRE_SHARED_DATA();
  // The regexes are checked on the real lines first, so a regex that matched nothing could not
  // pass the tests below vacuously. Counted by hand in the excerpts file:
  // Channel: 00/02 and 01/02 in A (A's "Channel 00/0 : 1[1] -> ..." and C's, D's are transport
  // lines, not ring orders);
  // Ring: 4 in A, 2 in H; Tree: 4 in A; Trees: 2 in A, 1 in B, 1 in H (F's older "|" form does not match);
  // NVLS Head: 4 in B.
  int channel = 0, ring = 0, tree = 0, trees = 0, nvls = 0;
  for (const std::string& m : excerpt_messages()) {
    channel += std::regex_match(m, kChannel);
    ring += std::regex_match(m, kRing);
    tree += std::regex_match(m, kTree);
    trees += std::regex_match(m, kTrees);
    nvls += std::regex_match(m, kNvlsHead);
  }
  EXPECT_EQ(channel, 2);
  EXPECT_EQ(ring, 6);
  EXPECT_EQ(tree, 4);
  EXPECT_EQ(trees, 4);
  EXPECT_EQ(nvls, 4);
}

TEST(NcclGraphText, EveryLineIsANcclFormatOrAComment) {
  DgxH100s s(2);
  int channel = 0, ring = 0, tree = 0, trees = 0, nvls = 0, collnet = 0;
  for (const std::string& l : lines_of(nccl_graph_text(s.graph, "dgx-h100"))) {
    if (l.rfind("#", 0) == 0) continue;
    const bool c = std::regex_match(l, kChannel), r = std::regex_match(l, kRing), t = std::regex_match(l, kTrees),
               n = std::regex_match(l, kNvlsHead), o = l.rfind("CollNet Chain ", 0) == 0, u = std::regex_match(l, kTree);
    EXPECT_TRUE(c || r || t || n || o || u) << l;
    channel += c;
    ring += r;
    tree += u;
    trees += t;
    nvls += n;
    collnet += o;
  }
  // 16 channels; every one of 16 ranks prints a Ring and a Tree line per channel and one Trees
  // line; 8 NVLS heads.
  EXPECT_EQ(channel, 16);
  EXPECT_EQ(ring, 16 * 16);
  EXPECT_EQ(tree, 16 * 16);
  EXPECT_EQ(trees, 16);
  EXPECT_EQ(nvls, 8);
  // CollNet lines only where the fabric reduces (SHARP).
  EXPECT_EQ(collnet, s.graph.collnet_chain_heads.empty() ? 0 : 16);
}

TEST(NcclGraphText, LinesSpelledAsNcclSpellsThem) {
  DgxH100s s(2);
  // Channel 0's ring (Communicator::ring): server 0 forward from GPU 0, server 1 backward from GPU 7
  // (rank 15) so both crossings stay on one rail; each rank " %3d" after "Channel 00/16 : ".
  EXPECT_EQ(nccl_channel_line(0, 16, s.graph.rings[0]),
            "Channel 00/16 :    0   1   2   3   4   5   6   7  15  14  13  12  11  10   9   8");
  // Rank 0 in that ring sits between 8 (the last) and 1.
  EXPECT_EQ(nccl_ring_line(s.graph, 0, 0), "Ring 00 : 8 -> 0 -> 1");
  // Block B's "NVLS Head  0:  0  8" is exactly our head 0.
  EXPECT_EQ(nccl_nvls_head_line(0, s.graph.nvls_heads[0]), "NVLS Head  0:  0  8");
  // Channel 0's tree 0: rank 0 is the root, with its chain child 1 and server 1's head 8 below.
  EXPECT_EQ(nccl_tree_line(s.graph, 0, 0), "Tree 0 : -1 -> 0 -> 1/8/-1");
  // Rank 0's Trees line opens with channel 0 as derived in TwoServerTreesAsNcclBuildsThem.
  EXPECT_EQ(nccl_trees_line(s.graph, 0).rfind("Trees [0] 1/8/-1->0->-1 [1] ", 0), 0u);
}

TEST(NcclGraphText, OneRankPrintsOnlyItsOwnLines) {
  DgxH100s s(2);
  const std::string six = nccl_graph_text(s.graph, "dgx-h100", 6);
  int ring = 0, tree = 0;
  std::string kinds;  // the order the kinds of lines come in, one letter per run
  for (const std::string& l : lines_of(six)) {
    const char k = std::regex_match(l, kTree) ? 'T' : std::regex_match(l, kRing) ? 'R' : std::regex_match(l, kNvlsHead) ? 'N'
                   : std::regex_match(l, kTrees) ? 'S' : '-';
    if (k != '-' && (kinds.empty() || kinds.back() != k)) kinds += k;
    if (std::regex_match(l, kTree)) {
      ++tree;
      EXPECT_NE(l.find(" -> 6 -> "), std::string::npos) << l;
    }
    // NCCL prints the channel orders on rank 0 only (block A: only [0] logs them).
    EXPECT_FALSE(std::regex_match(l, kChannel)) << l;
    if (std::regex_match(l, kRing)) {
      ++ring;
      EXPECT_NE(l.find(" -> 6 -> "), std::string::npos) << l;
    }
    if (std::regex_match(l, kTrees)) {
      EXPECT_NE(l.find("->6->"), std::string::npos) << l;
    }
  }
  EXPECT_EQ(ring, 16);  // one per channel
  EXPECT_EQ(tree, 16);
  // A real rank's order (excerpts: block A's rank 1 logs Tree, Ring, then Trees; block B's rank 6
  // NVLS Head, then Trees).
  EXPECT_EQ(kinds, "TRNS");
  EXPECT_THROW(nccl_graph_text(s.graph, "dgx-h100", 16), InputError);
}

TEST(NcclGraphText, JsonHoldsRingsAndTreesPerChannel) {
  DgxH100s s(2);
  nlohmann::json j = nccl_graph_json(s.graph, "dgx-h100");
  EXPECT_EQ(j["channels"], 16);
  ASSERT_EQ(j["rings"].size(), 16u);
  EXPECT_EQ(j["rings"][0][8], 15);  // as the Channel 00 line above: the 9th rank is 15
  EXPECT_EQ(j["trees"][0][0]["down"], (nlohmann::json{1, 8}));
  nlohmann::json one = nccl_graph_json(s.graph, "dgx-h100", 0);
  EXPECT_EQ(one["ring"][0]["prev"], 8);
  EXPECT_EQ(one["ring"][0]["next"], 1);
}
