// The GPUDirect RDMA flush is only for receives that land in GPU memory (issue 19): NCCL asks
// ncclTopoNeedFlush only when ncclTopoCheckGdr gave the receive GDR (NVIDIA/nccl src/transport/net.cc
// recvSetup), and that check says no under NCCL_NET=Socket (net_socket.cc reports host pointers
// only) and for a GPU whose path to its NIC is beyond NCCL_NET_GDR_LEVEL (src/graph/paths.cc). A
// step staged through host memory therefore pays its transport term once, even on an A100 with
// Simple. Every expected number is that term (EFA's 20 + 3 us from aws-ofi-nccl's tuner,
// link_catalog.cpp) times the steps, by hand.
#include <gtest/gtest.h>

#include <string>

#include "collective/algorithm.hpp"
#include "config/cluster_yaml.hpp"
#include "engine/executor.hpp"
#include "model/analytical/analytical_model.hpp"
#include "model/flow/flow_model.hpp"
#include "routing/gpu_nic_path.hpp"
#include "topology/net_transport.hpp"
#include "topology/nic_transport.hpp"
#include "two_rank_ring.hpp"

using namespace gf;

namespace {

// Two dgx-a100 servers (ampere: NCCL flushes GDR receives), one GPU each, on one Quantum-2 switch;
// the NIC technology `x` is EFA or InfiniBand, both GPU-direct, 400G, 60 ns wire.
ClusterSpec two_a100(const std::string& family, const NetTransportSettings& net) {
  ClusterSpec spec = parse_cluster_yaml(
      "name: t\nlink_technologies:\n  - {name: x, family: " + family +
          ", bandwidth: 400Gbps, latency: 60ns, rdma: true}\nserver: dgx-a100\nservers: 2\nfabric:\n"
          "  kind: single_switch\n  link: x\n  switch_model: quantum2-qm9700\n",
      "test.yaml");
  spec.server.transport.net = net;
  return spec;
}

// EFA over InfiniBand under the same settings: the same servers, switch, wire and host detours,
// so only the transport term differs (IB verbs carry 0), paid by the 2-rank ring's 2 steps.
template <class Model>
double efa_minus_ib(const NetTransportSettings& net) {
  return gftest::two_rank_ring_8b_us<Model>(two_a100("efa", net)) -
         gftest::two_rank_ring_8b_us<Model>(two_a100("infiniband", net));
}

int gpu0_nic_path(const NetTransportSettings& net) {
  Cluster c = build_cluster(two_a100("efa", net));
  Router router(c);
  return router.gpu_nic_path(0);
}

}  // namespace

TEST(Lat6GdrStaging, GpuDirectReceivesAreFlushed) {
  // The baseline the other cases move from: GDR, Simple, A100: 2 steps x 2 x 23 us = 92 us.
  EXPECT_NEAR(efa_minus_ib<AnalyticalModel>({}), 92.0, 1e-3);
  EXPECT_NEAR(efa_minus_ib<FlowModel>({}), 92.0, 1e-3);
}

TEST(Lat6GdrStaging, SocketTransportIsNeverFlushed) {
  // NCCL_NET=Socket: NCCL's socket transport replaces the NIC's own (aws-ofi-nccl or IB verbs), so
  // EFA and InfiniBand NICs cost the same, and every byte lands in host memory: each of the 2 steps
  // pays the socket's term once, not twice, over the same staging under NCCL_NET_GDR_LEVEL=LOC on
  // IB (term 0). The socket transport's TCP fraction of the link (0.30) moves 8 B by under 1 ns.
  NetTransportSettings net;
  net.socket = true;
  EXPECT_NEAR(efa_minus_ib<AnalyticalModel>(net), 0.0, 1e-2);
  EXPECT_NEAR(efa_minus_ib<FlowModel>(net), 0.0, 1e-2);
  NetTransportSettings loc;
  loc.gdr_level = kNcclPathLoc;
  const double once = 2 * transport_term(NicTransport::Socket).latency.to_us();
  EXPECT_NEAR(gftest::two_rank_ring_8b_us<AnalyticalModel>(two_a100("efa", net)) -
                  gftest::two_rank_ring_8b_us<AnalyticalModel>(two_a100("infiniband", loc)),
              once, 1e-2);
}

TEST(Lat6GdrStaging, GdrLevelDecidesTheFlush) {
  // GPU 0 of dgx-a100 reaches its NIC through PCIe switches only (PIX or PXB, below PHB).
  const int path = gpu0_nic_path({});
  ASSERT_GE(path, kNcclPathPix);
  ASSERT_LE(path, kNcclPathPxb);
  // NCCL_NET_GDR_LEVEL=LOC: beyond the level, staged through the CPU (paths.cc addInterStep), no
  // GDR receive, no flush: 46 us.
  NetTransportSettings loc;
  loc.gdr_level = kNcclPathLoc;
  EXPECT_NEAR(efa_minus_ib<AnalyticalModel>(loc), 46.0, 1e-3);
  // A level at exactly the path's type keeps GPUDirect RDMA ("path type <= level"): flushed, 92 us.
  NetTransportSettings at;
  at.gdr_level = path;
  EXPECT_NEAR(efa_minus_ib<AnalyticalModel>(at), 92.0, 1e-3);
}
