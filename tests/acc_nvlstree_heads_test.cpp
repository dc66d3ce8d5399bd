// NVLS tree across servers (issue 19): a server has min(ppn, 32) heads (NCCL_MAX_NVLS_ARITY), the in-server
// reduce and multicast pay the pipeline fill of NCCL's own chunk count, and so more servers never
// raise the rate: two NVL72 racks are not faster than one, and DGX H100 is monotonic in nodes.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>

#include "algorithm_check.hpp"
#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "engine/executor.hpp"
#include "flow_allreduce.hpp"
#include "model/flow/flow_model.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {

// Seconds for one all-reduce of `bytes` with `algo` (16 channels, Simple) on the flow model.
double allreduce_seconds(const char* preset, int nodes, int ppn, const char* algo, Bytes bytes) {
  const auto n = std::string(preset) == "dgx-h100" ? std::optional<int64_t>(nodes) : std::nullopt;
  return gftest::flow_allreduce_seconds(build_cluster(resolve_cluster(preset, n)), nodes, ppn, algo, bytes);
}

}  // namespace

TEST(AccNvlsTreeHeads, ThirtyTwoHeadsPerNvl72RackCrossTheNetwork) {
  // 2 GB200 NVL72 racks (72 GPUs each): NCCL's heads are one GPU:NIC pair per NVLS search channel,
  // at most NCCL_MAX_NVLS_ARITY = 32 (v2.27.3 search.cc ncclTopoCompute), so 32 GPUs of a rack
  // send across racks, spread one per 72/32 = 2.25 positions (0, 2, 4, 6, 9, ...), and each sends
  // its slice S/32 once (on 2 servers each of the two trees has one edge per head: half the slice
  // up one tree, half down the other).
  auto env = algocheck::setup("gb200-nvl72", 36, 4);
  ASSERT_EQ(env->comm.nnodes, 2);
  ASSERT_EQ(env->comm.ppn, 72);
  const Algorithm& a = algocheck::algo("nvlstree");
  const int64_t S = int64_t{1} << 20;
  Schedule s = a.build(env->comm, call(CollectiveKind::AllReduce, S), channels(1));
  std::set<int> senders;
  std::map<int, int64_t> sent;
  for (const Transfer& t : s.transfers())
    if (algocheck::crosses_servers(t, env->comm)) {
      senders.insert(env->comm.local_of[static_cast<size_t>(t.src)]);
      sent[t.src] += t.bytes.count();
    }
  std::set<int> expected;
  for (int j = 0; j < 32; ++j) expected.insert(j * 72 / 32);
  EXPECT_EQ(senders, expected);
  EXPECT_EQ(sent.size(), 64u);
  for (const auto& [rank, bytes] : sent) EXPECT_EQ(bytes, S / 32) << "rank " << rank;
  // A DGX H100 (8 GPUs, 8 NICs) keeps every GPU a head.
  auto h100 = algocheck::setup("dgx-h100", 2, 8);
  Schedule t = a.build(h100->comm, call(CollectiveKind::AllReduce, S), channels(1));
  std::set<int> h100_senders;
  for (const Transfer& x : t.transfers())
    if (algocheck::crosses_servers(x, h100->comm)) h100_senders.insert(h100->comm.local_of[static_cast<size_t>(x.src)]);
  EXPECT_EQ(h100_senders.size(), 8u);
}

TEST(AccNvlsTreeHeads, TwoNvl72RacksAreNotFasterThanOne) {
  // One rack (18 trays, 72 GPUs) runs nvls; two racks (36 trays) nvlstree. Two racks, 2 GiB, on
  // the in-rack NVLink bound: a head's NVLink carries S + S/32 each way; a GPU's NVLink is 18 x
  // 50 GB/s = 900 GB/s x 40.1/50 (NCCL's sm100 figure, ModelParams) x min(0.74, 0.633 x (1 +
  // 1/32)) (NCCL's Blackwell nvlsEfficiency, held to the per-GPU NVLS rate, nvls_switch_rate.hpp)
  // x the fill K / (K + 3), K = 2 GiB / 16 channels / 32 heads / 2 trees / 128 KiB = 16 chunks
  // through 1 + 2 + 1 stages: so t >= 2.147e9 / (721.8e9 x 0.633 x 16/19) = 5.581 ms, plus NCCL's
  // latencies (25 us NVLink once + 2 network steps of 20.9 us).
  const double one = allreduce_seconds("gb200-nvl72-cluster", 18, 4, "nvls", Bytes::gib(2));
  const double two = allreduce_seconds("gb200-nvl72-cluster", 36, 4, "nvlstree", Bytes::gib(2));
  EXPECT_GT(two, one);
  const double bound = 2147483648.0 * (1 + 1.0 / 32) / (900e9 * 40.1 / 50 * 0.633 * (1 + 1.0 / 32) * 16 / 19);
  EXPECT_GE(two, bound);
  EXPECT_LE(two, bound + 100e-6);
}

TEST(AccNvlsTreeHeads, DgxH100RateFallsWithNodesAndMeetsTheNicBound) {
  // 4 DGX H100, 1 GiB: each of the 8 heads owns X = S/8. In the double binary tree of 4 servers
  // (trees.cpp: tree 0 is 0 <- 2 <- {1, 3}, tree 1 its mirror 3 <- 1 <- {0, 2}), the head of
  // server 1 is the inner node of tree 1 (two children: X/2 in from each, X/2 out to each, X/2
  // each way with its parent) and a leaf of tree 0 (X/2 each way): 2X each way over its 400 Gb/s
  // NIC at 0.92 (net_efficiency): t >= 2 x 134.2 MB / 46 GB/s = 5.835 ms.
  const double bound = 2.0 * (1073741824.0 / 8) / (50e9 * 0.92);
  double last = 0;
  for (int nodes : {2, 4, 8, 16}) {
    const double t = allreduce_seconds("dgx-h100", nodes, 8, "nvlstree", Bytes::gib(1));
    EXPECT_GE(t, last * 0.999) << nodes << " nodes";  // algbw S/t never rises with the node count
    if (nodes == 4) {
      EXPECT_GE(t, bound);
      EXPECT_LE(t, bound * 1.06);
    }
    last = t;
  }
}
