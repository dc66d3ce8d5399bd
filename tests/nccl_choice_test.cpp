// The automatic choice is NCCL's: NCCL's own tuning model (NVIDIA/nccl 2.30.7 src/graph/tuning.cc,
// transcribed in ../shared/validation/README.md sections 1-4) ranks every enabled (algorithm,
// protocol) on the channel count NCCL runs it with, at every size, and the fastest by that model
// runs. Where a measured set records which algorithm NCCL took, the choice matches it.
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "nccl/nccl_estimate.hpp"
#include "nccl/tuner.hpp"

using namespace gf;

namespace {

struct Fixture {
  Cluster cluster;
  Router router;
  Communicator comm;
  Fixture(const std::string& cluster_arg, int nodes, int ppn)
      : cluster(build_cluster(resolve_cluster(cluster_arg))),
        router(cluster),
        comm(make_communicator(cluster, router, nodes, ppn)) {}
};

CollectiveCall all_reduce(int64_t bytes) {
  CollectiveCall c;
  c.kind = CollectiveKind::AllReduce;
  c.bytes = Bytes(bytes);
  return c;
}

std::string validation_cluster(const std::string& name) {
  return std::string(GPUFABRIC_SOURCE_DIR) + "/validation/clusters/" + name + ".yaml";
}

}  // namespace

// The README's main job: 2 DGX H100 (16 ranks, 8 NDR NICs each), 1 MiB. NCCL's model, with
// bwIntra = 450 GB/s (NVLink per GPU), bwInter = 8 x 50 = 400 GB/s, bus = min = 400, 16 channels,
// Hopper constants for 2 nodes (llMaxBw 45, perChMaxTreeBw 41.4, perChMaxTreeLL128Bw 36.7,
// perChMaxRingLL128Bw 36.7), treeCorrectionFactor at log2(2^20 / 64) = 14: LL .5, LL128 .6:
//  - tree/LL128: latency 14 + 2 x (7 x 1.25 + 1 x 8.5) = 48.5 us; bw min(0.92 x 400, 16 x 41.4) =
//    368, x 120/128 = 345 (below 16 x 36.7), x 0.85 x 0.5 x 0.6 = 87.98 GB/s: 11.92 us; 60.42 us.
//  - tree/LL: 25.2 us + 2^20 B at min(368 / 3.8, 45) x 0.85 x 0.5 x 0.5 = 9.56 GB/s: 134.9 us.
//  - ring/LL: 6.6 + 28 x max(0.6, 1.0) + 2 x 2.7 = 40 us + 2^20 B at 45 x 16/30 = 24 GB/s: 83.7 us.
//  - ring/LL128: 14 + 28 x 1.9 + 2 x 4 = 75.2 us + 2^20 B at 368 x 16/30: 80.5 us.
//  - nvlstree: 25 + 2 x 1 x 20.9 = 66.8 us + 2^20 B at min(450 x .85 x 15/16 x 2, 800, 923) x 16/30
//    = 382.5 GB/s: 69.5 us.
// So NCCL takes tree/LL128 here (the one-channel simulation that chose before took tree/LL).
TEST(NcclChoice, TwoDgxH100At1MiBIsTreeLL128AsNcclsModelSays) {
  Fixture s("dgx-h100-2node", 2, 8);
  TunerChoice t = choose(s.comm, s.router, all_reduce(1 << 20), "auto", "auto");
  EXPECT_EQ(t.algorithm, "tree");
  EXPECT_EQ(t.proto, Protocol::LL128);
  EXPECT_EQ(t.channels, 16);
  EXPECT_NEAR(t.predicted.to_us(), 60.42, 0.05);
}

// The choice is the minimum of NCCL's model over every option, at every size of the main sweep,
// and the figure it reports is that model's.
TEST(NcclChoice, ChoiceIsTheMinimumOfNcclsModelAtEverySize) {
  for (int nodes : {1, 2}) {
    Fixture s("dgx-h100-2node", nodes, 8);
    for (int64_t bytes = 8; bytes <= (int64_t{8} << 30); bytes *= 4) {
      const CollectiveCall c = all_reduce(bytes);
      const NcclSettings settings = nccl_settings("auto", "auto");
      TunerChoice t = choose(s.comm, s.router, c, settings);
      for (const TunerOption& o : tuner_options(s.comm, c, settings))
        for (Protocol p : o.protocols) {
          std::optional<Time> e = nccl_estimate(s.comm, c, *find_algorithm(o.algorithm), p, o.channels);
          ASSERT_TRUE(e) << o.algorithm;
          EXPECT_LE(t.predicted, *e) << nodes << " nodes, " << bytes << " B: " << o.algorithm << "/" << to_string(p);
          if (o.algorithm == t.algorithm && p == t.proto) {
            EXPECT_EQ(t.predicted, *e);
          }
        }
    }
  }
}

// Measured set dgx-h100-1node-allreduce (NVIDIA/exemplar-performance): its header names the LL
// protocol for the ~13 us small-message floor and NVLS for the ~480 GB/s peak at >= 8 GiB.
TEST(NcclChoice, DgxH100OneNodeSetIsLLSmallAndNvlsLarge) {
  Fixture s(validation_cluster("dgx-h100-1node"), 1, 8);
  EXPECT_EQ(choose(s.comm, s.router, all_reduce(8), "auto", "auto").proto, Protocol::LL);
  EXPECT_EQ(choose(s.comm, s.router, all_reduce(int64_t{8} << 30), "auto", "auto").algorithm, "nvls");
}

// Measured set oci-a100-1node-allreduce (oracle-japan/ocitutorials): its header calls the
// 235 GB/s peak "ring over NVLink3" (A100 has no NVLS).
TEST(NcclChoice, OciA100OneNodeSetIsRingLarge) {
  Fixture s(validation_cluster("oci-a100-2node-roce"), 1, 8);
  TunerChoice t = choose(s.comm, s.router, all_reduce(int64_t{8} << 30), "auto", "auto");
  EXPECT_EQ(t.algorithm, "ring");
  EXPECT_EQ(t.proto, Protocol::Simple);
}

// Measured set aws-p5-2node-efa-allreduce (aws-samples/awsome-distributed-training): 487 GB/s at
// 16 GiB, above the 400 GB/s of NICs, which its header attributes to NCCL's 2-node tree algorithms
// (Tree / NVLSTree), not ring.
TEST(NcclChoice, AwsP5TwoNodeSetIsATreeAtSixteenGiB) {
  Fixture s(validation_cluster("aws-p5-2node-efa"), 2, 8);
  TunerChoice t = choose(s.comm, s.router, all_reduce(int64_t{16} << 30), "auto", "auto");
  EXPECT_TRUE(t.algorithm == "nvlstree" || t.algorithm == "tree") << t.algorithm;
}
