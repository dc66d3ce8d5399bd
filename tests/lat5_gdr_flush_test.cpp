// The GPUDirect RDMA flush (issue 19): on a GPU older than Hopper NCCL's receiving proxy flushes
// every Simple step that landed in GPU memory before it tells the GPU, and waits for the flush
// (NVIDIA/nccl src/transport/net.cc recvProxyProgress; src/graph/paths.cc ncclTopoNeedFlush); NCCL's
// cost model charges the net plugin's latency a second time for it (src/graph/tuning.cc). So a
// network step pays its transport term twice there, once for LL, on Hopper, or when the bytes are
// staged through host memory. Every expected number below is that term times the steps, by hand.
#include <gtest/gtest.h>

#include <string>

#include "collective/algorithm.hpp"
#include "config/cluster_yaml.hpp"
#include "engine/executor.hpp"
#include "model/analytical/analytical_model.hpp"
#include "model/flow/flow_model.hpp"
#include "two_rank_ring.hpp"

using namespace gf;

namespace {

// Two servers of `server`, one GPU each, on one Quantum-2 switch; `link` is defined in the file
// with the given transport term and GPU-direct flag.
std::string two_servers(const std::string& server, const std::string& link, bool rdma) {
  return "name: t\nlink_technologies:\n  - {name: x, family: " + link +
         ", bandwidth: 400Gbps, latency: 60ns, rdma: " + (rdma ? "true" : "false") +
         "}\nserver: " + server + "\nservers: 2\nfabric:\n  kind: single_switch\n  link: x\n"
         "  switch_model: quantum2-qm9700\n";
}

template <class Model>
double ring_8b_us(const std::string& yaml, Protocol p) {
  return gftest::two_rank_ring_8b_us<Model>(parse_cluster_yaml(yaml, "test.yaml"), p);
}

// EFA over InfiniBand on the same servers, switch and wire: only the transport term differs (EFA's
// 20 + 3 us from aws-ofi-nccl's tuner, IB verbs 0), paid by each of the 2-rank ring's 2 steps.
template <class Model>
double efa_minus_ib(const std::string& server, Protocol p, bool rdma = true) {
  return ring_8b_us<Model>(two_servers(server, "efa", rdma), p) - ring_8b_us<Model>(two_servers(server, "infiniband", true), p);
}

}  // namespace

TEST(Lat5GdrFlush, AmpereSimpleStepsPayTheTransportTwice) {
  // A100 (dgx-a100, ampere), Simple, GPU-direct EFA: 2 steps x 2 x 23 us = 92 us more than IB.
  EXPECT_NEAR(efa_minus_ib<AnalyticalModel>("dgx-a100", Protocol::Simple), 92.0, 1e-3);
  EXPECT_NEAR(efa_minus_ib<FlowModel>("dgx-a100", Protocol::Simple), 92.0, 1e-3);
  // LL is never flushed (NCCL flushes Simple only): 2 x 23 = 46 us.
  EXPECT_NEAR(efa_minus_ib<AnalyticalModel>("dgx-a100", Protocol::LL), 46.0, 1e-3);
}

TEST(Lat5GdrFlush, HopperAndHostStagedStepsPayItOnce) {
  // H100 (dgx-h100, hopper) needs no flush: 2 x 23 = 46 us, Simple as LL.
  EXPECT_NEAR(efa_minus_ib<AnalyticalModel>("dgx-h100", Protocol::Simple), 46.0, 1e-3);
  // A100 with EFA staged through host memory (rdma: false, as g4dn): nothing lands in GPU memory,
  // nothing to flush: 46 us. The host-staged link's lower efficiency moves 8 B by well under 1 ns.
  EXPECT_NEAR(efa_minus_ib<AnalyticalModel>("dgx-a100", Protocol::Simple, false), 46.0, 1e-2);
}

TEST(Lat5GdrFlush, AClusterFilesTermIsFlushedToo) {
  // IB verbs carry no term of their own (0: NCCL's NET figure is its own IB transport), so NCCL's
  // 1-byte loopback read costs nothing extra there by default. A cluster file that gives its IB
  // technology `transport_latency: 5us` gets it flushed like any other: on A100 Simple, 2 steps x
  // 2 x 5 us = 20 us over the default; on H100, 2 x 5 = 10 us.
  auto with_term = [](const std::string& server) {
    return "name: t\nlink_technologies:\n  - {name: x, family: infiniband, bandwidth: 400Gbps, latency: 60ns, "
           "transport_latency: 5us}\nserver: " + server +
           "\nservers: 2\nfabric:\n  kind: single_switch\n  link: x\n  switch_model: quantum2-qm9700\n";
  };
  for (auto [server, expected] : {std::pair<const char*, double>{"dgx-a100", 20.0}, {"dgx-h100", 10.0}})
    EXPECT_NEAR(ring_8b_us<AnalyticalModel>(with_term(server), Protocol::Simple) -
                    ring_8b_us<AnalyticalModel>(two_servers(server, "infiniband", true), Protocol::Simple),
                expected, 1e-3)
        << server;
}
