// A loss degrade under the packet model (`perf --model packet --degrade X=loss:P`): the link keeps
// its bandwidth (FaultRequest::loss_as_drops, AppliedFault::loss) and the sweep's packet model
// drops packets on it at P, drawn from the run's seed (sweep_model, PacketModel::set_link_loss).
#include <gtest/gtest.h>

#include <cmath>

#include "collective/communicator.hpp"
#include "model/transfer_cost.hpp"
#include "packet_test_net.hpp"
#include "routing/router.hpp"
#include "test_clusters.hpp"
#include "topology/faults.hpp"
#include "workload/sweep.hpp"

namespace {

gf::FaultRequest as_drops(gf::FaultRequest f) {
  f.loss_as_drops = true;
  return f;
}

TEST(FailLossDrops, APacketRunKeepsTheBandwidthAndHandsOnTheRate) {
  // As drops, server1/nic0's cable keeps its 400 Gb/s both ways and the fault carries the rate;
  // as a penalty (the flow model's), it runs at (1 - 1e-3) / (1 + 122e-3) of it
  // (FailDegrade.LossTakesItsShareOfTheBandwidth) and carries none.
  gf::Cluster c = gf::build_cluster(gftest::spec_of(gftest::small_server(), 2));
  const gf::LinkId nic = gf::component_links(c, "server1/nic0", "--degrade").links.at(0);
  const gf::Bandwidth bw = c.link(nic).bandwidth;
  const auto applied = gf::apply_faults(c, {as_drops(gf::parse_fault("--degrade", "server1/nic0=loss:1e-3"))});
  ASSERT_EQ(applied.size(), 1u);
  EXPECT_EQ(c.link(nic).bandwidth, bw);
  EXPECT_EQ(c.link(c.link(nic).reverse).bandwidth, bw);
  EXPECT_DOUBLE_EQ(applied[0].loss, 1e-3);
  EXPECT_EQ(applied[0].links, std::vector<gf::LinkId>{nic});
  EXPECT_NE(applied[0].effect.find("packet drops"), std::string::npos) << applied[0].effect;

  gf::Cluster d = gf::build_cluster(gftest::spec_of(gftest::small_server(), 2));
  const auto penalty = gf::apply_faults(d, {gf::parse_fault("--degrade", "server1/nic0=loss:1e-3")});
  EXPECT_EQ(penalty[0].loss, 0.0);
  EXPECT_NEAR(d.link(nic).bandwidth.bytes_per_second() / bw.bytes_per_second(), 0.999 / 1.122, 1e-12);
}

struct OneLink {
  gf::Time t;
  int64_t drops = 0;
};

// K full packets over one 100 Gb/s, 1 us InfiniBand link, through the sweep's model maker.
OneLink one_link(int packets, double p, uint64_t seed, double* ser_ps = nullptr) {
  gf::testnet::Net n(2, 0, gf::LinkFamily::InfiniBand);
  const gf::LinkId l = n.link(n.gpu[0], n.gpu[1]);
  n.c.finalize();
  gf::SweepOptions o;
  o.model = "packet";
  o.seed = seed;
  if (p > 0) o.link_losses = {{l, p}};
  auto m = gf::sweep_model(o, n.c, gf::PacketParams{});
  // The packet's wire time at the capacity the model gives the link (TransferCost: the link's
  // bandwidth at the network efficiency the sweep's models use).
  if (ser_ps != nullptr) *ser_ps = 4160 * 1e12 / gf::TransferCost(n.c, {}).capacity(l);
  m->start(0, gf::testnet::transfer({l}, gf::Bytes(int64_t{4096} * packets)), gf::Time::zero());
  const gf::Time t = gf::testnet::drain(*m, 1)[0];
  return {t, static_cast<gf::PacketModel&>(*m).totals().drops};
}

TEST(FailLossDrops, OneLossyLinkKeepsGoBackNsGoodput) {
  // fail9's derivation (FailPacketLoss.GoBackNKeepsTheGoodputItsRoundTripAllows), at the wire
  // time ser the sweep's model gives the link: packet s lost, s + 1 arrives at a + 2 ser + prop
  // and its NAK is back at a + 2 ser + 2 prop; the port finishes the packet it is sending then and
  // goes back, so a go-back costs N = floor(2 + 2 prop / ser) + 1 packet times. K packets need
  // G = K p / (1 - p) go-backs (Poisson, sd sqrt(G)), so t = (K + N G) ser + prop, the goodput
  // (1 - p) / (1 + (N - 1) p); tolerance 4 sd, N x 4 sqrt(G) ser.
  const int K = 20000;
  const double p = 0.005, prop = 1e6;
  double ser = 0;
  const OneLink clean = one_link(K, 0, 7, &ser);
  EXPECT_NEAR(static_cast<double>(clean.t.picoseconds()), K * ser + prop, K);  // < 1 ps per packet of rounding
  const double N = std::floor(2 + 2 * prop / ser) + 1;
  const double G = K * p / (1 - p);
  const OneLink r = one_link(K, p, 7);
  EXPECT_NEAR(static_cast<double>(r.t.picoseconds()), (K + N * G) * ser + prop, N * 4 * std::sqrt(G) * ser)
      << "N " << N << ", goodput " << K * ser / static_cast<double>(r.t.picoseconds()) << " against "
      << (1 - p) / (1 + (N - 1) * p);
  EXPECT_GT(r.drops, 0);
}

TEST(FailLossDrops, TheRunsSeedDrawsTheDrops) {
  // The same --seed repeats the run; the drops come from it, so other seeds draw others.
  const OneLink a = one_link(5000, 0.01, 11), b = one_link(5000, 0.01, 11);
  EXPECT_EQ(a.t, b.t);
  EXPECT_EQ(a.drops, b.drops);
  bool differs = false;
  for (uint64_t s : {12u, 13u, 14u}) {
    const OneLink c = one_link(5000, 0.01, s);
    differs = differs || c.t != a.t || c.drops != a.drops;
  }
  EXPECT_TRUE(differs);
}

// Two one-GPU servers on one leaf, sendrecv through the sweep: rank 0 -> 1 crosses server1/nic0's
// downlink, 1 -> 0 its uplink.
gf::Time sendrecv(const std::string& model, double loss, uint64_t seed) {
  gf::Cluster c = gf::build_cluster(gftest::spec_of(gftest::small_server(), 2));
  std::vector<gf::FaultRequest> f;
  if (loss > 0) {
    gf::FaultRequest r = gf::parse_fault("--degrade", "server1/nic0=loss:" + std::to_string(loss));
    r.loss_as_drops = model == "packet";
    f.push_back(r);
  }
  const auto applied = gf::apply_faults(c, f);
  gf::Router router(c);
  auto comm = gf::make_communicator(c, router, 2, 1);
  gf::SweepOptions o;
  o.call.kind = gf::CollectiveKind::SendRecv;
  o.min_bytes = o.max_bytes = gf::Bytes::mib(4);
  o.model = model;
  o.seed = seed;
  for (const auto& a : applied)
    for (gf::LinkId l : a.loss > 0 ? a.links : std::vector<gf::LinkId>{}) {
      o.link_losses.emplace_back(l, a.loss);
      o.link_losses.emplace_back(c.link(l).reverse, a.loss);
    }
  return gf::run_sweep(comm, router, o).at(0).time;
}

TEST(FailLossDrops, ASweepWithDropsIsSlowerAndRepeatsItsSeed) {
  // 4 MiB is about 1,000 packets each way at 1 %: some ten drops per direction, each costing a
  // go-back, so the call is slower than the clean one (the chance of no drop at all in either
  // direction is 0.99^2000, about 2e-9); seed 3 twice is one run.
  const gf::Time clean = sendrecv("packet", 0, 3);
  const gf::Time lossy = sendrecv("packet", 0.01, 3);
  EXPECT_GT(lossy, clean);
  EXPECT_EQ(sendrecv("packet", 0.01, 3), lossy);
}

}  // namespace
