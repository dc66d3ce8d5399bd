// Every NIC transport's own per-step term (issue 19; topology/nic_transport.hpp): a network step
// pays NCCL's NET figure, the transport's term and its path's wire and switch time. Each expected
// number below is the table's term times the network steps, or the switches' latency difference
// times the steps, by hand.
#include <gtest/gtest.h>

#include <string>

#include "collective/algorithm.hpp"
#include "config/cluster_yaml.hpp"
#include "core/error.hpp"
#include "engine/executor.hpp"
#include "model/analytical/analytical_model.hpp"
#include "model/flow/flow_model.hpp"
#include "routing/router.hpp"
#include "topology/cluster.hpp"
#include "topology/nic_transport.hpp"
#include "two_rank_ring.hpp"

using namespace gf;

namespace {

// Two DGX H100, one GPU each, on one Quantum-2 switch, NICs of a file-defined technology `x`.
std::string two_servers(const std::string& tech_fields) {
  return "name: t\nlink_technologies:\n  - {name: x, bandwidth: 400Gbps, latency: 60ns, " + tech_fields +
         "}\nserver: dgx-h100\nservers: 2\nfabric:\n  kind: single_switch\n  link: x\n"
         "  switch_model: quantum2-qm9700\n";
}

// A ring all-reduce of `bytes` over `n` servers, one GPU each, forced protocol, one channel.
template <class Model>
double ring_us(const std::string& yaml, int n, int64_t bytes, Protocol p) {
  Cluster c = build_cluster(parse_cluster_yaml(yaml, "test.yaml"));
  Router router(c);
  Communicator comm = make_communicator(c, router, n, 1);
  CollectiveCall call;
  call.kind = CollectiveKind::AllReduce;
  call.bytes = Bytes(bytes);
  Schedule s = find_algorithm("ring")->build(comm, call, {p, 1});
  Model model(c);
  return run_schedule(s, comm, router, model).duration.to_us();
}

double term_us(NicTransport t) { return transport_term(t).latency.to_us(); }

}  // namespace

TEST(Lat8TransportTerms, EveryTransportHasACitedOrFittedTerm) {
  for (const std::string& key : transport_keys()) {
    const std::optional<NicTransport> t = parse_transport(key);
    ASSERT_TRUE(t) << key;
    EXPECT_EQ(transport_key(*t), key);
    EXPECT_FALSE(transport_term(*t).source.empty()) << key;
  }
  // The fitted and assumed terms say so in their source.
  EXPECT_NE(transport_term(NicTransport::Socket).source.find("FITTED"), std::string::npos);
  EXPECT_NE(transport_term(NicTransport::GpuDirectTcpxo).source.find("FITTED"), std::string::npos);
  EXPECT_NE(transport_term(NicTransport::GpuDirectTcpx).source.find("ASSUMED"), std::string::npos);
  // The socket fit: (98.77 - 15.44) / 2 steps = 41.665 us; TCPXO: (123.2 - 28.04) / 2 = 47.58 us.
  EXPECT_NEAR(term_us(NicTransport::Socket), (98.77 - 15.44) / 2, 1e-9);
  EXPECT_NEAR(term_us(NicTransport::GpuDirectTcpxo), (123.2 - 28.04) / 2, 1e-9);
  // The built-in technologies carry their transport's term.
  const LinkCatalog c = LinkCatalog::builtin();
  auto term_of = [&](const char* name) { return c.tech(*c.find(name)).transport_latency; };
  EXPECT_EQ(term_of("eth-400g-tcp"), transport_latency(NicTransport::Socket));
  EXPECT_EQ(term_of("tcpxo-200g"), transport_latency(NicTransport::GpuDirectTcpxo));
  EXPECT_EQ(term_of("tcpx-200g"), transport_latency(NicTransport::GpuDirectTcpx));
  EXPECT_EQ(term_of("efa-100g"), Time::us(23));
  EXPECT_EQ(term_of("roce-400g"), Time::zero());
  EXPECT_EQ(c.tech(*c.find("tcpxo-200g")).transport_source, transport_term(NicTransport::GpuDirectTcpxo).source);
}

TEST(Lat8TransportTerms, TwoNodeRingPaysTheTermOncePerNetworkStep) {
  // A 2-rank ring all-reduce is 2 steps (reduce-scatter 1, all-gather 1), each crossing the
  // network once. Same NIC, switch and wire; only the transport differs, so the difference is
  // 2 x the term. At 8 B (LL) and at 1 MiB (Simple: each rank's half, 512 KiB, is one Simple step
  // of NCCL's 4 MiB / 8 slots, so still 2 steps, the second waiting for the first).
  const std::string none = two_servers("family: ethernet_tcp, rdma: true, transport_latency: 0us");
  for (const char* key : {"socket", "gpudirect-tcpx", "gpudirect-tcpxo"}) {
    const std::string with = two_servers(std::string("family: ethernet_tcp, rdma: true, transport: ") + key);
    const double term = term_us(*parse_transport(key));
    EXPECT_NEAR(ring_us<AnalyticalModel>(with, 2, 8, Protocol::LL) - ring_us<AnalyticalModel>(none, 2, 8, Protocol::LL),
                2 * term, 1e-3)
        << key;
    EXPECT_NEAR(ring_us<FlowModel>(with, 2, 8, Protocol::LL) - ring_us<FlowModel>(none, 2, 8, Protocol::LL), 2 * term,
                1e-3)
        << key;
    EXPECT_NEAR(ring_us<FlowModel>(with, 2, 1 << 20, Protocol::Simple) -
                    ring_us<FlowModel>(none, 2, 1 << 20, Protocol::Simple),
                2 * term, 1e-3)
        << key;
  }
  // Without a `transport:` key an ethernet_tcp technology is NCCL's socket transport.
  const std::string plain = two_servers("family: ethernet_tcp, rdma: true");
  EXPECT_NEAR(ring_us<AnalyticalModel>(plain, 2, 8, Protocol::LL) - ring_us<AnalyticalModel>(none, 2, 8, Protocol::LL),
              2 * term_us(NicTransport::Socket), 1e-3);
}

TEST(Lat8TransportTerms, NcclNetSocketRunsTheSocketTermOnInfiniBand) {
  // NCCL_NET=Socket on InfiniBand NICs (two dgx-a100, one GPU each): NCCL's socket transport, so
  // each of the 2 Simple steps pays the socket's term once (host memory: nothing to flush), where
  // IB verbs pay 0. NCCL_NET_GDR_LEVEL=LOC stages the same way over verbs, so the difference is the
  // term alone: 2 x 41.665 = 83.33 us (the socket's 0.30 TCP fraction moves 8 B by under 1 ns).
  ClusterSpec spec = parse_cluster_yaml(
      "name: t\nserver: dgx-a100\nservers: 2\nfabric:\n  kind: single_switch\n  link: ib-hdr\n"
      "  switch_model: quantum-qm8700\n",
      "test.yaml");
  ClusterSpec socket = spec, staged = spec;
  socket.server.transport.net.socket = true;
  staged.server.transport.net.gdr_level = kNcclPathLoc;
  EXPECT_NEAR(gftest::two_rank_ring_8b_us<AnalyticalModel>(socket) - gftest::two_rank_ring_8b_us<AnalyticalModel>(staged),
              2 * term_us(NicTransport::Socket), 1e-2);
  EXPECT_NEAR(gftest::two_rank_ring_8b_us<FlowModel>(socket) - gftest::two_rank_ring_8b_us<FlowModel>(staged),
              2 * term_us(NicTransport::Socket), 1e-2);
}

TEST(Lat8TransportTerms, InfiniBandAndRoceDifferAt8KiBOn64NodesByTheirSwitches) {
  // 64 servers, ring/LL at 8 KiB over GPU 0 of each, all 512 NICs on one switch (its radix raised
  // to hold them): every step crosses the switch once and waits for the one before it around the
  // ring, 2 x (64 - 1) = 126 steps. The NIC, wire (60 ns) and transport term (0 for both verbs
  // transports) are the same; the switch is Spectrum-4 (600 ns) against Quantum-2 (130 ns):
  // 126 x 0.47 us = 59.22 us.
  auto fabric = [](const char* link, const char* sw) {
    return std::string("name: t\nserver: dgx-h100\nservers: 64\nfabric:\n  kind: single_switch\n  link: ") + link +
           "\n  switch_model: " + sw + "\n  switch_radix: 512\n";
  };
  const double ib = ring_us<AnalyticalModel>(fabric("ib-ndr", "quantum2-qm9700"), 64, 8192, Protocol::LL);
  const double roce = ring_us<AnalyticalModel>(fabric("roce-400g", "spectrum4-sn5600-400g"), 64, 8192, Protocol::LL);
  EXPECT_NEAR(roce - ib, 126 * 0.470, 1e-3);
  const double ib_flow = ring_us<FlowModel>(fabric("ib-ndr", "quantum2-qm9700"), 64, 8192, Protocol::LL);
  const double roce_flow = ring_us<FlowModel>(fabric("roce-400g", "spectrum4-sn5600-400g"), 64, 8192, Protocol::LL);
  EXPECT_NEAR(roce_flow - ib_flow, 126 * 0.470, 1e-3);
}

TEST(Lat8TransportTerms, TransportKeyIsCheckedAgainstTheFamily) {
  auto parse = [](const std::string& fields) { return parse_cluster_yaml(two_servers(fields), "bad.yaml"); };
  try {
    parse("family: ethernet_tcp, transport: gpudirect-tcpxx");
    FAIL() << "an unknown transport must be refused";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("bad.yaml"), std::string::npos) << what;
    EXPECT_NE(what.find("transport"), std::string::npos) << what;
    EXPECT_NE(what.find("gpudirect-tcpx"), std::string::npos) << what;  // the suggestion
  }
  EXPECT_THROW(parse("family: infiniband, transport: socket"), InputError);
  // A named transport survives the round trip through cluster_to_yaml.
  const ClusterSpec spec = parse("family: ethernet_tcp, rdma: true, transport: gpudirect-tcpxo");
  const ClusterSpec again = parse_cluster_yaml(cluster_to_yaml(spec), "again.yaml");
  EXPECT_EQ(again.catalog.tech(*again.catalog.find("x")).transport_latency, transport_latency(NicTransport::GpuDirectTcpxo));
}
