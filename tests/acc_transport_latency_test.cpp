// Every network technology's own latency terms (issue 19): a network step pays NCCL's per-step NET
// figure, the NIC transport's term (nic_transport.cpp transport_term, or `transport_latency` in a
// cluster file) and its path's wire and switch time, so InfiniBand and RoCE no longer tie.
#include <gtest/gtest.h>

#include <string>

#include "collective/algorithm.hpp"
#include "config/cluster_yaml.hpp"
#include "config/presets.hpp"
#include "engine/executor.hpp"
#include "model/analytical/analytical_model.hpp"
#include "two_rank_ring.hpp"

using namespace gf;

namespace {

// Two DGX H100, one GPU each, on one switch of `switch_model` with NICs of `link` (an optional
// `extra` block defines the link technology).
std::string two_servers(const std::string& link, const std::string& switch_model, const std::string& extra = "") {
  return "name: t\n" + extra + "server: dgx-h100\nservers: 2\nfabric:\n  kind: single_switch\n  link: " + link +
         "\n  switch_model: " + switch_model + "\n";
}

double ring_8b_us(const std::string& yaml) {
  return gftest::two_rank_ring_8b_us<AnalyticalModel>(parse_cluster_yaml(yaml, "test.yaml"));
}

}  // namespace

TEST(AccTransportLatency, RoceSwitchesCostMoreThanInfiniBandsPerStep) {
  // A 2-rank ring: 2 steps, each crossing the one switch once. Same server, same NIC wire (60 ns),
  // no transport term for either verbs transport: the difference is the switch's port-to-port
  // latency, Tomahawk 5 class 700 ns against Quantum-2 130 ns (link_catalog.cpp), per step:
  // 2 x 570 ns = 1.14 us.
  const double ib = ring_8b_us(two_servers("ib-ndr", "quantum2-qm9700"));
  const double roce = ring_8b_us(two_servers("roce-400g", "tomahawk5-400g"));
  EXPECT_NEAR(roce - ib, 2 * 0.570, 1e-3);
  // And on 64 nodes at 8 KiB (the case) the two presets' server no longer tie.
  auto at_8k = [](const char* preset) {
    Cluster c = build_cluster(resolve_cluster(preset, std::string(preset) == "dgx-h100" ? std::optional<int64_t>(64) : std::nullopt));
    Router router(c);
    Communicator comm = make_communicator(c, router, 64, 8);
    CollectiveCall call;
    call.kind = CollectiveKind::AllReduce;
    call.bytes = Bytes(8192);
    Schedule s = find_algorithm("tree")->build(comm, call, {Protocol::LL, 16});
    AnalyticalModel model(c);
    return run_schedule(s, comm, router, model).duration.to_us();
  };
  EXPECT_GT(at_8k("meta-llama3-roce"), at_8k("dgx-h100"));
}

TEST(AccTransportLatency, EfaPaysItsPluginsTermAndAClusterFileCanSetIt) {
  // The same ring on a user-defined EFA technology: by default the family's 23 us (aws-ofi-nccl's
  // tuner: 20 us network + 3 us completion) a step; `transport_latency: 40us` makes it 40 us:
  // 2 steps x 17 us = 34 us more. Against ib-ndr on the same switch and wire, the default EFA
  // costs 2 x 23 = 46 us more.
  const std::string efa = "link_technologies:\n  - {name: efa-x, family: efa, bandwidth: 400Gbps, latency: 60ns}\n";
  const std::string efa40 =
      "link_technologies:\n  - {name: efa-x, family: efa, bandwidth: 400Gbps, latency: 60ns, transport_latency: 40us}\n";
  const double base = ring_8b_us(two_servers("efa-x", "quantum2-qm9700", efa));
  const double slow = ring_8b_us(two_servers("efa-x", "quantum2-qm9700", efa40));
  const double ib = ring_8b_us(two_servers("ib-ndr", "quantum2-qm9700"));
  EXPECT_NEAR(slow - base, 34.0, 1e-3);
  EXPECT_NEAR(base - ib, 46.0, 1e-3);
  // Written back out, the term survives a round trip.
  const ClusterSpec spec = parse_cluster_yaml(two_servers("efa-x", "quantum2-qm9700", efa40), "test.yaml");
  const ClusterSpec again = parse_cluster_yaml(cluster_to_yaml(spec), "again.yaml");
  EXPECT_EQ(again.catalog.tech(*again.catalog.find("efa-x")).transport_latency, Time::us(40));
}

TEST(AccTransportLatency, EveryNetworkTechnologyCitesItsTransportTerm) {
  const LinkCatalog c = LinkCatalog::builtin();
  for (const std::string& name : c.tech_names()) {
    const LinkTech& t = c.tech(*c.find(name));
    const bool network = t.family == LinkFamily::InfiniBand || t.family == LinkFamily::RoCE ||
                         t.family == LinkFamily::EthernetTcp || t.family == LinkFamily::Efa ||
                         t.family == LinkFamily::GaudiRoce;
    if (network) {
      EXPECT_FALSE(t.transport_source.empty()) << name;
    }
  }
  EXPECT_EQ(c.tech(*c.find("efa-100g")).transport_latency, Time::us(23));
  EXPECT_EQ(c.tech(*c.find("ib-ndr")).transport_latency, Time::zero());
}
