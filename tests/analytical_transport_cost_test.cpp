// What a transport adds to the analytical model beyond NCCL's tables: EFA's per-step latency, and
// the inter-socket figures taken as NCCL's effective bandwidths (not discounted again).
#include <gtest/gtest.h>

#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "model/analytical/analytical_model.hpp"
#include "model/flow/flow_model.hpp"
#include "engine/executor.hpp"
#include "nccl/nccl_estimate.hpp"

using namespace gf;

namespace {

double ring_seconds(const char* preset, int nodes, int ppn, Bytes bytes, bool flow = false) {
  Cluster c = build_cluster(resolve_cluster(preset));
  Router router(c);
  Communicator comm = make_communicator(c, router, nodes, ppn);
  CollectiveCall call;
  call.kind = CollectiveKind::AllReduce;
  call.bytes = bytes;
  Schedule s = find_algorithm("ring")->build(comm, call, {Protocol::Simple, 1});
  AnalyticalModel analytical(c);
  FlowModel fluid(c);
  Model& model = flow ? static_cast<Model&>(fluid) : static_cast<Model&>(analytical);
  return run_schedule(s, comm, router, model).duration.to_s();
}

}  // namespace

TEST(TransportCost, EfaStepPaysThePluginLatencyOnTopOfNcclsNetFigure) {
  // 2 p5 servers, 1 GPU each, 8 B: the ring is 2(n-1) = 2 steps across EFA. Each step pays NCCL's
  // Ring/Simple NET latency, 14 us, plus EFA's 20 + 3 us (aws-ofi-nccl's tuner figures, the efa
  // family's transport term in link_catalog.cpp), plus its path's wire and switch time: GPU ->
  // PCIe switch -> NIC at 150 ns a PCIe Gen5 hop, NIC -> leaf 60 ns + the efa-fabric placeholder
  // switch's 1 us, leaf -> NIC 60 ns, then 2 x 150 ns down to the GPU: 1.72 us. The call pays
  // Ring/Simple's base 8.4 us once. The 4 B per step at 400 Gb/s x 0.92 is 0.09 ns, below the
  // tolerance.
  const double t = ring_seconds("aws-p5-cluster", 2, 1, Bytes(8));
  const double expected = 8.4e-6 + 2 * (14e-6 + 23e-6 + 1.72e-6);
  EXPECT_NEAR(t, expected, 1e-8);
  const LinkCatalog c = LinkCatalog::builtin();
  EXPECT_EQ(ModelParams{}.network_step_latency(c.tech(*c.find("efa-100g"))), Time::us(23));
}

TEST(TransportCost, InfiniBandStepPaysOnlyNcclsNetFigureAndItsPath) {
  // The same ring over NDR InfiniBand (dgx-h100-2node): 8.4 + 2 x (14 us + the path: 2 x 150 ns
  // of PCIe each side, NIC -> rail leaf 60 ns + Quantum-2's 130 ns, leaf -> NIC 60 ns = 0.85 us);
  // the IB verbs transport adds nothing.
  const double t = ring_seconds("dgx-h100-2node", 2, 1, Bytes(8));
  EXPECT_NEAR(t, 8.4e-6 + 2 * (14e-6 + 0.85e-6), 1e-8);
  const LinkCatalog c = LinkCatalog::builtin();
  EXPECT_EQ(ModelParams{}.network_step_latency(c.tech(*c.find("ib-ndr"))), Time::zero());
}

TEST(TransportCost, InterSocketLinkCarriesNcclsEffectiveFigure) {
  // 8 RTX 4090 on CPU root ports, GPUs 0-3 on socket 0 and 4-7 on socket 1; ring 0..7 on one
  // channel crosses the sockets on edges 3->4 and 7->0, one per direction. Per step each edge
  // moves S/8; the crossing edges are limited by the AMD socket link at NCCL's AMD_BW = 16 GB/s
  // taken as is (inter-socket efficiency 1.0), the others by PCIe Gen4 x16 at 31.5 x 24/31.5 =
  // 24 GB/s. 2(n-1) = 14 steps, each paying NCCL's Ring/Simple PCI latency 5.7 us; base 8.4 us.
  // Steps pipeline (NCCL_STEPS slots): a step's data reaches a crossing edge over the PCIe edges
  // (5.7 us + S/8 / 24 GB/s = 355 us) before that edge has sent the step before (S/8 / 16 GB/s =
  // 524 us), so its 14 wire times run back to back and only the first step's latency shows. On
  // the flow model, which shares an edge among the steps in flight as the wire does (the
  // analytical model charges a step the load it meets at its start for its whole life, so piled-up
  // steps cost it more: docs/models.md, limits).
  const double chunk = 64.0 * 1024 * 1024 / 8;
  const double t = ring_seconds("pcie-8gpu-rootport", 1, 8, Bytes::mib(64), true);
  const double expected = 8.4e-6 + 5.7e-6 + 14 * chunk / 16e9;
  EXPECT_NEAR(t, expected, expected * 1e-6);
}

TEST(TransportCost, NcclEstimateChargesEfaOnEveryInterNodeStep) {
  // NCCL's closed form (nccl/nccl_estimate), ring all-reduce, Simple, 2 p5 servers x 2 GPUs,
  // 8 B: nsteps = 2(n-1) = 6, of which 2(nodes-1) = 2 cross servers. Intra steps cost
  // max(NVLink/Simple 3.4, NCCL_NET_OVERHEAD 1 x 3 for Simple) = 3.4 us; inter steps NET/Simple
  // 14 us + EFA's 23 us = 37 us; x 1.4 (multi-node Ring/Simple "plateau effect"); + base 8.4 us:
  // (4 x 3.4 + 2 x 37) x 1.4 + 8.4 = 131.04 us. 8 B at hundreds of GB/s adds under 1 ns.
  Cluster c = build_cluster(resolve_cluster("aws-p5-cluster"));
  Router router(c);
  Communicator comm = make_communicator(c, router, 2, 2);
  CollectiveCall call;
  call.kind = CollectiveKind::AllReduce;
  call.bytes = Bytes(8);
  std::optional<Time> t = nccl_estimate(comm, call, *find_algorithm("ring"), Protocol::Simple, 2);
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(t->to_us(), 131.04, 1e-3);
}
